//===- HostStubs.cpp - Register the host's kernel stubs by kernel name ----===//
//
// clang compiles a launch `k<<<g, b>>>(args)` on the host side into a call of
// k's stub, `__device_stub__k`, which calls cudaLaunchKernel with the stub's
// own address as the kernel handle. A real build registers each stub with
// the fat binary's kernel name (__cudaRegisterFunction); cuda-host-run
// compiles the host side alone (--cuda-host-only), so this pass emits that
// registration: a constructor that tells the runtime each stub's kernel
// name, which the lowered device module registered its entry under.
//
// The kernel's mangled name is the stub's without "__device_stub__", with
// the length before it (an Itanium <source-name>) 15 smaller:
// _Z21__device_stub__reducePKfPfi is the stub of _Z6reducePKfPfi.
//
// The host's copy of a __device__ or __constant__ variable is a shadow: an
// internal global with an undefined initializer and the variable's name,
// whose address host code passes to cudaMemcpyToSymbol. The constructor
// registers every such global's name too; the runtime maps the names the
// device module registered (a host global that merely looks like a shadow
// matches none and is never used).
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace cudahost {

namespace {

const StringRef StubMarker = "__device_stub__";

/// The kernel a stub launches, or "" when Stub is not a stub's name.
std::string kernelNameOf(StringRef Stub) {
  size_t At = Stub.find(StubMarker);
  if (At == StringRef::npos)
    return "";
  StringRef Before = Stub.take_front(At);
  StringRef After = Stub.drop_front(At + StubMarker.size());
  size_t Digits = 0;
  while (Digits < Before.size() && isDigit(Before[Before.size() - 1 - Digits]))
    ++Digits;
  if (Digits == 0) // extern "C": no length to adjust
    return (Before + After).str();
  unsigned Length;
  if (Before.take_back(Digits).getAsInteger(10, Length) ||
      Length < StubMarker.size())
    return "";
  return (Before.drop_back(Digits) + Twine(Length - StubMarker.size()) + After)
      .str();
}

} // namespace

PreservedAnalyses HostStubsPass::run(Module &M, ModuleAnalysisManager &) {
  std::vector<std::pair<Function *, std::string>> Stubs;
  for (Function &F : M)
    if (!F.isDeclaration())
      if (std::string Kernel = kernelNameOf(F.getName()); !Kernel.empty())
        Stubs.push_back({&F, Kernel});
  std::vector<GlobalVariable *> Shadows;
  for (GlobalVariable &G : M.globals())
    if (G.hasInternalLinkage() && G.hasInitializer() &&
        isa<UndefValue>(G.getInitializer()))
      Shadows.push_back(&G);
  if (Stubs.empty() && Shadows.empty())
    return PreservedAnalyses::all();
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *Void = Type::getVoidTy(Ctx);
  auto *Init = Function::Create(FunctionType::get(Void, false),
                                GlobalValue::InternalLinkage,
                                "__cudahost_register_stubs", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Init));
  FunctionCallee Register = M.getOrInsertFunction(
      "__cudahost_register_stub", FunctionType::get(Void, {Ptr, Ptr}, false));
  for (auto &[Stub, Kernel] : Stubs)
    B.CreateCall(Register, {Stub, B.CreateGlobalString(Kernel)});
  FunctionCallee RegisterShadow = M.getOrInsertFunction(
      "__cudahost_register_shadow", FunctionType::get(Void, {Ptr, Ptr}, false));
  for (GlobalVariable *G : Shadows)
    B.CreateCall(RegisterShadow, {G, B.CreateGlobalString(G->getName())});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Init, 0);
  return PreservedAnalyses::none();
}

} // namespace cudahost
