//===- IndirectCallDispatch.cpp - Indirect calls as direct calls ---------===//
#include "primal/IndirectCallDispatch.h"
#include "analysis/IndirectCallees.h"
#include "core/IRHelpers.h"
#include "core/PrimalMarks.h"
#include "rules/KnownFunctions.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include <set>

using namespace llvm;

namespace ad {
namespace {

/// A derivative can pass through \p Call only if it exchanges a
/// floating-point value or a pointer.
bool mayCarryDerivatives(const CallBase &Call) {
  auto Carries = [](Type *T) {
    return T->isFPOrFPVectorTy() || T->isPtrOrPtrVectorTy() ||
           T->isAggregateType();
  };
  return Carries(Call.getType()) || any_of(Call.args(), [&](const Use &U) {
           return Carries(U->getType());
         });
}

/// The direct call of \p Callee that stands for \p Call, in \p BB.
CallInst *directCall(CallInst &Call, Function &Callee, BasicBlock *BB) {
  SmallVector<Value *, 8> Args(Call.args());
  SmallVector<OperandBundleDef, 1> Bundles;
  Call.getOperandBundlesAsDefs(Bundles);
  IRBuilder<> B(BB);
  CallInst *Direct = B.CreateCall(&Callee, Args, Bundles);
  Direct->setAttributes(Call.getAttributes());
  Direct->setCallingConv(Call.getCallingConv());
  Direct->setTailCallKind(Call.getTailCallKind());
  Direct->setDebugLoc(Call.getDebugLoc());
  if (!Call.getType()->isVoidTy())
    Direct->setName(Call.getName() + "." + Callee.getName());
  return Direct;
}

void dispatch(CallInst &Call, const IndirectCallees &To) {
  BasicBlock *Head = Call.getParent();
  Function &F = *Head->getParent();
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Join = SplitBlock(Head, Call.getNextNode());
  Join->setName("dispatch.join");
  Head->getTerminator()->eraseFromParent();
  Call.removeFromParent();

  PHINode *Result = nullptr;
  if (!Call.getType()->isVoidTy()) {
    Result = PHINode::Create(Call.getType(), To.Functions.size() + 1,
                             Call.getName() + ".dispatched");
    Result->insertInto(Join, Join->begin());
    Call.replaceAllUsesWith(Result);
  }
  Value *Pointer = Call.getCalledOperand();
  BasicBlock *Test = Head;
  for (size_t I = 0; I < To.Functions.size(); ++I) {
    Function &Callee = *To.Functions[I];
    BasicBlock *Target =
        BasicBlock::Create(Ctx, "dispatch." + Callee.getName(), &F, Join);
    CallInst *Direct = directCall(Call, Callee, Target);
    BranchInst::Create(Join, Target)->setDebugLoc(Call.getDebugLoc());
    if (Result)
      Result->addIncoming(Direct, Target);
    IRBuilder<> B(Test);
    B.SetCurrentDebugLocation(Call.getDebugLoc());
    bool Last = I + 1 == To.Functions.size();
    // A closed set: the pointer is the last candidate if none before it.
    if (Last && To.Closed) {
      B.CreateBr(Target);
      break;
    }
    BasicBlock *Next = BasicBlock::Create(
        Ctx, Last ? "dispatch.unresolved" : "dispatch.next", &F, Join);
    B.CreateCondBr(B.CreateICmpEQ(Pointer, &Callee, "is.callee"), Target, Next);
    Test = Next;
  }
  if (To.Closed) {
    Call.deleteValue();
    return;
  }
  // The last resort: a function the module does not know.
  Call.insertInto(Test, Test->end());
  BranchInst::Create(Join, Test)->setDebugLoc(Call.getDebugLoc());
  markUnresolvedCallee(Call);
  if (Result)
    Result->addIncoming(&Call, Test);
}

/// Says at compile time what the derivative of \p Call (in the canonical
/// primal of \p Original) does: which functions it dispatches between
/// (-Rpass-analysis=ad) and, where the set is open, that it stops the
/// program on a pointer to any other function (-Rpass-missed=ad).
void report(const CallInst &Call, const IndirectCallees &To,
            const Function &Original) {
  std::string Where = "indirect call in '" + demangle(Original.getName()) + "'";
  if (const DebugLoc &Loc = Call.getDebugLoc())
    Where += " at line " + std::to_string(Loc.getLine());
  std::string Names;
  for (const Function *F : To.Functions)
    Names += (Names.empty() ? "'" : ", '") + demangle(F->getName()) + "'";
  OptimizationRemarkEmitter ORE(Call.getFunction());
  ORE.emit([&] {
    return OptimizationRemarkAnalysis("ad", "IndirectCallDispatch", &Call)
           << Where << ": differentiated as a choice between "
           << ore::NV("Candidates", unsigned(To.Functions.size()))
           << " function(s) this file knows: " << Names
           << (To.Closed ? " (the pointer can be no other)"
                         : "; any other target stops the derivative");
  });
  if (To.Closed)
    return;
  ORE.emit([&] {
    return OptimizationRemarkMissed("ad", "OpenIndirectCall", &Call)
           << Where << ": the derivative stops the program at run time "
           << "if it reaches the call with a pointer to a function other "
              "than "
           << Names << " (one defined in another file)";
  });
}

} // namespace

unsigned dispatchIndirectCalls(Function &Clone, IndirectCalleeCache &Callees,
                               const Function *ReportFor) {
  bool OnGPU = isParallelDeviceCode(*Clone.getParent());
  SmallVector<std::pair<CallInst *, IndirectCallees>, 4> Work;
  for (BasicBlock &BB : Clone)
    for (Instruction &I : BB) {
      auto *Call = dyn_cast<CallInst>(&I);
      // A constant callee (an alias, a function of another prototype) is
      // not chosen at run time; a choice between allocators of one row is
      // taken whole by the rules.
      if (!Call || isa<Constant>(Call->getCalledOperand()) ||
          Call->isInlineAsm() || Call->isMustTailCall() ||
          isUnresolvedCallee(*Call) || !mayCarryDerivatives(*Call) ||
          resolveCallee(*Call).Kind != CalleeKind::Unknown)
        continue;
      IndirectCallees To = Callees.candidates(*Call);
      // On a GPU the last resort could only trap, without a word: the call
      // stays a compile-time error unless no other target is possible.
      if (To && (To.Closed || !OnGPU))
        Work.push_back({Call, std::move(To)});
    }
  // Once per source location: an unrolled loop repeats its calls.
  std::set<std::pair<unsigned, unsigned>> Reported;
  for (auto &[Call, To] : Work) {
    const DebugLoc &Loc = Call->getDebugLoc();
    if (ReportFor &&
        Reported.insert({Loc ? Loc.getLine() : 0, Loc ? Loc.getCol() : 0})
            .second)
      report(*Call, To, *ReportFor);
    dispatch(*Call, To);
  }
  return Work.size();
}

} // namespace ad
