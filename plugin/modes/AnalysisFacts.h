//===- AnalysisFacts.h - The analyses' answers, as call rows ask -*- C++ -*-===//
#ifndef AD_MODES_ANALYSISFACTS_H
#define AD_MODES_ANALYSISFACTS_H

#include "analysis/ActivityAnalysis.h"
#include "analysis/TypeAnalysis.h"
#include "modes/ConstantShadows.h"
#include "rules/CallEmitters.h"

namespace ad {

/// The activity and type analyses of one function being differentiated,
/// behind the interface the call rows read (rules/CallEmitters.h).
class AnalysisFacts final : public CallFacts {
public:
  AnalysisFacts(const ActivityAnalysis &AA, const TypeAnalysis &Types)
      : AA(AA), Types(Types) {}
  bool isVaried(const llvm::Value *V) const override { return AA.isVaried(V); }
  bool hasShadow(const llvm::Value *V) const override {
    return AA.hasShadow(V);
  }
  bool hasConstantShadow(const llvm::Value *V) const override {
    return ad::hasConstantShadow(V);
  }
  std::optional<MemoryLayout>
  layoutOfCopy(const llvm::CallBase &Copy) const override {
    return Types.layoutOfCopy(Copy);
  }
  std::optional<MemoryLayout>
  layoutOfReallocation(const llvm::CallBase &Realloc) const override {
    return Types.layoutOfReallocation(Realloc);
  }

private:
  const ActivityAnalysis &AA;
  const TypeAnalysis &Types;
};

} // namespace ad

#endif
