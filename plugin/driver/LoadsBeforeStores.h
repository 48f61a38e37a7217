//===- LoadsBeforeStores.h - A loop body's loads ahead of its stores ------===//
//
// A reverse sweep's inner loop updates several adjoints per iteration: a
// matrix product's reads dinp[i] and dweight[o][i], adds to each and writes
// each back. Emitted in the order the adjoints are accumulated, the body
// reads the second adjoint only after writing the first; a handwritten
// backward keeps one update per loop and never does. Once the vectorizer's
// runtime checks have shown the adjoints apart (its scoped no-alias
// metadata), the reads may go first: GPT-2's whole gradient step measured
// 4-5% faster so, strict and -Ofast alike (docs/OPTIONS.md, "With clang").
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_LOADSBEFORESTORES_H
#define AD_DRIVER_LOADSBEFORESTORES_H

#include "llvm/IR/PassManager.h"

namespace ad {

/// In each block of an innermost loop, moves every simple load, with the
/// side-effect-free address arithmetic it needs, above the stores before it
/// that alias analysis shows it does not read. Nothing else that writes
/// memory is passed, so the function computes what it did.
class LoadsBeforeStoresPass
    : public llvm::PassInfoMixin<LoadsBeforeStoresPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace ad

#endif
