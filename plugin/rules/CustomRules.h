//===- CustomRules.h - Derivative rules registered by user code -*- C++ -*-===//
//
// include/ad.h's AD_FORWARD_RULE(f, f_fwd), AD_REVERSE_RULE(f, f_rev) and
// AD_INACTIVE(f) each expand to a `used` internal constant array named
// __ad_rule_<kind>_<N> (mangled in C++) listing the functions. Reading them
// back is all the registration there is: the table below maps f to its rules
// and KnownFunctions classifies a call to f as Custom (or Inactive) ahead of
// every built-in row. The arrays are deleted once the pass is done with them.
//
// Rule signatures, for f of type R (P1..Pn) where R is a floating-point type
// and the Pi are floating-point, integer or pointer types (F = the indices
// of the floating-point Pi, in order):
//   forward: R    f_fwd(P1..Pn, Pi for i in F)            tangent of f
//   reverse: void f_rev(P1..Pn, R dret, Pi* for i in F)   adds (+=) adjoints
// Rules are checked when a call needs them, and a mismatch is an error
// naming the rule.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_CUSTOMRULES_H
#define AD_RULES_CUSTOMRULES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/PassManager.h"

namespace ad {

class DiagnosticReporter;

struct CustomRule {
  llvm::Function *Forward = nullptr;
  llvm::Function *Reverse = nullptr;
  bool Inactive = false; ///< AD_INACTIVE: no derivative flows through.
};

enum class RuleMode { Forward, Reverse };

class CustomRules {
public:
  CustomRules() = default;
  /// Reads the registrations of \p M; a function registered twice for the
  /// same mode (or with a rule and as inactive) is reported to \p Diag.
  explicit CustomRules(llvm::Module &M, DiagnosticReporter *Diag = nullptr);
  const CustomRule *lookup(const llvm::Function *F) const {
    auto It = Rules.find(F);
    return It == Rules.end() ? nullptr : &It->second;
  }

private:
  llvm::DenseMap<const llvm::Function *, CustomRule> Rules;
};

/// The rule \p Call needs in \p Mode, checked: f's types are supported, the
/// rule exists and has the documented type, and no pointer argument carries
/// derivatives (\p HasShadow), which a rule could not receive. Otherwise
/// reports an error at \p Call and returns nullptr.
llvm::Function *
checkedRule(const llvm::CallBase &Call, const CustomRule &Rule, RuleMode Mode,
            llvm::function_ref<bool(const llvm::Value *)> HasShadow,
            DiagnosticReporter &Diag);

/// Deletes \p M's registration arrays (and their entries in llvm.used and
/// llvm.compiler.used), then internal rule functions nothing calls any
/// more. True if anything was deleted.
bool eraseRuleRegistrations(llvm::Module &M,
                            llvm::FunctionAnalysisManager *FAM);

/// Marks every function with a custom rule, or marked inactive, noinline.
/// Clang's pipeline would otherwise inline a small f into the code to be
/// differentiated long before the differentiation pass runs (at the end of
/// the pipeline), and its rule would silently stop applying. Runs at the
/// start of the pipeline (ADPlugin.cpp).
class KeepRuleCallsPass : public llvm::PassInfoMixin<KeepRuleCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace ad

#endif
