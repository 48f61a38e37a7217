//===- CallEmitters.h - What a call row asks of the mode that applies it -*- C++ -*-===//
//
// A call row (CallRows.h) says what one kind of callee means to
// differentiation, in every mode, as small functions. The rows know no
// builder: they ask the analyses and the mode being built through the
// interfaces below, which the activity analysis and the two mode builders
// implement. A row thus serves forward mode, the forward sweep and the
// reverse sweep of reverse mode alike, and the same row function serves two
// of them where their work is the same (a shadow allocation is one in
// forward mode and in the forward sweep).
//
//   CallActivity         the activity analysis, while it grows its facts
//   CallFacts            the analyses' answers, once they are done
//   CallEmitter          any mode: the facts, primal values, shadows
//     ShadowEmitter      forward direction: the call's clone is in place;
//       TangentEmitter     forward mode: tangents
//       (the forward sweep of reverse mode is a ShadowEmitter itself)
//     AdjointEmitter     the reverse sweep: adjoints
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_CALLEMITTERS_H
#define AD_RULES_CALLEMITTERS_H

#include "core/MemoryLayout.h"
#include "llvm/IR/IRBuilder.h"
#include <optional>

namespace ad {

class DiagnosticReporter;
class RuntimeFunctions;

/// The activity analysis's facts as a row reads and extends them
/// (analysis/ActivityAnalysis.h says what each fact means). The mark and
/// shadow functions return whether they added a fact.
class CallActivity {
public:
  virtual bool isVaried(const llvm::Value *V) const = 0;
  virtual bool hasShadow(const llvm::Value *V) const = 0;
  /// \p V holds a pointer's bits as an integer; its shadow travels with it.
  virtual bool movesPointerBits(const llvm::Value *V) const = 0;
  /// \p Call's callee, or a function it calls, reads or writes a global
  /// that has a shadow.
  virtual bool accessesShadowedGlobals(const llvm::CallBase &Call) const = 0;
  /// \p Call's callee, or a function it calls, exchanges MPI messages
  /// (rules/MessagePassing.h, findMessagePassers).
  virtual bool exchangesMessages(const llvm::CallBase &Call) const = 0;
  virtual bool markVaried(const llvm::Value *V) = 0;
  virtual bool markShadowed(const llvm::Value *V) = 0;
  /// Gives local memory \p Ptr points into (an alloca, a heap block) a
  /// shadow: derivatives may be written into it.
  virtual bool shadowLocalMemory(const llvm::Value *Ptr) = 0;

protected:
  ~CallActivity() = default;
};

/// What the analyses say of the function being differentiated, as the rows
/// read it while emitting code (modes/AnalysisFacts.h answers).
class CallFacts {
public:
  virtual bool isVaried(const llvm::Value *V) const = 0;
  virtual bool hasShadow(const llvm::Value *V) const = 0;
  /// \p V is a constant pointer into a read-only global, whose shadow is
  /// constant too: no derivative in it, but the shadows of the pointers the
  /// global holds.
  virtual bool hasConstantShadow(const llvm::Value *V) const = 0;
  /// Where the floats and pointers are in the memory a memcpy or memmove
  /// \p Copy moves, or in what realloc \p Realloc keeps; nullopt when the
  /// bytes cannot be told.
  virtual std::optional<MemoryLayout>
  layoutOfCopy(const llvm::CallBase &Copy) const = 0;
  virtual std::optional<MemoryLayout>
  layoutOfReallocation(const llvm::CallBase &Realloc) const = 0;

protected:
  ~CallFacts() = default;
};

/// What every mode offers a row: where to emit, the analyses' facts, and
/// primal values and shadows where the builder is.
class CallEmitter {
public:
  CallEmitter(llvm::IRBuilderBase &B, RuntimeFunctions &Runtime,
              DiagnosticReporter &Diag, const CallFacts &Facts)
      : B(B), Runtime(Runtime), Diag(Diag), Facts(Facts) {}

  llvm::IRBuilderBase &B;
  RuntimeFunctions &Runtime;
  DiagnosticReporter &Diag;
  const CallFacts &Facts;

  bool isVaried(const llvm::Value *V) const { return Facts.isVaried(V); }
  bool hasShadow(const llvm::Value *V) const { return Facts.hasShadow(V); }
  bool hasConstantShadow(const llvm::Value *V) const {
    return Facts.hasConstantShadow(V);
  }
  std::optional<MemoryLayout> layoutOfCopy(const llvm::CallBase &Copy) const {
    return Facts.layoutOfCopy(Copy);
  }
  std::optional<MemoryLayout>
  layoutOfReallocation(const llvm::CallBase &Realloc) const {
    return Facts.layoutOfReallocation(Realloc);
  }

  /// The value primal \p V has where the builder is: its clone in the
  /// forward direction; recomputed, reloaded or taped in the reverse sweep.
  virtual llvm::Value *primal(llvm::Value *V) = 0;
  /// Math function \p F (an intrinsic ID) of primal call \p I's arguments,
  /// where another call of the primal computes it and its value costs less
  /// here than calling F again (PrimalAccessor::computed); else nullptr.
  virtual llvm::Value *primalAlongside(llvm::Instruction &I,
                                       llvm::Intrinsic::ID F) {
    return nullptr;
  }
  /// The shadow of primal pointer \p V where the builder is, for use by
  /// \p At; nullptr after an error.
  virtual llvm::Value *shadow(llvm::Value *V, llvm::Instruction *At) = 0;
  /// Emits this mode's call of the derivative of \p Call's callee, whose
  /// body is differentiated (its tangent, augmented forward sweep or
  /// adjoint); false after an error.
  virtual bool callDerivativeOfCallee(llvm::CallBase &Call) = 0;
  /// Both sweeps are in one function (a gradient), which runs the frees
  /// primal/DeferredFrees.h marks in its reverse sweep.
  virtual bool defersFrees() const { return false; }

protected:
  ~CallEmitter() = default;
};

/// The forward direction (forward mode, and reverse mode's forward sweep):
/// the call has been cloned, and the builder is right after the clone.
class ShadowEmitter : public CallEmitter {
public:
  using CallEmitter::CallEmitter;
  /// The clone of \p Call.
  virtual llvm::CallBase &clone(llvm::CallBase &Call) = 0;
  /// Records \p S as the shadow of \p Call's result.
  virtual void setShadow(llvm::CallBase &Call, llvm::Value *S) = 0;
  /// \p S, a shadow just allocated on the heap for \p Call's memory, is
  /// for the reverse sweep to free: reverse mode keeps it as \p Call's
  /// shadow; forward mode, which frees a shadow where the primal memory is
  /// freed, has nothing to keep.
  virtual void keepHeapShadow(llvm::CallBase &Call, llvm::Value *S) = 0;

protected:
  ~ShadowEmitter() = default;
};

/// Forward mode: every varied value has a tangent.
class TangentEmitter : public ShadowEmitter {
public:
  using ShadowEmitter::ShadowEmitter;
  /// The tangent of primal \p V (zero for a value that carries none).
  virtual llvm::Value *tangent(llvm::Value *V) = 0;
  virtual void setTangent(llvm::Instruction &I, llvm::Value *T) = 0;

protected:
  ~TangentEmitter() = default;
};

/// The reverse sweep: the builder is in the reverse block of the call's
/// block, after the adjoints of the instructions that follow the call.
class AdjointEmitter : public CallEmitter {
public:
  using CallEmitter::CallEmitter;
  /// Adds \p D to the adjoint of primal \p V.
  virtual void addAdjoint(llvm::Value *V, llvm::Value *D) = 0;
  /// The forward sweep gave \p Call's result a heap shadow (keepHeapShadow)
  /// that the reverse sweep frees.
  virtual bool hasHeapShadow(const llvm::CallBase &Call) const = 0;
  /// A stack slot of the reverse function, for values passed by address.
  virtual llvm::AllocaInst *scratchSlot(llvm::Type *T,
                                        const llvm::Twine &Name) = 0;

protected:
  ~AdjointEmitter() = default;
};

} // namespace ad

#endif
