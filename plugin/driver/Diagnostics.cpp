//===- Diagnostics.cpp - Clang-style errors ---------------------------------===//
#include "driver/Diagnostics.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace ad {

void DiagnosticReporter::setOriginal(const Function *Clone,
                                     const Function *Orig) {
  Originals.push_back({Clone, Orig});
}

const Function &DiagnosticReporter::userFunction(const Function &F) const {
  for (auto &[Clone, Orig] : Originals)
    if (Clone == &F)
      return *Orig;
  return F;
}

void DiagnosticReporter::emit(const Function &F, const DiagnosticLocation &Loc,
                              const Twine &Msg, const Twine &Hint) {
  ++Errors;
  std::string Text = (Msg + "; hint: " + Hint).str();
  F.getContext().diagnose(DiagnosticInfoGenericWithLoc(Text, F, Loc, DS_Error));
}

void DiagnosticReporter::error(const Instruction *At, const Twine &Reason,
                               const Twine &Hint) {
  const Function &F = userFunction(*At->getFunction());
  emit(F, DiagnosticLocation(At->getDebugLoc()),
       "cannot differentiate '" + F.getName() + "': " + Reason, Hint);
}

void DiagnosticReporter::invalidCall(const Instruction *Call,
                                     const Twine &Reason, const Twine &Hint) {
  const Function &F = *Call->getFunction();
  emit(F, DiagnosticLocation(Call->getDebugLoc()),
       "invalid differentiation call in '" + F.getName() + "': " + Reason,
       Hint);
}

void DiagnosticReporter::error(const Function &Fn, const Twine &Reason,
                               const Twine &Hint) {
  const Function &F = userFunction(Fn);
  emit(F, DiagnosticLocation(F.getSubprogram()),
       "cannot differentiate '" + F.getName() + "': " + Reason, Hint);
}

} // namespace ad
