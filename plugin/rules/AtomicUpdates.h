//===- AtomicUpdates.h - Which atomic updates carry derivatives
//------------===//
//
// CUDA's atomicAdd on a float or double (and OpenMP's `atomic update`) is an
// atomicrmw fadd: the location's adjoint is the added value's (as for +=),
// and the tangent is added to the shadow with the same atomic update. fsub
// and exchange follow; an atomic minimum or maximum, and compare-and-swap on
// differentiated memory (the loop CUDA programs wrote before atomicAdd had a
// double form), have no derivative these rules can give exactly, and are
// errors at their source line.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_ATOMICUPDATES_H
#define AD_RULES_ATOMICUPDATES_H

namespace llvm {
class AtomicRMWInst;
class Instruction;
} // namespace llvm

namespace ad {

class DiagnosticReporter;

/// Whether \p I updates floating-point data (its derivative is not zero).
bool isDifferentiatedAtomicUpdate(const llvm::AtomicRMWInst &I);

/// Reports an atomic update of differentiated data that has no rule;
/// returns whether \p I has one (fadd, fsub, xchg).
bool checkAtomicUpdate(DiagnosticReporter &Diag, const llvm::AtomicRMWInst &I);

} // namespace ad

#endif // AD_RULES_ATOMICUPDATES_H
