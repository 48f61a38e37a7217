//===- RuleTableTest.cpp - The rule table: signature hashes, bounded lookups
//===//
#include "rules/RuleTable.h"
#include "rules/CustomRules.h"
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

// Rules registered by user code (ad.h's macros) come before every built-in
// row: a libm function, a defined function, a declaration; AD_INACTIVE makes
// a defined function Inactive. The registrations read back as written.
TEST(RuleTable, CustomRulesComeFirst) {
  LLVMContext C;
  std::unique_ptr<Module> M = parse(C, R"IR(
@__ad_rule_forward_0 = internal constant [2 x ptr] [ptr @sin, ptr @rule]
@_ZL19__ad_rule_reverse_1 = internal constant [2 x ptr] [ptr @helper, ptr @rule]
@__ad_rule_inactive_2 = internal constant [1 x ptr] [ptr @logv]
declare double @sin(double)
declare double @rule(double, double)
define double @helper(double %x) {
  ret double %x
}
define void @logv(double %x) {
  ret void
}
define double @f(double %x) {
  %a = call double @sin(double %x)
  %b = call double @helper(double %a)
  call void @logv(double %b)
  %c = call double @llvm.exp.f64(double %b)
  ret double %c
}
declare double @llvm.exp.f64(double)
)IR");
  ASSERT_TRUE(M);
  CustomRules Custom(*M);
  RuleTable Table(&Custom);
  SmallVector<CallBase *, 64> Calls = callsIn(*M);
  ASSERT_EQ(Calls.size(), 4u);
  CalleeInfo Sin = Table.classify(*Calls[0]);
  EXPECT_EQ(Sin.Kind, CalleeKind::Custom);
  ASSERT_TRUE(Sin.Custom);
  EXPECT_EQ(Sin.Custom->Forward, M->getFunction("rule"));
  EXPECT_EQ(Sin.Custom->Reverse, nullptr);
  CalleeInfo Helper = Table.classify(*Calls[1]);
  EXPECT_EQ(Helper.Kind, CalleeKind::Custom);
  EXPECT_EQ(Helper.Custom->Reverse, M->getFunction("rule"));
  EXPECT_EQ(Table.classify(*Calls[2]).Kind, CalleeKind::Inactive);
  EXPECT_EQ(Table.classify(*Calls[3]).Kind, CalleeKind::Math);
  // Without the table the built-in rows answer.
  EXPECT_EQ(resolveCallee(*Calls[0]).Kind, CalleeKind::Math);

  EXPECT_TRUE(eraseRuleRegistrations(*M, nullptr));
  EXPECT_EQ(M->getGlobalVariable("__ad_rule_forward_0", true), nullptr);
  EXPECT_EQ(M->getFunction("rule"), nullptr); // declared, now unused
  EXPECT_FALSE(eraseRuleRegistrations(*M, nullptr));
}

} // namespace
