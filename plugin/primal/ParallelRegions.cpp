//===- ParallelRegions.cpp - OpenMP regions in the canonical primal -------===//
#include "primal/ParallelRegions.h"
#include "core/ParallelRegionCalls.h"
#include "runtime/RuntimeFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace ad {

static StringRef calleeName(const CallInst &Call) {
  const Function *F = Call.getCalledFunction();
  return F ? F->getName() : StringRef();
}

/// ThreadSanitizer's instrumentation of an access (-fsanitize=thread runs
/// before the plugin): it reads no value.
static bool isSanitizerHook(const User *U) {
  auto *Call = dyn_cast<CallInst>(U);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && Callee->getName().starts_with("__tsan_");
}

/// Whether every use of \p Arg is a load of type \p T from it (or its
/// sanitizer hook).
static bool onlyLoadedAs(const Argument &Arg, Type *T) {
  return all_of(Arg.users(), [&](const User *U) {
    if (isSanitizerHook(U))
      return true;
    auto *L = dyn_cast<LoadInst>(U);
    return L && L->getPointerOperand() == &Arg && L->getType() == T &&
           !L->isVolatile();
  });
}

/// The value that stack slot \p Slot, which \p Fork passes to its region,
/// holds all through the region, when only stores write the slot (the
/// regions it is passed to only read it): the last store before the fork in
/// its block (a loop around the region, unrolled, stores the slot once per
/// region), or else the slot's one store, if it comes before the fork. Null
/// otherwise.
static Value *valueForRegion(Value *Slot, CallInst &Fork, DominatorTree &DT) {
  auto *AI = dyn_cast<AllocaInst>(Slot);
  if (!AI)
    return nullptr;
  StoreInst *Only = nullptr;
  unsigned Stores = 0;
  for (User *U : AI->users()) {
    if (auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getPointerOperand() != AI || S->isVolatile())
        return nullptr;
      Only = S;
      ++Stores;
      continue;
    }
    if (isa<LoadInst>(U))
      continue;
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call)
      return nullptr;
    if (Call->isLifetimeStartOrEnd() || isSanitizerHook(Call))
      continue;
    // This fork's body: bodyTakingValues checks it, after promoting the
    // body's own copies of its parameters (-O0).
    if (Call == &Fork)
      continue;
    // A fork (this one or another): its body must only read the slot.
    Function *Callee = Call->getCalledFunction();
    auto *Body =
        Call->arg_size() > 2
            ? dyn_cast<Function>(Call->getArgOperand(2)->stripPointerCasts())
            : nullptr;
    if (!Callee || Callee->getName() != "__kmpc_fork_call" || !Body)
      return nullptr;
    for (unsigned I = 3; I < Call->arg_size(); ++I)
      if (Call->getArgOperand(I) == AI &&
          (I - 3 + RegionThreadIdParams >= Body->arg_size() ||
           !all_of(Body->getArg(I - 3 + RegionThreadIdParams)->users(),
                   [](const User *U) { return isa<LoadInst>(U); })))
        return nullptr;
  }
  for (Instruction *I = Fork.getPrevNode(); I; I = I->getPrevNode())
    if (auto *S = dyn_cast<StoreInst>(I); S && S->getPointerOperand() == AI)
      return S->getValueOperand();
  if (Stores != 1 || !DT.dominates(Only, &Fork))
    return nullptr;
  return Only->getValueOperand();
}

/// Whether \p V's only uses are loads, directly or through address
/// arithmetic.
static bool onlyReadThrough(const Value &V) {
  return all_of(V.users(), [&](const User *U) {
    if (isa<GetElementPtrInst>(U))
      return cast<GetElementPtrInst>(U)->getPointerOperand() == &V &&
             onlyReadThrough(*U);
    auto *L = dyn_cast<LoadInst>(U);
    return L && L->getPointerOperand() == &V && !L->isVolatile();
  });
}

/// The floating-point value whose bits \p A passes to a region (clang
/// passes a firstprivate double as an i64): a bitcast of it, or the load of
/// a stack slot whose one store stored it; null otherwise.
static Value *floatPassedAsBits(Value *A, DominatorTree &DT) {
  if (auto *Cast = dyn_cast<BitCastInst>(A))
    return Cast->getSrcTy()->isFloatingPointTy() ? Cast->getOperand(0)
                                                 : nullptr;
  auto *L = dyn_cast<LoadInst>(A);
  auto *Slot = L ? dyn_cast<AllocaInst>(L->getPointerOperand()) : nullptr;
  if (!Slot || !L->getType()->isIntegerTy())
    return nullptr;
  StoreInst *Only = nullptr;
  for (User *U : Slot->users()) {
    if (auto *St = dyn_cast<StoreInst>(U)) {
      if (Only || St->getPointerOperand() != Slot)
        return nullptr;
      Only = St;
    } else if (!isa<LoadInst>(U) &&
               !cast<Instruction>(U)->isLifetimeStartOrEnd()) {
      return nullptr;
    }
  }
  Value *V = Only ? Only->getValueOperand() : nullptr;
  const DataLayout &DL = L->getDataLayout();
  if (!V || !V->getType()->isFloatingPointTy() || !DT.dominates(Only, L) ||
      DL.getTypeStoreSize(V->getType()) != DL.getTypeStoreSize(L->getType()))
    return nullptr;
  return V;
}

/// In a body taking \p Value by value, \p Bits (the parameter that passed
/// its bits) no longer: its uses read Value, where they only turn the bits
/// back into a float (directly, or through a stack slot at -O0).
static void useFloatForBits(Argument &Bits, Argument &Value) {
  auto *Cast = new BitCastInst(&Value, Bits.getType(), "",
                               Bits.getParent()->getEntryBlock().begin());
  Bits.replaceAllUsesWith(Cast);
  for (User *U : make_early_inc_range(Cast->users())) {
    if (auto *Back = dyn_cast<BitCastInst>(U);
        Back && Back->getType() == Value.getType()) {
      Back->replaceAllUsesWith(&Value);
      Back->eraseFromParent();
      continue;
    }
    auto *St = dyn_cast<StoreInst>(U);
    auto *Slot = St ? dyn_cast<AllocaInst>(St->getPointerOperand()) : nullptr;
    if (!Slot || !all_of(Slot->users(), [&](User *V) {
          auto *L = dyn_cast<LoadInst>(V);
          return V == St || (L && L->getType() == Value.getType()) ||
                 cast<Instruction>(V)->isLifetimeStartOrEnd();
        }))
      continue;
    for (User *V : make_early_inc_range(Slot->users()))
      if (auto *L = dyn_cast<LoadInst>(V)) {
        L->replaceAllUsesWith(&Value);
        L->eraseFromParent();
      }
    St->eraseFromParent();
  }
  if (Cast->use_empty())
    Cast->eraseFromParent();
}

/// Phis that only ever pass one parameter's value around (loop-carried
/// copies of a captured variable, once its loads became the parameter) are
/// that value: scalar evolution, which bounds what the region accesses
/// (analysis/RegionRanges.h), does not see through such cycles.
static void foldParameterPhiCycles(Function &F) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : F)
      for (PHINode &Phi : make_early_inc_range(BB.phis())) {
        SmallPtrSet<PHINode *, 8> Seen;
        SmallVector<PHINode *, 8> Work{&Phi};
        Value *Only = nullptr;
        bool One = true;
        while (!Work.empty() && One) {
          PHINode *P = Work.pop_back_val();
          if (!Seen.insert(P).second)
            continue;
          for (Value *In : P->incoming_values()) {
            if (auto *Next = dyn_cast<PHINode>(In))
              Work.push_back(Next);
            else if (Only && In != Only)
              One = false;
            else
              Only = In;
          }
        }
        if (One && Only && (isa<Argument>(Only) || isa<Constant>(Only))) {
          Phi.replaceAllUsesWith(Only);
          Phi.eraseFromParent();
          Changed = true;
        }
      }
  }
}

/// A copy of \p Body that takes the values of the captured variables
/// \p Candidates (parameter -> value type) as parameters of their own,
/// appended, in place of loading them, where it only loads them (after
/// promoting its own stack slots: at -O0 it first copies each parameter to
/// one); \p Promoted says where. The old parameters stay, unused there. A
/// pointer the caller's own parameter gave, `restrict` there, keeps its
/// `noalias` (\p NoAlias): the body's loads through it can then be read
/// back in the reverse sweep instead of taped.
static Function *
bodyTakingValues(Function &Body,
                 ArrayRef<std::pair<unsigned, Type *>> Candidates,
                 ArrayRef<bool> NoAlias, SmallVectorImpl<bool> &Promoted) {
  std::string Name = (Body.getName() + ".ad.values").str();
  for (auto [J, KT] : enumerate(Candidates))
    Name += "." + std::to_string(KT.first) + (NoAlias[J] ? "r" : "");
  Module &M = *Body.getParent();
  Function *NF = M.getFunction(Name);
  if (!NF) {
    SmallVector<Type *, 12> Params(Body.getFunctionType()->params());
    for (auto [K, T] : Candidates)
      Params.push_back(T);
    NF =
        Function::Create(FunctionType::get(Body.getReturnType(), Params, false),
                         GlobalValue::InternalLinkage, Name, M);
    ValueToValueMapTy VMap;
    for (Argument &A : Body.args())
      VMap[&A] = NF->getArg(A.getArgNo());
    SmallVector<ReturnInst *, 2> Returns;
    CloneFunctionInto(NF, &Body, VMap,
                      CloneFunctionChangeType::LocalChangesOnly, Returns);
    // With -g at -O0 the body is `<f>_debug__`, which the outlined
    // function calls with its parameters (copied through stack slots).
    SmallVector<CallInst *, 1> DebugBodies;
    for (Instruction &I : instructions(*NF))
      if (auto *Call = dyn_cast<CallInst>(&I);
          Call && Call->getCalledFunction() &&
          !Call->getCalledFunction()->isDeclaration() &&
          Call->getCalledFunction()->getName().ends_with("_debug__"))
        DebugBodies.push_back(Call);
    for (CallInst *Call : DebugBodies) {
      InlineFunctionInfo IFI;
      InlineFunction(*Call, IFI);
    }
    // The sanitizer's hooks on the body's own stack slots (its -O0 copies
    // of the parameters) would keep them from being promoted; no other
    // thread sees those slots.
    for (Instruction &I : make_early_inc_range(instructions(*NF)))
      if (isSanitizerHook(&I) && cast<CallInst>(I).arg_size() == 1 &&
          isa<AllocaInst>(cast<CallInst>(I).getArgOperand(0)))
        I.eraseFromParent();
    SmallVector<AllocaInst *, 8> Slots;
    for (Instruction &I : NF->getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
        Slots.push_back(AI);
    if (!Slots.empty()) {
      DominatorTree DT(*NF);
      PromoteMemToReg(Slots, DT);
    }
    for (auto [J, KT] : enumerate(Candidates)) {
      Argument *Old = NF->getArg(KT.first);
      Argument *New = NF->getArg(Body.arg_size() + J);
      New->setName(Body.getArg(KT.first)->getName() + ".value");
      if (KT.second->isFloatingPointTy() && Old->getType()->isIntegerTy()) {
        useFloatForBits(*Old, *New);
        continue;
      }
      if (!onlyLoadedAs(*Old, KT.second))
        continue;
      for (User *U : make_early_inc_range(Old->users())) {
        if (!isSanitizerHook(U))
          U->replaceAllUsesWith(New);
        cast<Instruction>(U)->eraseFromParent();
      }
      NF->removeParamAttrs(
          KT.first, AttributeMask(NF->getAttributes().getParamAttrs(KT.first)));
      if (NoAlias[J] && New->getType()->isPointerTy()) {
        New->addAttr(Attribute::NoAlias);
        // With noalias, a pointer the body only reads through marks memory
        // the region does not change: what the body loads there can be
        // loaded again by its adjoint (PrimalInReverse's kept arguments).
        if (onlyReadThrough(*New))
          New->addAttr(Attribute::ReadOnly);
      }
    }
    foldParameterPhiCycles(*NF);
  }
  for (auto [J, KT] : enumerate(Candidates))
    Promoted.push_back(NF->getArg(KT.first)->use_empty());
  return NF;
}

/// fork(loc, n, body, a...) -> body(tid, tid, a...), marked. The thread
/// ids are placeholders: each thread of the forked team passes its own.
/// Captured variables the region only reads, and which hold one value
/// through it, are passed by value (bodyTakingValues).
static void callRegionDirectly(CallInst &Fork, Function &Body,
                               AllocaInst *&ThreadId, DominatorTree &DT) {
  Function &F = *Fork.getFunction();
  if (!ThreadId)
    ThreadId = new AllocaInst(Type::getInt32Ty(F.getContext()), 0, "ad.omp.tid",
                              F.getEntryBlock().begin());
  SmallVector<Value *, 8> Args(RegionThreadIdParams, ThreadId);
  SmallVector<std::pair<unsigned, Type *>, 8> Candidates;
  SmallVector<unsigned, 8> CandidateArgs;
  SmallVector<Value *, 8> Values;
  SmallVector<bool, 8> NoAlias;
  for (unsigned I = 3; I < Fork.arg_size(); ++I) {
    Value *A = Fork.getArgOperand(I);
    unsigned K = Args.size();
    Value *V = nullptr;
    if (K < Body.arg_size())
      V = A->getType()->isIntegerTy() ? floatPassedAsBits(A, DT)
                                      : valueForRegion(A, Fork, DT);
    // A float passed by value gets an adjoint from every thread, which the
    // forked adjoint sums (driver/ForkRegions.cpp).
    if (V && (V->getType()->isPointerTy() || V->getType()->isIntegerTy() ||
              V->getType()->isFloatingPointTy())) {
      Candidates.push_back({K, V->getType()});
      CandidateArgs.push_back(K);
      Values.push_back(V);
      auto *Param = dyn_cast<Argument>(V);
      NoAlias.push_back(Param && Param->hasNoAliasAttr());
    }
    Args.push_back(A);
  }
  Function *Callee = &Body;
  if (!Candidates.empty()) {
    SmallVector<bool, 8> Promoted;
    Callee = bodyTakingValues(Body, Candidates, NoAlias, Promoted);
    for (auto [J, K] : enumerate(CandidateArgs))
      if (Promoted[J])
        Args[K] = PoisonValue::get(Args[K]->getType());
    Args.append(Values);
  }
  auto *Direct = CallInst::Create(Callee->getFunctionType(), Callee, Args, "",
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
  if (!Forks.empty()) {
    DominatorTree DT(F);
    for (CallInst *Fork : Forks)
      callRegionDirectly(
          *Fork, *cast<Function>(Fork->getArgOperand(2)->stripPointerCasts()),
          ThreadId, DT);
  }
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
