//===- CallSignature.cpp - The derivative a call inside a derivative needs
//
//===----------------------------------------------------------------------===//
#include "analysis/CallSignature.h"
#include "analysis/ActivityAnalysis.h"
#include "core/IRHelpers.h"
#include "core/ParallelRegionCalls.h"
#include "rules/KnownFunctions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace ad {

std::optional<DerivativeSignature>
signatureForCall(const CallBase &I, const ActivityAnalysis &AA,
                 DerivativeKind Kind) {
  DerivativeSignature Callee;
  Callee.Primal = calledFunction(I);
  Callee.Kind = Kind;
  bool Any = false;
  for (const Use &U : I.args()) {
    Activity A = Activity::Const;
    if ((U->getType()->isPointerTy() && AA.hasShadow(U)) ||
        AA.movesPointerBits(U))
      A = Activity::Shadowed;
    else if (AA.isVaried(U))
      A = Activity::Active;
    Any |= A != Activity::Const;
    Callee.Args.push_back(A);
  }
  // A callee that reads or writes a shadowed global needs its derivative
  // even with no differentiated argument: what it reads there carries
  // derivatives, and what it overwrites must lose them. So does one that
  // exchanges MPI messages (the other ranks' derivatives travel through
  // them), and one whose result has a shadow (an allocation wrapper: its
  // derivative returns the shadow of the memory it allocates).
  if (!Any && !AA.accessesShadowedGlobals(I) && !AA.exchangesMessages(I) &&
      !(isPointerLike(I.getType()) && AA.hasShadow(&I)))
    return std::nullopt;
  // A null pointer beside differentiated arguments is passed with its (null)
  // shadow: the callee may store it where shadows are kept (a C++ iterator
  // built from nullptr, end()), and a null shadow is exactly right there.
  for (const Use &U : I.args())
    if (isa<ConstantPointerNull>(U))
      Callee.Args[U.getOperandNo()] = Activity::Shadowed;
  // A parallel region's body runs in every thread of the team.
  Callee.InTeam = isParallelRegionCall(I);
  Type *RetTy = I.getType();
  Callee.ReturnActive = (isDifferentiableType(RetTy) && AA.isVaried(&I)) ||
                        (isPointerLike(RetTy) && AA.hasShadow(&I));
  return Callee;
}

} // namespace ad
