//===- DeviceLowering.h - An NVPTX device module as host code -------------===//
//
// The passes of CudaHostLower.so (Plugin.cpp registers them):
//   cuda-host-device  retargets a CUDA device module (NVPTX IR, after the AD
//                     plugin and the optimization pipeline) to the host, so
//                     that its kernels run under the fiber scheduler of
//                     runtime/ (DeviceLowering.cpp, NvvmIntrinsics.cpp);
//   cuda-host-stubs   makes the host side of the same program register each
//                     kernel launch stub under its kernel's name
//                     (HostStubs.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CUDAHOST_DEVICELOWERING_H
#define CUDAHOST_DEVICELOWERING_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class CallInst;
class StringRef;
} // namespace llvm

namespace cudahost {

struct DeviceLoweringPass : llvm::PassInfoMixin<DeviceLoweringPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

struct HostStubsPass : llvm::PassInfoMixin<HostStubsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// Rewrites one call of an `llvm.nvvm.*` intrinsic named Name as host code
/// and erases it; false (and the call untouched) when no row knows Name.
bool lowerNvvmCall(llvm::CallInst &CI, llvm::StringRef Name);

/// The same for a call of inline PTX assembly.
bool lowerInlinePtx(llvm::CallInst &CI);

} // namespace cudahost

#endif // CUDAHOST_DEVICELOWERING_H
