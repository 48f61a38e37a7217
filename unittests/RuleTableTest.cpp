//===- RuleTableTest.cpp - The rule table: signature hashes, bounded lookups
//===//
#include "rules/RuleTable.h"
#include "rules/MathRules.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ad;

namespace {

std::unique_ptr<Module> parse(LLVMContext &C, const char *IR) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, C);
  if (!M)
    Err.print("RuleTableTest", errs());
  return M;
}

SmallVector<CallBase *, 64> callsIn(Module &M) {
  SmallVector<CallBase *, 64> Calls;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          Calls.push_back(Call);
  return Calls;
}

const char *ManyCalls = R"IR(
declare double @sin(double)
declare float @sinf(float)
declare double @llvm.exp.f64(double)
declare <4 x double> @llvm.exp.v4f64(<4 x double>)
declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare double @opaque(double)
define double @helper(double %x) {
  ret double %x
}
define double @f(double %x, float %y, <4 x double> %v, ptr %p) {
  %a = call double @sin(double %x)
  %b = call double @sin(double %a)
  %c = call float @sinf(float %y)
  %d = call double @llvm.exp.f64(double %b)
  %e = call <4 x double> @llvm.exp.v4f64(<4 x double> %v)
  %f = call i32 (ptr, ...) @printf(ptr %p, double %d)
  %g = call ptr @malloc(i64 8)
  call void @llvm.memcpy.p0.p0.i64(ptr %g, ptr %p, i64 8, i1 false)
  %h = call double @opaque(double %d)
  %i = call double @helper(double %h)
  %j = call double @helper(double %i)
  %k = call double @sin(double %j)
  ret double %k
}
)IR";

TEST(RuleTable, ClassifiesLikeTheRows) {
  LLVMContext C;
  std::unique_ptr<Module> M = parse(C, ManyCalls);
  ASSERT_TRUE(M);
  RuleTable Table;
  for (CallBase *Call : callsIn(*M)) {
    CalleeInfo Direct = resolveCallee(*Call);
    CalleeInfo Cached = Table.classify(*Call);
    EXPECT_EQ(Direct.Kind, Cached.Kind) << Call->getName().str();
    EXPECT_EQ(Direct.Rule, Cached.Rule) << Call->getName().str();
  }
  Function &F = *M->getFunction("f");
  auto KindOf = [&](StringRef Name) {
    for (Instruction &I : instructions(F))
      if (I.getName() == Name)
        return Table.classify(cast<CallBase>(I)).Kind;
    ADD_FAILURE() << "no call %" << Name.str();
    return CalleeKind::Unknown;
  };
  EXPECT_EQ(KindOf("a"), CalleeKind::Math);
  EXPECT_EQ(KindOf("c"), CalleeKind::Math);
  EXPECT_EQ(KindOf("e"), CalleeKind::Math);
  EXPECT_EQ(KindOf("f"), CalleeKind::Inactive);
  EXPECT_EQ(KindOf("g"), CalleeKind::Malloc);
  EXPECT_EQ(KindOf("h"), CalleeKind::Unknown);
  EXPECT_EQ(KindOf("i"), CalleeKind::Defined);
}

// The property behind linear compile time: however often the analyses and
// both modes ask about a call, the signature table is consulted once per
// call site, and each distinct signature is resolved against the rows once.
TEST(RuleTable, LookupsAreBoundedPerCallSite) {
  LLVMContext C;
  std::unique_ptr<Module> M = parse(C, ManyCalls);
  ASSERT_TRUE(M);
  SmallVector<CallBase *, 64> Calls = callsIn(*M);
  RuleTable Table;
  RuleTable::Scope Use(Table);
  const unsigned Rounds = 50;
  for (unsigned R = 0; R < Rounds; ++R)
    for (CallBase *Call : Calls)
      classifyCallee(*Call);
  // 12 call sites of 9 distinct signatures (sin x3 and helper x2 share).
  ASSERT_EQ(Calls.size(), 12u);
  EXPECT_EQ(Table.counters().TableLookups, 12u);
  EXPECT_EQ(Table.counters().Resolutions, 9u);
  EXPECT_EQ(Table.counters().SiteHits, 12u * (Rounds - 1));
}

TEST(RuleTable, ForgetsDeletedCallSites) {
  LLVMContext C;
  std::unique_ptr<Module> M = parse(C, ManyCalls);
  ASSERT_TRUE(M);
  RuleTable Table;
  CallBase *Sin = callsIn(*M).front();
  ASSERT_EQ(Table.classify(*Sin).Kind, CalleeKind::Math);
  // Replace the call by one to another callee, possibly at the same address:
  // the answer must be the new callee's.
  IRBuilder<> B(Sin);
  CallInst *Opaque =
      B.CreateCall(M->getFunction("opaque"), {Sin->getArgOperand(0)});
  Sin->replaceAllUsesWith(Opaque);
  Sin->eraseFromParent();
  EXPECT_EQ(Table.classify(*Opaque).Kind, CalleeKind::Unknown);
}

TEST(SignatureHash, NameAndTypeTogether) {
  LLVMContext C;
  std::unique_ptr<Module> M = parse(C, R"IR(
declare double @sin(double)
declare float @sinf(float)
declare double @llvm.exp.f64(double)
declare float @llvm.exp.f32(float)
)IR");
  ASSERT_TRUE(M);
  stable_hash Sin = signatureHash(*M->getFunction("sin"));
  EXPECT_NE(Sin, signatureHash(*M->getFunction("sinf")));
  EXPECT_NE(signatureHash(*M->getFunction("llvm.exp.f64")),
            signatureHash(*M->getFunction("llvm.exp.f32")));

  // The same declaration in another context hashes the same (stable), and
  // a user's "sin" of another type does not.
  LLVMContext C2;
  std::unique_ptr<Module> M2 = parse(C2, R"IR(
declare double @sin(double)
)IR");
  std::unique_ptr<Module> M3 = parse(C2, R"IR(
declare i32 @sin(i32)
)IR");
  ASSERT_TRUE(M2 && M3);
  EXPECT_EQ(Sin, signatureHash(*M2->getFunction("sin")));
  EXPECT_NE(Sin, signatureHash(*M3->getFunction("sin")));
}

} // namespace
