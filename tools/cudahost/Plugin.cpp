//===- Plugin.cpp - CudaHostLower.so's pass registration ------------------===//
//
// Loaded by opt (-load-pass-plugin=CudaHostLower.so) in cuda-host-run's
// pipeline: `-passes=cuda-host-device` on the device module,
// `-passes=cuda-host-stubs` on the host module (DeviceLowering.h).
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "CudaHostLower", "1", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "cuda-host-device") {
                    MPM.addPass(cudahost::DeviceLoweringPass());
                    return true;
                  }
                  if (Name == "cuda-host-stubs") {
                    MPM.addPass(cudahost::HostStubsPass());
                    return true;
                  }
                  return false;
                });
          }};
}
