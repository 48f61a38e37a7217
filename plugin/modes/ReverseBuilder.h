//===- ReverseBuilder.h - Reverse mode: the adjoint of a function
//-----------===//
//
// Reverse mode runs the primal forward (the forward sweep), then walks the
// executed path backwards (the reverse sweep), accumulating adjoints.
//
// Forward sweep: a clone of the canonical primal, plus shadow pointers and
// the forward part of memory operations on shadows (pointer shadows stored,
// shadow allocations), plus calls to the callees' augmented forward sweeps.
//
// Reverse sweep: one reverse block per primal block, holding the adjoints of
// its instructions in reverse order. The path is recovered from the tape:
// each block with several predecessors records which one it came from. Each
// reverse block reads the primal values it needs from a record that its
// forward block pushed on the tape when it finished — one record per executed
// block, LIFO, so loops of unknown trip count and recursion need nothing
// special. In the combined (gradient) form, values computed exactly once on
// every path (outside loops, in blocks dominating the return) are used
// directly instead.
//
// Adjoints of SSA values live in stack slots of the reverse function (read
// and reset to zero when the reverse sweep reaches the definition); the
// optimizer promotes them to registers. Adjoints of memory live in shadows.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_REVERSEBUILDER_H
#define AD_MODES_REVERSEBUILDER_H

#include "analysis/ActivityAnalysis.h"
#include "modes/DerivativeCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace ad {

struct CustomRule;

class ReverseBuilder {
public:
  /// Combined when \p Forward == \p Reverse (a gradient), split otherwise
  /// (augmented forward sweep and adjoint).
  ReverseBuilder(ADContext &Ctx, const DerivativeSignature &Sig,
                 llvm::Function *Primal, llvm::Function *Forward,
                 llvm::Function *Reverse);
  ~ReverseBuilder();
  /// False after reporting an error.
  bool build();

private:
  // --- Forward sweep (ReverseBuilder.cpp) ---
  bool cloneForward();
  bool forwardVisit(llvm::Instruction &I);
  bool forwardCall(llvm::CallBase &I);
  bool forwardShadowCopy(llvm::Instruction &I);
  bool finishShadowPhis();
  void createPredecessorIndices();

  // --- Reverse sweep structure (ReverseBuilder.cpp) ---
  void createReverseBlocks();
  bool buildReverseBlock(llvm::BasicBlock *BB);
  void emitReverseTerminator(llvm::BasicBlock *BB);
  void emitReverseEntryAndExit();
  void emitRecords();
  void dropUnusedTape();

  // --- Adjoints of instructions (ReverseInstructions.cpp) ---
  bool reverseVisit(llvm::Instruction &I);
  bool reverseArithmetic(llvm::Instruction &I, llvm::Value *DY);
  bool reverseStructural(llvm::Instruction &I, llvm::Value *DY);
  bool reverseCall(llvm::CallBase &I, llvm::Value *DY);
  bool reverseCallToDefined(llvm::CallBase &I);
  bool reverseCustomCall(llvm::CallBase &I, const CustomRule &Rule,
                         llvm::Value *DY);
  bool reverseMemoryCall(llvm::CallBase &I, unsigned Kind);
  bool reverseStore(llvm::StoreInst &I);
  bool reverseMaskedAccess(llvm::CallBase &I, llvm::Value *DY);

  // --- Values in the reverse sweep ---
  /// The primal value of \p Orig, usable in the reverse block being built.
  llvm::Value *primalInReverse(llvm::Value *Orig);
  /// The shadow of primal pointer \p Orig in the reverse block being built.
  llvm::Value *shadowInReverse(llvm::Value *Orig, llvm::Instruction *User);
  /// A forward-sweep value, read back from the current block's record
  /// unless it can be used directly.
  llvm::Value *fromForward(llvm::Value *Fwd, bool Direct);
  /// \p Orig recomputed in the reverse block from values at hand, when it
  /// is cheap and that tapes no more than taping it; else nullptr.
  llvm::Value *recomputeInReverse(llvm::Value *Orig, unsigned Depth);
  /// Inserts recomputed \p C among the current block's record loads and
  /// remembers it as the reverse value of forward value \p Fwd.
  llvm::Instruction *placeWithRecord(llvm::Instruction *C, llvm::Value *Fwd);
  /// Nothing in the primal stores to memory (loads may be repeated).
  bool primalWritesNoMemory();
  std::optional<bool> WritesNoMemory;
  /// The shadow \p S of GEP \p Orig, recomputed from its base's shadow.
  llvm::Value *recomputeShadowInReverse(llvm::Value *Orig, llvm::Value *S,
                                        llvm::Instruction *User);
  bool isDirectlyAvailable(llvm::Value *Orig);
  /// The shadow of a primal pointer in the forward sweep.
  llvm::Value *shadowInForward(llvm::Value *Orig, llvm::Instruction *User);
  llvm::Value *cloneOf(llvm::Value *Orig) {
    return llvm::isa<llvm::Constant>(Orig)
               ? Orig
               : static_cast<llvm::Value *>(VMap[Orig]);
  }

  // --- Adjoint slots ---
  llvm::AllocaInst *slotFor(llvm::Value *Orig);
  /// A fresh stack slot of the reverse function, not tied to any value.
  llvm::AllocaInst *scratchSlot(llvm::Type *T, const llvm::Twine &Name);
  /// Reads the adjoint of Orig and resets it to zero.
  llvm::Value *takeAdjoint(llvm::Value *Orig);
  /// Adds Delta to the adjoint of Orig (nothing when Orig is not varied).
  void addAdjoint(llvm::Value *Orig, llvm::Value *Delta);

  ADContext &Ctx;
  const DerivativeSignature &Sig;
  llvm::Function *Primal, *FwdF, *RevF;
  bool Combined;
  ActivityAnalysis AA;
  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::ValueToValueMapTy VMap;
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Shadows;
  /// Shadows allocated on the heap, freed when the reverse sweep reaches the
  /// allocation.
  llvm::DenseSet<const llvm::Value *> HeapShadows;
  llvm::SmallVector<llvm::PHINode *, 8> PendingShadowPhis;
  llvm::BasicBlock *ReturnBlock = nullptr;
  llvm::Value *TapeFwd = nullptr, *TapeRev = nullptr;

  struct BlockRecord;
  llvm::DenseMap<llvm::BasicBlock *, BlockRecord *> Records;
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> RevBlocks;
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<llvm::BasicBlock *, 2>>
      Preds;
  llvm::DenseMap<llvm::BasicBlock *, llvm::PHINode *> PredIndex;
  llvm::SmallVector<llvm::BasicBlock *, 16> LiveBlocks;
  llvm::BasicBlock *RevEntry = nullptr, *RevExit = nullptr;
  llvm::Instruction *SlotInsertPt = nullptr;
  llvm::DenseMap<const llvm::Value *, llvm::AllocaInst *> Slots;
  llvm::BasicBlock *CurBlock = nullptr; ///< Primal block being reversed.
  llvm::IRBuilder<> B;
};

} // namespace ad

#endif
