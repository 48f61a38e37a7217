//===- TangentBuilder.h - Forward mode: the tangent of a function
//-----------===//
//
// Builds the tangent function of a canonical primal: the primal is cloned,
// and after every cloned instruction that carries a derivative the builder
// emits the instruction's tangent (its linearization applied to the operands'
// tangents). Pointers get shadows that hold the tangents of the memory they
// point to; memory operations are mirrored on the shadows; calls to defined
// functions call their tangents, built through the cache.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_TANGENTBUILDER_H
#define AD_MODES_TANGENTBUILDER_H

#include "analysis/ActivityAnalysis.h"
#include "modes/AnalysisFacts.h"
#include "modes/DerivativeCache.h"
#include "modes/ShadowCloning.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace ad {

class TangentBuilder {
public:
  TangentBuilder(ADContext &Ctx, const DerivativeSignature &Sig,
                 llvm::Function *Primal, llvm::Function *Tangent);
  /// False after reporting an error.
  bool build();

private:
  /// The tangent (or shadow, for a pointer) of a primal value, in the new
  /// function; zero for values that carry no derivative.
  llvm::Value *tangentOf(llvm::Value *Orig);
  /// What goes in shadow memory where the primal stores pointer \p Val.
  llvm::Value *shadowOfStoredPointer(llvm::Value *Val, llvm::Instruction *At);

  bool visit(llvm::Instruction &Orig);
  /// A call does what its row (rules/CallRows.h) says, through Emitter.
  bool visitCall(llvm::CallBase &Orig);
  class Emitter;
  /// The row of a function whose body is differentiated: its tangent.
  bool visitCallToDefined(llvm::CallBase &Orig);
  bool visitStore(llvm::StoreInst &Orig);
  bool visitLoad(llvm::LoadInst &Orig);
  bool visitAtomicUpdate(llvm::AtomicRMWInst &Orig);
  /// Pointer-producing instructions: the same instruction on the shadows.
  bool visitShadowCopy(llvm::Instruction &Orig);
  bool visitLinearStructural(llvm::Instruction &Orig);
  bool finishPhis();
  void rewriteReturns();

  ADContext &Ctx;
  const DerivativeSignature &Sig;
  llvm::Function *Primal, *NewF;
  ActivityAnalysis AA;
  AnalysisFacts Facts;
  llvm::ValueToValueMapTy VMap;
  /// Tangents of values and shadows of pointers alike.
  llvm::DenseMap<const llvm::Value *, llvm::Value *> Tangents;
  ShadowCloning Cloning;
  llvm::SmallVector<llvm::PHINode *, 8> PendingPhis;
  llvm::IRBuilder<> B;
};

} // namespace ad

#endif
