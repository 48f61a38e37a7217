//===- CallRows.h - One row per kind of callee -------------------*- C++ -*-===//
//
// Everything the plugin asks about a call, once its callee is classified
// (KnownFunctions.h), is in the row of the callee's kind:
//   - how derivatives pass through it (DerivativeFlow), which the activity
//     analysis, the usefulness pruning and the pointer policies read;
//   - its memory effects: whether it writes memory the program reads (the
//     reload policies), whether it returns fresh memory (which then gets a
//     shadow) and how its pointer arguments and result relate (the type
//     analysis follows memory through realloc and memcpy);
//   - what the activity analysis learns from it;
//   - its tangent (forward mode), its augmented forward action (reverse
//     mode's forward sweep) and its adjoint (the reverse sweep), as small
//     functions over the emitters of CallEmitters.h.
// The builders and the analyses look up the row and ask it; none of them
// switches over callee kinds. Each row lives in the file of its topic, beside
// its functions, which nothing else sees (MemoryCalls.cpp, MathCalls.cpp,
// TapeCalls.cpp, ...; the list is rowOf's, CallRows.cpp). Adding a kind of
// callee is a CalleeKind, the names that classify as it (KnownFunctions.cpp),
// and its row with its functions in a topic file.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_CALLROWS_H
#define AD_RULES_CALLROWS_H

#include "rules/CallEmitters.h"
#include "rules/KnownFunctions.h"

namespace ad {

/// How derivatives can pass through a call.
enum class DerivativeFlow : uint8_t {
  /// Debug info, lifetime markers, assumptions: no value flows.
  Marker,
  /// Known to carry no derivative (I/O, clocks, AD_INACTIVE functions): a
  /// derivative neither enters nor leaves, and a pointer it returns points
  /// to memory the derivative does not follow.
  Inactive,
  /// The arguments' derivatives reach the result and nothing else (math,
  /// reductions, custom rules, masked loads): the call stores none.
  ToResult,
  /// Into memory the call writes, or code it runs (memory operations,
  /// functions whose bodies are differentiated).
  Anywhere,
  /// A function with no body and no rule, an indirect call, inline
  /// assembly: differentiated arguments are an error; it is given no
  /// shadow, and a pointer it returns has none.
  Unknown,
};

/// How a call relates the memory of its pointer arguments and result, for
/// the type analysis, which follows memory across it.
enum class PointerRelation : uint8_t {
  None,
  ResultContinuesFirst, ///< realloc(p, n): the result holds p's contents.
  CopiesSecondToFirst,  ///< memcpy(dst, src, n): dst's bytes are src's.
};

struct CallRow {
  CalleeKind Kind;
  DerivativeFlow Flow;
  /// May write memory the program reads: a math function writes errno at
  /// most, a marker nothing.
  bool WritesProgramMemory;
  /// The result is fresh heap memory (malloc, calloc, realloc), which
  /// derivatives may be written into: it always gets a shadow.
  bool ReturnsFreshMemory;
  PointerRelation Pointers;
  /// What the activity analysis learns from the call: marks its result
  /// varied or shadowed, gives memory a shadow. Returns whether a fact was
  /// added; nullptr when the call adds none.
  bool (*Activity)(CallActivity &A, const llvm::CallBase &Call,
                   const CalleeInfo &Info);
  /// Forward mode: the call's tangent, or its effect on the shadows.
  bool (*Tangent)(TangentEmitter &E, llvm::CallBase &Call,
                  const CalleeInfo &Info);
  /// Reverse mode's forward sweep: what must happen beside the primal call
  /// for the reverse sweep (shadows allocated, pointer shadows copied, the
  /// callee's augmented forward sweep called instead).
  bool (*Forward)(ShadowEmitter &E, llvm::CallBase &Call,
                  const CalleeInfo &Info);
  /// The reverse sweep: the adjoints of the arguments and of the memory the
  /// call wrote. \p DY is the adjoint of the result for a varied call that
  /// passes derivatives ToResult, else nullptr.
  bool (*Adjoint)(AdjointEmitter &E, llvm::CallBase &Call,
                  const CalleeInfo &Info, llvm::Value *DY);
  /// The functions each return false after reporting an error.
};

/// The row of \p Kind.
const CallRow &rowOf(CalleeKind Kind);

// --- The topic files' rows, which rowOf indexes -----------------------------
/// Markers, inactive calls, functions with bodies, unknown callees.
llvm::ArrayRef<CallRow> plainCallRows();
/// Math functions, complex arithmetic, vector reductions.
llvm::ArrayRef<CallRow> mathCallRows();
/// Allocation, free, realloc, memcpy/memmove, memset.
llvm::ArrayRef<CallRow> memoryCallRows();
/// Masked and gather/scatter loads and stores.
llvm::ArrayRef<CallRow> maskedMemoryRows();
/// The tape runtime's calls in generated code (nested derivatives).
llvm::ArrayRef<CallRow> tapeCallRows();
/// Library calls repeated on the shadows (std::_Rb_tree rebalancing).
llvm::ArrayRef<CallRow> mirrorCallRows();
/// Derivative rules the program registers.
llvm::ArrayRef<CallRow> customCallRows();
/// Calls that synchronize threads (CUDA, OpenMP).
llvm::ArrayRef<CallRow> parallelCallRows();
/// MPI operations that move data between ranks.
llvm::ArrayRef<CallRow> messageCallRows();

/// Short names for the columns of the row tables, for the topic files.
namespace columns {
constexpr DerivativeFlow Marker = DerivativeFlow::Marker,
                         Inactive = DerivativeFlow::Inactive,
                         ToResult = DerivativeFlow::ToResult,
                         Anywhere = DerivativeFlow::Anywhere,
                         Unknown = DerivativeFlow::Unknown;
constexpr bool Writes = true, NoWrites = false;
constexpr bool Fresh = true, NotFresh = false;
constexpr PointerRelation Unrelated = PointerRelation::None;

/// A function written once for the forward direction serves forward mode
/// too (a shadow allocation is the same in both).
template <bool (*F)(ShadowEmitter &, llvm::CallBase &, const CalleeInfo &)>
bool sameInForwardMode(TangentEmitter &E, llvm::CallBase &Call,
                       const CalleeInfo &Info) {
  return F(E, Call, Info);
}
} // namespace columns
/// The row of \p Call's callee.
inline const CallRow &rowOf(const llvm::CallBase &Call) {
  return rowOf(classifyCallee(Call).Kind);
}

/// A derivative of an argument can reach memory or other code through
/// \p Call (and so the call is a root of what the derivative needs).
inline bool mayStoreDerivatives(const CallRow &Row) {
  return Row.Flow == DerivativeFlow::Anywhere ||
         Row.Flow == DerivativeFlow::Unknown;
}
/// Memory \p Row's call is given a pointer to is never read or written by
/// differentiated code through the call: the call gets no shadow.
inline bool takesNoShadows(const CallRow &Row) {
  return Row.Flow == DerivativeFlow::Marker ||
         Row.Flow == DerivativeFlow::Inactive ||
         Row.Flow == DerivativeFlow::Unknown;
}
/// A pointer the call returns points to memory whose derivatives nobody
/// tracks: it has no shadow of its own.
inline bool returnsUntrackedMemory(const CallRow &Row) {
  return Row.Flow == DerivativeFlow::Inactive ||
         Row.Flow == DerivativeFlow::Unknown;
}
/// The call's body is differentiated (a call of its derivative replaces it).
inline bool differentiatesCallee(const CallRow &Row) {
  return Row.Kind == CalleeKind::Defined;
}

} // namespace ad

#endif
