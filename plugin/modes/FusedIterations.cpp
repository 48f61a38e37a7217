//===- FusedIterations.cpp - A gradient that reverses each iteration at once =//
#include "modes/FusedIterations.h"
#include "analysis/IndependentIterations.h"
#include "core/DerivativeSignature.h"
#include "core/IRHelpers.h"
#include "modes/DerivativeCache.h"
#include "primal/ReloadVersioning.h"
#include "rules/KnownFunctions.h"
#include "rules/MathRules.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace ad {

/// A call of a library math function (its row's derivative reads its
/// result or argument, and it does not lower to a few instructions) in a
/// loop inside \p L: what an iteration of \p L would recompute in the
/// reverse sweep, which a small tape saves.
static bool callsLibraryMathInside(const Loop &L) {
  for (const Loop *Inner : L.getLoopsInPreorder()) {
    if (Inner == &L)
      continue;
    for (const BasicBlock *BB : Inner->blocks())
      for (const Instruction &I : *BB)
        if (auto *Call = dyn_cast<CallInst>(&I))
          if (isLibraryMathCall(*Call))
            return true;
  }
  return false;
}

/// Whether a pointer is \p Base moved by address arithmetic alone
/// (getelementptr, casts), so that its shadow is the same arithmetic on
/// \p Base's shadow.
static bool offsetOf(const Value *V, const Argument *Base) {
  while (V != Base) {
    if (auto *GEP = dyn_cast<GetElementPtrInst>(V))
      V = GEP->getPointerOperand();
    else if (auto *Cast = dyn_cast<CastInst>(V);
             Cast && Cast->getType()->isPointerTy() &&
             Cast->getOperand(0)->getType()->isPointerTy())
      V = Cast->getOperand(0);
    else
      return false;
  }
  return true;
}

/// The shadow of \p V (offsetOf a parameter), inserted before \p Before:
/// the same address arithmetic on the parameter's shadow \p ShadowOf.
static Value *shadowOf(Value *V, Instruction *Before,
                       function_ref<Value *(const Argument &)> ShadowOf) {
  if (auto *A = dyn_cast<Argument>(V))
    return ShadowOf(*A);
  auto *I = cast<Instruction>(V);
  Value *Base = shadowOf(I->getOperand(0), Before, ShadowOf);
  Instruction *Copy = I->clone();
  Copy->setOperand(0, Base);
  Copy->setName(I->getName() + ".shadow");
  Copy->insertBefore(Before->getIterator());
  return Copy;
}

namespace {

/// The nest's body cut out of a copy of the canonical primal: the copy
/// calls Outlined once per iteration.
struct OutlinedBody {
  Function *Outlined = nullptr;
  CallInst *Call = nullptr;
};

} // namespace

/// Cuts the body of \p L (all of it but the header's phis and the latch's
/// branch, with the induction's increment) out of its function.
static std::optional<OutlinedBody> outlineBody(Loop &L) {
  BasicBlock *Header = L.getHeader(), *Latch = L.getLoopLatch();
  if (!Latch || !L.getLoopPreheader() || !L.getExitBlock() ||
      L.getExitingBlock() != Latch || Latch == Header)
    return std::nullopt;
  SmallVector<BasicBlock *, 16> LoopBlocks(L.blocks());
  BasicBlock *Body = SplitBlock(Header, Header->getFirstNonPHIIt());
  BasicBlock *Next = SplitBlock(Latch, Latch->getTerminator());
  SmallPtrSet<BasicBlock *, 16> Region(LoopBlocks.begin(), LoopBlocks.end());
  Region.erase(Header);
  Region.insert(Body);
  // The induction's increment and the exit test move to the latch's branch:
  // what only the loop's control uses.
  SmallPtrSet<Instruction *, 8> Sink;
  for (Instruction &I : reverse(*Latch)) {
    if (I.isTerminator() || isa<PHINode>(I) || I.mayReadOrWriteMemory() ||
        I.mayHaveSideEffects())
      continue;
    if (all_of(I.users(), [&](User *U) {
          auto *UI = cast<Instruction>(U);
          return !Region.contains(UI->getParent()) || Sink.contains(UI);
        }))
      Sink.insert(&I);
  }
  for (Instruction &I : make_early_inc_range(*Latch))
    if (Sink.contains(&I))
      I.moveBefore(Next->getTerminator()->getIterator());

  SmallVector<BasicBlock *, 16> Blocks{Body};
  for (BasicBlock *BB : LoopBlocks)
    if (BB != Header && BB != Body)
      Blocks.push_back(BB);
  CodeExtractor Extractor(Blocks);
  if (!Extractor.isEligible())
    return std::nullopt;
  SetVector<Value *> Inputs, Outputs, Allocas;
  Extractor.findInputsOutputs(Inputs, Outputs, Allocas);
  // Casts of values from outside are cast again inside: the iteration then
  // gets one parameter per value (V, not V and zext V as well), so that
  // ScalarEvolution sees its loops' counts as the same.
  Instruction *InsertAt = &*Body->getFirstInsertionPt();
  for (Value *In : Inputs) {
    auto *Cast = dyn_cast<CastInst>(In);
    if (!Cast)
      continue;
    Instruction *Copy = Cast->clone();
    Copy->insertBefore(InsertAt->getIterator());
    Cast->replaceUsesWithIf(Copy, [&](Use &U) {
      auto *User = dyn_cast<Instruction>(U.getUser());
      return User && Region.contains(User->getParent());
    });
  }
  Inputs.clear(), Outputs.clear(), Allocas.clear();
  Extractor.findInputsOutputs(Inputs, Outputs, Allocas);
  if (!Outputs.empty())
    return std::nullopt;
  CodeExtractorAnalysisCache Cache(*Header->getParent());
  Function *Outlined = Extractor.extractCodeRegion(Cache);
  if (!Outlined || !Outlined->getReturnType()->isVoidTy() ||
      !Outlined->hasOneUse())
    return std::nullopt;
  return OutlinedBody{Outlined, cast<CallInst>(Outlined->user_back())};
}

/// The source lines of \p Nest's loops, outermost first.
static SmallVector<unsigned, 4> linesOf(const IndependentNest &Nest) {
  SmallVector<unsigned, 4> Lines;
  for (Loop *L : Nest.Loops)
    if (DebugLoc Loc = L->getStartLoc())
      Lines.push_back(Loc.getLine());
  return Lines;
}

/// Whether an inspection of \p Nest can run ahead of it: every branch and
/// every placing check of the copy \p Inspection of the nest depends only on
/// values the nest computes from memory it does not write. Removes the rest
/// of the copy (stores, calls, arithmetic), keeping \p Keep.
static bool pruneInspection(ArrayRef<BasicBlock *> Inspection,
                            ArrayRef<Instruction *> Keep,
                            ArrayRef<Instruction *> NestWrites, AAResults &AA) {
  SmallPtrSet<const BasicBlock *, 16> InCopy(Inspection.begin(),
                                             Inspection.end());
  SmallPtrSet<Instruction *, 32> Needed;
  SmallVector<Instruction *, 32> Work(Keep.begin(), Keep.end());
  for (BasicBlock *BB : Inspection)
    Work.push_back(BB->getTerminator());
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!InCopy.contains(I->getParent()) || !Needed.insert(I).second)
      continue;
    for (Value *Op : I->operands())
      if (auto *OpI = dyn_cast<Instruction>(Op))
        Work.push_back(OpI);
  }
  for (Instruction *I : Needed) {
    if (is_contained(Keep, I) || I->isTerminator() || isa<PHINode>(I))
      continue;
    if (I->mayHaveSideEffects())
      return false;
    if (auto *Ld = dyn_cast<LoadInst>(I))
      for (Instruction *W : NestWrites)
        if (isModSet(AA.getModRefInfo(W, MemoryLocation::get(Ld))))
          return false;
  }
  for (BasicBlock *BB : Inspection)
    for (Instruction &I : make_early_inc_range(reverse(*BB)))
      if (!Needed.contains(&I)) {
        I.replaceAllUsesWith(PoisonValue::get(I.getType()));
        I.eraseFromParent();
      }
  return true;
}

/// Versions \p Nest of \p F (the copy that becomes the fused gradient) on
/// its run-time checks and inspection: the nest runs where they hold, and
/// the returned block (ending in unreachable, for the caller to fill with a
/// call of the swept gradient) runs instead where they do not; null where
/// they cannot be evaluated ahead of the nest.
static BasicBlock *guardNest(Function &F, const IndependentNest &Nest,
                             FunctionAnalysisManager &FAM) {
  Loop *Outer = Nest.Loops[0];
  BasicBlock *Preheader = Outer->getLoopPreheader();
  BasicBlock *Header = Outer->getHeader();
  BasicBlock *Exit = Outer->getExitBlock();
  if (!Preheader || !Exit)
    return nullptr;
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  AAResults &AA = FAM.getResult<AAManager>(F);
  SCEVExpander Expander(SE, "ad.fused");
  Instruction *At = Preheader->getTerminator();
  for (const Compare &C : Nest.Checks)
    if (!Expander.isSafeToExpandAt(C.Lhs, At) ||
        !Expander.isSafeToExpandAt(C.Rhs, At))
      return nullptr;
  for (const GuardedCheck &G : Nest.GuardedChecks)
    if (!Expander.isSafeToExpandAt(G.Holds.Lhs, At) ||
        !Expander.isSafeToExpandAt(G.Holds.Rhs, At) ||
        (isa<Instruction>(G.Guard) &&
         !FAM.getResult<DominatorTreeAnalysis>(F).dominates(
             cast<Instruction>(G.Guard), At)))
      return nullptr;
  Value *OK = expandCondition({Nest.Checks}, Expander, At);
  for (const GuardedCheck &G : Nest.GuardedChecks) {
    IRBuilder<> B(At);
    Value *Holds = expandCondition({{G.Holds}}, Expander, At);
    Value *Skipped = G.Taken ? B.CreateNot(G.Guard) : G.Guard;
    OK = B.CreateAnd(OK, B.CreateOr(Skipped, Holds));
  }
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Swept = BasicBlock::Create(Ctx, "ad.swept", &F);
  new UnreachableInst(Ctx, Swept);
  if (Nest.Inspected.empty()) {
    IRBuilder<>(At).CreateCondBr(OK, Header, Swept);
    At->eraseFromParent();
    return Swept;
  }

  // Each inspected load's check, in the nest, clears a flag where it fails;
  // the nest is then copied ahead of itself, the copy keeping only what
  // decides its branches and the checks.
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Flag =
      Entry.CreateAlloca(Type::getInt1Ty(Ctx), nullptr, "ad.inspected.flag");
  IRBuilder<>(At).CreateStore(ConstantInt::getTrue(Ctx), Flag);
  SmallVector<Instruction *, 4> Probes;
  for (const InspectedLoad &X : Nest.Inspected) {
    // (At the end of the load's block: ScalarEvolution places values
    // defined in a block only there.)
    Instruction *Before = X.Load->getParent()->getTerminator();
    for (const SCEV *S : {X.Offset, X.Size, X.Lo, X.End})
      if (!Expander.isSafeToExpandAt(S, Before))
        return nullptr;
    Type *I64 = X.Offset->getType();
    Value *Off = Expander.expandCodeFor(X.Offset, I64, Before);
    Value *Size = Expander.expandCodeFor(X.Size, I64, Before);
    Value *Lo = Expander.expandCodeFor(X.Lo, I64, Before);
    Value *End = Expander.expandCodeFor(X.End, I64, Before);
    IRBuilder<> B(Before);
    Value *In = B.CreateAnd(B.CreateICmpSLE(Lo, Off),
                            B.CreateICmpSLE(B.CreateAdd(Off, Size), End));
    Value *Was = B.CreateLoad(B.getInt1Ty(), Flag);
    Probes.push_back(B.CreateStore(B.CreateAnd(Was, In), Flag));
  }
  SmallVector<Instruction *, 16> NestWrites;
  for (BasicBlock *BB : Outer->blocks())
    for (Instruction &I : *BB)
      if (I.mayWriteToMemory() && !is_contained(Probes, &I))
        NestWrites.push_back(&I);

  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Inspection;
  for (BasicBlock *BB : Outer->blocks()) {
    BasicBlock *Copy = CloneBasicBlock(BB, VMap, ".inspect", &F);
    VMap[BB] = Copy;
    Inspection.push_back(Copy);
  }
  remapInstructionsInBlocks(Inspection, VMap);
  BasicBlock *Inspected = BasicBlock::Create(Ctx, "ad.inspected", &F);
  for (BasicBlock *BB : Inspection)
    BB->getTerminator()->replaceSuccessorWith(Exit, Inspected);
  SmallVector<Instruction *, 4> KeptProbes;
  for (Instruction *P : Probes)
    KeptProbes.push_back(cast<Instruction>(VMap[P]));
  if (!pruneInspection(Inspection, KeptProbes, NestWrites, AA))
    return nullptr;
  // The nest itself checks nothing.
  for (Instruction *P : Probes) {
    Value *Stored = cast<StoreInst>(P)->getValueOperand();
    P->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(Stored);
  }
  for (Loop *L : Outer->getLoopsInPreorder())
    for (PHINode &Phi : make_early_inc_range(L->getHeader()->phis()))
      RecursivelyDeleteDeadPHINode(&Phi);

  IRBuilder<>(At).CreateBr(cast<BasicBlock>(VMap[Header]));
  At->eraseFromParent();
  for (PHINode &Phi : Header->phis())
    Phi.replaceIncomingBlockWith(Preheader, Inspected);
  IRBuilder<> B(Inspected);
  Value *Passed = B.CreateLoad(B.getInt1Ty(), Flag, "ad.inspected");
  B.CreateCondBr(B.CreateAnd(OK, Passed), Header, Swept);
  return Swept;
}

static void remarkFused(const Function &F, unsigned Loops,
                        ArrayRef<unsigned> Lines, bool Checked) {
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    OptimizationRemark R("ad", "FusedIterations", &F);
    R << "gradient of '" << ore::NV("Function", demangle(F.getName()))
      << "' runs the forward and reverse sweeps of each iteration of the "
      << ore::NV("Loops", Loops) << " loop(s)";
    if (!Lines.empty())
      R << " at line";
    for (unsigned Line : Lines)
      R << " " << ore::NV("Line", Line);
    R << " back to back (their iterations are independent";
    if (Checked)
      R << ", where its run-time checks pass";
    return R << "): its tape holds one iteration";
  });
}

static void remarkNotFused(const Function &F, const std::string &Why) {
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    return OptimizationRemarkMissed("ad", "NotFused", &F)
           << "gradient of '" << ore::NV("Function", demangle(F.getName()))
           << "' sweeps its loops whole, not one iteration at a time: "
           << ore::NV("Reason", Why);
  });
}

bool buildFusedGradient(ADContext &Ctx, DerivativeCache &Cache,
                        const DerivativeSignature &Sig, Function &Out) {
  Function &F = *Sig.Primal;
  if (Sig.Kind != DerivativeKind::Gradient || Sig.ReturnActive || Sig.InTeam ||
      Sig.ThreadIndexedArgs || Sig.FusedIteration ||
      Sig.countArgs(Activity::Active) || !F.getReturnType()->isVoidTy() ||
      isParallelDeviceCode(Ctx.M))
    return false;
  Function *Canonical = Cache.canonicalPrimal(&F);
  if (!Canonical)
    return false;
  LoopInfo &CanonicalLoops = Ctx.FAM.getResult<LoopAnalysis>(*Canonical);
  if (none_of(CanonicalLoops, [](const Loop *L) {
        return !L->isInnermost() && callsLibraryMathInside(*L);
      }))
    return false;

  // Decided on a copy of the canonical primal, which becomes the body.
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(Canonical, VMap);
  Copy->setName(F.getName() + ".ad.fused");
  auto Discard = [&] {
    Ctx.FAM.clear(*Copy, Copy->getName());
    Copy->eraseFromParent();
    return false;
  };
  std::string WhyNot;
  IndependentNest Nest = findIndependentNest(*Copy, Ctx.FAM, WhyNot);
  if (Nest.Loops.empty()) {
    if (!WhyNot.empty())
      remarkNotFused(F, WhyNot);
    return Discard();
  }
  if (!callsLibraryMathInside(*Nest.innermost()))
    return Discard();
  unsigned Loops = Nest.Loops.size();
  SmallVector<unsigned, 4> Lines = linesOf(Nest);
  bool Checked = !Nest.Checks.empty() || !Nest.GuardedChecks.empty() ||
                 !Nest.Inspected.empty();
  BasicBlock *Swept = nullptr;
  Function *SweptGradient = nullptr;
  if (Checked) {
    Swept = guardNest(*Copy, Nest, Ctx.FAM);
    if (!Swept)
      return Discard();
  }
  std::optional<OutlinedBody> Body = outlineBody(*Nest.innermost());
  if (!Body)
    return Discard();
  Body->Outlined->setName(F.getName() + ".ad.iteration");
  Cache.adoptOutlined(Body->Outlined, &F);

  // The iteration's gradient: its pointers are the function's parameters
  // moved by address arithmetic; a caller's restrict and __ad_dupnoneed
  // hold for one that no other pointer of the iteration comes from.
  DerivativeSignature Iteration;
  Iteration.Primal = Body->Outlined;
  Iteration.Kind = DerivativeKind::Gradient;
  Iteration.FusedIteration = true;
  CallInst &Call = *Body->Call;
  SmallVector<const Argument *, 8> BaseOf(Call.arg_size(), nullptr);
  SmallVector<unsigned, 8> Pointing(Copy->arg_size(), 0);
  for (unsigned K = 0; K < Call.arg_size(); ++K) {
    Value *V = Call.getArgOperand(K);
    Activity Act = Activity::Const;
    if (V->getType()->isPointerTy()) {
      auto *Base = dyn_cast<Argument>(getUnderlyingObject(V, 0));
      if (Base && offsetOf(V, Base)) {
        BaseOf[K] = Base;
        ++Pointing[Base->getArgNo()];
        Act = Sig.Args[Base->getArgNo()];
      } else if (auto *G = dyn_cast<GlobalVariable>(getUnderlyingObject(V, 0));
                 !G || !G->isConstant()) {
        return Discard();
      }
    }
    Iteration.Args.push_back(Act);
  }
  for (unsigned K = 0; K < Call.arg_size() && K < 64; ++K) {
    const Argument *Base = BaseOf[K];
    if (!Base || Pointing[Base->getArgNo()] != 1 || Base->getArgNo() >= 64)
      continue;
    uint64_t Bit = uint64_t(1) << Base->getArgNo();
    if (Base->hasNoAliasAttr() || (Sig.NoAliasArgs & Bit))
      Iteration.NoAliasArgs |= uint64_t(1) << K;
    if (Sig.NoNeedArgs & Bit)
      Iteration.NoNeedArgs |= uint64_t(1) << K;
  }
  Function *IterationGradient = Cache.gradient(Iteration);
  if (!IterationGradient)
    return Discard();
  // Last: where fusing gives up, the caller builds this very gradient.
  if (Swept && !(SweptGradient = Cache.sweptGradient(Sig)))
    return Discard();

  // The copy's body becomes the gradient's; each iteration calls the
  // iteration's gradient with the shadows of its pointers.
  Out.splice(Out.end(), Copy);
  SmallVector<Value *, 8> Shadows(Copy->arg_size(), nullptr);
  unsigned NextShadow = Copy->arg_size();
  for (Argument &A : Copy->args()) {
    A.replaceAllUsesWith(Out.getArg(A.getArgNo()));
    if (Sig.Args[A.getArgNo()] == Activity::Shadowed)
      Shadows[A.getArgNo()] = Out.getArg(NextShadow++);
  }
  SmallVector<Value *, 12> Args(Call.args());
  for (unsigned K = 0; K < Call.arg_size(); ++K)
    if (Iteration.Args[K] == Activity::Shadowed)
      Args.push_back(
          shadowOf(Call.getArgOperand(K), &Call,
                   [&](const Argument &A) { return Shadows[A.getArgNo()]; }));
  CallInst *Fused =
      CallInst::Create(IterationGradient, Args, "", Call.getIterator());
  Fused->setDebugLoc(Call.getDebugLoc());
  Call.eraseFromParent();
  if (Swept) {
    // Where the checks fail, the whole sweeps.
    Swept->getTerminator()->eraseFromParent();
    SmallVector<Value *, 12> All;
    for (Argument &A : Out.args())
      All.push_back(&A);
    CallInst::Create(SweptGradient, All, "", Swept);
    ReturnInst::Create(Out.getContext(), Swept);
  }
  Ctx.FAM.clear(*Copy, Copy->getName());
  Copy->eraseFromParent();
  remarkFused(F, Loops, Lines, Checked);
  return true;
}

} // namespace ad
