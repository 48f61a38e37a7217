//===- KnownFunctions.cpp - The table of known callees
//----------------------===//
#include "rules/KnownFunctions.h"
#include "rules/CustomRules.h"
#include "rules/MathRules.h"
#include "rules/RuleTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace ad {
namespace {

struct NamedKind {
  const char *Name;
  CalleeKind Kind;
};

// Library functions by name. C++ operators appear in their Itanium mangling.
const NamedKind LibraryFunctions[] = {
    {"malloc", CalleeKind::Malloc},
    {"_Znwm", CalleeKind::Malloc},
    {"_Znam", CalleeKind::Malloc},
    {"_ZnwmRKSt9nothrow_t", CalleeKind::Malloc},
    {"_ZnamRKSt9nothrow_t", CalleeKind::Malloc},
    {"calloc", CalleeKind::Calloc},
    {"realloc", CalleeKind::Realloc},
    {"free", CalleeKind::Free},
    {"_ZdlPv", CalleeKind::Free},
    {"_ZdaPv", CalleeKind::Free},
    {"_ZdlPvm", CalleeKind::Free},
    {"_ZdaPvm", CalleeKind::Free},
    {"memcpy", CalleeKind::MemCopy},
    {"memmove", CalleeKind::MemCopy},
    {"memset", CalleeKind::MemSet},
    // The tape of a derivative that is differentiated again
    // (runtime/RuntimeFunctions.h emits these).
    {"__ad_tape_push", CalleeKind::TapePush},
    {"__ad_tape_pop", CalleeKind::TapePop},
    {"__ad_tape_reserve", CalleeKind::TapeReserve},
    {"__ad_tape_free", CalleeKind::TapeFree},
    // No derivative flows through these.
    {"printf", CalleeKind::Inactive},
    {"fprintf", CalleeKind::Inactive},
    {"sprintf", CalleeKind::Inactive},
    {"snprintf", CalleeKind::Inactive},
    {"puts", CalleeKind::Inactive},
    {"putchar", CalleeKind::Inactive},
    {"fputs", CalleeKind::Inactive},
    {"fputc", CalleeKind::Inactive},
    {"fwrite", CalleeKind::Inactive},
    {"fflush", CalleeKind::Inactive},
    {"perror", CalleeKind::Inactive},
    {"rand", CalleeKind::Inactive},
    {"srand", CalleeKind::Inactive},
    {"random", CalleeKind::Inactive},
    {"drand48", CalleeKind::Inactive},
    {"clock", CalleeKind::Inactive},
    {"time", CalleeKind::Inactive},
    {"gettimeofday", CalleeKind::Inactive},
    {"clock_gettime", CalleeKind::Inactive},
    {"abort", CalleeKind::Inactive},
    {"exit", CalleeKind::Inactive},
    {"__assert_fail", CalleeKind::Inactive},
    {"strlen", CalleeKind::Inactive},
    {"strcmp", CalleeKind::Inactive},
    {"abs", CalleeKind::Inactive},
    {"labs", CalleeKind::Inactive},
    {"atoi", CalleeKind::Inactive},
    {"getenv", CalleeKind::Inactive},
    {"malloc_usable_size", CalleeKind::Inactive}, // In derivatives' realloc.
    {"lround", CalleeKind::Inactive},
    {"lrint", CalleeKind::Inactive},
    {"llround", CalleeKind::Inactive},
    {"lroundf", CalleeKind::Inactive},
    {"lrintf", CalleeKind::Inactive},
    {"isnan", CalleeKind::Inactive},
    {"isinf", CalleeKind::Inactive},
    {"__isnan", CalleeKind::Inactive},
    {"__isinf", CalleeKind::Inactive},
    {"__cxa_guard_acquire", CalleeKind::Inactive},
    {"__cxa_guard_release", CalleeKind::Inactive},
};

const StringMap<CalleeKind> &libraryIndex() {
  static const StringMap<CalleeKind> Index = [] {
    StringMap<CalleeKind> M;
    for (const NamedKind &K : LibraryFunctions)
      M[K.Name] = K.Kind;
    return M;
  }();
  return Index;
}

CalleeInfo classifyIntrinsic(const CallBase &Call, Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
    return {CalleeKind::MemCopy};
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
    return {CalleeKind::MemSet};
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::vector_reduce_fmul:
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
    return {CalleeKind::FPReduction};
  case Intrinsic::masked_load:
  case Intrinsic::masked_gather:
    return {CalleeKind::MaskedLoad};
  case Intrinsic::masked_store:
  case Intrinsic::masked_scatter:
    return {CalleeKind::MaskedStore};
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::dbg_assign:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::prefetch:
  case Intrinsic::donothing:
  case Intrinsic::sideeffect:
  case Intrinsic::pseudoprobe:
  case Intrinsic::is_fpclass:
  case Intrinsic::trap:
  case Intrinsic::ubsantrap:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::objectsize:
  case Intrinsic::expect:
  case Intrinsic::lround:
  case Intrinsic::llround:
  case Intrinsic::lrint:
  case Intrinsic::llrint:
  case Intrinsic::fptosi_sat:
  case Intrinsic::fptoui_sat:
    return {CalleeKind::NoEffect};
  default:
    break;
  }
  if (const MathRule *R = lookupMathRule(Call))
    return {CalleeKind::Math, R};
  // Integer-only intrinsics (smax, ctpop, ...) carry no derivative.
  bool TouchesFP = Call.getType()->isFPOrFPVectorTy();
  for (const Use &U : Call.args())
    TouchesFP |=
        U->getType()->isFPOrFPVectorTy() || U->getType()->isPointerTy();
  return {TouchesFP ? CalleeKind::Unknown : CalleeKind::NoEffect};
}

/// Follows pointer casts and aliases from \p V; stops at anything else,
/// which is returned (a function, an interposable alias, an indirect callee).
const Value *followAliases(const Value *V) {
  // The verifier rejects cyclic aliases; the bound only keeps this total.
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    V = V->stripPointerCasts();
    auto *GA = dyn_cast<GlobalAlias>(V);
    if (!GA || GA->isInterposable())
      return V;
    V = GA->getAliasee();
  }
  return V;
}

} // namespace

Function *namedFunction(const Value *V) {
  return const_cast<Function *>(dyn_cast<Function>(followAliases(V)));
}

Function *calledFunction(const CallBase &Call) {
  if (Function *F = Call.getCalledFunction())
    return F;
  if (Call.isInlineAsm())
    return nullptr;
  Function *F = namedFunction(Call.getCalledOperand());
  return F && F->getFunctionType() == Call.getFunctionType() ? F : nullptr;
}

const GlobalAlias *interposableAlias(const Value *V) {
  return dyn_cast<GlobalAlias>(followAliases(V));
}

CalleeInfo classifyCallee(const CallBase &Call) {
  if (RuleTable *Table = RuleTable::active())
    return Table->classify(Call);
  return resolveCallee(Call);
}

CalleeInfo resolveCallee(const CallBase &Call, const CustomRules *Custom) {
  const Function *F = calledFunction(Call);
  if (!F)
    return {CalleeKind::Unknown};
  // The user's word overrides every built-in row.
  if (const CustomRule *R = Custom ? Custom->lookup(F) : nullptr) {
    if (R->Inactive)
      return {CalleeKind::Inactive};
    CalleeInfo Info{CalleeKind::Custom};
    Info.Custom = R;
    return Info;
  }
  if (Intrinsic::ID ID = F->getIntrinsicID())
    return classifyIntrinsic(Call, ID);
  if (const MathRule *R = lookupMathRule(Call))
    return {CalleeKind::Math, R};
  const StringMap<CalleeKind> &Index = libraryIndex();
  auto It = Index.find(F->getName());
  if (It != Index.end())
    return {It->second};
  if (!F->isDeclaration())
    return {CalleeKind::Defined};
  return {CalleeKind::Unknown};
}

} // namespace ad
