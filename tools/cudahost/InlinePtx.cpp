//===- InlinePtx.cpp - The inline PTX device modules contain, as host code
//-===//
//
// Inline assembly in a device module is PTX, which the host cannot run. The
// few strings that occur are recognized (whitespace aside) and rewritten:
// those of CUDA's headers (`activemask`, fences, `nanosleep`) and those in
// libdevice's bodies, which a module has when it is compiled as for a GPU
// (cuda-host-run --libdevice): approximate reciprocals, subtractions in a
// rounding mode, and the carry chains of its multi-word integer arithmetic
// (32x32+32 -> 64, 64x64 -> 128, 64x64+64 -> 128, 128-bit add and
// subtract), which are exact in i64/i128 arithmetic. Any other string is an
// error (DeviceLowering.cpp names it).
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace cudahost {

namespace {

/// The assembly string without whitespace, so that formatting is no matter.
std::string compact(StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (!isSpace(C))
      Out += C;
  return Out;
}

/// A wide integer from the 64-bit words Words (low word first).
Value *join(IRBuilder<> &B, ArrayRef<Value *> Words) {
  Type *Wide = B.getIntNTy(64 * Words.size());
  Value *R = ConstantInt::get(Wide, 0);
  for (size_t I = 0; I < Words.size(); ++I) {
    Value *W = B.CreateZExt(B.CreateBitCast(Words[I], B.getInt64Ty()), Wide);
    R = B.CreateOr(R, B.CreateShl(W, 64 * I));
  }
  return R;
}

/// The struct of N results an asm with N outputs returns, from the words of
/// Wide (each output's width, low first).
Value *split(IRBuilder<> &B, Value *Wide, Type *ResultTy) {
  auto *ST = cast<StructType>(ResultTy);
  Value *R = PoisonValue::get(ST);
  unsigned Shift = 0;
  for (unsigned I = 0; I < ST->getNumElements(); ++I) {
    Type *ElemTy = ST->getElementType(I);
    unsigned Bits = ElemTy->getPrimitiveSizeInBits();
    Value *Word = B.CreateTrunc(B.CreateLShr(Wide, Shift), B.getIntNTy(Bits));
    R = B.CreateInsertValue(R, B.CreateBitCast(Word, ElemTy), I);
    Shift += Bits;
  }
  return R;
}

/// libdevice's carry chains, told apart by their instruction sequence.
Value *carryChain(IRBuilder<> &B, CallInst &CI, StringRef Code) {
  auto Arg = [&](unsigned I) { return CI.getArgOperand(I); };
  if (Code == "{mad.lo.cc.u32$0,$2,$3,$4;madc.hi.u32$1,$2,$3,0;}") {
    auto Ext = [&](Value *V) { return B.CreateZExt(V, B.getInt64Ty()); };
    // Operands in order, so that the IR does not depend on the compiler's
    // order of evaluating arguments.
    Value *A = Ext(Arg(0)), *X = Ext(Arg(1)), *C = Ext(Arg(2));
    Value *T = B.CreateAdd(B.CreateMul(A, X), C);
    return split(B, T, CI.getType());
  }
  // 64-bit operands of a 128-bit result.
  auto Wide = [&](unsigned I) {
    return B.CreateZExt(B.CreateBitCast(Arg(I), B.getInt64Ty()),
                        B.getInt128Ty());
  };
  bool TwoWords = Code.contains("mov.b64{alo,ahi},$2;");
  if (TwoWords && Code.contains("mul.lo.u32r0,alo,blo;")) { // 64x64 -> 128
    Value *A = Wide(0), *X = Wide(1);
    return split(B, B.CreateMul(A, X), CI.getType());
  }
  if (TwoWords && Code.contains("mov.b64{clo,chi},$4;")) { // 64x64+64 -> 128
    Value *A = Wide(0), *X = Wide(1), *C = Wide(2);
    return split(B, B.CreateAdd(B.CreateMul(A, X), C), CI.getType());
  }
  bool FourWords = Code.contains("mov.b64{a0,a1},$2;mov.b64{a2,a3},$3;");
  Value *A = FourWords ? join(B, {Arg(0), Arg(1)}) : nullptr;
  Value *C = FourWords ? join(B, {Arg(2), Arg(3)}) : nullptr;
  if (FourWords && Code.contains("add.cc.u32r0,a0,b0;"))
    return split(B, B.CreateAdd(A, C), CI.getType());
  if (FourWords && Code.contains("sub.cc.u32r0,a0,b0;"))
    return split(B, B.CreateSub(A, C), CI.getType());
  return nullptr;
}

Value *lowerPtx(IRBuilder<> &B, CallInst &CI, StringRef Code) {
  auto Arg = [&](unsigned I) { return CI.getArgOperand(I); };
  Module &M = *CI.getModule();
  Type *Ty = CI.getType();
  if (Code.starts_with("activemask.b32"))
    return B.CreateCall(M.getOrInsertFunction(
        "__cudahost_activemask", FunctionType::get(B.getInt32Ty(), false)));
  if (Code.starts_with("membar.") || Code.starts_with("fence.")) {
    B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    return PoisonValue::get(Ty);
  }
  if (Code.starts_with("nanosleep"))
    return PoisonValue::get(Ty);
  if (Code.starts_with("rcp.approx"))
    return B.CreateFDiv(ConstantFP::get(Ty, 1.0), Arg(0));
  if (Code.starts_with("rsqrt.approx"))
    return B.CreateFDiv(ConstantFP::get(Ty, 1.0),
                        B.CreateUnaryIntrinsic(Intrinsic::sqrt, Arg(0)));
  if (Code.starts_with("sub.r"))
    return B.CreateFSub(Arg(0), Arg(1));
  if (Code.contains("setp.equ.f64") && Code.contains("selp.f64")) {
    Value *Equal = B.CreateFCmpUEQ(Arg(0), Arg(1));
    return B.CreateSelect(Equal, Arg(2), Arg(3));
  }
  return carryChain(B, CI, Code);
}

} // namespace

bool lowerInlinePtx(CallInst &CI) {
  auto *Asm = cast<InlineAsm>(CI.getCalledOperand());
  IRBuilder<> B(&CI);
  Value *V = lowerPtx(B, CI, compact(Asm->getAsmString()));
  if (!V)
    return false;
  if (V->getType() != CI.getType()) // activemask into a wider register
    V = B.CreateZExtOrTrunc(V, CI.getType());
  if (!CI.getType()->isVoidTy())
    CI.replaceAllUsesWith(V);
  CI.eraseFromParent();
  return true;
}

} // namespace cudahost
