//===- TypeExplorer.h - The pointers that describe one memory --*- C++ -*-===//
//
// From the pointer asked about, the type analysis (TypeAnalysis.h) explores
// every pointer that is it plus an offset: GEPs (a run-time index makes the
// offset periodic; a choice among a few constants, each exactly), casts,
// phis, selects, -O0's pointer variables in allocas, the other side of a
// copy over the copied bytes, callee parameters (and back out through the
// same call's other arguments), callers' arguments, returned values,
// realloc, and, when asked, pointers kept in memory (fieldAliases). Each
// pointer's own facts (TypeFacts.h), shifted to the place it stands, are
// the answer.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_TYPEEXPLORER_H
#define AD_ANALYSIS_TYPEEXPLORER_H

#include "analysis/TypeAnalysis.h"

namespace llvm {
class DataLayout;
class Value;
} // namespace llvm

namespace ad {

class ArgumentTypes;

/// The facts of every pointer that describes the memory at \p P, relative
/// to P. \p FollowFields: also through pointers kept in memory.
/// \p Explain: print every pointer reached, where, and what it said.
MemoryTypes exploreMemory(const llvm::DataLayout &DL,
                          const ArgumentTypes *Callers, const llvm::Value *P,
                          bool FollowFields, bool Explain = false);

} // namespace ad

#endif
