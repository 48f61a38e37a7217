//===- CustomRules.cpp - Derivative rules registered by user code ---------===//
#include "rules/CustomRules.h"
#include "support/Diagnostics.h"
#include "rules/KnownFunctions.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace ad {
namespace {

enum class Registered { Forward, Reverse, Inactive };

/// The name prefixes ad.h's macros give their arrays. Matched anywhere in
/// the name: C++ mangles a static array (_ZL19__ad_rule_forward_0).
const std::pair<const char *, Registered> Prefixes[] = {
    {"__ad_rule_forward_", Registered::Forward},
    {"__ad_rule_reverse_", Registered::Reverse},
    {"__ad_rule_inactive_", Registered::Inactive},
};

std::optional<Registered> registrationKind(const GlobalVariable &GV) {
  if (!GV.hasInitializer())
    return std::nullopt;
  for (auto [Prefix, Kind] : Prefixes)
    if (GV.getName().contains(Prefix))
      return Kind;
  return std::nullopt;
}

/// The functions an array names, in order (nullptr for anything else).
SmallVector<Function *, 2> namedFunctions(const GlobalVariable &GV) {
  SmallVector<Function *, 2> Fns;
  if (auto *Init = dyn_cast<ConstantArray>(GV.getInitializer()))
    for (const Use &Op : Init->operands())
      Fns.push_back(namedFunction(Op.get()));
  return Fns;
}

std::string typeName(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

/// The type a rule for \p F must have (see CustomRules.h).
FunctionType *ruleType(FunctionType *F, RuleMode Mode) {
  SmallVector<Type *, 8> Params(F->params());
  if (Mode == RuleMode::Reverse)
    Params.push_back(F->getReturnType());
  for (Type *P : F->params())
    if (P->isFloatingPointTy())
      Params.push_back(Mode == RuleMode::Forward
                           ? P
                           : PointerType::getUnqual(P->getContext()));
  Type *Ret = Mode == RuleMode::Forward ? F->getReturnType()
                                        : Type::getVoidTy(F->getContext());
  return FunctionType::get(Ret, Params, false);
}

bool hasRuleShape(FunctionType *F) {
  if (F->isVarArg() || !F->getReturnType()->isFloatingPointTy())
    return false;
  return all_of(F->params(), [](Type *P) {
    return P->isFloatingPointTy() || P->isIntegerTy() || P->isPointerTy();
  });
}

} // namespace

CustomRules::CustomRules(Module &M, DiagnosticReporter *Diag) {
  for (GlobalVariable &GV : M.globals()) {
    std::optional<Registered> Kind = registrationKind(GV);
    if (!Kind)
      continue;
    SmallVector<Function *, 2> Fns = namedFunctions(GV);
    if (Fns.empty() || !Fns[0] ||
        (*Kind != Registered::Inactive && (Fns.size() != 2 || !Fns[1])))
      continue; // Not written by ad.h's macros.
    Function *F = Fns[0];
    CustomRule &R = Rules[F];
    Function *&Slot = *Kind == Registered::Forward ? R.Forward : R.Reverse;
    bool Conflict = false;
    if (*Kind == Registered::Inactive)
      R.Inactive = true;
    else {
      Conflict = Slot && Slot != Fns[1];
      Slot = Fns[1];
    }
    Conflict |= R.Inactive && (R.Forward || R.Reverse);
    if (Conflict && Diag)
      Diag->error(*F,
                  "'" + demangle(F->getName()) +
                      "' is registered twice for the same mode, or both "
                      "with a derivative rule and as inactive",
                  "keep one AD_FORWARD_RULE, one AD_REVERSE_RULE or one "
                  "AD_INACTIVE per function");
  }
}

Function *checkedRule(const CallBase &Call, const CustomRule &Rule,
                      RuleMode Mode,
                      function_ref<bool(const Value *)> HasShadow,
                      DiagnosticReporter &Diag) {
  const Function *F = calledFunction(Call);
  FunctionType *FT = Call.getFunctionType();
  bool Forward = Mode == RuleMode::Forward;
  std::string Name = "'" + demangle(F->getName()) + "'";
  if (!hasRuleShape(FT)) {
    Diag.error(&Call,
               Name + " has a custom derivative rule, but its type '" +
                   typeName(FT) +
                   "' is not one rules support (floating-point, integer and "
                   "pointer parameters, a floating-point result)",
               "register the rule for a wrapper of that shape");
    return nullptr;
  }
  Function *Fn = Forward ? Rule.Forward : Rule.Reverse;
  if (!Fn) {
    Diag.error(&Call,
               Name + " has a custom " + (Forward ? "reverse" : "forward") +
                   " rule but no " + (Forward ? "forward" : "reverse") +
                   " rule, which " + (Forward ? "forward" : "reverse") +
                   " mode needs",
               Twine("register one with ") +
                   (Forward ? "AD_FORWARD_RULE" : "AD_REVERSE_RULE") +
                   ", or call it only with __ad_const data");
    return nullptr;
  }
  FunctionType *Want = ruleType(FT, Mode);
  if (Fn->getFunctionType() != Want) {
    Diag.error(&Call,
               Twine("the ") + (Forward ? "forward" : "reverse") + " rule '" +
                   demangle(Fn->getName()) + "' of " + Name + " has type '" +
                   typeName(Fn->getFunctionType()) + "', but it must be '" +
                   typeName(Want) + "'",
               Forward ? "a forward rule takes f's parameters, then one "
                         "tangent per floating-point parameter, and returns "
                         "the tangent of f's result"
                       : "a reverse rule takes f's parameters, the adjoint of "
                         "f's result, then one pointer per floating-point "
                         "parameter to add its adjoint to, and returns void");
    return nullptr;
  }
  for (const Use &U : Call.args())
    if (U->getType()->isPointerTy() && HasShadow(U)) {
      Diag.error(&Call,
                 Name + " is passed a pointer to differentiated memory (" +
                     Diag.describe(*U) +
                     "), which its custom rule cannot differentiate",
                 "custom rules differentiate floating-point arguments only: "
                 "pass that memory as __ad_const, or pass the values");
      return nullptr;
    }
  return Fn;
}

bool eraseRuleRegistrations(Module &M, FunctionAnalysisManager *FAM) {
  SmallVector<GlobalVariable *, 8> Arrays;
  SmallPtrSet<Constant *, 8> Dead;
  for (GlobalVariable &GV : M.globals())
    if (registrationKind(GV)) {
      Arrays.push_back(&GV);
      Dead.insert(&GV);
    }
  if (Arrays.empty())
    return false;
  removeFromUsedLists(M, [&](Constant *C) { return Dead.count(C) > 0; });
  SmallPtrSet<Function *, 8> Named;
  for (GlobalVariable *GV : Arrays) {
    for (Function *F : namedFunctions(*GV))
      if (F)
        Named.insert(F);
    GV->eraseFromParent();
  }
  // A static rule that no derivative calls was kept only by its array
  // (whose initializer, a uniqued constant, outlives it until dropped).
  for (Function *F : Named) {
    F->removeDeadConstantUsers();
    if (F->use_empty() && (F->hasLocalLinkage() || F->isDeclaration())) {
      if (FAM && !F->isDeclaration())
        FAM->clear(*F, F->getName());
      F->eraseFromParent();
    }
  }
  return true;
}

PreservedAnalyses KeepRuleCallsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (GlobalVariable &GV : M.globals()) {
    if (!registrationKind(GV))
      continue;
    SmallVector<Function *, 2> Fns = namedFunctions(GV);
    if (Fns.empty() || !Fns[0] || Fns[0]->hasFnAttribute(Attribute::NoInline))
      continue;
    Fns[0]->removeFnAttr(Attribute::AlwaysInline);
    Fns[0]->addFnAttr(Attribute::NoInline);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ad
