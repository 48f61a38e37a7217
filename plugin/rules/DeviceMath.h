//===- DeviceMath.h - Math calls that a derivative may emit on any target
//---===//
//
// A partial derivative is written with LLVM's math intrinsics (llvm.cos,
// llvm.log, ...), which the host back ends lower to libm calls. The NVPTX
// back end lowers only the operations PTX has an instruction for (sqrt,
// fabs, fma, min/max, rounding); sin, exp or pow in double precision do not
// select there, and in single precision only as approximations. On a GPU
// the same functions are CUDA's libdevice (`__nv_cos`, `__nv_cosf`, ...),
// which runtime/Libdevice.h links into the module where the program's own
// math came from it. These helpers emit whichever the target needs.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RULES_DEVICEMATH_H
#define AD_RULES_DEVICEMATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include <string>

namespace ad {

/// Whether \p M is compiled for a GPU whose math comes from libdevice.
bool isLibdeviceTarget(const llvm::Module &M);

/// The libdevice name of the libm function \p Base ("cos") for \p Ty:
/// "__nv_cos" for double, "__nv_cosf" for float.
std::string libdeviceName(llvm::StringRef Base, llvm::Type *Ty);

/// The libm name ("cos", "pow", ...) of a math intrinsic the NVPTX back end
/// cannot select exactly, or "" where it can (or the intrinsic has none).
llvm::StringRef libdeviceBaseOf(llvm::Intrinsic::ID ID);

/// ID(Args...) on a floating-point type, as an intrinsic where the target
/// lowers it and as a libdevice call on a GPU where it does not. Vectors
/// are split lane by lane for the call.
llvm::Value *emitMathIntrinsic(llvm::IRBuilderBase &B, llvm::Intrinsic::ID ID,
                               llvm::ArrayRef<llvm::Value *> Args);

/// The libm function \p Base (suffixed f or l by the operand type; on a GPU,
/// its libdevice name) of one argument, lane by lane for vectors.
llvm::Value *emitLibmCall(llvm::IRBuilderBase &B, llvm::StringRef Base,
                          llvm::Value *X);

} // namespace ad

#endif // AD_RULES_DEVICEMATH_H
