//===- MaskedMemory.h - llvm.masked.{load,store,gather,scatter}
//-------------===//
//
// With AVX2 or AVX-512 the loop vectorizer turns conditional loads and stores
// into llvm.masked.load/store and indexed accesses into llvm.masked.gather/
// scatter. Their derivatives are the derivatives of a load and a store, lane
// by lane, on the shadow memory:
//   forward: the same masked access on the shadow pointer(s), tangents as data;
//   reverse: a masked load adds its adjoint into the shadow lanes it read; a
//            masked store moves the shadow lanes it wrote into the stored
//            value's adjoint and zeroes them.
// Gather and scatter lanes may alias one another, so their reverse is built
// lane by lane (for scatter, last lane first: the last write wins).
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_MASKEDMEMORY_H
#define AD_RULES_MASKEDMEMORY_H

#include "rules/CallEmitters.h"
#include "rules/KnownFunctions.h"
#include "llvm/IR/IRBuilder.h"

namespace ad {

/// The operands of one masked memory intrinsic, named.
struct MaskedAccess {
  bool IsStore = false;
  bool IsGatherScatter = false; ///< A vector of pointers, one per lane.
  llvm::Value *Ptr = nullptr;   ///< ptr, or <N x ptr> for gather/scatter.
  llvm::Value *Mask = nullptr;  ///< <N x i1>
  llvm::Value *Data = nullptr;  ///< Stored value, or the load's passthru.
  unsigned PtrArg = 0, DataArg = 0, MaskArg = 0;
  llvm::Align Alignment;
};

/// Set for masked load/store/gather/scatter; nullopt for anything else.
std::optional<MaskedAccess> asMaskedAccess(const llvm::CallBase &Call);

/// Creates the access \p A describes with a different pointer, mask and data
/// (the data is a passthru for loads; the result is the loaded vector).
llvm::Value *createMaskedAccess(llvm::IRBuilderBase &B, const MaskedAccess &A,
                                llvm::Type *VecTy, llvm::Value *Ptr,
                                llvm::Value *Mask, llvm::Value *Data);

/// Reverse of a masked load or gather of \p VecTy: adds \p DY, lane by lane
/// where \p Mask is set, into the shadow memory at \p ShadowPtr.
void accumulateMaskedLanes(llvm::IRBuilderBase &B, const MaskedAccess &A,
                           llvm::Value *ShadowPtr, llvm::Value *Mask,
                           llvm::Value *DY);

/// Reverse of a masked store or scatter of \p VecTy: returns what the shadow
/// memory held in the written lanes (zero elsewhere) and zeroes those lanes.
llvm::Value *takeMaskedLanes(llvm::IRBuilderBase &B, const MaskedAccess &A,
                             llvm::Type *VecTy, llvm::Value *ShadowPtr,
                             llvm::Value *Mask);

/// The rows of masked loads and stores (CallRows.cpp).
/// The reverse sweep's work is all in maskedAccessAdjoint; this only
/// rejects pointer lanes before anything is built.

} // namespace ad

#endif
