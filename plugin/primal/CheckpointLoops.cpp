//===- CheckpointLoops.cpp - Time loops outlined for checkpointing --------===//
//
// See CheckpointLoops.h. The plan (what a loop carries, where its steps
// write) is made while the loop is intact and its scalar evolution valid;
// the rewrite then moves the carried values to memory, outlines one step
// with CodeExtractor, replaces the loop by a call, and emits the ranges
// function from the plan.
//
//===----------------------------------------------------------------------===//
#include "primal/CheckpointLoops.h"
#include "analysis/AccessIntervals.h"
#include "analysis/RegionRanges.h"
#include "core/IRHelpers.h"
#include "core/ParallelRegionCalls.h"
#include "core/PrimalMarks.h"
#include "primal/CheckpointPlan.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/LoopRotationUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include <variant>

using namespace llvm;

static cl::opt<bool> CheckpointTimeLoops(
    "ad-checkpoint", cl::init(true), cl::Hidden,
    cl::desc("Outline time loops so that their gradients checkpoint under "
             "the tape budget (on by default)"));

namespace ad {

namespace {

/// "f: a loop at file.c:12" (or "f: a loop" without debug information).
std::string loopName(const Loop &L, const Function &Orig) {
  std::string Name = demangle(Orig.getName());
  Name += ": a loop";
  if (DebugLoc Loc = L.getStartLoc()) {
    Name += " at ";
    if (auto *Scope = dyn_cast_or_null<DIScope>(Loc.getScope()))
      Name += Scope->getFilename().str();
    Name += ":" + std::to_string(Loc.getLine());
  }
  return Name;
}

class Rewriter {
public:
  Rewriter(Function &F, Plan &P, ScalarEvolution &SE, const Function &Orig,
           SmallVectorImpl<Function *> &Made)
      : F(F), P(P), SE(SE), Orig(Orig), Made(Made), C(F.getContext()),
        I64(Type::getInt64Ty(C)), I32(Type::getInt32Ty(C)),
        Ptr(PointerType::getUnqual(C)) {}

  /// nullopt where it gave up midway (F is then in no defined state).
  std::optional<CheckpointedLoop> run();

private:
  Function &F;
  Plan &P;
  ScalarEvolution &SE;
  const Function &Orig;
  SmallVectorImpl<Function *> &Made;
  LLVMContext &C;
  Type *I64, *I32, *Ptr;
};

std::optional<CheckpointedLoop> Rewriter::run() {
  Loop &L = *P.L;
  BasicBlock *Pre = L.getLoopPreheader(), *Header = L.getHeader(),
             *Latch = L.getLoopLatch(), *Exit = L.getExitBlock();
  std::string Name = loopName(L, Orig);
  SmallVector<BasicBlock *, 16> Blocks(L.blocks());

  // The trip count, expanded before anything moves.
  Value *Trips = ConstantInt::getSigned(I64, -1);
  if (P.TripCount) {
    SCEVExpander Expander(SE, "ad.ckpt");
    Trips = Expander.expandCodeFor(P.TripCount, I64, Pre->getTerminator());
  }

  // The carried values' struct: an index (i32) for a swapped pointer.
  SmallVector<Type *, 8> Fields;
  for (PHINode *Phi : P.Carried)
    Fields.push_back(P.ClassOf.count(Phi) ? I32 : Phi->getType());
  StructType *CarriedTy =
      StructType::create(C, Fields, F.getName().str() + ".ad.carried");
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Slot = B.CreateAlloca(CarriedTy, nullptr, "ad.carried");

  auto StartOf = [&](PHINode *Phi) -> Value * {
    Value *Start = Phi->getIncomingValueForBlock(Pre);
    auto It = P.ClassOf.find(Phi);
    if (It == P.ClassOf.end())
      return Start;
    return ConstantInt::get(I32, find(P.Classes[It->second].Starts, Start) -
                                     P.Classes[It->second].Starts.begin());
  };
  SmallVector<Value *, 8> FirstValues;
  for (PHINode *Phi : P.Carried)
    FirstValues.push_back(StartOf(Phi));
  // Stored before the loop (so that the slot is an input of the step, not
  // sunk into it); the loop function stores them again.
  B.SetInsertPoint(Pre->getTerminator());
  for (auto [K, V] : enumerate(FirstValues))
    B.CreateStore(V, B.CreateStructGEP(CarriedTy, Slot, K));

  // Values used after the loop: read from the struct there, as the call
  // will return them.
  SmallVector<LoadInst *, 2> LiveOutLoads;
  {
    DenseMap<PHINode *, unsigned> FieldOf;
    for (auto [K, Phi] : enumerate(P.Carried))
      FieldOf[Phi] = K;
    IRBuilder<> EB(&*Exit->getFirstInsertionPt());
    for (auto [X, Phi] : P.LiveOut) {
      unsigned K = FieldOf[Phi];
      LoadInst *Ld =
          EB.CreateLoad(Fields[K], EB.CreateStructGEP(CarriedTy, Slot, K),
                        X->getName() + ".after");
      LiveOutLoads.push_back(Ld);
      Value *V = Ld;
      auto It = P.ClassOf.find(Phi);
      if (It != P.ClassOf.end()) {
        ArrayRef<Value *> Starts = P.Classes[It->second].Starts;
        V = Starts.back();
        for (unsigned J = Starts.size() - 1; J-- > 0;)
          V = EB.CreateSelect(EB.CreateICmpEQ(Ld, ConstantInt::get(I32, J)),
                              Starts[J], V);
      }
      for (PHINode &ExitPhi : make_early_inc_range(Exit->phis()))
        if (ExitPhi.getIncomingValue(0) == X) {
          ExitPhi.replaceAllUsesWith(V);
          ExitPhi.eraseFromParent();
        }
      X->replaceUsesWithIf(V, [&](Use &U) {
        return !L.contains(cast<Instruction>(U.getUser())->getParent());
      });
    }
    // The exit's other phis (it has one predecessor) hold values from
    // before the loop.
    for (PHINode &ExitPhi : make_early_inc_range(Exit->phis())) {
      ExitPhi.replaceAllUsesWith(ExitPhi.getIncomingValue(0));
      ExitPhi.eraseFromParent();
    }
  }

  // In the header: the values loaded; a swapped pointer chosen by index.
  B.SetInsertPoint(&*Header->getFirstInsertionPt());
  DenseMap<PHINode *, Value *> Loaded;
  for (auto [K, Phi] : enumerate(P.Carried))
    Loaded[Phi] = B.CreateLoad(Fields[K], B.CreateStructGEP(CarriedTy, Slot, K),
                               Phi->getName() + ".carried");
  DenseMap<PHINode *, Value *> Replacement;
  for (PHINode *Phi : P.Carried) {
    auto It = P.ClassOf.find(Phi);
    if (It == P.ClassOf.end()) {
      Replacement[Phi] = Loaded[Phi];
      continue;
    }
    ArrayRef<Value *> Starts = P.Classes[It->second].Starts;
    Value *V = Starts.back();
    for (unsigned K = Starts.size() - 1; K-- > 0;)
      V = B.CreateSelect(B.CreateICmpEQ(Loaded[Phi], ConstantInt::get(I32, K)),
                         Starts[K], V);
    Replacement[Phi] = V;
  }
  // Before the latch's branch: the next values stored.
  B.SetInsertPoint(Latch->getTerminator());
  SmallVector<Value *, 8> Next;
  for (PHINode *Phi : P.Carried) {
    Value *N = Phi->getIncomingValueForBlock(Latch);
    if (P.ClassOf.count(Phi))
      N = Loaded[cast<PHINode>(N)];
    Next.push_back(N);
  }
  for (auto [K, N] : enumerate(Next)) {
    if (auto *Phi = dyn_cast<PHINode>(N); Phi && Replacement.count(Phi))
      N = Replacement[Phi];
    B.CreateStore(N, B.CreateStructGEP(CarriedTy, Slot, K));
  }
  for (PHINode *Phi : P.Carried) {
    Phi->replaceAllUsesWith(Replacement[Phi]);
    Phi->eraseFromParent();
  }

  // The back edge goes through a block outside the step.
  BasicBlock *Again = BasicBlock::Create(C, "ad.ckpt.again", &F);
  BranchInst::Create(Header, Again);
  Latch->getTerminator()->replaceSuccessorWith(Header, Again);

  CodeExtractor Extractor(Blocks);
  if (!Extractor.isEligible())
    return std::nullopt;
  SetVector<Value *> Inputs, Outputs, Allocas;
  Extractor.findInputsOutputs(Inputs, Outputs, Allocas);
  if (!Outputs.empty())
    return std::nullopt;
  CodeExtractorAnalysisCache Cache(F);
  Function *Step = Extractor.extractCodeRegion(Cache);
  if (!Step)
    return std::nullopt;
  Made.push_back(Step);
  if (!Step->hasOneUse())
    return std::nullopt;
  Step->setName(F.getName() + ".ad.step");
  Step->setMetadata("ad.checkpoint.step", MDNode::get(C, {}));
  auto *StepCall = cast<CallInst>(Step->user_back());
  BasicBlock *CallBlock = StepCall->getParent();
  // Which result goes on.
  uint64_t GoOn = 0;
  Instruction *Term = CallBlock->getTerminator();
  if (auto *Br = dyn_cast<BranchInst>(Term);
      Br && Br->isConditional() && Br->getCondition() == StepCall)
    GoOn = Br->getSuccessor(0) == Again ? 1 : 0;
  else if (auto *Sw = dyn_cast<SwitchInst>(Term);
           Sw && Sw->getCondition() == StepCall) {
    bool Found = false;
    for (auto Case : Sw->cases())
      if (Case.getCaseSuccessor() == Again)
        GoOn = Case.getCaseValue()->getZExtValue(), Found = true;
    if (!Found)
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  unsigned SlotArg = ~0u;
  SmallVector<Value *, 8> StepInputs;
  for (auto [K, A] : enumerate(StepCall->args())) {
    if (A.get() == Slot)
      SlotArg = K;
    else
      StepInputs.push_back(A.get());
  }
  if (SlotArg == ~0u)
    return std::nullopt;

  // Values the ranges need that the step does not take.
  SmallVector<Value *, 4> Extra;
  auto NeedInput = [&](Value *V) {
    if (isa<Constant>(V) || is_contained(StepInputs, V) ||
        is_contained(Extra, V))
      return;
    Extra.push_back(V);
  };
  for (WriteRange &W : P.Writes) {
    if (W.Base)
      NeedInput(W.Base);
    auto Visit = [&](const SCEV *X) {
      if (auto *U = dyn_cast<SCEVUnknown>(X))
        NeedInput(U->getValue());
    };
    SmallVector<const SCEV *, 8> Exprs{W.Lo, W.Hi, W.Size};
    for (const Compare &Cmp : W.Assume)
      Exprs.append({Cmp.Lhs, Cmp.Rhs});
    for (const Compare &Cmp : W.Runs)
      Exprs.append({Cmp.Lhs, Cmp.Rhs});
    for (const SCEV *S : Exprs)
      SCEVExprContains(S, [&](const SCEV *X) {
        Visit(X);
        return false;
      });
  }
  for (SwapClass &Cl : P.Classes)
    for (Value *S : Cl.Starts)
      NeedInput(S);
  SmallVector<Value *, 8> Inputs2(StepInputs);
  append_range(Inputs2, Extra);

  // f.ad.ranges(ptr carried, inputs..., i64 whole, ptr out) -> i64.
  SmallVector<Type *, 8> RangeParams{Ptr};
  for (Value *V : Inputs2)
    RangeParams.push_back(V->getType());
  RangeParams.push_back(I64);
  RangeParams.push_back(Ptr);
  Function *Ranges = Function::Create(
      FunctionType::get(I64, RangeParams, false), GlobalValue::InternalLinkage,
      F.getName() + ".ad.ranges", F.getParent());
  Made.push_back(Ranges);
  Ranges->addFnAttr(Attribute::NoUnwind);
  unsigned MaxRanges = 1;
  {
    BasicBlock *Entry = BasicBlock::Create(C, "entry", Ranges);
    BasicBlock *Step1 = BasicBlock::Create(C, "next.step", Ranges);
    BasicBlock *Whole = BasicBlock::Create(C, "whole", Ranges);
    IRBuilder<> RB(Entry);
    Value *CarriedArg = Ranges->getArg(0);
    Value *WholeArg = Ranges->getArg(1 + Inputs2.size());
    Value *Out = Ranges->getArg(2 + Inputs2.size());
    RB.CreateCondBr(RB.CreateIsNotNull(WholeArg), Whole, Step1);
    auto Map = [&](Value *V) -> Value * {
      if (isa<Constant>(V))
        return V;
      return Ranges->getArg(1 + (find(Inputs2, V) - Inputs2.begin()));
    };
    StructType *RangeTy = StructType::get(C, {Ptr, I64});
    for (bool IsWhole : {false, true}) {
      RB.SetInsertPoint(IsWhole ? Whole : Step1);
      unsigned N = 0;
      Value *Holds = RB.getTrue();
      auto Emit = [&](Value *Addr, Value *Len) {
        Value *Slot2 = RB.CreateConstGEP1_64(RangeTy, Out, N++);
        RB.CreateStore(Addr, RB.CreateStructGEP(RangeTy, Slot2, 0));
        RB.CreateStore(Len, RB.CreateStructGEP(RangeTy, Slot2, 1));
      };
      Emit(CarriedArg, ConstantInt::get(
                           I64, F.getDataLayout().getTypeAllocSize(CarriedTy)));
      for (WriteRange &W : P.Writes) {
        if (W.AfterLoop && !IsWhole)
          continue;
        auto Emit2 = [&](const Conjunction &Conds) {
          Value *All = RB.getTrue();
          for (const Compare &Cmp : Conds)
            All = RB.CreateAnd(
                All, RB.CreateICmp(Cmp.Pred, emitExpression(Cmp.Lhs, RB, Map),
                                   emitExpression(Cmp.Rhs, RB, Map)));
          return All;
        };
        // A loop that is not entered writes nothing; its assumptions
        // need not hold then.
        Value *Runs = Emit2(W.Runs);
        Holds = RB.CreateAnd(Holds,
                             RB.CreateOr(RB.CreateNot(Runs), Emit2(W.Assume)));
        Value *Lo = RB.CreateSExtOrTrunc(emitExpression(W.Lo, RB, Map), I64);
        Value *Hi = RB.CreateSExtOrTrunc(emitExpression(W.Hi, RB, Map), I64);
        Value *Size =
            RB.CreateZExtOrTrunc(emitExpression(W.Size, RB, Map), I64);
        Value *Len = RB.CreateBinaryIntrinsic(
            Intrinsic::smax, RB.CreateAdd(RB.CreateSub(Hi, Lo), Size),
            ConstantInt::get(I64, 0));
        Len = RB.CreateSelect(Runs, Len, ConstantInt::get(I64, 0));
        if (W.Class < 0) {
          Emit(RB.CreatePtrAdd(Map(W.Base), Lo), Len);
          continue;
        }
        ArrayRef<Value *> Starts = P.Classes[W.Class].Starts;
        if (IsWhole) {
          for (Value *S : Starts)
            Emit(RB.CreatePtrAdd(Map(S), Lo), Len);
          continue;
        }
        unsigned Field = find(P.Carried, W.ClassPhi) - P.Carried.begin();
        Value *Index = RB.CreateLoad(
            I32, RB.CreateStructGEP(CarriedTy, CarriedArg, Field));
        Value *Base = Map(Starts.back());
        for (unsigned K = Starts.size() - 1; K-- > 0;)
          Base =
              RB.CreateSelect(RB.CreateICmpEQ(Index, ConstantInt::get(I32, K)),
                              Map(Starts[K]), Base);
        Emit(RB.CreatePtrAdd(Base, Lo), Len);
      }
      // Where index arithmetic would wrap, no range is known: the
      // schedule stops the program (~0 ranges) rather than save too little.
      RB.CreateRet(RB.CreateSelect(Holds, ConstantInt::get(I64, N),
                                   ConstantInt::getAllOnesValue(I64)));
      MaxRanges = std::max(MaxRanges, N);
    }
  }

  // f.ad.loop(i64 trips, first values..., inputs...): the steps.
  SmallVector<Type *, 12> LoopParams{I64};
  for (Value *V : FirstValues)
    LoopParams.push_back(V->getType());
  for (Value *V : Inputs2)
    LoopParams.push_back(V->getType());
  SmallVector<Type *, 2> OutTys;
  SmallVector<unsigned, 2> OutFields;
  for (auto [X, Phi] : P.LiveOut) {
    unsigned K = find(P.Carried, Phi) - P.Carried.begin();
    OutFields.push_back(K);
    OutTys.push_back(Fields[K]);
  }
  Type *RetTy =
      OutTys.empty() ? Type::getVoidTy(C) : (Type *)StructType::get(C, OutTys);
  Function *LoopFn = Function::Create(
      FunctionType::get(RetTy, LoopParams, false), GlobalValue::InternalLinkage,
      F.getName() + ".ad.loop", F.getParent());
  Made.insert(Made.begin(), LoopFn);
  LoopFn->addFnAttr(Attribute::NoUnwind);
  {
    BasicBlock *Entry = BasicBlock::Create(C, "entry", LoopFn);
    BasicBlock *Body = BasicBlock::Create(C, "step", LoopFn);
    BasicBlock *Done = BasicBlock::Create(C, "done", LoopFn);
    IRBuilder<> LB(Entry);
    Value *S = LB.CreateAlloca(CarriedTy, nullptr, "carried");
    for (unsigned K = 0; K < FirstValues.size(); ++K)
      LB.CreateStore(LoopFn->getArg(1 + K),
                     LB.CreateStructGEP(CarriedTy, S, K));
    LB.CreateBr(Body);
    LB.SetInsertPoint(Body);
    SmallVector<Value *, 8> Args;
    for (unsigned K = 0; K < StepInputs.size(); ++K)
      Args.push_back(LoopFn->getArg(1 + FirstValues.size() + K));
    Args.insert(Args.begin() + SlotArg, S);
    Value *R = LB.CreateCall(Step, Args);
    Value *On = LB.CreateICmpEQ(R, ConstantInt::get(R->getType(), GoOn));
    LB.CreateCondBr(On, Body, Done);
    LB.SetInsertPoint(Done);
    if (OutTys.empty()) {
      LB.CreateRetVoid();
    } else {
      Value *Out = PoisonValue::get(RetTy);
      for (auto [J, K] : enumerate(OutFields))
        Out = LB.CreateInsertValue(
            Out, LB.CreateLoad(Fields[K], LB.CreateStructGEP(CarriedTy, S, K)),
            J);
      LB.CreateRet(Out);
    }
  }

  // The loop in F becomes one call.
  SmallVector<Value *, 12> CallArgs{Trips};
  append_range(CallArgs, FirstValues);
  append_range(CallArgs, Inputs2);
  Instruction *PreTerm = Pre->getTerminator();
  IRBuilder<> FB(PreTerm);
  CallInst *Call = FB.CreateCall(LoopFn, CallArgs);
  Call->setDebugLoc(StepCall->getDebugLoc());
  FB.CreateBr(Exit);
  PreTerm->eraseFromParent();
  for (auto [J, Ld] : enumerate(LiveOutLoads)) {
    IRBuilder<> XB(Ld);
    Ld->replaceAllUsesWith(XB.CreateExtractValue(Call, J));
  }
  // The stores of first values in the preheader and the slot go.
  SmallVector<BasicBlock *, 4> Dead{CallBlock, Again};
  for (BasicBlock *BB : Dead)
    BB->dropAllReferences();
  for (BasicBlock *BB : Dead)
    BB->eraseFromParent();
  for (User *U : make_early_inc_range(Slot->users()))
    if (auto *G = dyn_cast<GetElementPtrInst>(U)) {
      for (User *GU : make_early_inc_range(G->users()))
        cast<Instruction>(GU)->eraseFromParent();
      G->eraseFromParent();
    } else {
      cast<Instruction>(U)->eraseFromParent(); // a store of field 0
    }
  Slot->eraseFromParent();

  CheckpointedLoop Pieces;
  Pieces.Loop = LoopFn;
  Pieces.Step = Step;
  Pieces.Ranges = Ranges;
  Pieces.Carried = CarriedTy;
  Pieces.FirstValues = FirstValues.size();
  Pieces.StepInputs = StepInputs.size();
  Pieces.CarriedArg = SlotArg;
  Pieces.OutFields.assign(OutFields.begin(), OutFields.end());
  Pieces.GoOn = GoOn;
  Pieces.MaxRanges = MaxRanges;
  Pieces.Name = Name;
  Metadata *Ops[9] = {
      ConstantAsMetadata::get(Step),
      ConstantAsMetadata::get(Ranges),
      ConstantAsMetadata::get(ConstantInt::get(I64, Pieces.FirstValues)),
      ConstantAsMetadata::get(ConstantInt::get(I64, Pieces.StepInputs)),
      ConstantAsMetadata::get(ConstantInt::get(I64, GoOn)),
      ConstantAsMetadata::get(ConstantInt::get(I64, MaxRanges)),
      MDString::get(C, Name),
      ConstantAsMetadata::get(ConstantInt::get(I64, SlotArg)),
      nullptr};
  SmallVector<Metadata *, 2> Outs;
  for (unsigned K : OutFields)
    Outs.push_back(ConstantAsMetadata::get(ConstantInt::get(I64, K)));
  Ops[8] = MDNode::get(C, Outs);
  LoopFn->setMetadata("ad.checkpoint", MDNode::get(C, Ops));
  return Pieces;
}

/// Top-level loops whose steps are loop nests, in program order.
SmallVector<BasicBlock *, 4> timeLoopHeaders(Function &F, LoopInfo &LI) {
  SmallVector<BasicBlock *, 4> Headers;
  ReversePostOrderTraversal<Function *> RPO(&F);
  for (BasicBlock *BB : RPO)
    if (Loop *L = LI.getLoopFor(BB); L && !L->getParentLoop() &&
                                     L->getHeader() == BB &&
                                     !L->getSubLoops().empty())
      Headers.push_back(BB);
  return Headers;
}

/// Inlines the calls in \p L to functions the plugin differentiates from
/// their bodies (not recursive ones): the stores of a step's helpers are
/// then the loop's own, which the plan can bound. Their scalars are
/// promoted out of the stack again. Whether any was inlined.
bool inlineHelpers(Function &F, Loop &L, DominatorTree &DT) {
  SmallVector<CallBase *, 4> Calls;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        Function *Callee = calledFunction(*Call);
        if (!Callee || Callee == &F || Callee->isDeclaration() ||
            Callee->isVarArg() || isParallelRegionCall(*Call) ||
            classifyCallee(*Call).Kind != CalleeKind::Defined ||
            any_of(Callee->users(), [&](User *U) {
              auto *C = dyn_cast<CallBase>(U);
              return C && C->getFunction() == Callee;
            }))
          continue;
        Calls.push_back(Call);
      }
  bool Inlined = false;
  for (CallBase *Call : Calls) {
    InlineFunctionInfo IFI;
    Inlined |= InlineFunction(*Call, IFI).isSuccess();
  }
  if (!Inlined)
    return false;
  DT.recalculate(F);
  SmallVector<AllocaInst *, 8> Slots;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
      Slots.push_back(AI);
  if (!Slots.empty())
    PromoteMemToReg(Slots, DT);
  return true;
}

/// Whether \p L leaves only from its header, before its body: the body
/// then runs one iteration fewer than the header (-O0's loops).
bool exitsBeforeBody(const Loop &L) {
  return L.getExitingBlock() == L.getHeader() &&
         L.getLoopLatch() != L.getHeader();
}

/// Rotates the loops inside \p L that leave before their body, so that the
/// offsets a store in a body takes over a loop are those ScalarEvolution
/// counts to the backedge-taken count (otherwise one step too far: bytes
/// past the end of an array in a snapshot). Whether any was rotated.
bool rotateSubloops(Function &F, Loop &L, FunctionAnalysisManager &FAM) {
  SmallVector<Loop *, 8> Inner;
  for (Loop *Sub : L.getLoopsInPreorder())
    if (exitsBeforeBody(*Sub))
      Inner.push_back(Sub);
  if (Inner.empty())
    return false;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AC = FAM.getResult<AssumptionAnalysis>(F);
  auto &TTI = FAM.getResult<TargetIRAnalysis>(F);
  SimplifyQuery SQ(F.getDataLayout(), &DT, &AC);
  bool Rotated = false;
  // Innermost last: rotating an outer loop first keeps the inner ones.
  for (Loop *Sub : Inner)
    Rotated |= LoopRotation(Sub, &LI, &TTI, &AC, &DT, &SE, nullptr, SQ,
                            /*RotationOnly=*/true, /*Threshold=*/~0u,
                            /*IsUtilMode=*/true);
  return Rotated;
}

bool onGPU(const Module &M) {
  Triple T(M.getTargetTriple());
  return T.isNVPTX() || T.isAMDGPU();
}

/// Inlines the helpers of the loop at \p Header (a few levels deep) and
/// rotates its subloops. Whether anything changed.
bool prepareLoop(Function &F, BasicBlock *&Header,
                 FunctionAnalysisManager &FAM) {
  bool Changed = false;
  for (unsigned Round = 0; Round < 3; ++Round) {
    Loop *L = FAM.getResult<LoopAnalysis>(F).getLoopFor(Header);
    if (!inlineHelpers(F, *L, FAM.getResult<DominatorTreeAnalysis>(F)))
      break;
    FAM.invalidate(F, PreservedAnalyses::none());
    Changed = true;
  }
  Loop *L = FAM.getResult<LoopAnalysis>(F).getLoopFor(Header);
  if (rotateSubloops(F, *L, FAM)) {
    Header = L->getHeader(); // The time loop itself may have rotated.
    FAM.invalidate(F, PreservedAnalyses::none());
    Changed = true;
  }
  return Changed;
}

/// The plan for the loop at \p Header of \p F as it is.
std::variant<Plan, Rejection> planLoop(Function &F, BasicBlock *Header,
                                       FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  return planCheckpoint(
      F, *LI.getLoopFor(Header), LI, FAM.getResult<ScalarEvolutionAnalysis>(F),
      FAM.getResult<DominatorTreeAnalysis>(F), FAM.getResult<AAManager>(F));
}

} // namespace

CheckpointOutlining outlineCheckpointedLoops(Function &F, const Function &User,
                                             FunctionAnalysisManager &FAM,
                                             bool Quiet) {
  CheckpointOutlining Result;
  // The scheduler is C built for 64-bit Linux hosts.
  Triple T(F.getParent()->getTargetTriple());
  if (!CheckpointTimeLoops || onGPU(*F.getParent()) || !T.isOSLinux() ||
      F.getDataLayout().getPointerSizeInBits() != 64)
    return Result;
  OptimizationRemarkEmitter ORE(&F);
  SmallPtrSet<BasicBlock *, 4> Tried;
  while (true) {
    BasicBlock *Header = nullptr;
    for (BasicBlock *H : timeLoopHeaders(F, FAM.getResult<LoopAnalysis>(F)))
      if (!Tried.contains(H)) {
        Header = H;
        break;
      }
    if (!Header)
      break;
    Tried.insert(Header);
    DebugLoc Loc =
        FAM.getResult<LoopAnalysis>(F).getLoopFor(Header)->getStartLoc();
    // Inlining and rotating change the gradient's code: tried on a copy
    // first, kept only for a loop that is then checkpointed.
    ValueToValueMapTy VMap;
    Function *Trial = CloneFunction(&F, VMap);
    auto *TrialHeader = cast<BasicBlock>(VMap[Header]);
    bool Prepared = prepareLoop(*Trial, TrialHeader, FAM);
    std::variant<Plan, Rejection> Planned = planLoop(*Trial, TrialHeader, FAM);
    FAM.clear(*Trial, Trial->getName());
    Trial->eraseFromParent();
    if (auto *R = std::get_if<Rejection>(&Planned)) {
      if (!Quiet)
        ORE.emit([&] {
          return OptimizationRemarkMissed("ad", "NotCheckpointed", Loc, Header)
                 << "the gradient of '" << demangle(User.getName())
                 << "' records every iteration of this loop, whatever the "
                    "tape budget: "
                 << R->Why;
        });
      continue;
    }
    if (Prepared)
      prepareLoop(F, Header, FAM);
    Planned = planLoop(F, Header, FAM);
    Plan *P = std::get_if<Plan>(&Planned);
    if (!P) { // The copy and the function differ: an internal error.
      Result.Failed = true;
      return Result;
    }
    bool Counted = P->TripCount;
    std::optional<CheckpointedLoop> Pieces =
        Rewriter(F, *P, FAM.getResult<ScalarEvolutionAnalysis>(F), User,
                 Result.Made)
            .run();
    FAM.invalidate(F, PreservedAnalyses::none());
    if (!Pieces) {
      Result.Failed = true;
      return Result;
    }
    if (!Quiet)
      ORE.emit([&] {
        return OptimizationRemark("ad", "Checkpointable", Loc,
                                  &F.getEntryBlock())
               << "the gradient of '" << demangle(User.getName())
               << "' may checkpoint this loop under the tape budget ("
               << (Counted ? "counted: binomial"
                           : "count known at its exit: online")
               << " schedule; a state is "
               << ore::NV("Ranges", Pieces->MaxRanges)
               << " range(s) of memory)";
      });
  }
  return Result;
}

bool isCheckpointStep(const Function &F) {
  return F.hasMetadata("ad.checkpoint.step");
}

std::optional<CheckpointedLoop> checkpointedLoop(const Function &F) {
  MDNode *N = F.getMetadata("ad.checkpoint");
  if (!N || N->getNumOperands() != 9)
    return std::nullopt;
  auto Fn = [&](unsigned K) {
    return cast<Function>(
        cast<ConstantAsMetadata>(N->getOperand(K))->getValue());
  };
  auto Int = [&](unsigned K) {
    return cast<ConstantInt>(
               cast<ConstantAsMetadata>(N->getOperand(K))->getValue())
        ->getZExtValue();
  };
  CheckpointedLoop P;
  P.Loop = const_cast<Function *>(&F);
  P.Step = Fn(0);
  P.Ranges = Fn(1);
  P.FirstValues = Int(2);
  P.StepInputs = Int(3);
  P.GoOn = Int(4);
  P.MaxRanges = Int(5);
  P.Name = cast<MDString>(N->getOperand(6))->getString().str();
  P.CarriedArg = Int(7);
  for (const MDOperand &K : cast<MDNode>(N->getOperand(8))->operands())
    P.OutFields.push_back(
        cast<ConstantInt>(cast<ConstantAsMetadata>(K)->getValue())
            ->getZExtValue());
  auto *Slot = cast<AllocaInst>(&*F.getEntryBlock().begin());
  P.Carried = cast<StructType>(Slot->getAllocatedType());
  return P;
}

} // namespace ad
