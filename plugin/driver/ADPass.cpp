//===- ADPass.cpp - The module pass that replaces every __ad_* call
//---------===//
//
// The path of one call, file by file:
//   1. EntryPointCall.cpp reads the call: function, activities, values.
//   2. DerivativeCache.cpp finds or synthesizes the derivative:
//      Preprocess.cpp makes the canonical primal, ActivityAnalysis.cpp says
//      what carries derivatives, and TangentBuilder.cpp (forward) or
//      ReverseBuilder.cpp + ReverseInstructions.cpp (reverse) build it, using
//      MathRules.cpp / KnownFunctions.cpp for calls.
//   3. This file replaces the call and hands the result back in the type the
//      call site declared.
//
//===----------------------------------------------------------------------===//
#include "driver/ADPass.h"
#include "analysis/ThreadSharing.h"
#include "core/IRHelpers.h"
#include "driver/DerivativeCallSites.h"
#include "driver/EntryPointCall.h"
#include "driver/ForkRegions.h"
#include "driver/Libdevice.h"
#include "driver/LoweringOrder.h"
#include "driver/PostADPipeline.h"
#include "modes/DerivativeCache.h"
#include "modes/MutableGlobals.h"
#include "rules/CustomRules.h"
#include "rules/MessagePassing.h"
#include "rules/RuleTable.h"
#include "runtime/MessageRuntime.h"
#include "support/TimeReport.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"

using namespace llvm;

namespace ad {
namespace {

/// The scalar leaves of a type with their byte offsets, vectors split into
/// lanes: how C sees the bytes of a returned struct, whatever the ABI made
/// of it ({float, float} may come back as <2 x float>).
void scalarLeaves(const DataLayout &DL, Type *T, uint64_t Base,
                  SmallVectorImpl<std::pair<uint64_t, Type *>> &Out) {
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      scalarLeaves(DL, ST->getElementType(I), Base + SL->getElementOffset(I),
                   Out);
  } else if (auto *AT = dyn_cast<ArrayType>(T)) {
    uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      scalarLeaves(DL, AT->getElementType(), Base + I * Size, Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    uint64_t Size = DL.getTypeAllocSize(VT->getElementType());
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      scalarLeaves(DL, VT->getElementType(), Base + I * Size, Out);
  } else {
    Out.push_back({Base, T});
  }
}

/// Whether the call site's declared return type can carry \p Values: one
/// floating-point value in any floating-point type (converted), several in a
/// struct laid out as C lays out those fields (returned directly, coerced
/// by the ABI, or through sret). Anything else would hand back bytes of the
/// wrong meaning, so it is an error.
bool checkResultType(EntryPointCall &EP, ArrayRef<Type *> Types,
                     DiagnosticReporter &Diag) {
  CallBase &Call = *EP.Call;
  const DataLayout &DL = Call.getModule()->getDataLayout();
  Type *RetTy = Call.getType();
  if (Types.empty() || (RetTy->isVoidTy() && !EP.SRet))
    return true;
  if (Types.size() == 1 && Types[0] == RetTy)
    return true;
  if (Types.size() == 1 && Types[0]->isFloatingPointTy()) {
    if (RetTy->isFloatingPointTy())
      return true;
  } else {
    // The declared struct must hold exactly these fields at the offsets C
    // gives them: a long or a missing field would receive the wrong bits.
    StructType *Layout = StructType::get(Call.getContext(), Types);
    Type *Declared = EP.SRet ? Call.getParamStructRetType(0) : RetTy;
    SmallVector<std::pair<uint64_t, Type *>, 8> Want, Have;
    scalarLeaves(DL, Layout, 0, Want);
    if (Declared)
      scalarLeaves(DL, Declared, 0, Have);
    if (Declared && Want == Have &&
        DL.getTypeAllocSize(Declared) == DL.getTypeAllocSize(Layout))
      return true;
    // rustc types an sret slot as bytes ([32 x i8]): only its size is
    // known, and it must be the size of C's layout of the fields.
    auto *Bytes = dyn_cast_or_null<ArrayType>(Declared);
    if (EP.SRet && Bytes && Bytes->getElementType()->isIntegerTy(8) &&
        Bytes->getNumElements() == DL.getTypeAllocSize(Layout))
      return true;
  }
  std::string Want;
  raw_string_ostream OS(Want);
  for (unsigned K = 0; K < Types.size(); ++K)
    OS << (K ? ", " : "") << *Types[K];
  Diag.invalidCall(&Call,
                   "the entry point's declared return type cannot hold its " +
                       Twine(unsigned(Types.size())) + " result(s) (" + Want +
                       ")",
                   "declare the entry point to return a double, or a struct "
                   "with one field per __ad_out argument, in order");
  return false;
}

/// Returns \p Values to the caller in the type its prototype declared (see
/// checkResultType): a scalar (converted between float widths), or a struct
/// of several values laid out as C lays it out (through memory, as C's ABI
/// coerces it), or through the sret pointer.
void deliverResults(EntryPointCall &EP, ArrayRef<Value *> Values) {
  CallBase &Call = *EP.Call;
  IRBuilder<> B(&Call);
  Module &M = *Call.getModule();
  const DataLayout &DL = M.getDataLayout();
  Type *RetTy = Call.getType();

  SmallVector<Type *, 4> Types;
  for (Value *V : Values)
    Types.push_back(V->getType());
  StructType *Layout = StructType::get(M.getContext(), Types);
  auto StoreFields = [&](Value *Dst) {
    for (unsigned K = 0; K < Values.size(); ++K)
      B.CreateStore(Values[K], B.CreateStructGEP(Layout, Dst, K));
  };

  Value *Result = nullptr;
  if (EP.SRet) {
    StoreFields(EP.SRet);
  } else if (RetTy->isVoidTy()) {
  } else if (Values.empty()) {
    Result = Constant::getNullValue(RetTy);
  } else if (Values.size() == 1 && Values[0]->getType() == RetTy) {
    Result = Values[0];
  } else if (Values.size() == 1 && RetTy->isFloatingPointTy()) {
    Result = B.CreateFPCast(Values[0], RetTy);
  } else if (RetTy == Layout) {
    Result = PoisonValue::get(RetTy);
    for (unsigned K = 0; K < Values.size(); ++K)
      Result = B.CreateInsertValue(Result, Values[K], K);
  } else {
    IRBuilder<> EntryB(&*Call.getFunction()->getEntryBlock().begin());
    uint64_t Size = DL.getTypeAllocSize(Layout).getFixedValue();
    AllocaInst *Tmp = EntryB.CreateAlloca(ArrayType::get(B.getInt8Ty(), Size),
                                          nullptr, "ad.result");
    Tmp->setAlignment(Align(16));
    StoreFields(Tmp);
    Result = B.CreateLoad(RetTy, Tmp);
  }
  if (Result)
    Call.replaceAllUsesWith(Result);
  else if (!RetTy->isVoidTy())
    Call.replaceAllUsesWith(PoisonValue::get(RetTy));
}

/// -Rpass=ad: at each entry-point call, which derivative it calls and
/// whether this call synthesized it or reused one built for an earlier call.
void remarkDerivative(const EntryPointCall &EP, unsigned NewFunctions) {
  OptimizationRemarkEmitter ORE(EP.Call->getFunction());
  ORE.emit([&] {
    OptimizationRemark R("ad", "Derivative", EP.Call);
    R << (EP.Kind == EntryPointKind::Reverse ? "reverse" : "forward")
      << "-mode derivative of '"
      << ore::NV("Function", demangle(EP.Fn->getName())) << "': ";
    if (NewFunctions)
      R << "synthesized " << ore::NV("Synthesized", NewFunctions)
        << " new function(s)";
    else
      R << "reused";
    return R;
  });
}

/// -Rpass=ad: once per module, how many derivative functions were built and
/// how many requests (entry points and calls inside differentiated code)
/// were served by an existing one.
void remarkCacheSummary(Function &At, const DerivativeCache &Cache,
                        size_t EntryCalls) {
  OptimizationRemarkEmitter ORE(&At);
  ORE.emit([&] {
    return OptimizationRemark("ad", "DerivativeCache", &At)
           << ore::NV("EntryCalls", unsigned(EntryCalls))
           << " differentiation call(s): "
           << ore::NV("Synthesized", Cache.synthesizedCount())
           << " derivative function(s) synthesized, "
           << ore::NV("Reused", Cache.reusedCount())
           << " request(s) reused one";
  });
}

/// -Rpass=ad: how much work classifying callees took (see RuleTable.h).
void remarkRuleTable(Function &At, const RuleTable &Rules) {
  OptimizationRemarkEmitter ORE(&At);
  ORE.emit([&] {
    const RuleTable::Counters &N = Rules.counters();
    return OptimizationRemark("ad", "RuleTable", &At)
           << "rule table: " << ore::NV("Signatures", N.Resolutions)
           << " callee signature(s) resolved for "
           << ore::NV("CallSites", N.TableLookups) << " call site(s); "
           << ore::NV("Repeats", N.SiteHits)
           << " repeated question(s) answered per site";
  });
}

/// Zeroes the shadows of the mutable globals a derivative used: what they
/// hold when it returns (tangents or adjoints of the globals' final and
/// initial values) must not reach the next call (MutableGlobals.h).
void resetShadows(IRBuilder<> &B, ArrayRef<GlobalVariable *> Shadows) {
  for (GlobalVariable *S : Shadows)
    if (!isBlockShared(*S))
      B.CreateMemSet(S, B.getInt8(0),
                     S->getDataLayout().getTypeAllocSize(S->getValueType()),
                     S->getAlign());
}

/// GPU shared memory holds garbage when a block starts, and every thread of
/// the block sees the same shadow: the block zeroes the shadows of the
/// __shared__ variables before the derivative, together, then waits for
/// all its threads (runtime/DeviceRuntime.cpp). Where f synchronizes the
/// block, CUDA's rule has every thread of the block call it, so every
/// thread reaches this barrier too. Where it does not, no point is known at
/// which the block's threads could zero the shadow together, and a thread
/// zeroing it alone could wipe adjoints another thread has already added:
/// an error.
void zeroBlockSharedShadows(IRBuilder<> &B, ADContext &Ctx,
                            const EntryPointCall &EP,
                            ArrayRef<GlobalVariable *> Shadows) {
  auto IsShared = [](GlobalVariable *S) { return isBlockShared(*S); };
  if (none_of(Shadows, IsShared))
    return;
  if (!callsBlockBarrier(*EP.Fn)) {
    Ctx.Diag.error(EP.Call,
                   "'" + demangle(EP.Fn->getName()) +
                       "' uses __shared__ memory but never synchronizes the "
                       "block, so the block's threads cannot zero the "
                       "shadow of that memory together before the derivative",
                   "call __syncthreads() in it (every thread of the block "
                   "then calls it, as CUDA requires), or keep per-thread "
                   "data in local variables");
    return;
  }
  for (GlobalVariable *S : Shadows)
    if (IsShared(S))
      Ctx.Runtime.zeroBlockShared(
          B, S, S->getDataLayout().getTypeAllocSize(S->getValueType()));
  Ctx.Runtime.blockBarrier(B);
}

/// DerivativeSignature::NoAliasArgs of an entry point call: its pointer
/// arguments based on a noalias parameter of the caller that no other
/// pointer of the call is based on.
static uint64_t noAliasArguments(const EntryPointCall &EP) {
  SmallVector<const Value *, 16> Bases;
  for (const Value *V : concat<Value *const>(EP.Primals, EP.Derivatives))
    if (V->getType()->isPointerTy())
      Bases.push_back(getUnderlyingObject(V));
  uint64_t Mask = 0;
  for (unsigned K = 0; K < EP.Primals.size() && K < 64; ++K) {
    const Value *V = EP.Primals[K];
    if (!V->getType()->isPointerTy())
      continue;
    auto *Param = dyn_cast<Argument>(getUnderlyingObject(V));
    if (Param && Param->hasNoAliasAttr() && count(Bases, Param) == 1)
      Mask |= uint64_t(1) << K;
  }
  return Mask;
}

/// The derivative of kind \p Kind an entry point call asks for.
DerivativeSignature signatureOf(const EntryPointCall &EP, DerivativeKind Kind) {
  DerivativeSignature Sig;
  Sig.Primal = EP.Fn;
  Sig.Kind = Kind;
  Sig.Args = EP.Activities;
  Sig.ReturnActive = isDifferentiableType(EP.Fn->getReturnType());
  if (Kind == DerivativeKind::Gradient) {
    Sig.NoAliasArgs = noAliasArguments(EP);
    Sig.NoNeedArgs = EP.NoNeedArgs;
  }
  // Device code: which shadows every thread receives alike, from a
  // __restrict__ kernel parameter (DerivativeSignature::ThreadIndexedArgs).
  if (Kind == DerivativeKind::Gradient &&
      isParallelDeviceCode(*EP.Call->getModule())) {
    unsigned NextShadow = 0;
    for (unsigned K = 0; K < Sig.Args.size(); ++K) {
      if (Sig.Args[K] != Activity::Shadowed)
        continue;
      Value *Shadow = NextShadow < EP.Derivatives.size()
                          ? EP.Derivatives[NextShadow]
                          : nullptr;
      ++NextShadow;
      if (K < 64 && Shadow && isLaunchUniformRestrictPointer(Shadow))
        Sig.ThreadIndexedArgs |= uint64_t(1) << K;
    }
  }
  return Sig;
}

/// Calls derivative \p D with the entry point's primals and derivatives
/// (and \p Seed, the result's adjoint, if any) in place of the entry call,
/// then resets the mutable globals' shadows.
CallInst *callDerivative(EntryPointCall &EP, ADContext &Ctx, Function *D,
                         Value *Seed, ArrayRef<GlobalVariable *> ResetAfter,
                         IRBuilder<> &B) {
  SmallVector<Value *, 8> Args(EP.Primals);
  Args.append(EP.Derivatives);
  if (Seed)
    Args.push_back(Seed);
  zeroBlockSharedShadows(B, Ctx, EP, ResetAfter);
  CallInst *R = B.CreateCall(D, Args);
  resetShadows(B, ResetAfter);
  // An outer derivative may copy this call (nested derivatives): its
  // pointer arguments type D's parameters as the entry call's typed f's.
  Ctx.ArgTypes.addCall(D, Args);
  return R;
}

bool lowerReverse(EntryPointCall &EP, ADContext &Ctx,
                  ArrayRef<GlobalVariable *> ResetAfter, bool Nested) {
  DerivativeCache &Cache = *Ctx.Cache;
  DerivativeSignature Sig = signatureOf(EP, DerivativeKind::Gradient);
  Sig.Nested = Nested;
  Type *RetTy = EP.Fn->getReturnType();
  SmallVector<Type *, 4> AdjointTypes;
  for (auto [Param, Act] : zip(EP.Fn->args(), EP.Activities))
    if (Act == Activity::Active)
      AdjointTypes.push_back(Param.getType());
    else if (auto *R = EP.shadowResultFor(Param.getArgNo()))
      AdjointTypes.push_back(R->Ty);
  if (!checkResultType(EP, AdjointTypes, Ctx.Diag))
    return false;
  Function *G = Cache.gradient(Sig);
  if (!G)
    return false;
  IRBuilder<> B(EP.Call);
  CallInst *R = callDerivative(
      EP, Ctx, G, Sig.ReturnActive ? onesOf(RetTy) : nullptr, ResetAfter, B);
  // The adjoints in parameter order: __ad_out scalars come back from the
  // gradient, structs passed by value in their shadows.
  SmallVector<Value *, 4> Adjoints;
  unsigned Field = 0;
  for (auto [Param, Act] : zip(EP.Fn->args(), EP.Activities))
    if (Act == Activity::Active)
      Adjoints.push_back(B.CreateExtractValue(R, Field++));
    else if (auto *SR = EP.shadowResultFor(Param.getArgNo()))
      Adjoints.push_back(B.CreateLoad(SR->Ty, SR->Shadow));
  deliverResults(EP, Adjoints);
  return true;
}

bool lowerForward(EntryPointCall &EP, ADContext &Ctx,
                  ArrayRef<GlobalVariable *> ResetAfter) {
  DerivativeCache &Cache = *Ctx.Cache;
  DerivativeSignature Sig = signatureOf(EP, DerivativeKind::Tangent);
  SmallVector<Type *, 1> TangentType;
  if (Sig.ReturnActive)
    TangentType.push_back(EP.Fn->getReturnType());
  for (const EntryPointCall::ShadowResult &SR : EP.ShadowResults)
    TangentType.push_back(SR.Ty); // A struct f returns through sret.
  if (!checkResultType(EP, TangentType, Ctx.Diag))
    return false;
  Function *T = Cache.tangent(Sig);
  if (!T)
    return false;
  IRBuilder<> B(EP.Call);
  CallInst *R = callDerivative(EP, Ctx, T, /*Seed=*/nullptr, ResetAfter, B);
  SmallVector<Value *, 1> Tangent;
  if (Sig.ReturnActive)
    Tangent.push_back(B.CreateExtractValue(R, 1));
  for (const EntryPointCall::ShadowResult &SR : EP.ShadowResults)
    Tangent.push_back(B.CreateLoad(SR.Ty, SR.Shadow));
  deliverResults(EP, Tangent);
  return true;
}

/// A derivative of Fn would contain this very call (Fn reaches it through
/// calls or other entry points): differentiating it again and again never
/// ends.
void reportRecursiveNesting(const EntryPointCall &EP,
                            DiagnosticReporter &Diag) {
  Diag.invalidCall(EP.Call,
                   "'" + demangle(EP.Fn->getName()) +
                       "' reaches this differentiation call itself, so its "
                       "derivative would contain a derivative of itself "
                       "(recursive nesting of derivatives)",
                   "differentiate a function that does not call back into "
                   "the differentiation of itself");
}

/// Removes an entry-point call that was lowered (or dropped after an error).
void eraseEntryPointCall(CallBase *Call) {
  // In C++ the call is an invoke whenever an object with a destructor is
  // alive; the derivative never throws, so control goes straight on.
  if (auto *II = dyn_cast<InvokeInst>(Call)) {
    II->getUnwindDest()->removePredecessor(II->getParent());
    BranchInst::Create(II->getNormalDest(), II->getIterator());
  }
  SmallSetVector<Value *, 8> Operands(Call->arg_begin(), Call->arg_end());
  Call->eraseFromParent();
  // An outer derivative may copy this function (nested derivatives): leave
  // no dead marker loads behind for it.
  for (Value *V : Operands)
    if (auto *LI = dyn_cast<LoadInst>(V);
        LI && markerName(LI) && LI->use_empty())
      LI->eraseFromParent();
}

/// Whether \p Cmp tests \p Marker's address against null: rustc at -O0
/// checks an extern static's address before reading it
/// (`icmp eq (ptrtoint @__ad_out), 0`).
bool isNullCheckOf(const ICmpInst &Cmp, const GlobalVariable &Marker) {
  auto IsMarker = [&](const Value *V) {
    if (auto *CE = dyn_cast<ConstantExpr>(V);
        CE && CE->getOpcode() == Instruction::PtrToInt)
      V = CE->getOperand(0);
    return V->stripPointerCasts() == &Marker;
  };
  auto IsZero = [](const Value *V) {
    return isa<Constant>(V) && cast<Constant>(V)->isNullValue();
  };
  const Value *L = Cmp.getOperand(0), *R = Cmp.getOperand(1);
  return Cmp.isEquality() &&
         ((IsMarker(L) && IsZero(R)) || (IsZero(L) && IsMarker(R)));
}

void eraseDeadMarkers(Module &M) {
  for (StringRef Name :
       {"__ad_dup", "__ad_dupnoneed", "__ad_const", "__ad_out"}) {
    GlobalVariable *GV = M.getGlobalVariable(Name);
    if (!GV)
      continue;
    // In device code the loads go through an address-space cast of the
    // global (CUDA's __device__ variables live in the global space).
    for (Instruction *U : instructionsUsing(*GV)) {
      if (auto *LI = dyn_cast<LoadInst>(U); LI && LI->use_empty()) {
        LI->eraseFromParent();
      } else if (auto *Cmp = dyn_cast<ICmpInst>(U);
                 Cmp && isNullCheckOf(*Cmp, *GV)) {
        // A global's address is not null: the check folds and leaves no
        // reference to the marker behind.
        Cmp->replaceAllUsesWith(ConstantInt::getBool(
            Cmp->getType(), Cmp->getPredicate() == ICmpInst::ICMP_NE));
        Cmp->eraseFromParent();
      }
    }
    GV->removeDeadConstantUsers();
    if (GV->use_empty() && GV->isDeclaration())
      GV->eraseFromParent();
  }
}

} // namespace

PreservedAnalyses ADPass::run(Module &M, ModuleAnalysisManager &MAM) {
  SmallVector<std::pair<CallBase *, EntryPointKind>, 8> Calls;
  SmallVector<Function *, 4> EntryPoints;
  SmallVector<Instruction *, 2> OtherUses;
  for (Function &F : M) {
    std::optional<EntryPointKind> Kind = entryPointKind(F);
    if (!Kind)
      continue;
    EntryPoints.push_back(&F);
    for (Use &U : F.uses()) {
      auto *CB = dyn_cast<CallBase>(U.getUser());
      if (CB && CB->isCallee(&U))
        Calls.push_back({CB, *Kind});
      else if (auto *I = dyn_cast<Instruction>(U.getUser()))
        OtherUses.push_back(I);
    }
  }
  if (Calls.empty() && OtherUses.empty()) {
    FunctionAnalysisManager &FAM =
        MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    return eraseRuleRegistrations(M, &FAM) ? PreservedAnalyses::none()
                                           : PreservedAnalyses::all();
  }
  ADTimeReport TimeReport; // -ad-time-report

  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  DiagnosticReporter Diag;
  CustomRules Custom(M, &Diag); // AD_FORWARD_RULE & co. in include/ad.h
  RuleTable Rules(&Custom);
  RuleTable::Scope UseRules(Rules);
  ADContext Ctx{M, FAM, Diag, RuntimeFunctions(M), nullptr};
  // MPI: functions whose messages carry other ranks' derivatives.
  DenseSet<const Function *> MessagePassers = findMessagePassers(M);
  Ctx.MessagePassers = &MessagePassers;
  DerivativeCache Cache(Ctx);
  Ctx.Cache = &Cache;

  // The entry points exist only to be called: taking one's address would
  // leave an undefined reference for the linker to report, far from here.
  for (Instruction *I : OtherUses)
    if (!is_contained(make_first_range(Calls), I))
      Diag.invalidCall(I,
                       "the address of a differentiation entry point is "
                       "taken instead of calling it",
                       "call __ad_autodiff / __ad_fwddiff directly");

  // The module's totals are reported at the first caller (the calls
  // themselves are erased as they are lowered).
  Function *SummaryAt =
      Calls.empty() ? nullptr : Calls.front().first->getFunction();

  // Parse every call before lowering any: all of them tell what pointer
  // parameters point to (ArgumentTypes), which layouts may need.
  SmallVector<std::optional<EntryPointCall>, 8> Parsed;
  {
    ADPhaseTimer Timer(ADPhase::ParseCalls);
    Ctx.ArgTypes.addCallsIn(M);
    for (auto [Call, Kind] : Calls) {
      Parsed.push_back(parseEntryPointCall(*Call, Kind, Diag));
      if (Parsed.back())
        Ctx.ArgTypes.addCall(Parsed.back()->Fn, Parsed.back()->Primals);
    }
  }

  // Mutable globals that differentiated code keeps state in get shadows,
  // decided for all calls at once (their activities depend on each other).
  MutableGlobals Globals(Ctx);
  {
    SmallVector<DifferentiatedRoot, 8> Roots;
    for (std::optional<EntryPointCall> &EP : Parsed)
      if (EP)
        Roots.push_back({EP->Call, EP->Fn, EP->Activities});
    Globals.analyze(Roots);
    Ctx.Globals = &Globals.shadowed();
  }

  // Innermost first: a derivative is built from code whose own entry-point
  // calls are already lowered (nested derivatives, LoweringOrder.h).
  SmallVector<CallBase *, 8> CallSites(make_first_range(Calls));
  SmallVector<Function *, 8> Targets;
  for (std::optional<EntryPointCall> &EP : Parsed)
    Targets.push_back(EP ? EP->Fn : nullptr);
  LoweringOrder Lowering = innermostFirst(CallSites, Targets, Custom);

  for (unsigned Index : Lowering.Order) {
    auto [Call, Kind] = Calls[Index];
    std::optional<EntryPointCall> &EP = Parsed[Index];
    bool Ok = false;
    unsigned SynthesizedBefore = Cache.synthesizedCount();
    // What replaces the call (tracked through replaceAllUsesWith) replaces
    // it in the calls still to lower that pass its result on.
    WeakTrackingVH Result(Call);
    // A call inside code an outer derivative copies must not reset the
    // globals' shadows in the middle of the outer call.
    ArrayRef<GlobalVariable *> Reset;
    if (!Lowering.Nested[Index])
      Reset = Globals.shadowsToReset(Call);
    if (EP && Lowering.Recursive[Index])
      reportRecursiveNesting(*EP, Diag);
    else if (EP && !Globals.failed(Call))
      Ok = Kind == EntryPointKind::Reverse
               ? lowerReverse(*EP, Ctx, Reset, Lowering.Nested[Index])
               : lowerForward(*EP, Ctx, Reset);
    if (Ok)
      remarkDerivative(*EP, Cache.synthesizedCount() - SynthesizedBefore);
    if (!Ok && !Call->getType()->isVoidTy())
      Call->replaceAllUsesWith(PoisonValue::get(Call->getType()));
    if (Result != Call)
      for (std::optional<EntryPointCall> &Other : Parsed)
        if (Other)
          Other->replaceValue(Call, Result);
    Cache.forgetCanonical(Call->getFunction());
    eraseEntryPointCall(Call);
  }
  eraseDeadMarkers(M);
  Globals.finish();
  Ctx.Globals = nullptr;
  for (Function *F : EntryPoints)
    if (F->use_empty())
      F->eraseFromParent();

  if (SummaryAt) {
    remarkCacheSummary(*SummaryAt, Cache, Calls.size());
    remarkRuleTable(*SummaryAt, Rules);
  }

  // Naming each derivative's user's function costs a walk per derivative:
  // only when -Rpass=ad (or a remarks file) will show the sizes.
  bool SizeRemarks = SummaryAt && OptimizationRemarkEmitter(SummaryAt)
                                       .allowExtraAnalysis("ad");
  DerivativeOrigins Origins;
  if (SizeRemarks)
    Origins = describeOrigins(Cache.created(), Diag);
  // The canonical primals were templates; nothing calls them.
  SmallVector<Function *, 16> NewFunctions;
  for (Function *F : Cache.created()) {
    if (F->use_empty() && F->hasLocalLinkage()) {
      FAM.clear(*F, F->getName());
      F->eraseFromParent();
      continue;
    }
    // Derivatives are new code with no source of their own; their clones of
    // the primal's debug scopes would not describe them faithfully.
    stripDebugInfo(*F);
    NewFunctions.push_back(F);
  }

  // OpenMP: the derivatives' parallel regions fork their teams again.
  forkParallelRegions(NewFunctions, Ctx.Runtime, Diag, FAM);

  // Never hand broken IR to the rest of the pipeline: a derivative that does
  // not verify is an internal error, reported like any other.
  for (Function *F : NewFunctions) {
    ADPhaseTimer Timer(ADPhase::Verify);
    std::string Problems;
    raw_string_ostream OS(Problems);
    if (!F->isDeclaration() && verifyFunction(*F, &OS)) {
      Diag.error(*F,
                 "internal error: the synthesized derivative '" + F->getName() +
                     "' is invalid IR: " + Problems,
                 "please report this with the source file");
      F->deleteBody();
      F->setLinkage(GlobalValue::ExternalLinkage);
    }
  }

  // Device code: the math functions the rules call, and libdevice's
  // functions inlinable again (driver/Libdevice.h).
  linkLibdeviceForDerivatives(M, Diag);
  // MPI: the run-time support the derivatives of its operations call.
  linkMessageRuntime(M);

  bool Optimize =
      Level != OptimizationLevel::O0 && PB && Diag.errorCount() == 0;
  SmallVector<unsigned> InlinedInto;
  if (Optimize) {
    ADPhaseTimer OptimizeTimer(ADPhase::Optimize);
    // Inline the tape's push/pop, fold what every caller passes, then
    // optimize the derivatives like the rest of the program.
    PreservedAnalyses Inlined =
        AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false).run(M, MAM);
    MAM.invalidate(M, Inlined);
    foldConstantArguments(NewFunctions);
    SmallVector<Function *, 16> Derivatives, ForwardCopies;
    for (Function *F : NewFunctions)
      (Cache.isAugmented(F) ? ForwardCopies : Derivatives).push_back(F);
    optimizeDerivatives(Derivatives, ForwardCopies, Level, *PB, FAM);
    InlinedInto = inlineDerivativesIntoCallers(
        NewFunctions, isParallelDeviceCode(M), Level, FAM);
  }
  if (SizeRemarks)
    remarkDerivativeSizes(NewFunctions, InlinedInto, Optimize, Origins,
                          *SummaryAt);
  // A derivative inlined at its every call is code no one runs.
  for (Function *F : NewFunctions)
    if (F->use_empty() && F->hasLocalLinkage()) {
      FAM.clear(*F, F->getName());
      F->eraseFromParent();
    }
  eraseRuleRegistrations(M, &FAM);
  return PreservedAnalyses::none();
}

} // namespace ad
