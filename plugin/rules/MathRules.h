//===- MathRules.h - Derivatives of math functions, as data -----------------===//
//
// One row per operation: the partial derivative of the result with respect to
// each differentiable argument, as a tiny IR builder. Forward mode computes
// tangent = sum(partial_i * tangent_i); reverse mode computes
// adjoint_i += partial_i * adjoint. One rule thus serves both modes, and
// adding a function means adding one row.
//
// Rows are found by name (libm, with the f/l suffixes of float and long
// double) or by intrinsic ID, both through hash maps: a lookup is O(1).
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_MATHRULES_H
#define AD_RULES_MATHRULES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace ad {

/// Returns the primal value of argument I of the call, or of its result when
/// I is Result, usable at the builder's insertion point. Reverse mode fetches
/// values lazily, so a rule only pays for the primal values it uses.
using PrimalAccessor = llvm::function_ref<llvm::Value *(int)>;
constexpr int Result = -1;

struct MathRule {
  const char *Name;
  /// The first NumDiffArgs arguments carry derivatives; the rest are integers
  /// or otherwise inactive (powi's exponent).
  unsigned NumDiffArgs;
  /// The partial derivative with respect to argument I; nullptr means the
  /// function is piecewise constant (floor, round, ...) and the partial is 0.
  /// \p Ty is the type of the result, so that constant partials need not
  /// fetch (and, in reverse mode, tape) an operand just for its type.
  llvm::Value *(*Partial)(llvm::IRBuilderBase &B, unsigned I,
                          PrimalAccessor Primal, llvm::Type *Ty);
};

/// The rule for a call, or nullptr when the callee is no known math function.
const MathRule *lookupMathRule(const llvm::CallBase &Call);

/// The rule for an arithmetic instruction (fadd, fsub, fmul, fdiv, frem,
/// fneg), or nullptr.
const MathRule *lookupInstructionRule(unsigned Opcode);

} // namespace ad

#endif
