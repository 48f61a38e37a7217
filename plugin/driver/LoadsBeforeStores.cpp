//===- LoadsBeforeStores.cpp - A loop body's loads ahead of its stores ----===//
//
// For each simple load in a block of an innermost loop, walk back over the
// block: a store that alias analysis shows apart from the load may be passed,
// as may anything that neither writes memory nor may unwind; anything else
// (a store that may alias, a call that writes, a fence, a phi) ends the walk.
// If a store was passed, the load moves above the earliest such store, with
// the in-block instructions that compute its address when they are free of
// side effects and read no memory; otherwise it stays. The walk is bounded
// so that long blocks cost linear time.
//
//===----------------------------------------------------------------------===//
#include "driver/LoadsBeforeStores.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"

#define DEBUG_TYPE "ad-loads-before-stores"

using namespace llvm;

STATISTIC(NumLoadsHoisted, "Loads moved above stores they do not read");

namespace ad {

namespace {
/// How many instructions back a load looks for stores it may pass.
constexpr unsigned ScanWindow = 64;

/// The earliest store in the run of instructions before \p Load that the
/// load may pass, or null when there is none.
StoreInst *earliestPassableStore(LoadInst &Load, AAResults &AA) {
  MemoryLocation Loc = MemoryLocation::get(&Load);
  StoreInst *Earliest = nullptr;
  unsigned Scanned = 0;
  for (Instruction *Prev = Load.getPrevNode();
       Prev && !isa<PHINode>(Prev) && Scanned < ScanWindow;
       Prev = Prev->getPrevNode(), ++Scanned) {
    if (auto *Store = dyn_cast<StoreInst>(Prev)) {
      if (!Store->isSimple() || !AA.isNoAlias(MemoryLocation::get(Store), Loc))
        break;
      Earliest = Store;
      continue;
    }
    if (Prev->mayWriteToMemory() || Prev->mayThrow())
      break;
  }
  return Earliest;
}

/// The instructions of \p Load's block between \p Above and the load that
/// compute its operands, in block order; false when one of them cannot move
/// (it reads or writes memory, or has other side effects).
bool collectAddressChain(LoadInst &Load, Instruction &Above,
                         SmallVectorImpl<Instruction *> &Chain) {
  BasicBlock *Block = Load.getParent();
  SmallSetVector<Instruction *, 8> Needed;
  SmallVector<Instruction *, 8> Worklist{&Load};
  while (!Worklist.empty()) {
    Instruction *User = Worklist.pop_back_val();
    for (Value *Operand : User->operands()) {
      auto *Def = dyn_cast<Instruction>(Operand);
      if (!Def || Def->getParent() != Block || Def->comesBefore(&Above))
        continue;
      if (isa<PHINode>(Def) || Def->mayReadOrWriteMemory() ||
          Def->mayHaveSideEffects())
        return false;
      if (Needed.insert(Def))
        Worklist.push_back(Def);
    }
  }
  Chain.assign(Needed.begin(), Needed.end());
  llvm::sort(Chain,
             [](Instruction *A, Instruction *B) { return A->comesBefore(B); });
  return true;
}

bool hoistLoads(BasicBlock &Block, AAResults &AA) {
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(Block)) {
    auto *Load = dyn_cast<LoadInst>(&I);
    if (!Load || !Load->isSimple())
      continue;
    StoreInst *Earliest = earliestPassableStore(*Load, AA);
    SmallVector<Instruction *, 8> Chain;
    if (!Earliest || !collectAddressChain(*Load, *Earliest, Chain))
      continue;
    for (Instruction *Def : Chain)
      Def->moveBefore(Earliest->getIterator());
    Load->moveBefore(Earliest->getIterator());
    ++NumLoadsHoisted;
    Changed = true;
  }
  return Changed;
}
} // namespace

PreservedAnalyses LoadsBeforeStoresPass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  auto &Loops = FAM.getResult<LoopAnalysis>(F);
  auto &AA = FAM.getResult<AAManager>(F);
  bool Changed = false;
  for (Loop *Outer : Loops)
    for (Loop *L : depth_first(Outer))
      if (L->isInnermost())
        for (BasicBlock *Block : L->blocks())
          Changed |= hoistLoads(*Block, AA);
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace ad
