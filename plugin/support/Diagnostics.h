//===- Diagnostics.h - Clang-style errors for calls we cannot differentiate
//-===//
//
// Every failure is reported through LLVM's diagnostic machinery, so clang
// prints it as "file:line:col: error: ..." (or at the function's declaration
// without -g) and stops with a non-zero exit; opt prints it and exits 1.
// Builders report and return nullptr; nothing here aborts.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_DIAGNOSTICS_H
#define AD_DRIVER_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/DiagnosticInfo.h"
#include <set>
#include <string>

namespace llvm {
class Instruction;
class Function;
class Value;
} // namespace llvm

namespace ad {

class DiagnosticReporter {
public:
  /// Reports an error at \p At (an instruction of a primal or of one of our
  /// clones of it; the location is mapped back to the user's function).
  void error(const llvm::Instruction *At, const llvm::Twine &Reason,
             const llvm::Twine &Hint);
  /// Reports a malformed entry-point call (wrong arguments or markers).
  void invalidCall(const llvm::Instruction *Call, const llvm::Twine &Reason,
                   const llvm::Twine &Hint);
  /// Reports an error attached to a whole function.
  void error(const llvm::Function &F, const llvm::Twine &Reason,
             const llvm::Twine &Hint);

  /// Our clones carry a suffix; diagnostics name the user's function.
  void setOriginal(const llvm::Function *Clone, const llvm::Function *Orig);
  /// \p Derivative was synthesized from \p Primal. Differentiated again (a
  /// nested derivative), its code is reported as "the derivative of 'f'".
  void setDerivativeOf(const llvm::Function *Derivative,
                       const llvm::Function *Primal);

  unsigned errorCount() const { return Errors; }
  /// Whether \p F is, or was cloned from, a derivative this plugin made.
  bool isDerivativeCode(const llvm::Function &F) const {
    bool Nested = false;
    userFunction(F, &Nested);
    return Nested;
  }

  /// The user's function \p F (a clone or a derivative) was made from.
  const llvm::Function &sourceFunction(const llvm::Function &F) const {
    return userFunction(F);
  }
  /// How messages name \p F: 'f', or the derivative of 'f'.
  std::string describeFunction(const llvm::Function &F) const {
    return functionName(F);
  }

  /// How a message names \p V: 'name' when it has one (clang drops value
  /// names in release builds), else "parameter N of 'f'", "global 'g'", or
  /// "an unnamed value".
  std::string describe(const llvm::Value &V) const;

private:
  /// The user's function \p F was made from; \p Nested is set when the
  /// way there passes through a derivative.
  const llvm::Function &userFunction(const llvm::Function &F,
                                     bool *Nested = nullptr) const;
  /// How messages name \p F: 'f', or the derivative of 'f'.
  std::string functionName(const llvm::Function &F) const;
  void emit(const llvm::Function &F, const llvm::DebugLoc &Loc,
            const llvm::Twine &Msg, const llvm::Twine &Hint);
  unsigned Errors = 0;
  std::set<std::pair<const void *, std::string>> Reported;
  struct Origin {
    const llvm::Function *Clone, *Orig;
    bool IsDerivative;
  };
  llvm::SmallVector<Origin> Originals;
};

} // namespace ad

#endif
