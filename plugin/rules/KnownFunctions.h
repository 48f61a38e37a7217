//===- KnownFunctions.h - What a called function means to differentiation
//--===//
//
// Every call in a differentiated function is classified once by looking its
// callee up in hash tables: a math function (see MathRules.h), an allocator,
// a memory transfer, a function known to carry no derivative (I/O, clocks,
// random numbers), an intrinsic with no effect on values, or a function whose
// body we differentiate. The mode builders switch on the kind and never test
// names themselves.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_KNOWNFUNCTIONS_H
#define AD_RULES_KNOWNFUNCTIONS_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/InstrTypes.h"

namespace llvm {
class GlobalAlias;
class Module;
} // namespace llvm

namespace ad {

struct MathRule;
struct ComplexRule;
struct CustomRule;
struct MessageOperation;
class CustomRules;

enum class CalleeKind : uint8_t {
  NoEffect,     ///< Debug info, lifetime markers, assumptions: clone, no
                ///< derivative.
  Inactive,     ///< Known to carry no derivative (printf, rand, clock, ...,
                ///< and functions marked AD_INACTIVE).
  Math,         ///< A math function with a rule.
  ComplexMath,  ///< A function of complex numbers with a Jacobian rule
                ///< (__muldc3, cexp, cabs, ...; ComplexRules.h).
  Malloc,       ///< Returns fresh memory (malloc, new, aligned_alloc): the
                ///< row's AllocationShape says which arguments size it.
  Calloc,       ///< calloc(count, size).
  AllocOut,     ///< posix_memalign(&p, align, size): fresh memory stored
                ///< through argument 0, success when it returns 0.
  Realloc,      ///< realloc(ptr, size), __rust_realloc: the row's
                ///< AllocationShape says which arguments size it.
  Free,         ///< free(ptr), delete, __rust_dealloc(ptr, size, align).
  MemCopy,      ///< memcpy/memmove(dst, src, size).
  MemSet,       ///< memset(dst, byte, size).
  FPReduction,  ///< llvm.vector.reduce.{fadd,fmul,fmax,fmin,...}.
  MaskedLoad,   ///< llvm.masked.load / llvm.masked.gather.
  MaskedStore,  ///< llvm.masked.store / llvm.masked.scatter.
  TapePush,     ///< The tape's own functions, called by derivatives that
  TapePop,      ///< are themselves differentiated (nested derivatives,
  TapeReserve,  ///< rules/TapeCalls.h): push(tape, bytes) -> record,
  TapeFree,     ///< pop(tape, bytes) -> record, reserve(tape, bytes), free.
  MirrorCall,   ///< Relinks nodes of a linked structure (std::map's
                ///< red-black tree, std::list): the same call on the shadows
                ///< keeps the shadow structure the primal's mirror.
  Barrier,      ///< Waits for the other threads of a block or team
                ///< (__syncthreads, omp barrier): the reverse sweep waits
                ///< at the mirrored place too.
  TeamTurn,     ///< A ticket of an OpenMP critical section and the end
                ///< of the section (runtime/RuntimeFunctions.h,
                ///< teamTicket): the reverse sweep runs the sections in the
                ///< reverse order of their tickets.
  WarpShuffle,  ///< Moves a float or double between a warp's lanes
                ///< (__shfl_*_sync; WarpShuffles.h).
  Message,      ///< An MPI operation's wrapper in the canonical primal
                ///< (MessagePassing.h): the data moves between ranks.
  Custom,       ///< A function with a user-registered rule (CustomRules.h).
  Defined,      ///< A function with a body we differentiate recursively.
  LibraryState, ///< A libm function with no rule that writes only the
                ///< library's own state (lgamma: signgam and errno): an
                ///< Unknown callee whose writes no program buffer sees.
  Unresolved,   ///< The last resort of a dispatched indirect call
                ///< (primal/IndirectCallDispatch.h): a function the module
                ///< does not define; stops a derivative that reaches it.
  Unknown,      ///< A declaration with no rule, an indirect call, inline asm.
                ///< Last: the kinds' count is Unknown + 1.
};

/// Which arguments of an allocation function say how much memory it returns
/// and how it is aligned: the shadow is allocated the same way (an aligned
/// primal is read with aligned vector loads, and so is its shadow).
/// A reallocation function's row has one too: its pointer is argument 0,
/// SizeArg the new size, and OldSizeArg the old one where the call says it
/// (Rust's __rust_realloc(ptr, old_size, align, new_size)).
struct AllocationShape {
  int8_t SizeArg = 0;     ///< Bytes (per element, for calloc).
  int8_t CountArg = -1;   ///< calloc's element count, or -1 for one.
  int8_t AlignArg = -1;   ///< The alignment, or -1 for malloc's own.
  int8_t OldSizeArg = -1; ///< realloc's old size, or -1: malloc_usable_size.
  /// Rust's global allocator (__rust_*, __rdl_*, __rg_*): shadows are
  /// allocated, reallocated and freed through the primal's own allocator
  /// family (rules/RustAllocator.h), never libc, since a #[global_allocator]
  /// may free only what it allocated and the caller's shadow Vec is freed
  /// by Rust. A free row (__rust_dealloc(ptr, size, align)) has a shape
  /// only for this.
  bool RustAllocator = false;
};

/// For a MirrorCall row: red-black tree functions decide by the colours of
/// the nodes they reach, integers the shadow does not track, so before the
/// shadow call the colours they may read are copied from the primal nodes to
/// the shadow nodes (RuntimeFunctions::rbTreeSyncColours).
struct MirrorShape {
  int8_t SyncFrom = -1;       ///< The node whose colours to copy, or -1.
  int8_t Header = -1;         ///< The tree's header, or -1: that node only.
  bool FromSuccessor = false; ///< Start at the node's in-order successor
                              ///< (erase rebalances from there).
};

struct CalleeInfo {
  CalleeKind Kind = CalleeKind::Unknown;
  const MathRule *Rule = nullptr;     ///< Set for Math.
  const CustomRule *Custom = nullptr; ///< Set for Custom.

  /// Set for ComplexMath.
  const ComplexRule *Complex = nullptr;
  /// Set for Malloc, Calloc, AllocOut and Realloc; for Free, only for
  /// Rust's dealloc.
  const AllocationShape *Alloc = nullptr;
  /// Set for MirrorCall.
  const MirrorShape *Mirror = nullptr;
  /// Set for Message.
  const MessageOperation *Message = nullptr;
};

/// The function \p Call reaches: its direct callee, or the function that a
/// chain of aliases names. Clang emits a constructor or destructor defined
/// out of line as an alias (the complete-object C1/D1 of the base-object
/// C2/D2), and __attribute__((alias)) makes one of any function. An alias
/// that may be replaced at link time (weak, linkonce: isInterposable) is not
/// looked through, since the function it names here need not be the one the
/// program calls. nullptr for an indirect call, inline assembly, or a callee
/// whose type is not the call's. Every place that asks which function a call
/// reaches (classification, the derivative cache, argument typing) asks this.
llvm::Function *calledFunction(const llvm::CallBase &Call);

/// Adds to \p Functions every function of \p M that calls one of them,
/// directly or through others (calls as calledFunction resolves them): the
/// functions whose calls reach what \p Functions do.
void addTransitiveCallers(const llvm::Module &M,
                          llvm::DenseSet<const llvm::Function *> &Functions);

/// The function \p V names, through pointer casts and the aliases that
/// calledFunction looks through; nullptr otherwise.
llvm::Function *namedFunction(const llvm::Value *V);

/// The alias that may be replaced at link time where namedFunction stops on
/// its way from \p V; nullptr if it stops at no such alias.
const llvm::GlobalAlias *interposableAlias(const llvm::Value *V);

/// What \p Call's callee is. Inside a RuleTable::Scope (the pass and the
/// printers open one per module) the answer comes from the table, indexed
/// by the callee's signature hash and cached per call site; else it is
/// resolved directly.
CalleeInfo classifyCallee(const llvm::CallBase &Call);

/// Resolves \p Call's callee against the rule rows (the user's \p Custom
/// rules first, then MathRules and the library table below), without any
/// caching: what RuleTable does once per signature.
CalleeInfo resolveCallee(const llvm::CallBase &Call,
                         const CustomRules *Custom = nullptr);

/// Whether \p Call is a math function with a rule that runs as a call of the
/// math library (exp, log, tanh, pow), not a few instructions (sqrt, fabs,
/// fma, min, floor): what recomputing in the reverse sweep costs most.
bool isLibraryMathCall(const llvm::CallBase &Call);

/// Whether \p Call searches for the element a running extreme chose
/// (__ad_first_equal.<type>, primal/SelectReductions.cpp): it reads only
/// elements that the loop before it read or wrote, up to the chosen one.
bool isExtremeSearch(const llvm::CallBase &Call);

/// Whether objects of type \p T are library objects that hold text and
/// stream state but no floating-point data, and point only to memory that
/// holds none (std::string, string and file streams, locale, allocator):
/// a local of such a type needs no shadow, whatever differentiated code
/// reads or writes in it. Their member functions are inactive rows above.
bool isInactiveLibraryType(llvm::Type *T);

} // namespace ad

#endif
