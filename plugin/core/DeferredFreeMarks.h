//===- DeferredFreeMarks.h - The marks of frees a gradient defers ---------===//
//
// primal/DeferredFrees.h decides which frees a gradient runs in its reverse
// sweep instead of its forward sweep and marks them on the canonical primal;
// the reload policies and the call rows read the marks here, below the
// layers that decide.
//
//===----------------------------------------------------------------------===//
#ifndef AD_CORE_DEFERREDFREEMARKS_H
#define AD_CORE_DEFERREDFREEMARKS_H

namespace llvm {
class CallBase;
class Function;
class Instruction;
} // namespace llvm

namespace ad {

/// \p I is a free a gradient runs in its reverse sweep instead.
bool isDeferredFree(const llvm::Instruction &I);

/// The function a gradient's reverse sweep calls on allocation \p Alloc when
/// it reaches it (its deferred free), or nullptr.
llvm::Function *freedInReverse(const llvm::CallBase &Alloc);

/// Marks \p Free deferred, and \p Alloc freed by \p FreeFn in the reverse
/// sweep.
void markDeferredFree(llvm::CallBase &Free, llvm::CallBase &Alloc,
                      llvm::Function &FreeFn);

/// Drops the marks (a gradient differentiated again is ordinary code).
void forgetDeferredFrees(llvm::Function &F);

} // namespace ad

#endif
