//===- EntryPointCall.h - Reading a call to __ad_autodiff / __ad_fwddiff ----===//
//
// Decodes the calling convention of ../shared/API.md: which function is
// differentiated, and for each of its parameters the activity (from a marker
// or the defaults), the primal value (converted back from C's default
// argument promotions) and the shadow or tangent that follows it.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_ENTRYPOINTCALL_H
#define AD_DRIVER_ENTRYPOINTCALL_H

#include "core/DerivativeSignature.h"
#include "core/EntryPointNames.h"
#include "support/Diagnostics.h"
#include "llvm/IR/InstrTypes.h"
#include <optional>

namespace ad {

/// The name of a marker global (__ad_dup, ...) if \p V is a load of one.
std::optional<llvm::StringRef> markerName(const llvm::Value *V);

struct EntryPointCall {
  llvm::CallBase *Call = nullptr;
  EntryPointKind Kind = EntryPointKind::Reverse;
  llvm::Function *Fn = nullptr;
  llvm::SmallVector<Activity, 8> Activities;
  llvm::SmallVector<llvm::Value *, 8> Primals; ///< Converted to parameter types.
  /// Shadows (reverse) or tangents (forward) of non-const parameters.
  llvm::SmallVector<llvm::Value *, 8> Derivatives;
  llvm::Value *SRet = nullptr; ///< The call returns its struct through this.
  /// Bit k: parameter k was marked __ad_dupnoneed (the caller does not need
  /// what f leaves in its memory). Parameters past the 64th are not marked.
  uint64_t NoNeedArgs = 0;

  /// Parameters the plugin supplies memory for, whose shadow holds a result
  /// after the derivative runs: a struct passed by value as __ad_out (its
  /// adjoint), or f's own sret return buffer (forward mode: its tangent).
  struct ShadowResult {
    unsigned ParamNo;
    llvm::Type *Ty;
    llvm::Value *Shadow;
  };
  llvm::SmallVector<ShadowResult, 2> ShadowResults;

  /// \p Old (another entry-point call, lowered first) became \p New.
  void replaceValue(llvm::Value *Old, llvm::Value *New) {
    for (llvm::Value *&V : Primals)
      V = V == Old ? New : V;
    for (llvm::Value *&V : Derivatives)
      V = V == Old ? New : V;
    SRet = SRet == Old ? New : SRet;
  }

  /// Whether parameter \p ParamNo's adjoint is returned (reverse mode):
  /// an __ad_out scalar, or a struct passed by value.
  const ShadowResult *shadowResultFor(unsigned ParamNo) const {
    for (const ShadowResult &R : ShadowResults)
      if (R.ParamNo == ParamNo)
        return &R;
    return nullptr;
  }
};

/// Parses and validates one call; reports and returns std::nullopt when
/// malformed. Conversion instructions are inserted before the call.
std::optional<EntryPointCall> parseEntryPointCall(llvm::CallBase &Call,
                                                  EntryPointKind Kind,
                                                  DiagnosticReporter &Diag);

} // namespace ad

#endif
