//===- AnalysisPrinters.cpp - print<ad-activity>, print<ad-types>
//-----------===//
#include "driver/AnalysisPrinters.h"
#include "analysis/ActivityAnalysis.h"
#include "analysis/ArgumentTypes.h"
#include "analysis/TypeAnalysis.h"
#include "driver/EntryPointCall.h"
#include "rules/CustomRules.h"
#include "rules/RuleTable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace ad {

/// Every well-formed differentiation call in \p M, in module order.
static SmallVector<EntryPointCall, 8>
entryPointCalls(Module &M, DiagnosticReporter &Diag) {
  SmallVector<EntryPointCall, 8> Calls;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *Call = dyn_cast<CallBase>(&I);
        Function *Callee = Call ? Call->getCalledFunction() : nullptr;
        if (!Callee)
          continue;
        if (std::optional<EntryPointKind> Kind = entryPointKind(*Callee))
          if (std::optional<EntryPointCall> EP =
                  parseEntryPointCall(*Call, *Kind, Diag))
            Calls.push_back(*EP);
      }
  return Calls;
}

static void printHeader(raw_ostream &OS, const EntryPointCall &EP) {
  OS << (EP.Kind == EntryPointKind::Reverse ? "reverse" : "forward")
     << "-mode call in '" << EP.Call->getFunction()->getName() << "' of '"
     << EP.Fn->getName() << "', parameters:";
  for (Activity A : EP.Activities)
    OS << (A == Activity::Const      ? " const"
           : A == Activity::Shadowed ? " shadowed"
                                     : " active");
  OS << "\n";
}

PreservedAnalyses ActivityPrinterPass::run(Module &M, ModuleAnalysisManager &) {
  CustomRules Custom(M);
  RuleTable Rules(&Custom);
  RuleTable::Scope UseRules(Rules);
  DiagnosticReporter Diag;
  for (const EntryPointCall &EP : entryPointCalls(M, Diag)) {
    printHeader(OS, EP);
    ArgumentTypes Args;
    TypeAnalysis Types(M.getDataLayout(), &Args);
    ActivityAnalysis(*EP.Fn, EP.Activities, Types).print(OS);
  }
  return PreservedAnalyses::all();
}

/// "element of 32 bytes: double@8 float@16 ptr@24": the floats and
/// pointers of one element at their byte offsets (integers move nothing).
static void printLayout(raw_ostream &OS, const std::optional<MemoryLayout> &L) {
  if (!L) {
    OS << "unknown";
    return;
  }
  SmallVector<FloatField, 8> All(L->Floats.begin(), L->Floats.end());
  All.append(L->Others.begin(), L->Others.end());
  llvm::stable_sort(All, [](const FloatField &A, const FloatField &B) {
    return A.Offset < B.Offset;
  });
  if (All.empty()) {
    OS << "no floats or pointers";
    return;
  }
  OS << "element of " << L->Stride << " bytes:";
  for (const FloatField &F : All) {
    OS << " ";
    if (F.Ty)
      OS << *F.Ty;
    else
      OS << "ptr";
    OS << "@" << F.Offset;
  }
}

PreservedAnalyses TypePrinterPass::run(Module &M, ModuleAnalysisManager &) {
  CustomRules Custom(M);
  RuleTable Rules(&Custom);
  RuleTable::Scope UseRules(Rules);
  DiagnosticReporter Diag;
  SmallVector<EntryPointCall, 8> Calls = entryPointCalls(M, Diag);
  ArgumentTypes Args;
  Args.addCallsIn(M);
  for (const EntryPointCall &EP : Calls)
    Args.addCall(EP.Fn, EP.Primals);
  TypeAnalysis Types(M.getDataLayout(), &Args);
  for (const EntryPointCall &EP : Calls) {
    printHeader(OS, EP);
    Function &F = *EP.Fn;
    ActivityAnalysis AA(F, EP.Activities, Types);
    OS << "memory of " << F.getName() << ":\n";
    auto Print = [&](const Value &V, StringRef Label) {
      MemoryTypes Mem = Types.memoryAt(&V);
      OS << "  " << Label << ": ";
      printLayout(OS, Mem.layout(std::nullopt));
      OS << "\n    facts:";
      printFacts(OS, Mem);
      OS << "\n";
    };
    for (const Argument &A : F.args())
      if (A.getType()->isPointerTy() && AA.hasShadow(&A))
        Print(A, ("arg " + Twine(A.getArgNo())).str());
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB) {
        std::string Text;
        raw_string_ostream W(Text);
        I.print(W);
        if (I.getType()->isPointerTy() && AA.hasShadow(&I))
          Print(I, StringRef(Text).trim());
        else if (Type *T = AA.fpBitsType(&I))
          OS << "  " << StringRef(Text).trim() << ": bits of " << *T << "\n";
        else if (AA.movesPointerBits(&I))
          OS << "  " << StringRef(Text).trim() << ": bits of a pointer\n";
      }
  }
  return PreservedAnalyses::all();
}

} // namespace ad
