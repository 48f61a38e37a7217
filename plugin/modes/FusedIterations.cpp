//===- FusedIterations.cpp - A gradient that reverses each iteration at once =//
#include "modes/FusedIterations.h"
#include "analysis/IndependentIterations.h"
#include "core/DerivativeSignature.h"
#include "core/IRHelpers.h"
#include "modes/DerivativeCache.h"
#include "rules/KnownFunctions.h"
#include "rules/MathRules.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

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

static void remarkFused(const Function &F, unsigned Loops,
                        ArrayRef<unsigned> Lines) {
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
    return R << " back to back (their iterations are independent): its tape "
                "holds one iteration";
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
  Ctx.FAM.clear(*Copy, Copy->getName());
  Copy->eraseFromParent();
  remarkFused(F, Loops, Lines);
  return true;
}

} // namespace ad
