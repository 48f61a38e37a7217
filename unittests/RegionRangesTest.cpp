//===- RegionRangesTest.cpp - Trip counts bounded where the code runs ----===//
#include "analysis/RegionRanges.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
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

struct Analyses {
  explicit Analyses(Function &F)
      : TLII(F.getParent()->getTargetTriple()), TLI(TLII), AC(F), DT(F), LI(DT),
        SE(F, TLI, AC, DT, LI) {}
  TargetLibraryInfoImpl TLII;
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  DominatorTree DT;
  LoopInfo LI;
  ScalarEvolution SE;
};

std::string text(const SCEV *S) {
  std::string Out;
  raw_string_ostream OS(Out);
  S->print(OS);
  return Out;
}

Instruction *named(Function &F, StringRef Name) {
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (I.getName() == Name)
        return &I;
  return nullptr;
}

TEST(RegionRanges, TripCountGuardedByItsLoopIsSigned) {
  LLVMContext C;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Padding, Err, C);
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  Analyses A(F);
  Instruction *N = named(F, "n");
  ASSERT_TRUE(N);
  // Where the block runs only if s < l: sext(l) - sext(s) - 1, at least -1
  // (-1 + l - s is the same there, and no more than an empty loop's
  // where s >= l).
  ScalarEvolution &SE = A.SE;
  Type *I64 = Type::getInt64Ty(C);
  const SCEV *Lim = SE.getSignExtendExpr(SE.getSCEV(F.getArg(2)), I64);
  const SCEV *Start = SE.getSignExtendExpr(SE.getSCEV(F.getArg(1)), I64);
  const SCEV *MinusOne = SE.getMinusOne(I64);
  const SCEV *Want = SE.getSMaxExpr(
      SE.getAddExpr(SE.getMinusSCEV(Lim, Start), MinusOne), MinusOne);
  const SCEV *Got = tripCountsWhereRuns(SE.getSCEV(N), *N->getParent(), SE);
  EXPECT_EQ(Got, Want) << text(Got) << " want " << text(Want);
}

TEST(RegionRanges, TripCountWithoutGuardStaysZeroExtended) {
  LLVMContext C;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Padding, Err, C);
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  Analyses A(F);
  Instruction *N = named(F, "n.any");
  ASSERT_TRUE(N);
  // Before the test of s < l: where s > l + 1 the zero extension is the
  // value, so it stays.
  const SCEV *S = A.SE.getSCEV(N);
  EXPECT_EQ(tripCountsWhereRuns(S, *N->getParent(), A.SE), S) << text(S);
}

} // namespace
