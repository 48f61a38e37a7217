//===- IRHelpers.h - Small IR utilities shared by both modes
//----------------===//
//
// Derivatives flow through floating-point scalars, vectors of them and
// aggregates that contain them ("differentiable types"). These helpers build
// zeros, sums and scaled values of any such type, so the mode builders never
// special-case a struct or vector.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_IRHELPERS_H
#define AD_MODES_IRHELPERS_H

#include "llvm/IR/IRBuilder.h"

namespace ad {

/// A type that carries derivatives: FP, vector of FP, or an aggregate that
/// contains one.
bool isDifferentiableType(llvm::Type *T);

/// a + b, leaf by leaf; non-FP leaves keep a's value.
llvm::Value *addDerivatives(llvm::IRBuilderBase &B, llvm::Value *A,
                            llvm::Value *Bv);

/// A type whose values have shadows: a pointer (or vector of pointers), or
/// a struct or array whose leaves are pointers and integers, at least one a
/// pointer (C++ returns a std::pair of tree nodes by value). Its shadow has
/// the same type: the pointers' shadows in place of the pointers.
bool isPointerLike(llvm::Type *T);

/// The zero an adjoint accumulator starts from: -0.0 in every FP leaf.
/// -0.0 is the exact identity of fadd (x + -0.0 == x for every x, +0.0
/// included), so the optimizer folds the first accumulation into a plain
/// copy; +0.0 is not (-0.0 + +0.0 == +0.0), and would stay as an fadd.
llvm::Constant *adjointZero(llvm::Type *T);

/// V + (+0.0) in every FP leaf: turns the -0.0 of an accumulator that
/// received nothing into the +0.0 users expect, and leaves the rest alone.
llvm::Value *addPositiveZero(llvm::IRBuilderBase &B, llvm::Value *V);

/// True for +0.0, -0.0 and aggregates or splats of them.
bool isZeroDerivative(const llvm::Value *V);

/// The all-ones seed of a differentiable type (1.0 in every FP leaf).
llvm::Constant *onesOf(llvm::Type *T);

/// Whether \p M is GPU device code (NVPTX, AMDGPU), where every thread runs
/// its own derivative side by side and the C library has no realloc.
bool isParallelDeviceCode(const llvm::Module &M);

/// The instructions that use \p V, directly or through constant
/// expressions (device code reaches a __device__ or __shared__ variable
/// through an address-space cast of it), in use-list order.
llvm::SmallVector<llvm::Instruction *, 8>
instructionsUsing(const llvm::Value &V);

/// Accumulates \p Delta into the slot \p Slot (an alloca of Delta's type).
void accumulateIntoSlot(llvm::IRBuilderBase &B, llvm::Value *Slot,
                        llvm::Value *Delta);

/// Adds \p Delta into the shadow memory at \p ShadowPtr: a load, an add
/// and a store, or with \p Atomic (memory other threads may update at the
/// same time) one atomic add per floating-point leaf.
void accumulateIntoMemory(llvm::IRBuilderBase &B, llvm::Value *ShadowPtr,
                          llvm::Value *Delta, llvm::Align Alignment,
                          bool Atomic = false);

/// Converts a value between FP widths (fpext/fptrunc) or integer widths;
/// returns V unchanged when the types already agree, nullptr when no
/// conversion applies.
llvm::Value *convertScalar(llvm::IRBuilderBase &B, llvm::Value *V,
                           llvm::Type *To);

/// Makes the operands of integer division or remainder \p Opcode unable to
/// trap, for a copy that runs where the original might not: a zero divisor
/// becomes 1, and a signed INT_MIN / -1 divides 0 instead. Where the
/// original is defined, the result is the same. Other opcodes: unchanged.
void makeDivisionSafe(llvm::IRBuilderBase &B, unsigned Opcode, llvm::Value *&L,
                      llvm::Value *&R);

} // namespace ad

#endif
