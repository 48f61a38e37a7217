//===- ArgumentTypes.h - What callers pass in a pointer parameter
//----------===//
//
// At -O0 a struct assignment through a pointer parameter, `*d = *s`, is a bare
// memcpy between two untyped `ptr` arguments: nothing inside the function
// says which bytes are doubles. The callers know: they pass `&a` where `a` is
// an alloca of `struct P`, or a typed GEP. This collects, once per module,
// the actual arguments of every direct call and of every differentiation
// entry point, and answers "what type does parameter i point to" when the
// callers that know agree (following parameters passed on through several
// calls; a caller passing a pointer of unknown origin, such as its own
// parameter that nobody types, abstains).
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_ARGUMENTTYPES_H
#define AD_ANALYSIS_ARGUMENTTYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Argument;
class Function;
class Module;
class Type;
class Value;
} // namespace llvm

namespace ad {

class ArgumentTypes {
public:
  /// Records every direct call in \p M.
  void addCallsIn(llvm::Module &M);
  /// Records a call of \p F with these actual arguments (an entry point).
  void addCall(const llvm::Function *F, llvm::ArrayRef<llvm::Value *> Actuals);
  /// \p Clone's parameters are \p Original's (a canonical primal), or its
  /// first parameters are (a derivative whose primal parameters come first).
  void addClone(const llvm::Function *Clone, const llvm::Function *Original);

  /// The type the callers' actuals for \p A point to, or nullptr when no
  /// caller knows or two disagree.
  llvm::Type *pointeeType(const llvm::Argument &A) const;

  /// What the recorded calls pass for \p A (a canonical clone's parameter
  /// stands for its original's).
  llvm::SmallVector<const llvm::Value *, 4>
  actualsFor(const llvm::Argument &A) const;

private:
  llvm::Type *pointeeType(const llvm::Function *F, unsigned ArgNo,
                          unsigned Depth) const;
  llvm::Type *typeOfActual(const llvm::Value *V, unsigned Depth) const;

  using Site = llvm::SmallVector<llvm::Value *, 4>;
  llvm::DenseMap<const llvm::Function *, llvm::SmallVector<Site, 2>> Sites;
  llvm::DenseMap<const llvm::Function *, const llvm::Function *> Originals;
};

} // namespace ad

#endif
