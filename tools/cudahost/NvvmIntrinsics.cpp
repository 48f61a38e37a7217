//===- NvvmIntrinsics.cpp - NVVM intrinsics as host code ------------------===//
//
// Each `llvm.nvvm.*` call of a device module becomes what it means on the
// host: a special register becomes a load from the running thread's state, a
// barrier, shuffle or vote a call of the fiber scheduler (runtime/), an
// atomic intrinsic an `atomicrmw`, a math intrinsic its generic LLVM form.
// The rows are matched by name prefix, longest first within a family; a name
// no row knows is an error that names it, so a kernel never runs with an
// intrinsic silently dropped.
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "CudaHostABI.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace cudahost {

namespace {

/// The runtime's functions, declared on first use.
struct Runtime {
  Module &M;
  LLVMContext &Ctx;
  explicit Runtime(Module &M) : M(M), Ctx(M.getContext()) {}

  FunctionCallee get(StringRef Name, Type *Ret, ArrayRef<Type *> Params) {
    return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  }
  Type *i32() { return Type::getInt32Ty(Ctx); }
  Type *i64() { return Type::getInt64Ty(Ctx); }
  Type *ptr() { return PointerType::get(Ctx, 0); }
  Type *voidTy() { return Type::getVoidTy(Ctx); }
};

/// Fits an integer result of the runtime to the intrinsic's return type.
Value *fitInt(IRBuilder<> &B, Value *V, Type *To) {
  if (To->isIntegerTy(1))
    return B.CreateICmpNE(V, ConstantInt::get(V->getType(), 0));
  return B.CreateZExtOrTrunc(V, To);
}

Value *asI32(IRBuilder<> &B, Value *V) {
  if (V->getType()->isIntegerTy(1))
    return B.CreateZExt(V, B.getInt32Ty());
  return B.CreateZExtOrTrunc(V, B.getInt32Ty());
}

/// `llvm.nvvm.read.ptx.sreg.NAME`: a word of the thread's state, or a
/// constant where every GPU thread sees one.
Value *lowerSreg(IRBuilder<> &B, Runtime &RT, CallInst &CI, StringRef Reg) {
  int Index = StringSwitch<int>(Reg)
                  .Case("tid.x", CUDAHOST_TID_X)
                  .Case("tid.y", CUDAHOST_TID_Y)
                  .Case("tid.z", CUDAHOST_TID_Z)
                  .Case("ntid.x", CUDAHOST_NTID_X)
                  .Case("ntid.y", CUDAHOST_NTID_Y)
                  .Case("ntid.z", CUDAHOST_NTID_Z)
                  .Case("ctaid.x", CUDAHOST_CTAID_X)
                  .Case("ctaid.y", CUDAHOST_CTAID_Y)
                  .Case("ctaid.z", CUDAHOST_CTAID_Z)
                  .Case("nctaid.x", CUDAHOST_NCTAID_X)
                  .Case("nctaid.y", CUDAHOST_NCTAID_Y)
                  .Case("nctaid.z", CUDAHOST_NCTAID_Z)
                  .Case("laneid", CUDAHOST_LANEID)
                  .Case("warpid", CUDAHOST_WARPID)
                  .Case("nwarpid", CUDAHOST_NWARPID)
                  .Case("lanemask.eq", CUDAHOST_LANEMASK_EQ)
                  .Case("lanemask.lt", CUDAHOST_LANEMASK_LT)
                  .Case("lanemask.le", CUDAHOST_LANEMASK_LE)
                  .Case("lanemask.gt", CUDAHOST_LANEMASK_GT)
                  .Case("lanemask.ge", CUDAHOST_LANEMASK_GE)
                  .Default(-1);
  Type *Ty = CI.getType();
  if (Index >= 0) {
    GlobalVariable *Current = cast<GlobalVariable>(
        RT.M.getOrInsertGlobal("__cudahost_current", RT.ptr()));
    Value *State = B.CreateLoad(RT.ptr(), Current);
    Value *Word = B.CreateConstInBoundsGEP1_64(B.getInt32Ty(), State, Index);
    return fitInt(B, B.CreateLoad(B.getInt32Ty(), Word), Ty);
  }
  if (Reg == "warpsize")
    return ConstantInt::get(Ty, 32);
  if (Reg == "smid" || Reg == "gridid")
    return ConstantInt::get(Ty, 0);
  if (Reg == "nsmid")
    return ConstantInt::get(Ty, 1);
  if (Reg == "clock" || Reg == "clock64")
    return fitInt(B, B.CreateCall(RT.get("__cudahost_clock64", RT.i64(), {})),
                  Ty);
  if (Reg == "globaltimer")
    return fitInt(
        B, B.CreateCall(RT.get("__cudahost_globaltimer", RT.i64(), {})), Ty);
  return nullptr;
}

/// The CTA barriers: `llvm.nvvm.barrier0[.popc|.and|.or]`,
/// `llvm.nvvm.barrier.sync[.cnt]` and `llvm.nvvm.barrier.cta.*`. A barrier
/// with a thread count is accepted only when the count is the block's size
/// (the runtime checks); `arrive` without a wait has no host meaning here.
Value *lowerBarrier(IRBuilder<> &B, Runtime &RT, CallInst &CI, StringRef Name) {
  if (Name.contains("arrive") || Name.contains("cluster"))
    return nullptr;
  int Reduction = -1;
  if (Name.contains("popc"))
    Reduction = CUDAHOST_RED_POPC;
  else if (Name.ends_with(".and") || Name.contains(".red.and"))
    Reduction = CUDAHOST_RED_AND;
  else if (Name.ends_with(".or") || Name.contains(".red.or"))
    Reduction = CUDAHOST_RED_OR;
  bool Counted = Name.contains(".count") || Name.contains(".cnt");
  if (Counted && CI.arg_size() >= 2 && Reduction < 0)
    B.CreateCall(RT.get("__cudahost_barrier_count", RT.voidTy(), {RT.i32()}),
                 {asI32(B, CI.getArgOperand(1))});
  if (Reduction < 0) {
    if (!Counted)
      B.CreateCall(RT.get("__cudahost_barrier", RT.voidTy(), {}));
    // A void result: the caller erases the call.
    return UndefValue::get(CI.getType());
  }
  if (Counted)
    return nullptr;
  // The predicate is the last operand (barrier0.popc(i32), red.*(id, i1)).
  Value *Pred = asI32(B, CI.getArgOperand(CI.arg_size() - 1));
  Value *R = B.CreateCall(
      RT.get("__cudahost_barrier_reduce", RT.i32(), {RT.i32(), RT.i32()}),
      {B.getInt32(Reduction), Pred});
  return fitInt(B, R, CI.getType());
}

/// `llvm.nvvm.shfl[.sync].MODE.TYPE[p]`: one exchange between the lanes of a
/// warp; the runtime returns the value in the low word and whether the
/// source lane was in range in bit 32.
Value *lowerShuffle(IRBuilder<> &B, Runtime &RT, CallInst &CI, StringRef Rest) {
  bool Sync = Rest.consume_front("sync.");
  auto [ModeName, TypeName] = Rest.split('.');
  int Mode = StringSwitch<int>(ModeName)
                 .Case("idx", CUDAHOST_SHFL_IDX)
                 .Case("up", CUDAHOST_SHFL_UP)
                 .Case("down", CUDAHOST_SHFL_DOWN)
                 .Case("bfly", CUDAHOST_SHFL_BFLY)
                 .Default(-1);
  if (Mode < 0)
    return nullptr;
  unsigned First = Sync ? 1 : 0;
  Value *Mask = Sync ? CI.getArgOperand(0) : B.getInt32(~0u);
  Value *Val = CI.getArgOperand(First);
  Type *ValTy = Val->getType();
  if (!ValTy->isIntegerTy(32) && !ValTy->isFloatTy())
    return nullptr;
  Value *Bits = B.CreateBitCast(Val, B.getInt32Ty());
  Value *R =
      B.CreateCall(RT.get("__cudahost_shfl", RT.i64(),
                          {RT.i32(), RT.i32(), RT.i32(), RT.i32(), RT.i32()}),
                   {B.getInt32(Mode), Mask, Bits, CI.getArgOperand(First + 1),
                    CI.getArgOperand(First + 2)});
  Value *Result = B.CreateBitCast(B.CreateTrunc(R, B.getInt32Ty()), ValTy);
  if (!TypeName.ends_with("p"))
    return Result;
  Value *InRange = B.CreateTrunc(B.CreateLShr(R, 32), B.getInt1Ty());
  Value *Pair = UndefValue::get(CI.getType());
  Pair = B.CreateInsertValue(Pair, Result, 0);
  return B.CreateInsertValue(Pair, InRange, 1);
}

/// `llvm.nvvm.vote.MODE[.sync]`.
Value *lowerVote(IRBuilder<> &B, Runtime &RT, CallInst &CI, StringRef Rest) {
  auto [ModeName, Sync] = Rest.split('.');
  int Mode = StringSwitch<int>(ModeName)
                 .Case("all", CUDAHOST_VOTE_ALL)
                 .Case("any", CUDAHOST_VOTE_ANY)
                 .Case("uni", CUDAHOST_VOTE_UNI)
                 .Case("ballot", CUDAHOST_VOTE_BALLOT)
                 .Default(-1);
  if (Mode < 0)
    return nullptr;
  bool HasMask = Sync == "sync";
  Value *Mask = HasMask ? CI.getArgOperand(0) : B.getInt32(~0u);
  Value *Pred = asI32(B, CI.getArgOperand(HasMask ? 1 : 0));
  Value *R = B.CreateCall(
      RT.get("__cudahost_vote", RT.i32(), {RT.i32(), RT.i32(), RT.i32()}),
      {B.getInt32(Mode), Mask, Pred});
  return fitInt(B, R, CI.getType());
}

/// `llvm.nvvm.atomic.OP.gen.{i,f}.SCOPE` and the older
/// `llvm.nvvm.atomic.load.{inc,dec}.32` / `load.add.f32`: host atomics are
/// system-wide, which covers every scope.
Value *lowerAtomic(IRBuilder<> &B, CallInst &CI, StringRef Rest) {
  Value *Ptr = CI.getArgOperand(0);
  auto RMW = [&](AtomicRMWInst::BinOp Op) -> Value * {
    return B.CreateAtomicRMW(Op, Ptr, CI.getArgOperand(1), MaybeAlign(),
                             AtomicOrdering::SequentiallyConsistent);
  };
  bool Float = Rest.contains(".f.") || Rest.starts_with("load.add.f");
  if (Rest.starts_with("load.inc"))
    return RMW(AtomicRMWInst::UIncWrap);
  if (Rest.starts_with("load.dec"))
    return RMW(AtomicRMWInst::UDecWrap);
  if (Rest.starts_with("load.add") || Rest.starts_with("add.gen"))
    return RMW(Float ? AtomicRMWInst::FAdd : AtomicRMWInst::Add);
  if (Rest.starts_with("cas.gen")) {
    Value *Pair = B.CreateAtomicCmpXchg(Ptr, CI.getArgOperand(1),
                                        CI.getArgOperand(2), MaybeAlign(),
                                        AtomicOrdering::SequentiallyConsistent,
                                        AtomicOrdering::SequentiallyConsistent);
    return B.CreateExtractValue(Pair, 0);
  }
  auto Op =
      StringSwitch<std::optional<AtomicRMWInst::BinOp>>(Rest.split('.').first)
          .Case("exch", AtomicRMWInst::Xchg)
          .Case("max", AtomicRMWInst::Max)
          .Case("min", AtomicRMWInst::Min)
          .Case("inc", AtomicRMWInst::UIncWrap)
          .Case("dec", AtomicRMWInst::UDecWrap)
          .Case("and", AtomicRMWInst::And)
          .Case("or", AtomicRMWInst::Or)
          .Case("xor", AtomicRMWInst::Xor)
          .Default(std::nullopt);
  return Op ? RMW(*Op) : nullptr;
}

Value *unary(IRBuilder<> &B, Intrinsic::ID ID, CallInst &CI) {
  return B.CreateUnaryIntrinsic(ID, CI.getArgOperand(0));
}

Value *binary(IRBuilder<> &B, Intrinsic::ID ID, CallInst &CI) {
  return B.CreateBinaryIntrinsic(ID, CI.getArgOperand(0), CI.getArgOperand(1));
}

/// `cvt` intrinsics, as libdevice's bodies use them (`f2i.rn`, `d2ull.rz`,
/// `ll2d.rn`, ...): a float-to-integer conversion rounds in its mode, then
/// converts saturating, as PTX's cvt does (NaN gives 0); an
/// integer-to-float one converts in the default mode.
Value *lowerConversion(IRBuilder<> &B, CallInst &CI, StringRef Rest) {
  auto [Kind, Modes] = Rest.split('.');
  auto [From, To] = Kind.split('2');
  Type *Ty = CI.getType();
  Value *X = CI.getArgOperand(0);
  if ((From == "f" || From == "d") && Ty->isIntegerTy()) {
    Intrinsic::ID Round = StringSwitch<Intrinsic::ID>(Modes.take_front(2))
                              .Case("rn", Intrinsic::roundeven)
                              .Case("rm", Intrinsic::floor)
                              .Case("rp", Intrinsic::ceil)
                              .Default(Intrinsic::trunc);
    Value *R = B.CreateUnaryIntrinsic(Round, X);
    bool Signed = To == "i" || To == "ll";
    return B.CreateIntrinsic(Signed ? Intrinsic::fptosi_sat
                                    : Intrinsic::fptoui_sat,
                             {Ty, X->getType()}, {R});
  }
  if (X->getType()->isIntegerTy() && Ty->isFloatingPointTy())
    return From.starts_with("u") ? B.CreateUIToFP(X, Ty)
                                 : B.CreateSIToFP(X, Ty);
  if (From == "d" && To == "f")
    return B.CreateFPTrunc(X, Ty);
  return nullptr;
}

/// The bit-level helpers of libdevice's bodies.
Value *lowerBits(IRBuilder<> &B, Runtime &RT, CallInst &CI, StringRef Rest) {
  Type *Ty = CI.getType();
  Value *X = CI.getArgOperand(0);
  if (Rest == "d2i.hi" || Rest == "d2i.lo") {
    Value *Bits = B.CreateBitCast(X, B.getInt64Ty());
    if (Rest == "d2i.hi")
      Bits = B.CreateLShr(Bits, 32);
    return B.CreateTrunc(Bits, Ty);
  }
  if (Rest == "lohi.i2d") {
    Value *Lo = B.CreateZExt(X, B.getInt64Ty());
    Value *Hi =
        B.CreateShl(B.CreateZExt(CI.getArgOperand(1), B.getInt64Ty()), 32);
    return B.CreateBitCast(B.CreateOr(Lo, Hi), Ty);
  }
  if (Rest.starts_with("f2h.rn"))
    return B.CreateBitCast(B.CreateFPTrunc(X, B.getHalfTy()), Ty);
  if (Rest == "sad.i" || Rest == "sad.ui") {
    Value *Y = CI.getArgOperand(1);
    bool Signed = Rest == "sad.i";
    Value *Less = Signed ? B.CreateICmpSLT(X, Y) : B.CreateICmpULT(X, Y);
    Value *YMinusX = B.CreateSub(Y, X), *XMinusY = B.CreateSub(X, Y);
    Value *Diff = B.CreateSelect(Less, YMinusX, XMinusY);
    return B.CreateAdd(Diff, CI.getArgOperand(2));
  }
  if (Rest == "prmt")
    return B.CreateCall(
        RT.get("__cudahost_prmt", RT.i32(), {RT.i32(), RT.i32(), RT.i32()}),
        {X, CI.getArgOperand(1), CI.getArgOperand(2)});
  return nullptr;
}

/// Floating-point and integer intrinsics: their generic LLVM meaning. The
/// rounding-mode and flush-to-zero variants are computed in the default
/// mode, which the tests' tolerances absorb.
Value *lowerMath(IRBuilder<> &B, CallInst &CI, StringRef Rest) {
  Type *Ty = CI.getType();
  auto Is = [&](StringRef Prefix) { return Rest.starts_with(Prefix); };
  if (Is("fabs") || Is("abs."))
    return unary(B, Ty->isFPOrFPVectorTy() ? Intrinsic::fabs : Intrinsic::abs,
                 CI);
  if (Is("fmin") || Is("fmax")) {
    bool Min = Is("fmin");
    if (Rest.contains("nan"))
      return binary(B, Min ? Intrinsic::minimum : Intrinsic::maximum, CI);
    return binary(B, Min ? Intrinsic::minnum : Intrinsic::maxnum, CI);
  }
  if (Is("sqrt."))
    return unary(B, Intrinsic::sqrt, CI);
  if (Is("rsqrt."))
    return B.CreateFDiv(ConstantFP::get(Ty, 1.0),
                        unary(B, Intrinsic::sqrt, CI));
  if (Is("rcp."))
    return B.CreateFDiv(ConstantFP::get(Ty, 1.0), CI.getArgOperand(0));
  if (Is("div.") && Ty->isFloatingPointTy())
    return B.CreateFDiv(CI.getArgOperand(0), CI.getArgOperand(1));
  if (Is("add.r") && Ty->isFloatingPointTy())
    return B.CreateFAdd(CI.getArgOperand(0), CI.getArgOperand(1));
  if (Is("mul.r") && Ty->isFloatingPointTy())
    return B.CreateFMul(CI.getArgOperand(0), CI.getArgOperand(1));
  if (Is("fma.r"))
    return B.CreateIntrinsic(
        Intrinsic::fma, {Ty},
        {CI.getArgOperand(0), CI.getArgOperand(1), CI.getArgOperand(2)});
  if (Is("ex2.approx"))
    return unary(B, Intrinsic::exp2, CI);
  if (Is("lg2.approx"))
    return unary(B, Intrinsic::log2, CI);
  if (Is("sin.approx"))
    return unary(B, Intrinsic::sin, CI);
  if (Is("cos.approx"))
    return unary(B, Intrinsic::cos, CI);
  if (Is("ceil."))
    return unary(B, Intrinsic::ceil, CI);
  if (Is("floor."))
    return unary(B, Intrinsic::floor, CI);
  if (Is("trunc."))
    return unary(B, Intrinsic::trunc, CI);
  if (Is("round."))
    return unary(B, Intrinsic::roundeven, CI);
  if (Is("saturate.")) {
    // maxnum(NaN, 0) is 0, as saturate's NaN is.
    Value *Lo = B.CreateBinaryIntrinsic(Intrinsic::maxnum, CI.getArgOperand(0),
                                        ConstantFP::get(Ty, 0.0));
    return B.CreateBinaryIntrinsic(Intrinsic::minnum, Lo,
                                   ConstantFP::get(Ty, 1.0));
  }
  if (Is("mul24.i") || Is("umul24.i")) {
    bool Signed = Is("mul24");
    auto Low24 = [&](Value *V) {
      Value *T = B.CreateTrunc(V, B.getIntNTy(24));
      return Signed ? B.CreateSExt(T, Ty) : B.CreateZExt(T, Ty);
    };
    Value *X = Low24(CI.getArgOperand(0)), *Y = Low24(CI.getArgOperand(1));
    return B.CreateMul(X, Y);
  }
  if (Is("mulhi.")) {
    bool Signed = !Rest.drop_front(6).starts_with("u");
    unsigned Bits = Ty->getIntegerBitWidth();
    Type *Wide = B.getIntNTy(2 * Bits);
    auto Ext = [&](Value *V) {
      return Signed ? B.CreateSExt(V, Wide) : B.CreateZExt(V, Wide);
    };
    Value *X = Ext(CI.getArgOperand(0)), *Y = Ext(CI.getArgOperand(1));
    Value *P = B.CreateMul(X, Y);
    return B.CreateTrunc(B.CreateLShr(P, Bits), Ty);
  }
  if (Is("ldg.global.") || Is("ldu.global."))
    return B.CreateLoad(Ty, CI.getArgOperand(0));
  if (Is("ptr.")) // ptr.gen.to.* / ptr.*.to.gen: every space is one.
    return B.CreatePointerBitCastOrAddrSpaceCast(CI.getArgOperand(0), Ty);
  if (Is("nanosleep"))
    return UndefValue::get(Ty);
  return nullptr;
}

} // namespace

/// One `llvm.nvvm.*` call as host code; false when no row knows it.
bool lowerNvvmCall(CallInst &CI, StringRef Name) {
  Module &M = *CI.getModule();
  Runtime RT(M);
  IRBuilder<> B(&CI);
  StringRef Rest = Name;
  Value *V = nullptr;
  if (Rest.consume_front("llvm.nvvm.read.ptx.sreg."))
    V = lowerSreg(B, RT, CI, Rest);
  else if (Name.starts_with("llvm.nvvm.barrier"))
    V = lowerBarrier(B, RT, CI, Name);
  else if (Name.starts_with("llvm.nvvm.bar.warp.sync")) {
    B.CreateCall(RT.get("__cudahost_syncwarp", RT.voidTy(), {RT.i32()}),
                 {CI.getArgOperand(0)});
    V = UndefValue::get(CI.getType());
  } else if (Rest.consume_front("llvm.nvvm.shfl."))
    V = lowerShuffle(B, RT, CI, Rest);
  else if (Rest.consume_front("llvm.nvvm.vote."))
    V = lowerVote(B, RT, CI, Rest);
  else if (Name == "llvm.nvvm.activemask")
    V = B.CreateCall(RT.get("__cudahost_activemask", RT.i32(), {}));
  else if (Name.starts_with("llvm.nvvm.membar") ||
           Name.starts_with("llvm.nvvm.fence")) {
    B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    V = UndefValue::get(CI.getType());
  } else if (Rest.consume_front("llvm.nvvm.atomic."))
    V = lowerAtomic(B, CI, Rest);
  else if (Rest.consume_front("llvm.nvvm.")) {
    V = lowerMath(B, CI, Rest);
    if (!V)
      V = lowerBits(B, RT, CI, Rest);
    if (!V && Rest.take_while([](char C) { return C != '.'; }).contains('2'))
      V = lowerConversion(B, CI, Rest);
  }
  if (!V)
    return false;
  if (!CI.getType()->isVoidTy()) {
    if (isa<Instruction>(V) && !V->hasName())
      V->takeName(&CI);
    CI.replaceAllUsesWith(V);
  }
  CI.eraseFromParent();
  return true;
}

} // namespace cudahost
