//===- ReverseCalls.h - Reverse mode's side of the call rows ----*- C++ -*-===//
//
// The call rows (rules/CallRows.h) emit through two views of a
// ReverseBuilder: the forward sweep's (the clone, shadows in the forward
// function, heap shadows kept for the reverse sweep) and the reverse
// sweep's (primal values and shadows as the reverse sweep gets them,
// adjoints). The arithmetic instructions' rules use the second too. They are
// nested in ReverseBuilder because a call to a defined function comes back
// to it (its augmented forward sweep and adjoint, ReverseCalls.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_REVERSECALLS_H
#define AD_MODES_REVERSECALLS_H

#include "modes/ReverseBuilder.h"
#include "rules/CallEmitters.h"

namespace ad {

class ReverseBuilder::ForwardSweepCalls final : public ShadowEmitter {
public:
  explicit ForwardSweepCalls(ReverseBuilder &R);
  bool defersFrees() const override;
  llvm::Value *primal(llvm::Value *V) override;
  llvm::Value *shadow(llvm::Value *V, llvm::Instruction *At) override;
  bool callDerivativeOfCallee(llvm::CallBase &Call) override;
  llvm::CallBase &clone(llvm::CallBase &Call) override;
  void setShadow(llvm::CallBase &Call, llvm::Value *S) override;
  void keepHeapShadow(llvm::CallBase &Call, llvm::Value *S) override;

private:
  ReverseBuilder &R;
};

class ReverseBuilder::AdjointCalls final : public AdjointEmitter {
public:
  explicit AdjointCalls(ReverseBuilder &R);
  bool defersFrees() const override;
  llvm::Value *primal(llvm::Value *V) override;
  llvm::Value *primalAlongside(llvm::Instruction &I,
                               llvm::Intrinsic::ID F) override;
  llvm::Value *shadow(llvm::Value *V, llvm::Instruction *At) override;
  bool callDerivativeOfCallee(llvm::CallBase &Call) override;
  void addAdjoint(llvm::Value *V, llvm::Value *D) override;
  bool hasHeapShadow(const llvm::CallBase &Call) const override;
  llvm::AllocaInst *scratchSlot(llvm::Type *T,
                                const llvm::Twine &Name) override;

private:
  ReverseBuilder &R;
};

} // namespace ad

#endif
