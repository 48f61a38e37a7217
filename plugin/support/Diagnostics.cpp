//===- Diagnostics.cpp - Clang-style errors
//---------------------------------===//
#include "support/Diagnostics.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace ad {

void DiagnosticReporter::setOriginal(const Function *Clone,
                                     const Function *Orig) {
  Originals.push_back({Clone, Orig, /*IsDerivative=*/false});
}

void DiagnosticReporter::setDerivativeOf(const Function *Derivative,
                                         const Function *Primal) {
  Originals.push_back({Derivative, Primal, /*IsDerivative=*/true});
}

const Function &DiagnosticReporter::userFunction(const Function &F,
                                                 bool *Nested) const {
  // A derivative of a derivative is a clone of a clone: follow the chain.
  // The first step from a derivative under construction is no nesting.
  const Function *Cur = &F;
  bool First = true;
  for (bool Found = true; Found; First = false) {
    Found = false;
    for (const Origin &O : Originals)
      if (O.Clone == Cur && O.Orig != Cur) {
        if (Nested && O.IsDerivative && !First)
          *Nested = true;
        Cur = O.Orig;
        Found = true;
        break;
      }
  }
  return *Cur;
}

/// The name users wrote: C++ names demangled.
static std::string sourceName(const Function &F) {
  return demangle(F.getName());
}

std::string DiagnosticReporter::functionName(const Function &F) const {
  bool Nested = false;
  const Function &User = userFunction(F, &Nested);
  // clang names an OpenMP region's body after its function
  // (f.omp_outlined, f.omp_outlined_debug__; the plugin's copies add more).
  StringRef Name = User.getName();
  size_t Region = Name.find(".omp_outlined");
  std::string Quoted =
      Region == StringRef::npos
          ? "'" + sourceName(User) + "'"
          : "a parallel region of '" + demangle(Name.take_front(Region)) + "'";
  return (Nested ? "the derivative of " : "") + Quoted;
}

void DiagnosticReporter::emit(const Function &F, const DebugLoc &Loc,
                              const Twine &Msg, const Twine &Hint) {
  std::string Text = (Msg + "; hint: " + Hint).str();
  // A construct reached through several derivatives (a gradient and an
  // augmented forward sweep of the same function) is reported once.
  if (!Reported.insert({Loc.get(), Text}).second)
    return;
  ++Errors;
  // An instruction without a line (one the optimizer merged or made: no
  // location, or line 0) is reported at its function's line where the
  // module has debug info.
  DiagnosticLocation Where;
  if (Loc && Loc.getLine() != 0)
    Where = DiagnosticLocation(Loc);
  else if (const DISubprogram *SP = F.getSubprogram())
    Where = DiagnosticLocation(SP);
  // clang maps a function to its declaration without -g; a linker (LTO,
  // Rust) or flang prints <unknown>:0:0, and the message must say more.
  if (!Where.isValid())
    Text += " (compile with -g to see the source line)";
  // DiagnosticInfoUnsupported is the kind clang maps to a source location
  // even without -g (the function's declaration) and prints as an error.
  F.getContext().diagnose(DiagnosticInfoUnsupported(F, Text, Where, DS_Error));
}

void DiagnosticReporter::error(const Instruction *At, const Twine &Reason,
                               const Twine &Hint) {
  const Function &F = userFunction(*At->getFunction());
  emit(F, At->getDebugLoc(),
       "cannot differentiate " + functionName(*At->getFunction()) + ": " +
           Reason,
       Hint);
}

void DiagnosticReporter::invalidCall(const Instruction *Call,
                                     const Twine &Reason, const Twine &Hint) {
  const Function &F = *Call->getFunction();
  emit(F, Call->getDebugLoc(),
       "invalid differentiation call in '" + sourceName(F) + "': " + Reason,
       Hint);
}

void DiagnosticReporter::error(const Function &Fn, const Twine &Reason,
                               const Twine &Hint) {
  const Function &F = userFunction(Fn);
  emit(F, DebugLoc(),
       "cannot differentiate " + functionName(Fn) + ": " + Reason, Hint);
}

std::string DiagnosticReporter::describe(const Value &V) const {
  if (auto *A = dyn_cast<Argument>(&V))
    return ("parameter " + Twine(A->getArgNo() + 1) + " of " +
            functionName(*A->getParent()))
        .str();
  if (auto *GV = dyn_cast<GlobalValue>(&V))
    return "global '" + demangle(GV->getName()) + "'";
  if (V.hasName())
    return ("'" + V.getName() + "'").str();
  return "an unnamed value";
}

} // namespace ad
