//===- IndirectCallees.h - Functions an indirect call may reach -*- C++ -*-===//
//
// C++ calls virtual methods through the object's vtable, std::function calls
// its target through a pointer it keeps, and C code passes callbacks: the
// callee of such a call is known only at run time. It can only be a function
// whose address the program takes somewhere (a vtable entry, a stored or
// passed function pointer) and whose type is the call's. Within one module,
// the functions that fit and whose derivative the plugin knows (defined
// here, or declared with a row in the rule table: sin passed as a pointer)
// are the candidates the canonical primal dispatches between
// (primal/IndirectCallDispatch.h). A pointer to any other function (defined
// in another file) is found at run time, unless the pointer is a choice
// between known functions (a select or phi of them): the set is then closed.
//
// The function an entry point differentiates (`__ad_autodiff(f, ...)`) is
// not called through a pointer by being named there; a function passed to
// it as an argument (`__ad_const, callback`) may be.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_INDIRECTCALLEES_H
#define AD_ANALYSIS_INDIRECTCALLEES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class Module;
} // namespace llvm

namespace ad {

/// The functions an indirect call may reach whose derivatives are known.
struct IndirectCallees {
  llvm::SmallVector<llvm::Function *, 4> Functions;
  /// Whether the pointer can only be one of Functions. Otherwise a function
  /// defined in another file may be the target as well.
  bool Closed = false;
  /// Whether the call can be dispatched at all: false (and Functions empty)
  /// for a direct call, inline assembly, a signed pointer (ptrauth), more
  /// than the limit of candidates, or where a function of the call's type
  /// whose address is taken is out of the plugin's sight: declared without
  /// a rule, replaceable at link time (weak, an interposable alias), or
  /// chosen at load time (an ifunc). That stays a compile-time error.
  explicit operator bool() const { return !Functions.empty(); }
};

/// The candidates of the indirect calls of one module, found once per
/// function type (every call and every clone of a function asks again).
/// The module's own code is what is scanned; the plugin's derivatives and
/// runtime functions (".ad." in their names) are never candidates.
class IndirectCalleeCache {
public:
  explicit IndirectCalleeCache(llvm::Module &M, unsigned Limit = 8)
      : M(M), Limit(Limit) {}

  /// What \p Call may reach.
  IndirectCallees candidates(llvm::CallBase &Call);

private:
  /// The candidates of every indirect call of type \p Ty (the functions
  /// whose address is taken), found once; \p Call asks first, and stands
  /// for the calls of the type when asking the rule table about a
  /// declaration.
  const IndirectCallees &ofType(llvm::FunctionType *Ty, llvm::CallBase &Call);

  llvm::Module &M;
  unsigned Limit;
  llvm::DenseMap<llvm::FunctionType *, IndirectCallees> ByType;
};

} // namespace ad

#endif
