//===- WarpShuffles.h - CUDA warp shuffles of floating-point values
//--------===//
//
// __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync move a
// value between the lanes of a warp: lane l receives the value of lane
// src(l). On a float, clang emits one llvm.nvvm.shfl.sync.* intrinsic; on a
// double, CUDA's header shuffles its two 32-bit halves, which the pass sees
// as a call to that header function (driver/Libdevice.h keeps it from being
// inlined until the derivatives exist). The tangent moves like the value.
// The adjoint moves back: lane l adds up the adjoints of every lane k with
// src(k) = l — one lane for up, down and xor (their own lane where the
// source falls outside the segment), any number for an indexed shuffle.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_WARPSHUFFLES_H
#define AD_RULES_WARPSHUFFLES_H

#include "llvm/IR/IRBuilder.h"
#include <optional>

namespace ad {

enum class ShuffleMode { Index, Up, Down, Xor };

/// A shuffle call's operands: (mask, value, lane or delta, width) for the
/// header functions; for the intrinsics the last is the packed clamp
/// operand, ((32 - width) << 8) | (31 for all but up).
struct WarpShuffle {
  ShuffleMode Mode;
  bool PackedWidth; ///< The intrinsic's clamp operand, not a width.
};

/// The shuffle \p Call is, if it shuffles a float or double.
std::optional<WarpShuffle> warpShuffleOf(const llvm::CallBase &Call);

/// Whether \p F is one of CUDA's header shuffles of a double or float.
bool isWarpShuffleFunction(const llvm::Function &F);

/// The adjoint of the value operand: with the primal's \p Mask, \p Lane
/// (lane or delta) and \p Width operands (as the call has them), and the
/// result's adjoint \p DY of this lane.
llvm::Value *shuffleAdjoint(llvm::IRBuilderBase &B, const WarpShuffle &S,
                            llvm::Value *Mask, llvm::Value *Lane,
                            llvm::Value *Width, llvm::Value *DY);

} // namespace ad

#endif // AD_RULES_WARPSHUFFLES_H
