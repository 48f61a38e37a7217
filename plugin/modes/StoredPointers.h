//===- StoredPointers.h - Pointers without shadows reaching shadowed places -===//
//
// A pointer that has no shadow can still reach a place where one is needed:
// stored into differentiated memory, or merged in a phi with a differentiated
// pointer. If it points to memory that holds no derivatives (an integer-only
// local array), a null shadow is right. If it points to data the caller did
// not give a shadow for (an __ad_const argument, a mutable global), any
// derivative read through it later could not be tracked: that is an error.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_STOREDPOINTERS_H
#define AD_MODES_STOREDPOINTERS_H

#include "modes/DerivativeCache.h"

namespace ad {

/// The shadow to use for \p Ptr (which has none) at \p At: null, or nullptr
/// after reporting an error.
llvm::Value *shadowForUnshadowedPointer(ADContext &Ctx, llvm::Value *Ptr,
                                        llvm::Instruction *At);

} // namespace ad

#endif
