//===- Libdevice.h - CUDA's math library around differentiation
//------------===//
//
// In CUDA device code, sin(x) is a call to libdevice's __nv_sin, which clang
// links into the module (only the functions the program uses) before the
// pipeline runs, and the inliner then dissolves into a polynomial of NVVM
// intrinsics. Two things follow for derivatives:
//  - the pass must still see `call @__nv_sin` to apply sin's rule (the
//    polynomial's derivative is slower and only approximates cos), so
//    KeepLibdeviceCallsPass keeps libdevice functions that have a rule from
//    being inlined until the derivatives exist;
//  - a rule may need a function the program never called (sin's needs
//    __nv_cos), so after differentiation linkLibdeviceForDerivatives links
//    those from the same libdevice, and lets every kept function inline again.
// A module compiled without libdevice (-nocudalib: its __nv_* functions are
// declarations to be resolved elsewhere) is left as it is.
//
//===----------------------------------------------------------------------===//
#ifndef AD_DRIVER_LIBDEVICE_H
#define AD_DRIVER_LIBDEVICE_H

#include "llvm/IR/PassManager.h"

namespace ad {

class DiagnosticReporter;

class KeepLibdeviceCallsPass
    : public llvm::PassInfoMixin<KeepLibdeviceCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// Links the libdevice functions the derivatives call but the module lacks,
/// and makes the functions KeepLibdeviceCallsPass kept inlinable again.
/// Returns whether it changed the module; reports an error at a caller when
/// libdevice cannot be found.
bool linkLibdeviceForDerivatives(llvm::Module &M, DiagnosticReporter &Diag);

} // namespace ad

#endif // AD_DRIVER_LIBDEVICE_H
