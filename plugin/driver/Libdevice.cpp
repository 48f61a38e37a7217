//===- Libdevice.cpp - CUDA's math library around differentiation
//----------===//
#include "driver/Libdevice.h"
#include "core/EntryPointNames.h"
#include "rules/DeviceMath.h"
#include "rules/MathRules.h"
#include "rules/WarpShuffles.h"
#include "support/Diagnostics.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace ad {
namespace {

cl::opt<std::string> LibdevicePath(
    "ad-libdevice",
    cl::desc("CUDA's libdevice bitcode, from which derivatives of device code "
             "link the math functions their rules call (default: the one "
             "clang links, else the CUDA installation's)"),
    cl::init(""));

/// Set on the libdevice functions kept from inlining until the derivatives
/// exist.
constexpr const char *KeptAttr = "ad-libdevice-kept";

bool isLibdeviceFunction(const Function &F) {
  return F.getName().starts_with("__nv_");
}

bool hasEntryPointCalls(const Module &M) {
  for (const Function &F : M)
    if (F.isDeclaration() && !F.use_empty() && entryPointKind(F))
      return true;
  return false;
}

/// A function libdevice would define has a call that names it as a rule.
bool hasRule(Function &F) {
  for (User *U : F.users())
    if (auto *Call = dyn_cast<CallBase>(U))
      if (Call->getCalledFunction() == &F)
        return lookupMathRule(*Call) != nullptr;
  return false;
}

/// The arguments of this process, when the kernel shows them: clang's
/// driver runs cc1 in its own process unless told otherwise, so these are
/// the driver's (--cuda-path) or cc1's (-mlink-builtin-bitcode).
std::vector<std::string> processArguments() {
  std::vector<std::string> Args;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile("/proc/self/cmdline", /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return Args;
  StringRef Rest = (*Buf)->getBuffer();
  while (!Rest.empty()) {
    auto [Arg, Tail] = Rest.split('\0');
    Args.push_back(Arg.str());
    Rest = Tail;
  }
  return Args;
}

std::string libdeviceIn(StringRef CudaPath) {
  SmallString<256> P(CudaPath);
  sys::path::append(P, "nvvm", "libdevice", "libdevice.10.bc");
  return std::string(P);
}

/// Where libdevice is: -ad-libdevice, the file clang links, the CUDA path
/// clang was given, $CUDA_PATH / $CUDA_HOME, the usual installations.
std::vector<std::string> libdeviceCandidates() {
  std::vector<std::string> Paths;
  if (!LibdevicePath.empty())
    return {LibdevicePath};
  std::vector<std::string> Args = processArguments();
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    bool HasNext = I + 1 < Args.size();
    if (A == "-mlink-builtin-bitcode" && HasNext &&
        StringRef(Args[I + 1]).contains("libdevice"))
      Paths.push_back(Args[I + 1]);
    if (A.consume_front("--cuda-path="))
      Paths.push_back(libdeviceIn(A));
    else if (A == "--cuda-path" && HasNext)
      Paths.push_back(libdeviceIn(Args[I + 1]));
  }
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> V = sys::Process::GetEnv(Var))
      Paths.push_back(libdeviceIn(*V));
  for (const char *Dir : {"/usr/local/cuda", "/usr/lib/cuda"})
    Paths.push_back(libdeviceIn(Dir));
  Paths.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  return Paths;
}

std::unique_ptr<Module> loadLibdevice(LLVMContext &C, std::string &Tried) {
  for (const std::string &Path : libdeviceCandidates()) {
    Tried += (Tried.empty() ? "" : ", ") + Path;
    if (!sys::fs::exists(Path))
      continue;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    if (!Buf)
      continue;
    Expected<std::unique_ptr<Module>> Lib =
        parseBitcodeFile((*Buf)->getMemBufferRef(), C);
    if (!Lib) {
      consumeError(Lib.takeError());
      continue;
    }
    return std::move(*Lib);
  }
  return nullptr;
}

} // namespace

PreservedAnalyses KeepLibdeviceCallsPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  if (!isLibdeviceTarget(M) || !hasEntryPointCalls(M))
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M) {
    // A function already noinline (every function at -O0) stays whole.
    if (F.isDeclaration() || F.hasFnAttribute(Attribute::NoInline) ||
        !((isLibdeviceFunction(F) && hasRule(F)) || isWarpShuffleFunction(F)))
      continue;
    F.removeFnAttr(Attribute::AlwaysInline);
    F.addFnAttr(Attribute::NoInline);
    // Visible outside the module until then, or the pipeline's
    // interprocedural passes would specialize it (powf(x, 2.5f) becoming
    // __nv_powf(x) with 2.5 folded in), and the call would no longer be
    // the function its name says.
    F.addFnAttr(KeptAttr, F.hasLocalLinkage() ? "local" : "");
    if (F.hasLocalLinkage()) {
      F.setLinkage(GlobalValue::ExternalLinkage);
      F.setVisibility(GlobalValue::HiddenVisibility);
    }
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

bool linkLibdeviceForDerivatives(Module &M, DiagnosticReporter &Diag) {
  if (!isLibdeviceTarget(M))
    return false;
  bool Changed = false;
  bool LinkedLibdevice = false;
  SmallVector<Function *, 8> Missing;
  for (Function &F : M) {
    if (F.hasFnAttribute(KeptAttr)) {
      if (F.getFnAttribute(KeptAttr).getValueAsString() == "local")
        F.setLinkage(GlobalValue::InternalLinkage);
      F.removeFnAttr(KeptAttr);
      F.removeFnAttr(Attribute::NoInline);
      F.addFnAttr(Attribute::AlwaysInline);
      Changed = true;
    }
    if (!isLibdeviceFunction(F))
      continue;
    if (!F.isDeclaration())
      LinkedLibdevice = true;
    else if (!F.use_empty())
      Missing.push_back(&F);
  }
  // Without libdevice in the module (-nocudalib), __nv_* declarations are
  // the program's way of asking for another definition: leave them.
  if (Missing.empty() || !LinkedLibdevice)
    return Changed;
  std::string Tried;
  std::unique_ptr<Module> Lib = loadLibdevice(M.getContext(), Tried);
  if (!Lib) {
    for (Function *F : Missing)
      for (User *U : F->users())
        if (auto *I = dyn_cast<Instruction>(U)) {
          Diag.error(I,
                     "the derivative needs '" + F->getName() +
                         "' from CUDA's libdevice, which was not found "
                         "(tried " +
                         Tried + ")",
                     "pass -mllvm -ad-libdevice=PATH/libdevice.10.bc");
          break;
        }
    return Changed;
  }
  Lib->setTargetTriple(M.getTargetTriple());
  Lib->setDataLayout(M.getDataLayout());
  // Only what the derivatives call, private to this module as clang links
  // it; the later AlwaysInliner and pipeline treat it like the rest.
  Linker::linkModules(M, std::move(Lib), Linker::LinkOnlyNeeded,
                      [](Module &Into, const StringSet<> &Names) {
                        for (const auto &Name : Names)
                          if (GlobalValue *GV =
                                  Into.getNamedValue(Name.getKey()))
                            if (!GV->isDeclaration())
                              GV->setLinkage(GlobalValue::InternalLinkage);
                      });
  return true;
}

} // namespace ad
