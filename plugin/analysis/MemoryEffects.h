//===- MemoryEffects.h - What instructions may write ------------*- C++ -*-===//
//
// The questions about memory that the canonical primal's rewrites (running
// extremes, reload versioning) and the reverse sweep's reloads ask: may
// this instruction write the program's memory, may it write this location,
// is this global only ever read.
//
//===----------------------------------------------------------------------===//
#ifndef AD_ANALYSIS_MEMORYEFFECTS_H
#define AD_ANALYSIS_MEMORYEFFECTS_H

namespace llvm {
class AAResults;
class GlobalVariable;
class Function;
class Instruction;
class MemoryLocation;
} // namespace llvm

namespace ad {

/// \p I may write memory of the program (math functions, which write only
/// errno, and calls without effects do not).
bool writesProgramMemory(const llvm::Instruction &I);

/// \p W may write \p Loc (alias analysis, with calls that write only
/// through their pointer arguments, errno and inaccessible memory judged by
/// their arguments).
bool mayWrite(llvm::AAResults &AAR, llvm::Instruction *W,
              const llvm::MemoryLocation &Loc);

/// Some instruction of \p F may read memory that \p Loc overlaps
/// (alias analysis; calls that read only through their pointer arguments
/// judged by their arguments).
bool mayReadAnywhere(llvm::AAResults &AAR, llvm::Function &F,
                     const llvm::MemoryLocation &Loc);

/// A global that differentiated code can only read: declared constant, or
/// private to this module with no store, memset or escaping use (-O0 keeps
/// "static double table[]" mutable; -O1 and up mark it constant themselves).
bool isReadOnlyGlobal(const llvm::GlobalVariable *GV);

} // namespace ad

#endif
