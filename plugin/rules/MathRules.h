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
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

namespace ad {

constexpr int Result = -1;

/// What a partial reads of the primal, usable at the builder's insertion
/// point. Reverse mode fetches values lazily, so a rule only pays for the
/// primal values it uses.
class PrimalAccessor {
public:
  /// Argument I's value, or the result's when I is Result.
  using ValueFn = llvm::function_ref<llvm::Value *(int)>;
  /// Math function F (an intrinsic ID) of the same arguments, as another
  /// call of the primal computed it, when the emitter has that value at
  /// hand; nullptr otherwise.
  using AlongsideFn = llvm::function_ref<llvm::Value *(llvm::Intrinsic::ID)>;

  template <typename Fn, typename = std::enable_if_t<
                             !std::is_same_v<std::decay_t<Fn>, PrimalAccessor>>>
  PrimalAccessor(Fn &&Values) : Values(Values) {}
  PrimalAccessor(ValueFn Values, AlongsideFn Alongside)
      : Values(Values), Alongside(Alongside) {}

  llvm::Value *operator()(int I) const { return Values(I); }
  /// F(argument 0): the primal's own value where it computes F of the same
  /// argument and the emitter has it (sin and cos of one angle, each the
  /// other's partial: the handwritten derivative shares them too), else a
  /// new call. The value is the same either way.
  llvm::Value *computed(llvm::IRBuilderBase &B, llvm::Intrinsic::ID F) const;

private:
  ValueFn Values;
  AlongsideFn Alongside;
};

/// What can turn a term partial * derivative into NaN where it should be an
/// exact zero, and so what applying the row guards against ("strong zero",
/// see partialTerm).
enum class ZeroGuard {
  /// Every partial is finite wherever the arguments are finite: constants,
  /// operands (fmul, fma), bounded functions (cos, tanh, 1/(1+x^2)). Nothing
  /// to guard (for finite arguments, which is all the guarantee covers).
  None,
  /// A partial may be infinite or NaN at finite arguments: a pole (log at 0,
  /// 1/b at b = 0), an end of the domain (sqrt, asin), overflow (exp(1000)).
  /// A zero tangent or adjoint then turns the term into 0 * inf = NaN.
  Derivative,
  /// The partial is exactly 0 on the pieces where the argument is not chosen
  /// (fmin, fmax, fdim): the unchosen argument's tangent or adjoint, even an
  /// infinite one, must not reach the result there.
  Partial,
};

/// Which primal values a row's partials read, over all its arguments: the
/// result and argument I (bit I + 1). The reverse sweep must have these at
/// hand (recomputed, reloaded or taped), so the policies that decide what to
/// keep ask the row (primal/ReloadVersioning.cpp) instead of naming
/// operations; a unit test checks each row's mask against what its partial
/// builder actually asks for.
using PrimalReads = uint8_t;
constexpr PrimalReads ReadsNothing = 0;
constexpr PrimalReads ReadsResult = 1;
constexpr PrimalReads readsArgument(unsigned I) { return 2u << I; }
constexpr PrimalReads ReadsArg0 = readsArgument(0);
constexpr PrimalReads ReadsArg1 = readsArgument(1);
constexpr PrimalReads ReadsArgs01 = ReadsArg0 | ReadsArg1;

/// What recomputing the operation in the reverse sweep costs against taping
/// its result: Cheap where one instruction replaces a tape field's store and
/// load (fadd, fmul, fdiv), Costly otherwise (frem, a libm call).
enum class RecomputeCost : uint8_t { Cheap, Costly };

struct MathRule {
  const char *Name;
  /// The first NumDiffArgs arguments carry derivatives; the rest are integers
  /// or otherwise inactive (powi's exponent).
  unsigned NumDiffArgs;
  PrimalReads Reads;
  RecomputeCost Recompute;
  /// The partial derivative with respect to argument I; nullptr means the
  /// function is piecewise constant (floor, round, ...) and the partial is 0.
  /// \p Ty is the type of the result, so that constant partials need not
  /// fetch (and, in reverse mode, tape) an operand just for its type.
  llvm::Value *(*Partial)(llvm::IRBuilderBase &B, unsigned I,
                          PrimalAccessor Primal, llvm::Type *Ty);
  ZeroGuard Guard;
};

/// The primal value of argument I (Result: the result) is read by some
/// partial of \p Rule.
inline bool partialReads(const MathRule &Rule, int I) {
  return Rule.Reads & (I == Result ? ReadsResult : readsArgument(I));
}

/// The rule for a call, or nullptr when the callee is no known math function.
const MathRule *lookupMathRule(const llvm::CallBase &Call);

/// The rule for an arithmetic instruction (fadd, fsub, fmul, fdiv, frem,
/// fneg), or nullptr.
const MathRule *lookupInstructionRule(unsigned Opcode);

/// The term of argument \p I when the row \p Rule is applied: partial_I *
/// \p Derivative, where Derivative is argument I's tangent (forward mode,
/// whose tangent is the sum of these terms) or the result's adjoint (reverse
/// mode, which adds the term to argument I's adjoint). nullptr when the
/// partial is identically zero. Both modes build every term here, so that the
/// strong-zero guarantee (a zero factor gives a zero term, whatever the other
/// factor; ZeroGuard) is kept in one place, and kept the same in both modes.
llvm::Value *partialTerm(llvm::IRBuilderBase &B, const MathRule &Rule,
                         unsigned I, PrimalAccessor Primal, llvm::Type *Ty,
                         llvm::Value *Derivative);

/// Partial * D with the guard \p Guard asks for (as -ad-strong-zero selects):
/// what partialTerm builds once it has the partial, for the products built
/// outside rows (vector reductions).
llvm::Value *guardedTerm(llvm::IRBuilderBase &B, ZeroGuard Guard,
                         llvm::Value *Partial, llvm::Value *D);

/// The primal's other calls that compute math function \p F (an intrinsic
/// ID; its libm name matches too) of exactly \p Call's arguments, for an
/// emitter's PrimalAccessor::AlongsideFn. Whether one's value can be used
/// where the partial is built is the emitter's to say.
llvm::SmallVector<llvm::CallBase *, 2> callsAlongside(llvm::Instruction &Call,
                                                      llvm::Intrinsic::ID F);

/// Every row (calls and instructions), for tests that check the table.
llvm::ArrayRef<MathRule> allMathRules();

} // namespace ad

#endif
