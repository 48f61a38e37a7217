//===- RuleTable.h - Derivative rules indexed by callee signature
//----------===//
//
// Every call the plugin meets is classified (what its callee is, and which
// derivative rule applies: KnownFunctions.h). Enzyme was seen doing such a
// lookup 561,060 times for one 3-layer MLP. Here:
//   - a callee's *signature hash* (a stable hash of its name and function
//     type; for an intrinsic, its ID and type, which carries its overloaded
//     types) indexes one table per module: the first call of a signature
//     resolves it against the rule rows (MathRules.cpp, the library table in
//     KnownFunctions.cpp), every other call of it, anywhere, is one O(1) hash
//     lookup;
//   - each call site is looked up in that table once: the analyses and both
//     modes ask again for the same call many times (once per fixed-point
//     round, once per sweep), and get the answer from a per-site cache that
//     forgets sites when they are deleted.
// A user function named like a libm one but with another type has another
// signature, so it never picks up the libm rule. Rules registered by user
// code (CustomRules.h) are resolved first; a name is unique in a module, so
// the signature index serves them too.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_RULETABLE_H
#define AD_RULES_RULETABLE_H

#include "rules/KnownFunctions.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StableHashing.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/ValueMap.h"

namespace ad {

/// The stable hash of \p Callee's signature.
llvm::stable_hash signatureHash(const llvm::Function &Callee);

class RuleTable {
public:
  /// How often each level answered, for tests and -ad-time-report.
  struct Counters {
    unsigned SiteHits = 0;     ///< Answered by the per-call-site cache.
    unsigned TableLookups = 0; ///< Signature-hash lookups (one per site).
    unsigned Resolutions = 0;  ///< Signatures resolved against the rows.
  };

  /// \p Custom: the module's user-registered rules, if any (they take
  /// precedence over the built-in rows).
  explicit RuleTable(const CustomRules *Custom = nullptr) : Custom(Custom) {}
  RuleTable(const RuleTable &) = delete;
  RuleTable &operator=(const RuleTable &) = delete;

  CalleeInfo classify(const llvm::CallBase &Call);
  const Counters &counters() const { return Stats; }

  /// While alive, classifyCallee on this thread goes through \p T.
  class Scope {
  public:
    explicit Scope(RuleTable &T);
    ~Scope();

  private:
    RuleTable *Saved;
  };
  /// The table of the innermost live Scope, or nullptr.
  static RuleTable *active();

private:
  /// A call replaced by another (RAUW) is another site: do not move its
  /// answer to the replacement, whose callee may differ.
  struct SiteConfig : llvm::ValueMapConfig<const llvm::CallBase *> {
    enum { FollowRAUW = false };
  };
  llvm::DenseMap<llvm::stable_hash, CalleeInfo> BySignature;
  llvm::ValueMap<const llvm::CallBase *, CalleeInfo, SiteConfig> BySite;
  Counters Stats;
  const CustomRules *Custom;
};

} // namespace ad

#endif
