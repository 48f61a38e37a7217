//===- AccessIntervalsTest.cpp - Intervals of affine accesses over loops
//---===//
#include "analysis/AccessIntervals.h"
#include "FunctionAnalyses.h"
#include "llvm/IR/InstIterator.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ad;

namespace {

/// for (b = 0; b < 3; b++) for (i = 0; i < 5; i++) p[b * 7 + i] in int
/// arithmetic: `mul`/`add` without no-wrap flags, sign-extended to index.
const char *Nest = R"IR(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
define void @f(ptr %p) {
entry:
  br label %outer
outer:
  %b = phi i32 [ 0, %entry ], [ %b.next, %outer.latch ]
  %row = mul i32 %b, 7
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %idx = add i32 %row, %i
  %idx64 = sext i32 %idx to i64
  %addr = getelementptr float, ptr %p, i64 %idx64
  store float 0.0, ptr %addr
  %i.next = add i32 %i, 1
  %i.done = icmp eq i32 %i.next, 5
  br i1 %i.done, label %outer.latch, label %inner
outer.latch:
  %b.next = add i32 %b, 1
  %b.done = icmp eq i32 %b.next, 3
  br i1 %b.done, label %exit, label %outer
exit:
  ret void
}
)IR";

StoreInst *firstStore(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *S = dyn_cast<StoreInst>(&I))
      return S;
  return nullptr;
}

int64_t constant(const SCEV *S) {
  auto *C = dyn_cast<SCEVConstant>(S);
  EXPECT_TRUE(C) << "not a constant: " << test::text(S);
  return C ? C->getAPInt().getSExtValue() : INT64_MIN;
}

// The byte offsets of the store over both loops: 4 * [0, 2 * 7 + 4]. The
// int arithmetic has no flags, so the interval holds under assumptions that
// it fits in i32, which hold here (ScalarEvolution folds them to true).
TEST(AccessIntervals, WidenedNarrowIndexOverANest) {
  LLVMContext C;
  auto M = test::parseModule(C, Nest);
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  test::FunctionAnalyses A(F);
  StoreInst *S = firstStore(F);
  const Loop *Inner = A.LI.getLoopFor(S->getParent());
  const Loop *Outer = Inner->getParentLoop();
  ASSERT_TRUE(Outer);

  const SCEV *Offset =
      A.SE.removePointerBase(A.SE.getSCEV(S->getPointerOperand()));
  IntervalFinder Intervals(A.SE);
  Conjunction Assume;
  const SCEV *Wide =
      WidenExtensions(A.SE, Intervals, Outer, Assume).visit(Offset);
  auto R = Intervals.over(Wide, Outer);
  ASSERT_TRUE(R);
  EXPECT_EQ(constant(R->Lo), 0);
  EXPECT_EQ(constant(R->Hi), 4 * (2 * 7 + 4));
  for (const Compare &Cmp : Assume)
    EXPECT_TRUE(A.SE.isKnownPredicate(Cmp.Pred, Cmp.Lhs, Cmp.Rhs))
        << test::text(Cmp.Lhs) << " vs " << test::text(Cmp.Rhs);

  // Per iteration of the outer loop: [4 * 7 * b, 4 * (7 * b + 4)], an affine
  // recurrence of the outer loop with step 28 for both ends.
  auto PerRow = Intervals.over(Wide, Inner);
  ASSERT_TRUE(PerRow);
  auto Lo = recurrenceOf(A.SE, PerRow->Lo, Outer);
  auto Hi = recurrenceOf(A.SE, PerRow->Hi, Outer);
  ASSERT_TRUE(Lo && Hi);
  EXPECT_EQ(constant(Lo->first), 0);
  EXPECT_EQ(constant(Lo->second), 28);
  EXPECT_EQ(constant(Hi->first), 16);
  EXPECT_EQ(constant(Hi->second), 28);

  // In the first iteration of both loops the store writes p[0].
  EXPECT_EQ(constant(firstValue(A.SE, Wide)), 0);
}

/// The same nest with a row width and trip counts known only at run time:
/// nothing shows that the int arithmetic does not wrap.
const char *SymbolicNest = R"IR(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
define void @f(ptr %p, i32 %w, i32 %n, i32 %m) {
entry:
  br label %outer
outer:
  %b = phi i32 [ 0, %entry ], [ %b.next, %outer.latch ]
  %row = mul i32 %b, %w
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %idx = add i32 %row, %i
  %idx64 = sext i32 %idx to i64
  %addr = getelementptr float, ptr %p, i64 %idx64
  store float 0.0, ptr %addr
  %i.next = add i32 %i, 1
  %i.done = icmp eq i32 %i.next, %m
  br i1 %i.done, label %outer.latch, label %inner
outer.latch:
  %b.next = add i32 %b, 1
  %b.done = icmp eq i32 %b.next, %n
  br i1 %b.done, label %exit, label %outer
exit:
  ret void
}
)IR";

// A sign extension of narrow arithmetic that may wrap has no interval of
// its own; widened, it has one that holds only under run-time assumptions
// (that its values fit in i32), which the caller must check.
TEST(AccessIntervals, NarrowArithmeticThatMayWrapNeedsAssumptions) {
  LLVMContext C;
  auto M = test::parseModule(C, SymbolicNest);
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  test::FunctionAnalyses A(F);
  StoreInst *S = firstStore(F);
  const Loop *Outer = A.LI.getLoopFor(S->getParent())->getParentLoop();
  const SCEV *Offset =
      A.SE.removePointerBase(A.SE.getSCEV(S->getPointerOperand()));
  IntervalFinder Intervals(A.SE);
  auto Plain = Intervals.over(Offset, Outer);
  EXPECT_TRUE(!Plain || !Plain->Assume.empty());

  Conjunction Assume;
  const SCEV *Wide =
      WidenExtensions(A.SE, Intervals, Outer, Assume).visit(Offset);
  EXPECT_FALSE(Assume.empty());
  EXPECT_TRUE(isa<SCEVAddRecExpr>(Wide)) << test::text(Wide);
  auto R = Intervals.over(Wide, Outer);
  ASSERT_TRUE(R);
  // The first address is p[0] whatever the sizes.
  EXPECT_EQ(constant(firstValue(A.SE, Wide)), 0);
}

} // namespace
