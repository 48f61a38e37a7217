//===- ReverseBuilder.h - The adjoint of a function -------------*- C++ -*-===//
//
// Reverse mode runs the primal forward (the forward sweep), then walks the
// executed path backwards (the reverse sweep), accumulating adjoints.
//
// Forward sweep: a clone of the canonical primal, plus shadow pointers and
// the forward part of memory operations on shadows (pointer shadows stored,
// shadow allocations), plus calls to the callees' augmented forward sweeps.
//
// Reverse sweep: one reverse block per primal block, holding the adjoints of
// its instructions in reverse order.
//
// This class is the orchestration: it clones the forward sweep, visits each
// instruction in both sweeps, and asks the parts, one per concern, that
// share a ReverseState:
//   - PrimalInReverse: where a reverse block gets a primal value (used
//     directly, recomputed, from a slot, or from the tape);
//   - TapeRecords: the per-block records on the tape, their layout and
//     reservation;
//   - ReverseControlFlow: the reverse blocks, and the way back from each;
//   - AdjointSlots: the stack slots that hold the adjoints of SSA values.
// Adjoints of memory live in shadows.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_REVERSEBUILDER_H
#define AD_MODES_REVERSEBUILDER_H

#include "modes/AdjointSlots.h"
#include "modes/PrimalInReverse.h"
#include "modes/ReverseControlFlow.h"
#include "modes/ReverseState.h"
#include "modes/TapeRecords.h"

namespace ad {

class ReverseBuilder {
public:
  /// Combined when \p Forward == \p Reverse (a gradient), split otherwise
  /// (augmented forward sweep and adjoint).
  ReverseBuilder(ADContext &Ctx, const DerivativeSignature &Sig,
                 llvm::Function *Primal, llvm::Function *Forward,
                 llvm::Function *Reverse);
  /// False after reporting an error.
  bool build();

private:
  // --- Forward sweep (ReverseBuilder.cpp) ---
  bool cloneForward();
  /// Leaves out of a gradient the primal's stores to __ad_dupnoneed memory
  /// the function never reads (DerivativeSignature::NoNeedArgs), with a
  /// remark; returns how many.
  unsigned dropUnneededStores();
  bool forwardVisit(llvm::Instruction &I);
  bool forwardStore(llvm::StoreInst &SI);
  void forwardAllocaShadow(llvm::AllocaInst &AI, llvm::Instruction &Clone);
  bool forwardShadowCopy(llvm::Instruction &I);
  bool finishShadowPhis();
  bool buildReverseBlock(llvm::BasicBlock *BB);

  // --- Adjoints of instructions (ReverseInstructions.cpp) ---
  bool reverseVisit(llvm::Instruction &I);
  bool reverseStructural(llvm::Instruction &I, llvm::Value *DY);
  void reverseShuffle(llvm::ShuffleVectorInst &SV, llvm::Value *DY);
  bool reverseStore(llvm::StoreInst &I);
  bool reverseAtomicUpdate(llvm::AtomicRMWInst &I);

  // --- Calls, in both sweeps (ReverseCalls.cpp): what the callee's row
  // (rules/CallRows.h) says, through ForwardSweepCalls and AdjointCalls ---
  class ForwardSweepCalls;
  class AdjointCalls;
  bool forwardCall(llvm::CallBase &I);
  bool reverseCall(llvm::CallBase &I, llvm::Value *DY);
  /// The rows of calls to functions whose bodies are differentiated: the
  /// callee's augmented forward sweep, and its adjoint.
  bool forwardCallToDefined(llvm::CallBase &I);
  bool reverseCallToDefined(llvm::CallBase &I);
  /// The split derivative a call to a defined function needs (the same in
  /// the forward and the reverse sweep), with its signature.
  struct CalleeDerivative {
    DerivativeSignature Sig;
    SplitDerivative D;
  };
  /// nullptr when nothing of the call is differentiated (\p Ok stays true)
  /// or after reporting an error (\p Ok false).
  const CalleeDerivative *calleeDerivative(llvm::CallBase &I, bool &Ok);
  llvm::DenseMap<const llvm::CallBase *, std::optional<CalleeDerivative>>
      CalleeDerivatives;

  ReverseState S;
  TapeRecords Records;
  AdjointSlots Adjoints;
  PrimalInReverse Values;
  ReverseControlFlow Flow;
  llvm::SmallVector<llvm::PHINode *, 8> PendingShadowPhis;
};

} // namespace ad

#endif
