//===- MutableGlobals.h - Shadows of mutable globals ------------*- C++ -*-===//
//
// A function may keep state in a mutable global: write it in one place, read
// it in another (a callee, a later iteration). Such a global gets an
// automatic shadow, "<name>.ad.shadow", zero when a differentiated call
// starts and reset to zero when it returns, so that within the call the
// global's derivatives flow like those of any memory, and nothing carries
// over from one call to the next. Which globals need one is decided before
// any derivative is built, for the whole module: those into which the
// differentiated code (each entry point's function and every function it
// calls, with the activities they are called with) stores a value that
// carries a derivative. That is a fixed point: a load from a global with a
// shadow carries derivatives, which may make more stores active.
//
// The value a global holds when the call starts is a constant of the call,
// and what it holds when the call returns is not an output: its derivative
// is not available to the caller. Two errors keep that from losing a
// derivative the caller needs:
//   - an output: a differentiated value is stored into the global and
//     nothing in the call reads it back (no read of the global may follow
//     the write, and the stored value reaches no other use): the only reader
//     is code outside the call;
//   - a previous call's state: the call reads the global before writing it,
//     while differentiated code writes derivatives into it (the value read
//     may be what an earlier differentiated call left there). For a global
//     of one scalar (a double, a pointer) the read is an error when some
//     path from the call's start reaches it without writing the whole
//     global; for an array or struct, when no write of the global at all can
//     come before it.
// Both look through calls: a function's summary says what it may load,
// store or must store, whether it may read the incoming value, and (for the
// activities it is called with) whether it leaves a differentiated value in
// a global unread.
//
//===----------------------------------------------------------------------===//
#ifndef AD_MODES_MUTABLEGLOBALS_H
#define AD_MODES_MUTABLEGLOBALS_H

#include "analysis/ActivityAnalysis.h"
#include "modes/DerivativeCache.h"
#include "llvm/ADT/DenseSet.h"

namespace ad {

/// The bytes [Offset, Offset + Size) of a global.
struct ByteRange {
  uint64_t Offset, Size;
  bool covers(const ByteRange &R) const {
    return Offset <= R.Offset && R.Offset + R.Size <= Offset + Size;
  }
};

/// One entry-point call: the function it differentiates and how.
struct DifferentiatedRoot {
  const llvm::CallBase *Call;
  llvm::Function *Fn;
  llvm::ArrayRef<Activity> Args;
};

class MutableGlobals {
public:
  explicit MutableGlobals(ADContext &Ctx);
  ~MutableGlobals();

  /// Decides which mutable globals get shadows and reports the errors
  /// above, at the instruction that writes or reads.
  void analyze(llvm::ArrayRef<DifferentiatedRoot> Roots);

  /// Handed to every activity analysis (ADContext::Globals).
  const ShadowedGlobals &shadowed() const { return Shadowed; }

  /// The shadows a call of \p Root must zero when it returns.
  llvm::ArrayRef<llvm::GlobalVariable *>
  shadowsToReset(const llvm::CallBase *Root) const;

  /// Whether an error was reported for \p Root (it is then not lowered).
  bool failed(const llvm::CallBase *Root) const { return Failed.count(Root); }

  /// Erases the shadows no derivative uses.
  void finish();

  struct Summary;

private:
  struct Node;
  void collectCandidates();
  bool anyCandidateWritten() const;
  void buildTree(llvm::ArrayRef<DifferentiatedRoot> Roots);
  Node &node(llvm::Function *F, llvm::ArrayRef<Activity> Args);
  void addShadow(llvm::GlobalVariable *G);
  void findAccessors();
  void summarize();
  void findUnreadWrites(const llvm::DenseSet<llvm::GlobalVariable *> &All);
  const Summary *summaryOf(const llvm::Function *F) const;
  bool writesAll(const Summary &S, const llvm::Instruction &I,
                 llvm::GlobalVariable *G, ByteRange R);
  bool mustWrite(const Summary &S, llvm::GlobalVariable *G, ByteRange R);
  bool summarizeIncoming(Summary &S, llvm::GlobalVariable *G);
  void check(llvm::ArrayRef<DifferentiatedRoot> Roots);

  ADContext &Ctx;
  ShadowedGlobals Shadowed;
  llvm::DenseSet<llvm::GlobalVariable *> Candidates;
  llvm::SmallVector<std::unique_ptr<Node>, 16> Nodes;
  llvm::StringMap<Node *> NodeByKey;
  llvm::DenseMap<const llvm::Function *, std::unique_ptr<Summary>> Summaries;
  /// The shadowed globals each function mentions (their canonical primals
  /// are clones: they mention the same).
  llvm::DenseMap<const llvm::Function *,
                 llvm::SmallVector<llvm::GlobalVariable *, 2>>
      Mentions;
  llvm::DenseMap<const llvm::CallBase *,
                 llvm::SmallVector<llvm::GlobalVariable *, 2>>
      Resets;
  llvm::DenseSet<const llvm::CallBase *> Failed;
  llvm::DenseMap<std::tuple<const llvm::Function *, llvm::GlobalVariable *,
                            uint64_t, uint64_t>,
                 bool>
      MustWrite;
};

} // namespace ad

#endif
