//===- StoredPointers.h - Pointers without shadows reaching shadowed places -===//
//
// A pointer that has no shadow can still reach a place where one is needed:
// stored into differentiated memory, or merged in a phi with a differentiated
// pointer. Local memory (an alloca, a malloc) whose address goes there is
// given a shadow by the activity analysis. If the pointer points to data
// the caller did not give a shadow for (an __ad_const argument, a mutable
// global), any derivative read through it later could not be tracked: that
// is an error. A pointer read from memory without a shadow, or returned by
// a function that carries no derivatives, points to data that is not
// differentiated: a null shadow. A pointer of any other origin (taken out
// of a struct returned by value, say) gets a null shadow only when the type
// analysis finds nothing but integers read or written through it, and is
// an error otherwise.
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
