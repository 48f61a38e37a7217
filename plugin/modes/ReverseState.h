//===- ReverseState.h - What reverse mode's parts share ---------*- C++ -*-===//
//
// Reverse mode is built by a few classes, one per concern (ReverseBuilder.h
// lists them). They all read the same function-wide facts (the primal, its
// analyses, the signature) and the same maps that cloning fills (primal value
// to forward-sweep value, to shadow, primal block to reverse block), and emit
// through one IRBuilder whose insertion point follows the block being
// reversed. This struct holds exactly that; the ReverseBuilder owns it and
// each part keeps a reference, so no part reaches into another's members.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_REVERSESTATE_H
#define AD_MODES_REVERSESTATE_H

#include "analysis/ActivityAnalysis.h"
#include "analysis/ThreadSharing.h"
#include "modes/AnalysisFacts.h"
#include "modes/DerivativeCache.h"
#include "modes/ShadowCloning.h"
#include "primal/CountedLoops.h"
#include "primal/TapeReservation.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace ad {

struct ReverseState {
  /// Combined when \p Forward == \p Reverse (a gradient), split otherwise
  /// (augmented forward sweep and adjoint).
  ReverseState(ADContext &Ctx, const DerivativeSignature &Sig,
               llvm::Function *Primal, llvm::Function *Forward,
               llvm::Function *Reverse);

  ADContext &Ctx;
  const DerivativeSignature &Sig;
  llvm::Function *Primal, *FwdF, *RevF;
  bool Combined;
  ActivityAnalysis AA;
  AnalysisFacts Facts;
  /// The primal's, from the analysis manager: nothing changes the primal
  /// while its derivative is built (the canonical primal's rewrites, which
  /// do, invalidate them first), and the results are held no longer.
  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  const CountedLoopMap &Counted;
  const IterationBoundMap &Bounds;
  /// Device code: the accesses whose shadow locations belong to their
  /// thread (plain adjoint adds, not atomic ones).
  ThreadOwnedArguments ThreadOwned;

  /// Primal value -> forward-sweep value; primal pointer -> its shadow in
  /// the forward sweep.
  llvm::ValueToValueMapTy VMap;
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Shadows;
  /// The forward sweep's clone and shadows, as forward mode makes them too.
  ShadowCloning Cloning;
  /// Shadows allocated on the heap, freed when the reverse sweep reaches the
  /// allocation.
  llvm::DenseSet<const llvm::Value *> HeapShadows;
  llvm::BasicBlock *ReturnBlock = nullptr;
  llvm::Value *TapeFwd = nullptr, *TapeRev = nullptr;
  /// The primal's reachable blocks in reverse post-order.
  llvm::SmallVector<llvm::BasicBlock *, 16> LiveBlocks;
  /// Each live block's reverse block, and its live predecessors (the order
  /// gives the predecessor indices the forward sweep records).
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> RevBlocks;
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<llvm::BasicBlock *, 2>>
      Preds;
  llvm::BasicBlock *CurBlock = nullptr; ///< Primal block being reversed.
  llvm::IRBuilder<> B;
};

} // namespace ad

#endif
