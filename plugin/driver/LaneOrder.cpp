//===- LaneOrder.cpp - Vector loops that run downward without reversals ---===//
//
// Each vector value of a loop block gets an order: its lanes as they are
// (0) or reversed (1). A load and a stored value keep theirs (0: memory is
// what it is); an elementwise operation has its operands' order; a lane
// reversal has the opposite order of its source, which is what lets it go.
// Those rules are equalities and inequalities between values, kept in a
// union-find with parities; a group whose rules contradict each other (a
// reversed load added to one that is not) is left as it is, and so is every
// value that an operation which is not elementwise (another shuffle, an
// extract, a call) reads or produces. Values from outside the block: a
// splat or a constant fits either order (a constant is reversed where it
// must be), anything else keeps its lanes. Where a value's order changes,
// a phi's value from before the loop is reversed before the loop, and a use
// after the loop reads the value reversed back.
//
//===----------------------------------------------------------------------===//
#include "driver/LaneOrder.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"

#define DEBUG_TYPE "ad-lane-order"

using namespace llvm;

static cl::opt<bool> ReorderLanes(
    "ad-lane-order", cl::init(true), cl::Hidden,
    cl::desc("Drop the lane reversals of the derivatives' downward vector "
             "loops where their lanes never meet (on by default)"));

STATISTIC(NumReversalsRemoved, "Lane reversals made pointless and removed");

namespace ad {

namespace {

/// Union-find over a block's vector values with the parity of each value's
/// order relative to its group's root, and per group: the root's order
/// where a rule fixes it, and whether the rules contradict.
class OrderGroups {
public:
  unsigned node(Value *V) {
    auto [It, New] = Index.try_emplace(V, Parent.size());
    if (New) {
      Parent.push_back(It->second);
      ToParent.push_back(false);
      Fixed.push_back(-1);
      Broken.push_back(false);
    }
    return It->second;
  }
  /// (root, order of N relative to it)
  std::pair<unsigned, bool> find(unsigned N) {
    bool Parity = false;
    unsigned Root = N;
    while (Parent[Root] != Root) {
      Parity ^= ToParent[Root];
      Root = Parent[Root];
    }
    // Path compression: point N at the root directly.
    if (N != Root) {
      Parent[N] = Root;
      ToParent[N] = Parity;
    }
    return {Root, Parity};
  }
  /// order(A) xor order(B) == Differ.
  void relate(Value *A, Value *B, bool Differ) {
    auto [RA, PA] = find(node(A));
    auto [RB, PB] = find(node(B));
    if (RA == RB) {
      if ((PA ^ PB) != Differ)
        Broken[RA] = true;
      return;
    }
    bool RootParity = PA ^ PB ^ Differ; // order(RB) xor order(RA)
    Parent[RB] = RA;
    ToParent[RB] = RootParity;
    Broken[RA] = Broken[RA] || Broken[RB];
    if (Fixed[RB] >= 0)
      fixRoot(RA, Fixed[RB] ^ RootParity);
  }
  /// order(V) == Reversed.
  void fix(Value *V, bool Reversed) {
    auto [R, P] = find(node(V));
    fixRoot(R, Reversed ^ P);
  }
  bool broken(Value *V) { return Broken[find(node(V)).first]; }
  /// V's order once decided: the fixed one, or lanes as they are.
  bool reversed(Value *V) {
    auto [R, P] = find(node(V));
    return (Fixed[R] == 1) ^ P;
  }
  bool has(Value *V) const { return Index.count(V); }

private:
  void fixRoot(unsigned R, bool Reversed) {
    if (Fixed[R] >= 0 && Fixed[R] != int(Reversed))
      Broken[R] = true;
    Fixed[R] = Reversed;
  }
  DenseMap<Value *, unsigned> Index;
  SmallVector<unsigned, 32> Parent;
  SmallVector<bool, 32> ToParent;
  SmallVector<int, 32> Fixed;
  SmallVector<bool, 32> Broken;
};

bool isVector(const Value *V) { return isa<FixedVectorType>(V->getType()); }

/// The source of \p I if it reverses one vector's lanes.
Value *reversedSource(Instruction &I) {
  auto *Shuffle = dyn_cast<ShuffleVectorInst>(&I);
  if (!Shuffle || !Shuffle->isReverse() || Shuffle->changesLength())
    return nullptr;
  unsigned Lanes = cast<FixedVectorType>(Shuffle->getType())->getNumElements();
  return Shuffle->getMaskValue(0) < int(Lanes) ? Shuffle->getOperand(0)
                                               : Shuffle->getOperand(1);
}

/// Whether lane k of \p I's result depends only on lane k of its vector
/// operands.
bool isElementwise(const Instruction &I) {
  if (isa<BinaryOperator>(I) || isa<UnaryOperator>(I) || isa<CmpInst>(I) ||
      isa<SelectInst>(I) || isa<FreezeInst>(I))
    return true;
  if (auto *Cast = dyn_cast<CastInst>(&I)) {
    auto *From = dyn_cast<FixedVectorType>(Cast->getSrcTy());
    auto *To = dyn_cast<FixedVectorType>(Cast->getDestTy());
    return From && To && From->getNumElements() == To->getNumElements();
  }
  if (auto *Call = dyn_cast<IntrinsicInst>(&I))
    return isTriviallyVectorizable(Call->getIntrinsicID());
  return false;
}

/// A value that is the same in either order, or (a constant vector) is
/// easily had in the other.
bool fitsEitherOrder(Value *V) {
  return isa<ConstantDataVector, ConstantVector, ConstantAggregateZero,
             UndefValue>(V) ||
         getSplatValue(V);
}

Value *reverseLanes(IRBuilderBase &B, Value *V) {
  if (auto *C = dyn_cast<Constant>(V)) {
    unsigned Lanes = cast<FixedVectorType>(C->getType())->getNumElements();
    SmallVector<Constant *, 8> Elements;
    for (unsigned K = Lanes; K-- > 0;)
      Elements.push_back(C->getAggregateElement(K));
    return ConstantVector::get(Elements);
  }
  return B.CreateVectorReverse(V, V->getName() + ".lanes");
}

class BlockLaneOrder {
public:
  BlockLaneOrder(BasicBlock &Block, Loop &L) : Block(Block), L(L) {}

  bool run() {
    collectRules();
    return rewrite();
  }

private:
  bool inBlock(Value *V) const {
    auto *I = dyn_cast<Instruction>(V);
    return I && I->getParent() == &Block;
  }

  /// \p User (in the block) has the order of its vector operand \p Op.
  void sameOrder(Instruction &User, Value *Op) {
    if (fitsEitherOrder(Op))
      return;
    if (inBlock(Op))
      Groups.relate(&User, Op, false);
    else
      Groups.fix(&User, false);
  }

  void keepLanes(Instruction &I) {
    if (isVector(&I))
      Groups.fix(&I, false);
    for (Value *Op : I.operands())
      if (isVector(Op) && inBlock(Op))
        Groups.fix(Op, false);
  }

  void collectRules() {
    for (Instruction &I : Block) {
      if (Value *Source = reversedSource(I); Source && inBlock(Source)) {
        Reversals.push_back(&I);
        Groups.relate(&I, Source, true);
      } else if (auto *Phi = dyn_cast<PHINode>(&I)) {
        if (!isVector(Phi))
          continue;
        Groups.node(Phi);
        for (Value *In : Phi->incoming_values())
          if (inBlock(In))
            Groups.relate(Phi, In, false);
      } else if (isElementwise(I) && isVector(&I)) {
        Groups.node(&I);
        for (Value *Op : I.operands())
          if (isVector(Op))
            sameOrder(I, Op);
      } else {
        keepLanes(I);
      }
      // Used after the loop: reversed back there, but not by a phi, whose
      // value would have to be reversed on the edge.
      if (isVector(&I))
        for (User *U : I.users())
          if (auto *UI = dyn_cast<Instruction>(U))
            if (!L.contains(UI) && isa<PHINode>(UI))
              Groups.fix(&I, false);
    }
  }

  bool reorders(Value *V) {
    return Groups.has(V) && !Groups.broken(V) && Groups.reversed(V);
  }

  bool rewrite() {
    bool Changed = false;
    // The reversals the decided orders make pointless: order(R) != order(S).
    for (Instruction *R : Reversals) {
      Value *Source = reversedSource(*R);
      if (!Groups.has(R) || Groups.broken(R) || !inBlock(Source) ||
          Groups.reversed(R) == Groups.reversed(Source))
        continue;
      R->replaceAllUsesWith(Source);
      R->eraseFromParent();
      ++NumReversalsRemoved;
      Changed = true;
    }
    if (!Changed)
      return false;
    IRBuilder<> B(Block.getContext());
    for (Instruction &I : Block) {
      if (!isVector(&I) || !reorders(&I))
        continue;
      // Constants and values from before the loop, in the new order.
      if (auto *Phi = dyn_cast<PHINode>(&I)) {
        for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
          Value *In = Phi->getIncomingValue(K);
          if (inBlock(In))
            continue;
          B.SetInsertPoint(Phi->getIncomingBlock(K)->getTerminator());
          Phi->setIncomingValue(K, reverseLanes(B, In));
        }
      } else {
        for (Use &Op : I.operands())
          if (isVector(Op) && isa<Constant>(Op) && !getSplatValue(Op))
            Op.set(reverseLanes(B, Op)); // fitsEitherOrder: a constant vector
      }
      // Past the loop, the lanes as they were.
      SmallVector<Use *, 4> Outside;
      for (Use &U : I.uses())
        if (!L.contains(cast<Instruction>(U.getUser())))
          Outside.push_back(&U);
      for (Use *U : Outside) {
        B.SetInsertPoint(cast<Instruction>(U->getUser()));
        U->set(reverseLanes(B, &I));
      }
    }
    return true;
  }

  BasicBlock &Block;
  Loop &L;
  OrderGroups Groups;
  SmallVector<Instruction *, 16> Reversals;
};

} // namespace

PreservedAnalyses LaneOrderPass::run(Function &F,
                                     FunctionAnalysisManager &FAM) {
  if (!ReorderLanes)
    return PreservedAnalyses::all();
  auto &Loops = FAM.getResult<LoopAnalysis>(F);
  bool Changed = false;
  for (Loop *L : Loops.getLoopsInPreorder())
    if (L->isInnermost() && L->getNumBlocks() == 1)
      Changed |= BlockLaneOrder(*L->getHeader(), *L).run();
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace ad
