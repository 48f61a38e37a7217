//===- RegionRangesTest.cpp - Trip counts bounded where the code runs ----===//
#include "analysis/RegionRanges.h"
#include "FunctionAnalyses.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ad;

namespace {

/// for (i = s; i < l; i++) turned into a memset, as clang -O2 does to a
/// row's zero padding: its length is zext(l - s - 1) + 1 elements, and it
/// runs only if s < l. Where s == l (no padding) the zero extension is 2^32.
const char *Padding = R"IR(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
define void @f(ptr %out, i32 %s, i32 %l) {
entry:
  %d = sub i32 %l, %s
  %m1 = add i32 %d, -1
  %n.any = zext i32 %m1 to i64
  store i64 %n.any, ptr %out
  %run = icmp slt i32 %s, %l
  br i1 %run, label %pad, label %exit
pad:
  %n = zext i32 %m1 to i64
  %at = getelementptr i64, ptr %out, i64 1
  store i64 %n, ptr %at
  br label %exit
exit:
  ret void
}
)IR";

Instruction *named(Function &F, StringRef Name) {
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (I.getName() == Name)
        return &I;
  return nullptr;
}

/// The padding function and its analyses.
class RegionRanges : public ::testing::Test {
protected:
  void SetUp() override {
    M = test::parseModule(C, Padding);
    ASSERT_TRUE(M);
    A = std::make_unique<test::FunctionAnalyses>(*M->getFunction("f"));
  }
  Function &f() { return *M->getFunction("f"); }
  LLVMContext C;
  std::unique_ptr<Module> M;
  std::unique_ptr<test::FunctionAnalyses> A;
};

TEST_F(RegionRanges, TripCountGuardedByItsLoopIsSigned) {
  Function &F = f();
  Instruction *N = named(F, "n");
  ASSERT_TRUE(N);
  // Where the block runs only if s < l: sext(l) - sext(s) - 1, at least -1
  // (-1 + l - s is the same there, and no more than an empty loop's
  // where s >= l).
  ScalarEvolution &SE = A->SE;
  Type *I64 = Type::getInt64Ty(C);
  const SCEV *Lim = SE.getSignExtendExpr(SE.getSCEV(F.getArg(2)), I64);
  const SCEV *Start = SE.getSignExtendExpr(SE.getSCEV(F.getArg(1)), I64);
  const SCEV *MinusOne = SE.getMinusOne(I64);
  const SCEV *Want = SE.getSMaxExpr(
      SE.getAddExpr(SE.getMinusSCEV(Lim, Start), MinusOne), MinusOne);
  const SCEV *Got = tripCountsWhereRuns(SE.getSCEV(N), *N->getParent(), SE);
  EXPECT_EQ(Got, Want) << test::text(Got) << " want " << test::text(Want);
}

TEST_F(RegionRanges, TripCountWithoutGuardStaysZeroExtended) {
  Instruction *N = named(f(), "n.any");
  ASSERT_TRUE(N);
  // Before the test of s < l: where s > l + 1 the zero extension is the
  // value, so it stays.
  const SCEV *S = A->SE.getSCEV(N);
  EXPECT_EQ(tripCountsWhereRuns(S, *N->getParent(), A->SE), S) << test::text(S);
}

} // namespace
