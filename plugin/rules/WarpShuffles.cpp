//===- WarpShuffles.cpp - CUDA warp shuffles of floating-point values
//------===//
#include "rules/WarpShuffles.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace ad {

std::optional<WarpShuffle> warpShuffleOf(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F)
    return std::nullopt;
  switch (F->getIntrinsicID()) {
  case Intrinsic::nvvm_shfl_sync_idx_f32:
    return WarpShuffle{ShuffleMode::Index, true};
  case Intrinsic::nvvm_shfl_sync_up_f32:
    return WarpShuffle{ShuffleMode::Up, true};
  case Intrinsic::nvvm_shfl_sync_down_f32:
    return WarpShuffle{ShuffleMode::Down, true};
  case Intrinsic::nvvm_shfl_sync_bfly_f32:
    return WarpShuffle{ShuffleMode::Xor, true};
  default:
    break;
  }
  if (!isWarpShuffleFunction(*F))
    return std::nullopt;
  std::string Name = demangle(F->getName());
  StringRef N(Name);
  if (N.starts_with("__shfl_up_sync"))
    return WarpShuffle{ShuffleMode::Up, false};
  if (N.starts_with("__shfl_down_sync"))
    return WarpShuffle{ShuffleMode::Down, false};
  if (N.starts_with("__shfl_xor_sync"))
    return WarpShuffle{ShuffleMode::Xor, false};
  return WarpShuffle{ShuffleMode::Index, false};
}

bool isWarpShuffleFunction(const Function &F) {
  if (!F.getName().starts_with("_Z") || F.arg_size() != 4 ||
      !F.getReturnType()->isFloatingPointTy())
    return false;
  std::string Name = demangle(F.getName());
  StringRef N(Name);
  return N.starts_with("__shfl_sync(") || N.starts_with("__shfl_up_sync(") ||
         N.starts_with("__shfl_down_sync(") ||
         N.starts_with("__shfl_xor_sync(");
}

/// shfl.sync.idx of a float or double from absolute lane \p From (every lane
/// of \p Mask executes it).
static Value *shuffleFrom(IRBuilderBase &B, Value *Mask, Value *V,
                          Value *From) {
  Value *Clamp = B.getInt32(31); // the whole warp, no segments
  Type *T = V->getType();
  if (T->isFloatTy())
    return B.CreateIntrinsic(Intrinsic::nvvm_shfl_sync_idx_f32,
                             {Mask, V, From, Clamp});
  // A double in two 32-bit halves, as CUDA's header shuffles it.
  Type *Halves = FixedVectorType::get(B.getInt32Ty(), 2);
  Value *H = B.CreateBitCast(V, Halves);
  Value *R = PoisonValue::get(Halves);
  for (unsigned I = 0; I < 2; ++I)
    R = B.CreateInsertElement(
        R,
        B.CreateIntrinsic(Intrinsic::nvvm_shfl_sync_idx_i32,
                          {Mask, B.CreateExtractElement(H, I), From, Clamp}),
        I);
  return B.CreateBitCast(R, T);
}

Value *shuffleAdjoint(IRBuilderBase &B, const WarpShuffle &S, Value *Mask,
                      Value *Lane, Value *Width, Value *DY) {
  Type *I32 = B.getInt32Ty();
  Lane = B.CreateZExtOrTrunc(Lane, I32);
  Width = B.CreateZExtOrTrunc(Width, I32);
  if (S.PackedWidth) // c = ((32 - w) << 8) | clamp
    Width = B.CreateSub(B.getInt32(32), B.CreateLShr(Width, 8));
  Value *Me = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  // Lanes form segments of Width (a power of two) lanes.
  Value *Low = B.CreateSub(Width, B.getInt32(1));
  Value *InSeg = B.CreateAnd(Me, Low);
  Value *SegStart = B.CreateSub(Me, InSeg);
  Value *Zero = ConstantFP::get(DY->getType(), 0.0);
  auto Pick = [&](Value *Cond, Value *V) {
    return B.CreateSelect(Cond, V, Zero);
  };
  switch (S.Mode) {
  case ShuffleMode::Down: {
    // src(k) = k + d where k + d stays in k's segment, else k.
    Value *Sends = B.CreateICmpUGE(InSeg, Lane); // lane me - d read me
    Value *From = B.CreateSelect(Sends, B.CreateSub(Me, Lane), Me);
    Value *Got = shuffleFrom(B, Mask, DY, From);
    Value *Own = B.CreateICmpUGE(B.CreateAdd(InSeg, Lane), Width);
    return B.CreateFAdd(Pick(Sends, Got), Pick(Own, DY));
  }
  case ShuffleMode::Up: {
    // src(k) = k - d where k - d stays in k's segment, else k.
    Value *Sends = B.CreateICmpULT(B.CreateAdd(InSeg, Lane), Width);
    Value *From = B.CreateSelect(Sends, B.CreateAdd(Me, Lane), Me);
    Value *Got = shuffleFrom(B, Mask, DY, From);
    Value *Own = B.CreateICmpULT(InSeg, Lane);
    return B.CreateFAdd(Pick(Sends, Got), Pick(Own, DY));
  }
  case ShuffleMode::Xor: {
    // src(k) = k ^ m where that stays in k's segment, else k: an involution.
    Value *Partner = B.CreateXor(Me, Lane);
    Value *Inside = B.CreateICmpEQ(
        B.CreateSub(Partner, B.CreateAnd(Partner, Low)), SegStart);
    Value *Got = shuffleFrom(B, Mask, DY, B.CreateSelect(Inside, Partner, Me));
    return B.CreateSelect(Inside, Got, DY);
  }
  case ShuffleMode::Index:
    break;
  }
  // A broadcast (the same source lane for the whole warp): the source lane
  // of each segment receives the sum of its segment's adjoints, by a
  // butterfly over the segment (log2(width) shuffles).
  auto *FullMask = dyn_cast<ConstantInt>(Mask);
  if (isa<Constant>(Lane) && FullMask && FullMask->isAllOnesValue()) {
    Value *Sum = DY;
    for (unsigned Offset = 1; Offset < 32; Offset *= 2) {
      Value *Partner = B.CreateXor(Me, B.getInt32(Offset));
      Value *Inside = B.CreateICmpULT(B.getInt32(Offset), Width);
      Value *Got =
          shuffleFrom(B, Mask, Sum, B.CreateSelect(Inside, Partner, Me));
      Sum = B.CreateSelect(Inside, B.CreateFAdd(Sum, Got), Sum);
    }
    Value *Source = B.CreateAdd(SegStart, B.CreateAnd(Lane, Low));
    return Pick(B.CreateICmpEQ(Me, Source), Sum);
  }
  // src(k) = k's segment start + (lane_k mod width): any number of lanes may
  // read one lane. Every lane looks at every lane of the mask, in lane order
  // (a fixed order: the sum is the same on every run), straight-line code
  // (no loop: the reverse sweep's blocks stay as the builder made them).
  Value *MySource = B.CreateAdd(SegStart, B.CreateAnd(Lane, Low));
  Value *Sum = Zero;
  for (unsigned K = 0; K < 32; ++K) {
    Value *From = B.getInt32(K);
    Value *TheirSource =
        B.CreateIntrinsic(Intrinsic::nvvm_shfl_sync_idx_i32,
                          {Mask, MySource, From, B.getInt32(31)});
    Value *TheirDY = shuffleFrom(B, Mask, DY, From);
    Value *InMask = B.CreateTrunc(B.CreateLShr(Mask, From), B.getInt1Ty());
    Value *ReadMe = B.CreateAnd(InMask, B.CreateICmpEQ(TheirSource, Me));
    Sum = B.CreateFAdd(Sum, Pick(ReadMe, TheirDY));
  }
  return Sum;
}

} // namespace ad
