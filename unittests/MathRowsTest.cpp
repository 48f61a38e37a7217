//===- MathRowsTest.cpp - Math rows declare what their partials read ------===//
//
// MathRule::Reads tells the reload and recompute policies which primal values
// the reverse sweep needs. A mask that forgot a value would let the primal be
// rewritten so that the value is gone when the partial reads it; one that
// names too much keeps values for nothing. Each row's partials are built here
// with an accessor that records what they ask for, and the mask must be
// exactly that.
//
//===----------------------------------------------------------------------===//
#include "rules/MathRules.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ad;

namespace {

/// The rows whose argument 1 is an integer (an exponent), not a double.
bool hasIntegerExponent(StringRef Name) {
  return Name == "ldexp" || Name == "scalbn" || Name == "__powidf2";
}

TEST(MathRows, ReadsIsWhatThePartialsAsk) {
  LLVMContext C;
  Module M("rows", C);
  Type *Dbl = Type::getDoubleTy(C), *I32 = Type::getInt32Ty(C);
  unsigned Checked = 0;
  for (const MathRule &Rule : allMathRules()) {
    SCOPED_TRACE(Rule.Name);
    bool IntExp = hasIntegerExponent(Rule.Name);
    auto *FTy = FunctionType::get(Dbl, {Dbl, IntExp ? I32 : Dbl, Dbl, Dbl},
                                  /*isVarArg=*/false);
    Function *F = Function::Create(FTy, Function::ExternalLinkage,
                                   std::string("f.") + Rule.Name, M);
    IRBuilder<> B(BasicBlock::Create(C, "entry", F));
    Value *Res = B.CreateFAdd(F->getArg(0), F->getArg(2), "result");
    PrimalReads Asked = ReadsNothing;
    auto Primal = [&](int I) -> Value * {
      Asked |= I == Result ? ReadsResult : readsArgument(I);
      return I == Result ? Res : F->getArg(I);
    };
    for (unsigned I = 0; I < Rule.NumDiffArgs; ++I)
      Rule.Partial(B, I, Primal, Dbl);
    EXPECT_EQ(unsigned(Asked), unsigned(Rule.Reads));
    ++Checked;
  }
  // The instruction rows and the libm/intrinsic table are all there.
  EXPECT_GE(Checked, 50u);
}

TEST(MathRows, ArithmeticRecomputesCheaplyButFrem) {
  const unsigned CheapOps[] = {Instruction::FAdd, Instruction::FSub,
                               Instruction::FMul, Instruction::FDiv,
                               Instruction::FNeg};
  for (unsigned Op : CheapOps)
    EXPECT_EQ(lookupInstructionRule(Op)->Recompute, RecomputeCost::Cheap);
  EXPECT_EQ(lookupInstructionRule(Instruction::FRem)->Recompute,
            RecomputeCost::Costly);
}

} // namespace
