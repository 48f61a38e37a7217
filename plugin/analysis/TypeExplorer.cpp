//===- TypeExplorer.cpp - The pointers that describe one memory -----------===//
#include "analysis/TypeExplorer.h"
#include "analysis/ArgumentTypes.h"
#include "analysis/TypeFacts.h"
#include "rules/CallRows.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Support/raw_ostream.h"
#include <numeric>

using namespace llvm;

namespace ad {
namespace {

/// Past this many steps one query gives up and reports what it has
/// (MemoryTypes::Truncated).
constexpr unsigned MaxSteps = 8192;
/// How many places one pointer may stand at before they merge.
constexpr unsigned MaxPositions = 4;

uint64_t gcdPeriod(uint64_t A, uint64_t B) { return std::gcd(A, B); }

int64_t saturatingAdd(int64_t A, int64_t B) {
  if (A == INT64_MIN || A == INT64_MAX)
    return A;
  return A + B;
}

/// Where a pointer stands relative to the pointer asked about: at Delta
/// plus some multiple of Period; its facts hold over [Lo, Hi) (a copy's
/// bytes). Descended: reached by following an argument into a callee, whose
/// other callers pass other memory and must not be mixed in; Via is the
/// call it was followed through, whose other arguments are the callee's
/// other parameters in this context (`copy(&t, m)`: what copy does to m
/// through its first parameter is done to t).
struct Position {
  int64_t Delta = 0;
  uint64_t Period = 0;
  int64_t Lo = INT64_MIN, Hi = INT64_MAX;
  bool Descended = false;
  const CallBase *Via = nullptr;
};

/// A number every value of the integer \p V is a multiple of: -O2 indexes
/// bytes, `gep i8, p, (shl i, 3)`, so the GEP's own scale (1) hides the
/// element size that the index arithmetic shows. A phi already being
/// looked at counts as 0 (any multiple): by induction around a loop, a
/// counter that starts at a multiple of m and steps by multiples of m
/// stays one.
/// What users of \p V prove about it: an exact division (a pointer
/// difference that std::vector turns into an element count with
/// `ashr exact d, 3`) makes it a multiple of the divisor.
uint64_t multipleByUsers(const Value *V) {
  uint64_t M = 1;
  for (const User *U : V->users()) {
    auto *BO = dyn_cast<PossiblyExactOperator>(U);
    if (!BO || !BO->isExact() || BO->getOperand(0) != V)
      continue;
    auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (!C || C->getValue().getActiveBits() > 32)
      continue;
    uint64_t K = C->getZExtValue();
    unsigned Op = cast<Operator>(BO)->getOpcode();
    if (Op == Instruction::AShr || Op == Instruction::LShr)
      M = std::lcm(M, uint64_t(1) << std::min<uint64_t>(K, 32));
    else if (K) // sdiv/udiv exact
      M = std::lcm(M, K);
  }
  return M;
}

/// A number every value of the integer \p V is a multiple of: -O2 indexes
/// bytes, `gep i8, p, (shl i, 3)`, so the GEP's own scale (1) hides the
/// element size that the index arithmetic shows. A phi already being
/// looked at counts as 0 (any multiple): by induction around a loop, a
/// counter that starts at a multiple of m and steps by multiples of m
/// stays one.
uint64_t multipleOf(const Value *V, const DataLayout &DL,
                    SmallPtrSetImpl<const PHINode *> &Open, unsigned Depth) {
  if (auto *C = dyn_cast<ConstantInt>(V))
    return C->getValue().abs().getLimitedValue();
  if (!V->getType()->isIntegerTy())
    return 1;
  auto Const = [](const Value *X) -> uint64_t {
    auto *C = dyn_cast<ConstantInt>(X);
    return C ? C->getValue().abs().getLimitedValue() : 0;
  };
  auto Of = [&](const Value *X) { return multipleOf(X, DL, Open, Depth + 1); };
  uint64_t Structural = 1;
  if (auto *I = dyn_cast<Instruction>(V); I && Depth < 8) {
    switch (I->getOpcode()) {
    case Instruction::Mul:
      if (uint64_t C = Const(I->getOperand(1)))
        Structural = C * Of(I->getOperand(0));
      break;
    case Instruction::Shl:
      if (uint64_t C = Const(I->getOperand(1)); C < 32)
        Structural = (uint64_t(1) << C) * Of(I->getOperand(0));
      break;
    case Instruction::Add:
    case Instruction::Sub:
      Structural = std::gcd(Of(I->getOperand(0)), Of(I->getOperand(1)));
      break;
    case Instruction::SExt:
    case Instruction::ZExt:
      Structural = Of(I->getOperand(0));
      break;
    case Instruction::PHI: {
      auto *Phi = cast<PHINode>(I);
      if (!Open.insert(Phi).second)
        return 0;
      uint64_t G = 0;
      for (const Value *In : Phi->incoming_values())
        G = std::gcd(G, Of(In));
      Open.erase(Phi);
      Structural = G;
      break;
    }
    case Instruction::Select:
      Structural = std::gcd(Of(I->getOperand(1)), Of(I->getOperand(2)));
      break;
    default:
      break;
    }
  }
  if (Structural == 0) // Only the loop itself: no constraint yet.
    return 0;
  KnownBits Known = computeKnownBits(V, SimplifyQuery(DL));
  unsigned Zeros = std::min(Known.countMinTrailingZeros(), 32u);
  uint64_t M = std::lcm(Structural, uint64_t(1) << Zeros);
  return std::lcm(M, multipleByUsers(V));
}

uint64_t multipleOf(const Value *V, const DataLayout &DL) {
  SmallPtrSet<const PHINode *, 8> Open;
  uint64_t M = multipleOf(V, DL, Open, 0);
  return M ? M : 1;
}

/// The few values \p V can take, when it is built from constants by
/// selects, phis, zero- or sign-extended booleans and arithmetic: -O2 picks
/// a field by `gep i8, x, (zext c) << 3 + 16` (a tree node's left or right
/// child). At most 4 values; false when V may take others.
bool fewValues(const Value *V, SmallVectorImpl<int64_t> &Out,
               unsigned Depth = 0) {
  constexpr size_t MaxValues = 4;
  Out.clear();
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    if (C->getBitWidth() > 64)
      return false;
    Out.push_back(C->getSExtValue());
    return true;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 6)
    return false;
  SmallVector<int64_t, 4> A, B;
  auto Combine = [&](auto Op) {
    for (int64_t X : A)
      for (int64_t Y : B) {
        int64_t Z = Op(X, Y);
        if (!is_contained(Out, Z))
          Out.push_back(Z);
      }
    return Out.size() <= MaxValues;
  };
  switch (I->getOpcode()) {
  case Instruction::ZExt:
  case Instruction::SExt:
    if (I->getOperand(0)->getType()->isIntegerTy(1)) {
      Out.push_back(0);
      Out.push_back(I->getOpcode() == Instruction::ZExt ? 1 : -1);
      return true;
    }
    return fewValues(I->getOperand(0), Out, Depth + 1);
  case Instruction::Select:
    if (!fewValues(I->getOperand(1), A, Depth + 1) ||
        !fewValues(I->getOperand(2), B, Depth + 1))
      return false;
    for (int64_t X : concat<int64_t>(A, B))
      if (!is_contained(Out, X))
        Out.push_back(X);
    return Out.size() <= MaxValues;
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::Shl:
  case Instruction::Or:
    if (!fewValues(I->getOperand(0), A, Depth + 1) ||
        !fewValues(I->getOperand(1), B, Depth + 1))
      return false;
    switch (I->getOpcode()) {
    case Instruction::Add:
      return Combine([](int64_t X, int64_t Y) { return X + Y; });
    case Instruction::Sub:
      return Combine([](int64_t X, int64_t Y) { return X - Y; });
    case Instruction::Mul:
      return Combine([](int64_t X, int64_t Y) { return X * Y; });
    case Instruction::Shl:
      return all_of(B, [](int64_t Y) { return Y >= 0 && Y < 32; }) &&
             Combine([](int64_t X, int64_t Y) { return X << Y; });
    default: // or: only when the bits are disjoint, as for an add
      return cast<PossiblyDisjointInst>(I)->isDisjoint() &&
             Combine([](int64_t X, int64_t Y) { return X | Y; });
    }
  default:
    return false;
  }
}

/// The offsets a GEP adds to its base when its variable indices take only
/// a few values each (fewValues): Base + one of them, exactly. False when
/// some index may take many values.
bool fewOffsets(const DataLayout &DL, const GEPOperator &GEP,
                SmallVectorImpl<int64_t> &Offsets) {
  unsigned Bits = DL.getIndexTypeSizeInBits(GEP.getType());
  SmallMapVector<Value *, APInt, 4> Vars;
  APInt C(Bits, 0);
  if (!GEP.collectOffset(DL, Bits, Vars, C) || Vars.empty() || Vars.size() > 2)
    return false;
  Offsets.assign(1, C.getSExtValue());
  for (auto &[V, Scale] : Vars) {
    SmallVector<int64_t, 4> Values, Next;
    if (!fewValues(V, Values))
      return false;
    for (int64_t O : Offsets)
      for (int64_t X : Values)
        Next.push_back(O + X * Scale.getSExtValue());
    if (Next.size() > 4)
      return false;
    Offsets = Next;
  }
  return true;
}

/// The constant part of a GEP's offset and the gcd of the scales of its
/// variable indices (0 if none): the GEP is Base + Const + k * Scale.
bool decomposeGEP(const DataLayout &DL, const GEPOperator &GEP, int64_t &Const,
                  uint64_t &Scale) {
  unsigned Bits = DL.getIndexTypeSizeInBits(GEP.getType());
  SmallMapVector<Value *, APInt, 4> Vars;
  APInt C(Bits, 0);
  if (!GEP.collectOffset(DL, Bits, Vars, C))
    return false;
  Const = C.getSExtValue();
  Scale = 0;
  for (auto &[V, S] : Vars)
    Scale = gcdPeriod(Scale, S.abs().getZExtValue() * multipleOf(V, DL));
  return true;
}

/// The integer copies \p V takes part in: a load from V whose value is
/// stored (so the bytes at V reach the store's address), or a store into V
/// of a value loaded elsewhere.
const Value *copyPartner(const User *U, const Value *V, uint64_t &Size,
                         const DataLayout &DL) {
  if (auto *LI = dyn_cast<LoadInst>(U)) {
    if (LI->getPointerOperand() != V || !LI->getType()->isIntOrIntVectorTy() ||
        DL.getTypeStoreSize(LI->getType()).isScalable())
      return nullptr;
    for (const User *LU : LI->users())
      if (auto *SI = dyn_cast<StoreInst>(LU);
          SI && SI->getValueOperand() == LI) {
        Size = DL.getTypeStoreSize(LI->getType());
        return SI->getPointerOperand();
      }
    return nullptr;
  }
  if (auto *SI = dyn_cast<StoreInst>(U)) {
    auto *LI = dyn_cast<LoadInst>(SI->getValueOperand());
    if (SI->getPointerOperand() != V || !LI ||
        !LI->getType()->isIntOrIntVectorTy() ||
        DL.getTypeStoreSize(LI->getType()).isScalable())
      return nullptr;
    Size = DL.getTypeStoreSize(LI->getType());
    return LI->getPointerOperand();
  }
  return nullptr;
}

/// Strips the GEPs two sides of an integer copy share (the same indices
/// into the same type: `d[i] = s[i]` in a byte loop) so that the copy
/// relates the two bases at every index rather than one byte at one
/// unknown offset.
std::pair<const Value *, const Value *> commonCopyBases(const Value *A,
                                                        const Value *B) {
  const Value *BaseA = A, *BaseB = B;
  bool Variable = false;
  for (int K = 0; K < 4; ++K) {
    auto *GA = dyn_cast<GEPOperator>(BaseA), *GB = dyn_cast<GEPOperator>(BaseB);
    if (!GA || !GB ||
        GA->getSourceElementType() != GB->getSourceElementType() ||
        GA->getNumIndices() != GB->getNumIndices() ||
        !std::equal(GA->idx_begin(), GA->idx_end(), GB->idx_begin()))
      break;
    Variable |= !GA->hasAllConstantIndices();
    BaseA = GA->getPointerOperand();
    BaseB = GB->getPointerOperand();
  }
  // Only a copy at a run-time index relates the bases at every index; at
  // constant offsets the copy relates its own bytes, which the copy's two
  // pointers say exactly.
  if (!Variable)
    return {A, B};
  return {BaseA, BaseB};
}

/// A local variable holding a pointer at -O0 (a parameter's alloca, say):
/// an alloca only loaded from and stored to, so what its loads give is
/// what its stores put there.
bool isPlainSlot(const Value *V) {
  auto *AI = dyn_cast<AllocaInst>(V);
  if (!AI || !AI->getAllocatedType()->isPointerTy())
    return false;
  for (const Use &U : AI->uses()) {
    const User *Usr = U.getUser();
    if (isa<LoadInst>(Usr))
      continue;
    if (auto *SI = dyn_cast<StoreInst>(Usr); SI && U.getOperandNo() == 1)
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(Usr);
        II && II->isLifetimeStartOrEnd())
      continue;
    if (isa<DbgInfoIntrinsic>(Usr))
      continue;
    return false;
  }
  return true;
}

class Explorer {
public:
  Explorer(const DataLayout &DL, const ArgumentTypes *Callers,
           bool Explain = false, bool FollowFields = false)
      : DL(DL), Callers(Callers), Explain(Explain), FollowFields(FollowFields) {
  }

  MemoryTypes run(const Value *P) {
    if (auto *I = dyn_cast<Instruction>(P))
      RootFunction = I->getFunction();
    else if (auto *A = dyn_cast<Argument>(P))
      RootFunction = A->getParent();
    visit(P, Position());
    unsigned Steps = 0;
    while (!Work.empty() && ++Steps < MaxSteps) {
      auto [V, K] = Work.pop_back_val();
      expand(V, Seen[V][K]);
    }
    MemoryTypes Out;
    Out.Truncated = !Work.empty();
    for (auto &[V, Positions] : Seen)
      for (const Position &Pos : Positions)
        collectFacts(V, Pos, Out);
    Out.deduplicate();
    if (Explain)
      for (auto &[V, Positions] : Seen)
        for (const Position &Pos : Positions) {
          MemoryTypes One;
          collectFacts(V, Pos, One);
          errs() << "  node d=" << Pos.Delta << " p=" << Pos.Period << " ";
          if (auto *I = dyn_cast<Instruction>(V))
            errs() << *I << " in " << I->getFunction()->getName();
          else
            V->printAsOperand(errs());
          errs() << ":";
          printFacts(errs(), One);
          errs() << "\n";
        }
    return Out;
  }

private:
  /// \p Outer holds every place \p Inner stands for (and is no more
  /// restricted in where its facts hold or where it may go).
  static bool subsumes(const Position &Outer, const Position &Inner) {
    uint64_t Diff = Outer.Delta > Inner.Delta ? Outer.Delta - Inner.Delta
                                              : Inner.Delta - Outer.Delta;
    bool Places = Outer.Period ? Inner.Period % Outer.Period == 0 &&
                                     Diff % Outer.Period == 0
                               : Inner.Period == 0 && Diff == 0;
    return Places && Outer.Lo <= Inner.Lo && Outer.Hi >= Inner.Hi &&
           (!Outer.Descended ||
            (Inner.Descended && (!Outer.Via || Outer.Via == Inner.Via)));
  }

  /// Records that \p V stands at \p Pos. A pointer may stand at a few
  /// places at once (reached exactly from one side, through a byte loop at
  /// an unknown offset from another): each keeps its own facts, so an
  /// imprecise path cannot blur a precise one. Past a few, they merge (two
  /// offsets make the memory periodic in their difference: a pointer
  /// bumped around a loop).
  void visit(const Value *V, Position Pos) {
    // Only pointers that name memory: not null, undef or function addresses
    // (whose uses span the module and say nothing).
    if (isa<ConstantData>(V) || isa<Function>(V) || isa<BlockAddress>(V) ||
        !V->getType()->isPtrOrPtrVectorTy())
      return;
    SmallVector<Position, 2> &Positions = Seen[V];
    for (const Position &Old : Positions)
      if (subsumes(Old, Pos))
        return;
    if (Positions.size() < MaxPositions) {
      Positions.push_back(Pos);
      Work.push_back({V, unsigned(Positions.size() - 1)});
      return;
    }
    Position &Old = Positions.back();
    uint64_t Diff =
        Old.Delta > Pos.Delta ? Old.Delta - Pos.Delta : Pos.Delta - Old.Delta;
    Old.Period = gcdPeriod(gcdPeriod(Old.Period, Pos.Period), Diff);
    Old.Lo = std::min(Old.Lo, Pos.Lo);
    Old.Hi = std::max(Old.Hi, Pos.Hi);
    if (Old.Via != Pos.Via || !Pos.Descended)
      Old.Via = nullptr;
    Old.Descended = Old.Descended && Pos.Descended;
    Work.push_back({V, unsigned(Positions.size() - 1)});
  }

  static Position shifted(Position P, int64_t By, uint64_t Scale = 0) {
    P.Delta += By;
    P.Period = gcdPeriod(P.Period, Scale);
    return P;
  }

  /// Across a copy of \p Len bytes (none: unknown) whose two sides are
  /// \p From at \p Pos and the partner: the partner's facts hold over the
  /// copied bytes only. At a periodic position (a copy of element i of an
  /// array) the window is the copied bytes of the element at Delta alone:
  /// what the partner says of the other elements is dropped rather than
  /// repeated (a value taped into the record of a tape, beside doubles,
  /// must not type every element of the array it came from).
  static Position acrossCopy(Position Pos, int64_t By,
                             std::optional<uint64_t> Len) {
    Position P = shifted(Pos, By);
    if (Len) {
      P.Lo = std::max(P.Lo, P.Delta);
      P.Hi = std::min(P.Hi, saturatingAdd(P.Delta, *Len));
    }
    return P;
  }

  void expand(const Value *V, Position Pos) {
    // Where V comes from.
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      int64_t Const;
      uint64_t Scale;
      SmallVector<int64_t, 4> Few;
      if (fewOffsets(DL, *GEP, Few)) {
        for (int64_t Off : Few)
          visit(GEP->getPointerOperand(), shifted(Pos, -Off));
      } else if (decomposeGEP(DL, *GEP, Const, Scale)) {
        visit(GEP->getPointerOperand(), shifted(Pos, -Const, Scale));
      }
    } else if (auto *Op = dyn_cast<Operator>(V);
               Op && (Op->getOpcode() == Instruction::BitCast ||
                      Op->getOpcode() == Instruction::AddrSpaceCast)) {
      visit(Op->getOperand(0), Pos);
    } else if (auto *Phi = dyn_cast<PHINode>(V)) {
      for (const Value *In : Phi->incoming_values())
        visit(In, Pos);
    } else if (auto *Sel = dyn_cast<SelectInst>(V)) {
      visit(Sel->getTrueValue(), Pos);
      visit(Sel->getFalseValue(), Pos);
    } else if (auto *LI = dyn_cast<LoadInst>(V);
               LI && isPlainSlot(LI->getPointerOperand())) {
      for (const User *U : LI->getPointerOperand()->users())
        if (auto *SI = dyn_cast<StoreInst>(U))
          visit(SI->getValueOperand(), Pos);
    } else if (auto *LI = dyn_cast<LoadInst>(V)) {
      for (const Value *Alias : fieldAliases(LI->getPointerOperand()))
        visit(Alias, Pos);
    } else if (auto *A = dyn_cast<Argument>(V)) {
      if (!Pos.Descended && Callers) {
        for (const Value *Actual : Callers->actualsFor(*A))
          visit(Actual, Pos);
      } else if (Pos.Via && Pos.Via->getCalledFunction() == A->getParent() &&
                 A->getArgNo() < Pos.Via->arg_size()) {
        // Back out through the call we came in by: the caller is the root's
        // function (the context we started in) or one we know no more of.
        Position Out = Pos;
        Out.Via = nullptr;
        Out.Descended = Pos.Via->getFunction() != RootFunction;
        visit(Pos.Via->getArgOperand(A->getArgNo()), Out);
      }
    } else if (auto *Call = dyn_cast<CallBase>(V)) {
      // realloc keeps the old contents.
      if (rowOf(*Call).Pointers == PointerRelation::ResultContinuesFirst)
        visit(Call->getArgOperand(0), Pos);
      // A pointer returned by a function with a body: what it returns.
      else if (const Function *F = Call->getCalledFunction();
               F && !F->isDeclaration() && !F->isVarArg()) {
        Position In = Pos;
        In.Descended = true;
        In.Via = Call;
        for (const BasicBlock &BB : *F)
          if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
            if (Ret->getReturnValue())
              visit(Ret->getReturnValue(), In);
      }
    }
    // Where V goes.
    for (const Use &U : V->uses())
      expandUse(U, Pos);
  }

  void expandUse(const Use &U, Position Pos) {
    const User *Usr = U.getUser();
    const Value *V = U.get();
    if (auto *GEP = dyn_cast<GEPOperator>(Usr)) {
      int64_t Const;
      uint64_t Scale;
      SmallVector<int64_t, 4> Few;
      if (GEP->getPointerOperand() != V)
        return;
      if (fewOffsets(DL, *GEP, Few)) {
        for (int64_t Off : Few)
          visit(GEP, shifted(Pos, Off));
      } else if (decomposeGEP(DL, *GEP, Const, Scale)) {
        visit(GEP, shifted(Pos, Const, Scale));
      }
      return;
    }
    if (auto *Op = dyn_cast<Operator>(Usr);
        Op && (Op->getOpcode() == Instruction::BitCast ||
               Op->getOpcode() == Instruction::AddrSpaceCast)) {
      visit(Usr, Pos);
      return;
    }
    if (isa<PHINode>(Usr) || (isa<SelectInst>(Usr) && U.getOperandNo() != 0)) {
      visit(Usr, Pos);
      return;
    }
    if (auto *SI = dyn_cast<StoreInst>(Usr); SI && SI->getValueOperand() == V) {
      if (isPlainSlot(SI->getPointerOperand())) {
        for (const User *SU : SI->getPointerOperand()->users())
          if (isa<LoadInst>(SU))
            visit(SU, Pos);
      } else {
        for (const Value *Alias : fieldAliases(SI->getPointerOperand()))
          visit(Alias, Pos);
      }
      return;
    }
    uint64_t Size = 0;
    if (const Value *Partner = copyPartner(Usr, V, Size, DL)) {
      auto [Mine, Theirs] = commonCopyBases(V, Partner);
      if (Mine == V) {
        visit(Partner, acrossCopy(Pos, 0, Size));
      } else if (auto It = Seen.find(Mine); It != Seen.end()) {
        // The other base stands where V's base stands, over the whole copy.
        for (const Position &Base : SmallVector<Position, 2>(It->second))
          visit(Theirs, acrossCopy(Base, 0, std::nullopt));
      }
      return;
    }
    auto *Call = dyn_cast<CallBase>(Usr);
    if (!Call || !Call->isArgOperand(&U))
      return;
    unsigned ArgNo = Call->getArgOperandNo(&U);
    if (auto *MT = dyn_cast<MemTransferInst>(Call)) {
      const Value *Partner = ArgNo == 0 ? MT->getSource() : MT->getDest();
      std::optional<uint64_t> Len;
      if (auto *C = dyn_cast<ConstantInt>(MT->getLength()))
        Len = C->getZExtValue();
      if (ArgNo <= 1)
        visit(Partner, acrossCopy(Pos, 0, Len));
      return;
    }
    const Function *F = Call->getCalledFunction();
    if (!F)
      return;
    PointerRelation Relation = rowOf(*Call).Pointers;
    if (Relation == PointerRelation::ResultContinuesFirst && ArgNo == 0) {
      visit(Call, Pos);
      return;
    }
    if (Relation == PointerRelation::CopiesSecondToFirst && ArgNo <= 1 &&
        Call->arg_size() == 3) {
      std::optional<uint64_t> Len;
      if (auto *C = dyn_cast<ConstantInt>(Call->getArgOperand(2)))
        Len = C->getZExtValue();
      visit(Call->getArgOperand(1 - ArgNo), acrossCopy(Pos, 0, Len));
      return;
    }
    if (F->isDeclaration() || ArgNo >= F->arg_size())
      return;
    Position In = Pos;
    In.Descended = true;
    In.Via = Call;
    visit(F->getArg(ArgNo), In);
  }

  /// The pointers stored into, or loaded from, the field \p Addr points to
  /// (any pointer the exploration relates to Addr at offset 0): they point
  /// where a pointer loaded from Addr does. This follows pointers through
  /// memory one level deep, as -O0 keeps them in struct fields (a C++
  /// iterator's `int *`, a `std::tuple<const int &>`), and answers per
  /// field once per query.
  ArrayRef<const Value *> fieldAliases(const Value *Addr) {
    if (!FollowFields)
      return {};
    auto [It, New] = FieldAliases.try_emplace(Addr);
    if (!New)
      return It->second;
    Explorer Field(DL, Callers);
    Field.RootFunction = RootFunction;
    Field.visit(Addr, Position());
    for (unsigned Steps = 0; !Field.Work.empty() && Steps < MaxSteps / 4;
         ++Steps) {
      auto [V, K] = Field.Work.pop_back_val();
      Field.expand(V, Field.Seen[V][K]);
    }
    SmallVector<const Value *, 8> Found;
    for (auto &[V, Positions] : Field.Seen) {
      bool AtField = any_of(Positions, [](const Position &P) {
        return P.Period ? P.Delta % int64_t(P.Period) == 0 : P.Delta == 0;
      });
      if (!AtField)
        continue;
      for (const User *U : V->users()) {
        if (auto *LI = dyn_cast<LoadInst>(U);
            LI && LI->getType()->isPointerTy())
          Found.push_back(LI);
        if (auto *SI = dyn_cast<StoreInst>(U);
            SI && SI->getPointerOperand() == V &&
            SI->getValueOperand()->getType()->isPointerTy())
          Found.push_back(SI->getValueOperand());
      }
      if (Found.size() > 256)
        break;
    }
    // The map may have grown while exploring: look the entry up again.
    return FieldAliases[Addr] = std::move(Found);
  }

  /// What \p V itself says about the bytes at its position.
  void collectFacts(const Value *V, const Position &Pos, MemoryTypes &Out) {
    MemoryTypes Local;
    collectLocalFacts(DL, V, Local);
    for (TypedBytes F : Local.facts()) {
      F.Offset += Pos.Delta;
      F.Lo = saturatingAdd(F.Lo, Pos.Delta);
      F.Hi = saturatingAdd(F.Hi, Pos.Delta);
      F.Lo = std::max(F.Lo, Pos.Lo);
      F.Hi = std::min(F.Hi, Pos.Hi);
      // At a periodic position the facts repeat; a window (from a copy, or
      // an array's bounds) holds where it was found, as placed at Delta.
      if (Pos.Period)
        F.Period = gcdPeriod(F.Period, Pos.Period);
      if (F.Lo < F.Hi)
        Out.add(F);
    }
  }

  const DataLayout &DL;
  const ArgumentTypes *Callers;
  /// Print every pointer reached, where, and what it says (to stderr).
  bool Explain;
  /// Follow pointers through the fields that hold them (fieldAliases); the
  /// exploration of a field does not, so that it stays one level deep.
  bool FollowFields;
  DenseMap<const Value *, SmallVector<const Value *, 8>> FieldAliases;
  const Function *RootFunction = nullptr;
  DenseMap<const Value *, SmallVector<Position, 2>> Seen;
  SmallVector<std::pair<const Value *, unsigned>, 32> Work;
};

} // namespace

MemoryTypes exploreMemory(const DataLayout &DL, const ArgumentTypes *Callers,
                          const Value *P, bool FollowFields, bool Explain) {
  return Explorer(DL, Callers, Explain, FollowFields).run(P);
}

} // namespace ad
