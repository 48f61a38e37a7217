//===- LibraryRowsTest.cpp - Library rows: families, complex, allocators --===//
//
// The C++ library families match by mangled-name pattern and only the
// functions they mean (std::ostream's operator<<, std::string members; not
// std::complex's operator+); complex functions match only with the pairs of
// one floating-point type their ABI uses; allocators carry their shapes; a
// select of allocators with one row is that row; library object types need
// no shadow.
//
//===----------------------------------------------------------------------===//
#include "rules/ComplexRules.h"
#include "rules/KnownFunctions.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace ad;

namespace {

const char *LibraryCalls = R"IR(
%"class.std::__cxx11::basic_string" = type { { ptr }, i64, { i64, i64 } }
%"class.std::__cxx11::basic_string.5" = type { { ptr }, i64, { i64, i64 } }
%"class.std::basic_stringX" = type { ptr }
declare ptr @_ZNSolsEd(ptr, double)
declare ptr @_ZNSo9_M_insertIdEERSoT_(ptr, double)
declare ptr @_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc(ptr, ptr)
declare void @_ZNSaIcEC1Ev(ptr)
declare void @_ZNSt8ios_base4InitC1Ev(ptr)
declare ptr @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm(ptr, ptr, i64)
declare { i8, i64 } @_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm(ptr, i64, i64, i64)
declare void @_ZSt20__throw_length_errorPKc(ptr)
declare { double, double } @_ZStplIdESt7complexIT_ERKS2_S4_(ptr, ptr)
declare { double, double } @__muldc3(double, double, double, double)
declare <2 x float> @__divsc3(float, float, float, float)
declare { double, double } @cexp(double, double)
declare <2 x float> @cexpf(<2 x float>)
declare double @cabs(double, double)
declare void @cabsl(ptr)
declare double @frexp(double, ptr)
declare ptr @aligned_alloc(i64, i64)
declare ptr @memalign(i64, i64)
declare ptr @malloc(i64)
declare i32 @posix_memalign(ptr, i64, i64)
declare ptr @_ZnwmSt11align_val_t(i64, i64)
declare void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1, ptr, ptr, ptr)
declare ptr @mine(i64)
define void @f(ptr %p, double %x, i1 %c) {
  %ostream_double = call ptr @_ZNSolsEd(ptr %p, double %x)
  %insert = call ptr @_ZNSo9_M_insertIdEERSoT_(ptr %p, double %x)
  %cstring = call ptr @_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc(ptr %p, ptr %p)
  call void @_ZNSaIcEC1Ev(ptr %p)
  call void @_ZNSt8ios_base4InitC1Ev(ptr %p)
  %create = call ptr @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm(ptr %p, ptr %p, i64 0)
  %rehash = call { i8, i64 } @_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm(ptr %p, i64 1, i64 2, i64 3)
  call void @_ZSt20__throw_length_errorPKc(ptr %p)
  %complex_plus = call { double, double } @_ZStplIdESt7complexIT_ERKS2_S4_(ptr %p, ptr %p)
  %mul = call { double, double } @__muldc3(double %x, double %x, double %x, double %x)
  %divf = call <2 x float> @__divsc3(float 1.0, float 2.0, float 3.0, float 4.0)
  %exp = call { double, double } @cexp(double %x, double %x)
  %expf = call <2 x float> @cexpf(<2 x float> zeroinitializer)
  %abs = call double @cabs(double %x, double %x)
  call void @cabsl(ptr %p)
  %frexp = call double @frexp(double %x, ptr %p)
  %aligned = call ptr @aligned_alloc(i64 64, i64 128)
  %pm = call i32 @posix_memalign(ptr %p, i64 64, i64 128)
  %anew = call ptr @_ZnwmSt11align_val_t(i64 128, i64 64)
  call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 true, ptr %p, ptr %p, ptr %p)
  %one_row = select i1 %c, ptr @aligned_alloc, ptr @memalign
  %either = call ptr %one_row(i64 64, i64 128)
  %two_rows = select i1 %c, ptr @malloc, ptr @mine
  %unknown = call ptr %two_rows(i64 128)
  ret void
}
)IR";

struct Calls {
  LLVMContext C;
  std::unique_ptr<Module> M;
  Calls() {
    SMDiagnostic Err;
    M = parseAssemblyString(LibraryCalls, Err, C);
    if (!M)
      Err.print("LibraryRowsTest", errs());
  }
  /// The call named \p Name, or the N-th unnamed void call.
  CalleeInfo info(StringRef Name) {
    for (Instruction &I : instructions(*M->getFunction("f")))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Call->getName() == Name ||
            (Call->getType()->isVoidTy() && Call->getCalledFunction() &&
             Call->getCalledFunction()->getName() == Name))
          return resolveCallee(*Call);
    ADD_FAILURE() << "no call " << Name.str();
    return {};
  }
};

TEST(LibraryRows, CxxFamiliesMatchWhatTheyMean) {
  Calls T;
  ASSERT_TRUE(T.M);
  for (StringRef Name : {"ostream_double", "insert", "cstring", "_ZNSaIcEC1Ev",
                         "_ZNSt8ios_base4InitC1Ev", "create", "rehash",
                         "_ZSt20__throw_length_errorPKc"})
    EXPECT_EQ(T.info(Name).Kind, CalleeKind::Inactive) << Name.str();
  // std::operator+ of complex numbers is no string concatenation.
  EXPECT_EQ(T.info("complex_plus").Kind, CalleeKind::Unknown);
}

TEST(LibraryRows, ComplexRowsNeedTheirAbi) {
  Calls T;
  ASSERT_TRUE(T.M);
  for (StringRef Name : {"mul", "divf", "exp", "expf", "abs"}) {
    CalleeInfo Info = T.info(Name);
    EXPECT_EQ(Info.Kind, CalleeKind::ComplexMath) << Name.str();
    EXPECT_TRUE(Info.Complex) << Name.str();
  }
  // long double complex goes through memory: no row.
  EXPECT_EQ(T.info("cabsl").Kind, CalleeKind::Unknown);
  EXPECT_EQ(T.info("frexp").Kind, CalleeKind::Math);
}

TEST(LibraryRows, AllocatorsAndTheirShapes) {
  Calls T;
  ASSERT_TRUE(T.M);
  CalleeInfo Aligned = T.info("aligned");
  ASSERT_EQ(Aligned.Kind, CalleeKind::Malloc);
  EXPECT_EQ(Aligned.Alloc->SizeArg, 1);
  EXPECT_EQ(Aligned.Alloc->AlignArg, 0);
  CalleeInfo New = T.info("anew");
  ASSERT_EQ(New.Kind, CalleeKind::Malloc);
  EXPECT_EQ(New.Alloc->SizeArg, 0);
  EXPECT_EQ(New.Alloc->AlignArg, 1);
  CalleeInfo Posix = T.info("pm");
  ASSERT_EQ(Posix.Kind, CalleeKind::AllocOut);
  EXPECT_EQ(Posix.Alloc->SizeArg, 2);
  EXPECT_EQ(Posix.Alloc->AlignArg, 1);
  CalleeInfo Tree = T.info(
      "_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_");
  ASSERT_EQ(Tree.Kind, CalleeKind::MirrorCall);
  EXPECT_EQ(Tree.Mirror->SyncFrom, 2);
  EXPECT_EQ(Tree.Mirror->Header, 3);
}

TEST(LibraryRows, SelectOfAllocatorsWithOneRow) {
  Calls T;
  ASSERT_TRUE(T.M);
  CalleeInfo Either = T.info("either");
  EXPECT_EQ(Either.Kind, CalleeKind::Malloc);
  ASSERT_TRUE(Either.Alloc);
  EXPECT_EQ(Either.Alloc->AlignArg, 0);
  EXPECT_EQ(T.info("unknown").Kind, CalleeKind::Unknown);
}

TEST(LibraryRows, LibraryObjectTypes) {
  Calls T;
  ASSERT_TRUE(T.M);
  auto Type = [&](StringRef Name) {
    return StructType::getTypeByName(T.C, Name);
  };
  EXPECT_TRUE(isInactiveLibraryType(Type("class.std::__cxx11::basic_string")));
  EXPECT_TRUE(
      isInactiveLibraryType(Type("class.std::__cxx11::basic_string.5")));
  // A prefix of the name is not the name.
  EXPECT_FALSE(isInactiveLibraryType(Type("class.std::basic_stringX")));
}

} // namespace
