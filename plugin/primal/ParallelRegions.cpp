//===- ParallelRegions.cpp - OpenMP regions in the canonical primal -------===//
#include "primal/ParallelRegions.h"
#include "core/ParallelRegionCalls.h"
#include "runtime/RuntimeFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace ad {

static StringRef calleeName(const CallInst &Call) {
  const Function *F = Call.getCalledFunction();
  return F ? F->getName() : StringRef();
}

/// fork(loc, n, body, a...) -> body(tid, tid, a...), marked. The thread
/// ids are placeholders: each thread of the forked team passes its own.
static void callRegionDirectly(CallInst &Fork, Function &Body,
                               AllocaInst *&ThreadId) {
  Function &F = *Fork.getFunction();
  if (!ThreadId)
    ThreadId = new AllocaInst(Type::getInt32Ty(F.getContext()), 0, "ad.omp.tid",
                              F.getEntryBlock().begin());
  SmallVector<Value *, 8> Args(RegionThreadIdParams, ThreadId);
  for (unsigned I = 3; I < Fork.arg_size(); ++I)
    Args.push_back(Fork.getArgOperand(I));
  auto *Direct = CallInst::Create(Body.getFunctionType(), &Body, Args, "",
                                  Fork.getIterator());
  Direct->setDebugLoc(Fork.getDebugLoc());
  markParallelRegionCall(*Direct, Fork.getArgOperand(0), RegionRole::Primal);
  Fork.eraseFromParent();
}

/// The lock and end of a reduction, as a critical section; the caller folds
/// the branch on the protocol's answer.
static void reduceUnderLock(CallInst &Call, StringRef Name,
                            SmallVectorImpl<BasicBlock *> &Answered) {
  Module &M = *Call.getModule();
  LLVMContext &C = M.getContext();
  IRBuilder<> B(&Call);
  Type *Ptr = PointerType::getUnqual(C), *I32 = Type::getInt32Ty(C);
  Value *Loc = Call.getArgOperand(0), *Gtid = Call.getArgOperand(1);
  auto Lock = [&](StringRef Fn, Value *Lck) {
    B.CreateCall(
        M.getOrInsertFunction(
            Fn, FunctionType::get(B.getVoidTy(), {Ptr, I32, Ptr}, false)),
        {Loc, Gtid, Lck});
  };
  if (Name == "__kmpc_reduce" || Name == "__kmpc_reduce_nowait") {
    Lock("__kmpc_critical", Call.getArgOperand(6));
    Call.replaceAllUsesWith(ConstantInt::get(Call.getType(), 1));
    Answered.push_back(Call.getParent());
  } else {
    Lock("__kmpc_end_critical", Call.getArgOperand(2));
    if (Name == "__kmpc_end_reduce") // the blocking form ends with a barrier
      B.CreateCall(M.getOrInsertFunction(
                       "__kmpc_barrier",
                       FunctionType::get(B.getVoidTy(), {Ptr, I32}, false)),
                   {Loc, Gtid});
  }
  Call.eraseFromParent();
}

/// The turn counter of a section that one thread at a time runs: beside
/// its critical-section lock (a global of clang's, one per name, shared
/// across files), or the one counter of `ordered` sections. Shared across
/// files like the locks.
static GlobalVariable *turnOf(CallInst &Section) {
  Module &M = *Section.getModule();
  std::string Name = "__ad_omp_ordered.ad.turn";
  StringRef Callee = calleeName(Section);
  if (Callee != "__kmpc_ordered" && Callee != "__kmpc_end_ordered") {
    auto *Lock =
        dyn_cast<GlobalVariable>(Section.getArgOperand(2)->stripPointerCasts());
    if (!Lock)
      return nullptr;
    Name = (Lock->getName() + ".ad.turn").str();
  }
  if (GlobalVariable *Turn = M.getNamedGlobal(Name))
    return Turn;
  Type *I64 = Type::getInt64Ty(M.getContext());
  auto *Turn = new GlobalVariable(M, I64, false, GlobalValue::CommonLinkage,
                                  ConstantInt::get(I64, 0), Name);
  Turn->setAlignment(Align(8));
  return Turn;
}

/// Each critical or ordered section takes a ticket under its lock and ends
/// with it (runtime/TeamRuntime.cpp: the reverse sweep's order). A
/// section's end finds its ticket up the dominator tree.
static bool ticketCriticalSections(Function &F) {
  RuntimeFunctions Runtime(*F.getParent());
  SmallVector<CallInst *, 4> Ends;
  DenseMap<Value *, SmallVector<CallInst *, 2>> TicketsOf;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I)) {
      StringRef Name = calleeName(*Call);
      if (Name == "__kmpc_end_critical" || Name == "__kmpc_end_ordered")
        Ends.push_back(Call);
      if (Name != "__kmpc_critical" && Name != "__kmpc_critical_with_hint" &&
          Name != "__kmpc_ordered")
        continue;
      GlobalVariable *Turn = turnOf(*Call);
      if (!Turn)
        continue;
      auto *Ticket =
          CallInst::Create(Runtime.teamTicket(), {Turn}, "ad.ticket");
      Ticket->insertAfter(Call->getIterator());
      TicketsOf[Turn].push_back(Ticket);
    }
  if (Ends.empty())
    return false;
  DominatorTree DT(F);
  for (CallInst *End : Ends) {
    GlobalVariable *Turn = turnOf(*End);
    CallInst *Nearest = nullptr;
    for (CallInst *T : TicketsOf.lookup(Turn))
      if (DT.dominates(T, End) && (!Nearest || DT.dominates(Nearest, T)))
        Nearest = T;
    if (Nearest)
      CallInst::Create(Runtime.teamTurnEnd(), {Turn, Nearest}, "",
                       End->getIterator());
  }
  return true;
}

bool callParallelRegionsDirectly(Function &F) {
  SmallVector<CallInst *, 4> Forks, Reductions;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I)) {
        StringRef Name = calleeName(*Call);
        if (Name == "__kmpc_fork_call" && Call->arg_size() >= 3 &&
            isa<Function>(Call->getArgOperand(2)->stripPointerCasts()))
          Forks.push_back(Call);
        else if (Name == "__kmpc_reduce" || Name == "__kmpc_reduce_nowait" ||
                 Name == "__kmpc_end_reduce" ||
                 Name == "__kmpc_end_reduce_nowait")
          Reductions.push_back(Call);
      }
  AllocaInst *ThreadId = nullptr;
  for (CallInst *Fork : Forks)
    callRegionDirectly(
        *Fork, *cast<Function>(Fork->getArgOperand(2)->stripPointerCasts()),
        ThreadId);
  SmallVector<BasicBlock *, 4> Answered;
  for (CallInst *Call : Reductions)
    reduceUnderLock(*Call, calleeName(*Call), Answered);
  // The switch on the protocol's answer now takes the locked way always;
  // the atomic way (a compare-and-swap loop for max) is gone with it.
  for (BasicBlock *BB : Answered)
    ConstantFoldTerminator(BB);
  if (!Answered.empty())
    removeUnreachableBlocks(F);
  bool Ticketed = ticketCriticalSections(F);
  return !Forks.empty() || !Reductions.empty() || Ticketed;
}

} // namespace ad
