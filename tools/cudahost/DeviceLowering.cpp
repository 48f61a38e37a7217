//===- DeviceLowering.cpp - An NVPTX device module as host code -----------===//
//
// The pass `cuda-host-device` takes the device module clang produced for one
// .cu file (with -fpass-plugin=ADPlugin.so, so the derivatives are already
// in it) and makes it a host module whose kernels the runtime can launch.
// It changes as little as it can, so that what runs is the IR the plugin and
// the optimizer produced:
//
//  - triple and data layout become x86-64's. CUDA already requires the two
//    sides to agree on the layout of every type, and x86 treats address
//    spaces below 256 as the one flat memory (an addrspacecast between them
//    is a no-op), so loads, stores and GEPs stay as they are;
//  - every global moves to address space 0. A static `__shared__` array
//    becomes a plain global (blocks run one after another), registered so
//    that the runtime fills it with 0xff bytes before each block, as a GPU
//    leaves shared memory undefined; every `extern __shared__` array becomes
//    the runtime's dynamic shared buffer;
//  - `llvm.nvvm.*` calls become host code (NvvmIntrinsics.cpp); CUDA's
//    device `printf` and `assert` call the runtime's;
//  - every definition becomes internal, so the device copies of
//    `__host__ __device__` functions never clash with the host's;
//  - each kernel gets an entry `void (void **args)` that unpacks a launch's
//    argument array, and a constructor registers the entries and the shared
//    arrays with the runtime;
//  - before each store to memory other than the thread's own stack, a call
//    of `__cudahost_yield` lets the scheduler run another thread, so that a
//    read-modify-write that should have been atomic loses updates here as
//    it can on a GPU (a missing atomic adjoint fails its test).
//
// Anything the host cannot run (an unknown intrinsic, inline PTX, a call of
// a device-only function) is a fatal error that names it.
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "CudaHostABI.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

static cl::opt<bool>
    YieldBeforeStores("cuda-host-yield", cl::init(true),
                      cl::desc("cuda-host-device: let the scheduler switch "
                               "threads before each store to shared or "
                               "global memory"));

namespace cudahost {

namespace {

const char *const HostTriple = "x86_64-pc-linux-gnu";
const char *const HostDataLayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-"
                                   "i64:64-i128:128-f80:128-n8:16:32:64-S128";

/// The `__nv_*` functions (libdevice's names) the runtime defines.
const char *const LibdeviceNames[] = {
#define NV_FUNCTION(Name) "__nv_" #Name,
#include "runtime/NvFunctions.def"
};

/// A definition private to the device object: no clash with the host's
/// copy of a __host__ __device__ function, and out of the host's comdats
/// (the linker would keep the host's group and drop the device's).
void internalize(GlobalObject &G) {
  if (G.isDeclaration())
    return;
  G.setLinkage(GlobalValue::InternalLinkage);
  G.setComdat(nullptr);
}

/// What the lowering collected for the module constructor.
struct Registry {
  std::vector<std::pair<GlobalVariable *, uint64_t>> Shared;
  // __device__ and __constant__ variables, which the host names through
  // its shadows (cudaMemcpyToSymbol).
  std::vector<std::pair<GlobalVariable *, uint64_t>> Variables;
  std::vector<Function *> Kernels;
};

[[noreturn]] void fail(const Twine &Message) {
  report_fatal_error("cuda-host-run: " + Message, /*gen_crash_diag=*/false);
}

bool isKernel(const Function &F) {
  return F.getCallingConv() == CallingConv::PTX_Kernel;
}

/// Kernels an older frontend marked in `nvvm.annotations` instead of by
/// calling convention.
void adoptAnnotatedKernels(Module &M) {
  NamedMDNode *Annotations = M.getNamedMetadata("nvvm.annotations");
  if (!Annotations)
    return;
  for (MDNode *Node : Annotations->operands()) {
    if (Node->getNumOperands() < 2)
      continue;
    auto *Kind = dyn_cast<MDString>(Node->getOperand(1));
    auto *F = mdconst::dyn_extract_or_null<Function>(Node->getOperand(0));
    if (F && Kind && Kind->getString() == "kernel")
      F->setCallingConv(CallingConv::PTX_Kernel);
  }
}

/// Moves global G to address space 0 (as New), leaving an addrspacecast
/// where its old users expect its old type.
void replaceGlobal(GlobalVariable *G, Constant *New) {
  Constant *Cast =
      ConstantExpr::getPointerBitCastOrAddrSpaceCast(New, G->getType());
  G->replaceAllUsesWith(Cast);
  G->eraseFromParent();
}

void moveGlobalsToHost(Module &M, Registry &Reg) {
  const DataLayout &DL = M.getDataLayout();
  std::vector<GlobalVariable *> Moving;
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() != 0)
      Moving.push_back(&G);
  for (GlobalVariable *G : Moving) {
    // CUDA's headers declare threadIdx and friends as device globals that
    // unoptimized modules keep, unused.
    if (G->isDeclaration() && G->use_empty()) {
      G->eraseFromParent();
      continue;
    }
    std::string Name = G->getName().str();
    G->setName(Name + ".device");
    if (G->getAddressSpace() == 3 && G->isDeclaration()) {
      Type *Buffer = ArrayType::get(Type::getInt8Ty(M.getContext()),
                                    CUDAHOST_DYNAMIC_SHARED_BYTES);
      replaceGlobal(G,
                    M.getOrInsertGlobal("__cudahost_dynamic_shared", Buffer));
      continue;
    }
    if (G->isDeclaration())
      fail("device global '" + Name + "' has no definition in this file");
    Type *Ty = G->getValueType();
    bool Shared = G->getAddressSpace() == 3;
    // Shared memory starts undefined; the runtime poisons it per block.
    Constant *Init = Shared || isa<UndefValue>(G->getInitializer())
                         ? Constant::getNullValue(Ty)
                         : G->getInitializer();
    // A __constant__ variable is constant to kernels but written by the
    // host (cudaMemcpyToSymbol): only what no one names stays read-only.
    bool ReadOnly = G->isConstant() && G->hasLocalLinkage() &&
                    !G->isExternallyInitialized();
    auto *New = new GlobalVariable(M, Ty, ReadOnly && !Shared,
                                   GlobalValue::InternalLinkage, Init, Name,
                                   nullptr, G->getThreadLocalMode(), 0);
    New->setAlignment(G->getAlign());
    if (Shared)
      Reg.Shared.push_back({New, DL.getTypeAllocSize(Ty)});
    else
      Reg.Variables.push_back({New, DL.getTypeAllocSize(Ty)});
    replaceGlobal(G, New);
  }
}

/// `__nvvm_reflect("__CUDA_ARCH")` and friends, for modules that were not
/// optimized (the NVVMReflect pass folds them otherwise).
Value *reflect(CallInst &CI, unsigned Arch, unsigned Ftz) {
  Value *Arg = CI.getArgOperand(0)->stripPointerCasts();
  StringRef Key;
  if (auto *G = dyn_cast<GlobalVariable>(Arg))
    if (auto *Data =
            dyn_cast_or_null<ConstantDataSequential>(G->getInitializer()))
      if (Data->isCString())
        Key = Data->getAsCString();
  unsigned Value = Key == "__CUDA_ARCH" ? Arch : Key == "__CUDA_FTZ" ? Ftz : 0;
  return ConstantInt::get(CI.getType(), Value);
}

/// The `sm_XY` the module was compiled for, as __CUDA_ARCH (XY0).
unsigned targetArch(Module &M) {
  for (Function &F : M) {
    StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
    unsigned Number;
    if (CPU.consume_front("sm_") &&
        !CPU.take_while(isDigit).getAsInteger(10, Number))
      return Number * 10;
  }
  return 800;
}

/// Every call the host cannot run as it is: NVVM intrinsics, inline PTX,
/// reflection, device printf and assert.
void lowerCalls(Module &M) {
  unsigned Arch = targetArch(M);
  unsigned Ftz = 0;
  if (auto *Flag = mdconst::extract_or_null<ConstantInt>(
          M.getModuleFlag("nvvm-reflect-ftz")))
    Ftz = Flag->getZExtValue();
  std::vector<CallInst *> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    if (CI->isInlineAsm()) {
      if (!lowerInlinePtx(*CI))
        fail("inline PTX '" +
             cast<InlineAsm>(CI->getCalledOperand())->getAsmString() +
             "' in '" + CI->getFunction()->getName() +
             "' has no host equivalent");
      continue;
    }
    Function *Callee = CI->getCalledFunction();
    if (!Callee)
      continue;
    CI->setCallingConv(CallingConv::C);
    StringRef Name = Callee->getName();
    if (Name == "__nvvm_reflect" || Name == "llvm.nvvm.reflect") {
      CI->replaceAllUsesWith(reflect(*CI, Arch, Ftz));
      CI->eraseFromParent();
    } else if (Name.starts_with("llvm.nvvm.") && !lowerNvvmCall(*CI, Name)) {
      fail("'" + Name + "' (in '" + CI->getFunction()->getName() +
           "') has no host equivalent in cuda-host-run");
    }
  }
  for (Function &F : make_early_inc_range(M))
    if (F.getName().starts_with("llvm.nvvm.") && F.use_empty())
      F.eraseFromParent();
  // Device printf and assert have host namesakes with other signatures.
  for (auto [Device, Host] : {std::pair{"vprintf", "__cudahost_vprintf"},
                              {"__assertfail", "__cudahost_assertfail"}})
    if (Function *F = M.getFunction(Device); F && F->isDeclaration())
      F->setName(Host);
}

/// Every function the lowered module still calls must exist on the host.
void checkExternals(Module &M) {
  StringSet<> Allowed;
  for (const char *Name : LibdeviceNames)
    Allowed.insert(Name);
  for (const char *Name : {"malloc", "free", "memcpy", "memmove", "memset"})
    Allowed.insert(Name);
  for (Function &F : M) {
    if (!F.isDeclaration() || F.use_empty())
      continue;
    StringRef Name = F.getName();
    if (Name.starts_with("llvm.nvvm."))
      fail("'" + Name + "' is still called after lowering");
    if (F.isIntrinsic() || Name.starts_with("__cudahost_") ||
        Allowed.contains(Name))
      continue;
    fail("device code calls '" + Name +
         "', which cuda-host-run does not provide on the host");
  }
}

/// Before each store that may reach another thread, let the scheduler switch.
void insertYields(Module &M) {
  FunctionCallee Yield = M.getOrInsertFunction(
      "__cudahost_yield",
      FunctionType::get(Type::getVoidTy(M.getContext()), false));
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    std::vector<StoreInst *> Stores;
    for (Instruction &I : instructions(F))
      if (auto *S = dyn_cast<StoreInst>(&I))
        if (!isa<AllocaInst>(getUnderlyingObject(S->getPointerOperand())))
          Stores.push_back(S);
    for (StoreInst *S : Stores)
      CallInst::Create(Yield, "", S->getIterator());
  }
}

/// `void __cudahost_entry.K(void **args)`: K called with the launch's
/// arguments (aggregates by value keep their byval pointer).
Function *makeEntry(Module &M, Function &K) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  auto *Entry = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
      GlobalValue::InternalLinkage, "__cudahost_entry." + K.getName(), M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Entry));
  std::vector<Value *> Args;
  for (Argument &A : K.args()) {
    Value *Slot = B.CreateConstGEP1_64(Ptr, Entry->getArg(0), A.getArgNo());
    Value *Address = B.CreateLoad(Ptr, Slot);
    if (A.hasByValAttr())
      Args.push_back(Address);
    else
      Args.push_back(B.CreateAlignedLoad(A.getType(), Address, Align(1)));
  }
  B.CreateCall(&K, Args);
  B.CreateRetVoid();
  return Entry;
}

void emitRegistration(Module &M, Registry &Reg) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *Void = Type::getVoidTy(Ctx);
  auto *Init = Function::Create(FunctionType::get(Void, false),
                                GlobalValue::InternalLinkage,
                                "__cudahost_register_module", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Init));
  FunctionCallee RegisterKernel = M.getOrInsertFunction(
      "__cudahost_register_kernel", FunctionType::get(Void, {Ptr, Ptr}, false));
  FunctionCallee RegisterShared = M.getOrInsertFunction(
      "__cudahost_register_shared",
      FunctionType::get(Void, {Ptr, B.getInt64Ty()}, false));
  for (Function *K : Reg.Kernels)
    B.CreateCall(RegisterKernel,
                 {B.CreateGlobalString(K->getName()), makeEntry(M, *K)});
  FunctionCallee RegisterVariable = M.getOrInsertFunction(
      "__cudahost_register_variable",
      FunctionType::get(Void, {Ptr, Ptr, B.getInt64Ty()}, false));
  for (auto [G, Bytes] : Reg.Shared)
    B.CreateCall(RegisterShared, {G, B.getInt64(Bytes)});
  for (auto [G, Bytes] : Reg.Variables)
    B.CreateCall(RegisterVariable,
                 {B.CreateGlobalString(G->getName()), G, B.getInt64(Bytes)});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Init, 0);
}

} // namespace

PreservedAnalyses DeviceLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Triple(M.getTargetTriple()).isNVPTX())
    fail("'" + M.getModuleIdentifier() + "' is not an NVPTX device module");
  adoptAnnotatedKernels(M);
  Registry Reg;
  lowerCalls(M);
  moveGlobalsToHost(M, Reg);
  if (YieldBeforeStores)
    insertYields(M);
  for (Function &F : M) {
    for (const char *Attr : {"target-cpu", "target-features", "tune-cpu"})
      F.removeFnAttr(Attr);
    if (isKernel(F))
      Reg.Kernels.push_back(&F);
    F.setCallingConv(CallingConv::C);
    internalize(F);
  }
  for (GlobalVariable &G : M.globals())
    if (!G.getName().starts_with("llvm."))
      internalize(G);
  M.getComdatSymbolTable().clear();
  if (NamedMDNode *Annotations = M.getNamedMetadata("nvvm.annotations"))
    M.eraseNamedMetadata(Annotations);
  M.setTargetTriple(Triple(HostTriple));
  M.setDataLayout(HostDataLayout);
  emitRegistration(M, Reg);
  checkExternals(M);
  return PreservedAnalyses::none();
}

} // namespace cudahost
