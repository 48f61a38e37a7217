//===- Scheduler.cpp - Running a grid's GPU threads as fibers -------------===//
//
// A launch runs its blocks one after another on the launching thread. Within
// a block every GPU thread is a fiber with its own stack; the scheduler
// resumes the runnable fibers round-robin, in thread order, and a fiber runs
// until it
//  - reaches a barrier (__syncthreads and its _count/_and/_or forms): it
//    waits until every thread of the block that has not exited arrives;
//  - reaches a warp operation (shuffle, vote, __syncwarp): it waits until
//    every live lane its mask names arrives at one; the last arrival
//    computes every lane's result, so no lane can overwrite a value before
//    the others read it;
//  - stores to shared or global memory (__cudahost_yield, which the
//    lowering puts before such stores): it lets the next thread run, so that
//    two threads' unsynchronized read-modify-writes of one location
//    interleave and lose an update, as they may on a GPU;
//  - returns from the kernel.
// The order is deterministic, so a failing test fails every time. When no
// fiber can run and some have not exited (a barrier in divergent code, a
// shuffle whose mask names a lane that never comes), the launch stops with a
// message instead of hanging.
//
//===----------------------------------------------------------------------===//

#include "Scheduler.h"

#include <sys/mman.h>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define VALGRIND_STACK_REGISTER(Start, End) 0
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {
uint32_t *__cudahost_current;
alignas(256) char __cudahost_dynamic_shared[CUDAHOST_DYNAMIC_SHARED_BYTES];
void cudahost_switch(void **Save, void *To);
void cudahost_fiber_start();
}

namespace cudahost {

namespace {

enum class FiberState { Runnable, AtBarrier, AtWarp, Exited };
enum class WarpOp { Shuffle, Vote, Sync };

struct Fiber {
  void *Sp = nullptr;
  char *Stack = nullptr;
  FiberState State = FiberState::Exited;
  uint32_t Regs[CUDAHOST_SREG_COUNT];
  // The operands of the barrier or warp operation the fiber waits at.
  WarpOp Op = WarpOp::Sync;
  uint32_t Mode = 0, Mask = 0, Value = 0, Lane = 0, Clamp = 0;
  uint64_t Result = 0;
};

struct Warp {
  uint32_t Live = 0;    // lanes that have not exited
  uint32_t Arrived = 0; // lanes waiting at a warp operation
};

struct Launch {
  CudaHostKernelEntry Entry;
  void **Args;
  const char *Kernel;
  Dim3 BlockIdx;
  std::vector<Fiber> Fibers;
  std::vector<Warp> Warps;
  size_t Live = 0;
  size_t AtBarrier = 0;
  Fiber *Current = nullptr;
  void *SchedulerSp = nullptr;
};

Launch *Active;
std::vector<char *> StackPool;

/// Function-local, so that it exists when the device modules' constructors
/// register their arrays, whichever constructor runs first.
std::vector<std::pair<void *, size_t>> &sharedArrays() {
  static std::vector<std::pair<void *, size_t>> Arrays;
  return Arrays;
}

size_t stackBytes() {
  static size_t Bytes = [] {
    const char *Env = getenv("CUDA_HOST_RUN_STACK_KB");
    size_t KB = Env ? strtoul(Env, nullptr, 10) : 0;
    return (KB ? KB : 256) * 1024;
  }();
  return Bytes;
}

/// CUDA_HOST_RUN_FAULT=barrier|shuffle breaks the runner on purpose, for the
/// tests that show a broken runner fails them (test/CUDA/runner_faults.cu).
bool faultInjected(const char *What) {
  static const char *Fault = getenv("CUDA_HOST_RUN_FAULT");
  return Fault && strcmp(Fault, What) == 0;
}

bool yieldAtStores() {
  static bool Enabled = [] {
    const char *Env = getenv("CUDA_HOST_RUN_YIELD");
    return !Env || strcmp(Env, "0") != 0;
  }();
  return Enabled;
}

[[noreturn]] void fatal(const char *Message) {
  fprintf(stderr, "cuda-host-run: kernel %s, block (%u,%u,%u): %s\n",
          Active->Kernel, Active->BlockIdx.X, Active->BlockIdx.Y,
          Active->BlockIdx.Z, Message);
  exit(70);
}

/// Stacks are mapped once and reused by every block; the page below each
/// one is a guard, so an overflow faults instead of corrupting a neighbour.
char *stackFor(size_t Index) {
  const size_t Page = 4096;
  while (StackPool.size() <= Index) {
    size_t Bytes = stackBytes() + Page;
    void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED) {
      perror("cuda-host-run: mmap of a thread stack");
      exit(70);
    }
    mprotect(P, Page, PROT_NONE);
    char *Stack = static_cast<char *>(P) + Page;
    // Under valgrind, a switch to this stack is a thread's switch, not an
    // overflow of the current stack.
    (void)VALGRIND_STACK_REGISTER(Stack, Stack + stackBytes());
    StackPool.push_back(Stack);
  }
  return StackPool[Index];
}

void switchToScheduler() {
  Fiber *F = Active->Current;
  cudahost_switch(&F->Sp, Active->SchedulerSp);
}

void releaseBarrierIfComplete() {
  Launch &L = *Active;
  if (L.AtBarrier == 0 || L.AtBarrier < L.Live)
    return;
  uint32_t Count = 0;
  for (Fiber &F : L.Fibers)
    if (F.State == FiberState::AtBarrier)
      Count += F.Value != 0;
  for (Fiber &F : L.Fibers) {
    if (F.State != FiberState::AtBarrier)
      continue;
    F.State = FiberState::Runnable;
    switch (F.Mode) {
    case CUDAHOST_RED_POPC:
      F.Result = Count;
      break;
    case CUDAHOST_RED_AND:
      F.Result = Count == L.AtBarrier;
      break;
    default:
      F.Result = Count != 0;
    }
  }
  L.AtBarrier = 0;
}

/// The result of lane Self's shuffle, per PTX's shfl.sync: the source
/// lane, clamped to Self's segment; bit 32 says the source was in range.
uint64_t shuffleResult(Fiber *Lanes, uint32_t Group, unsigned Self) {
  const Fiber &F = Lanes[Self];
  uint32_t SegMask = (F.Clamp >> 8) & 31, C = F.Clamp & 31, B = F.Lane & 31;
  uint32_t MaxLane = (Self & SegMask) | (C & ~SegMask);
  uint32_t MinLane = Self & SegMask;
  int J;
  bool InRange;
  switch (F.Mode) {
  case CUDAHOST_SHFL_UP:
    J = int(Self) - int(B);
    InRange = J >= int(MaxLane);
    break;
  case CUDAHOST_SHFL_DOWN:
    J = Self + B;
    InRange = J <= int(MaxLane);
    break;
  case CUDAHOST_SHFL_BFLY:
    J = Self ^ B;
    InRange = J <= int(MaxLane);
    break;
  default:
    J = MinLane | (B & ~SegMask);
    InRange = J <= int(MaxLane);
  }
  if (!InRange)
    J = Self;
  // A source lane outside the exchange gives an undefined value on a GPU;
  // here the lane's own.
  uint32_t Value = Group >> J & 1 ? Lanes[J].Value : F.Value;
  return Value | uint64_t(InRange) << 32;
}

uint32_t voteResult(Fiber *Lanes, uint32_t Group, unsigned Self) {
  uint32_t Ballot = 0;
  for (unsigned I = 0; I < 32; ++I)
    if (Group >> I & 1 && Lanes[I].Value)
      Ballot |= 1u << I;
  switch (Lanes[Self].Mode) {
  case CUDAHOST_VOTE_ALL:
    return Ballot == Group;
  case CUDAHOST_VOTE_ANY:
    return Ballot != 0;
  case CUDAHOST_VOTE_UNI:
    return Ballot == 0 || Ballot == Group;
  default:
    return Ballot & Lanes[Self].Mask;
  }
}

/// Completes every group of lanes of warp W whose members have all arrived.
void completeWarpOps(unsigned W) {
  Launch &L = *Active;
  Warp &Wp = L.Warps[W];
  Fiber *Lanes = &L.Fibers[size_t(W) * 32];
  for (unsigned I = 0; I < 32; ++I) {
    if (!(Wp.Arrived >> I & 1))
      continue;
    uint32_t Group = (Lanes[I].Mask & Wp.Live) | 1u << I;
    if (Group & ~Wp.Arrived)
      continue;
    for (unsigned J = 0; J < 32; ++J)
      if (Group >> J & 1 && Lanes[J].Op != Lanes[I].Op)
        fatal("the lanes of a warp met different warp operations (a shuffle, "
              "a vote or __syncwarp) with the same mask");
    for (unsigned J = 0; J < 32; ++J) {
      if (!(Group >> J & 1))
        continue;
      if (Lanes[J].Op == WarpOp::Shuffle)
        Lanes[J].Result = shuffleResult(Lanes, Group, J);
      else if (Lanes[J].Op == WarpOp::Vote)
        Lanes[J].Result = voteResult(Lanes, Group, J);
    }
    for (unsigned J = 0; J < 32; ++J)
      if (Group >> J & 1)
        Lanes[J].State = FiberState::Runnable;
    Wp.Arrived &= ~Group;
  }
}

uint64_t warpOp(WarpOp Op, uint32_t Mode, uint32_t Mask, uint32_t Value,
                uint32_t Lane, uint32_t Clamp) {
  Fiber &F = *Active->Current;
  F.Op = Op;
  F.Mode = Mode;
  F.Mask = Mask;
  F.Value = Value;
  F.Lane = Lane;
  F.Clamp = Clamp;
  F.State = FiberState::AtWarp;
  unsigned W = F.Regs[CUDAHOST_WARPID];
  Active->Warps[W].Arrived |= 1u << F.Regs[CUDAHOST_LANEID];
  completeWarpOps(W);
  switchToScheduler();
  return F.Result;
}

void fiberMain(void *) {
  Launch &L = *Active;
  L.Entry(L.Args);
  Fiber &F = *L.Current;
  F.State = FiberState::Exited;
  --L.Live;
  unsigned W = F.Regs[CUDAHOST_WARPID];
  L.Warps[W].Live &= ~(1u << F.Regs[CUDAHOST_LANEID]);
  releaseBarrierIfComplete();
  completeWarpOps(W);
  switchToScheduler();
  __builtin_unreachable();
}

/// A fresh context on stack Stack whose first resumption calls fiberMain
/// (the frame cudahost_switch pops, Switch.S).
void *initialContext(char *Stack) {
  uintptr_t Top = (uintptr_t(Stack) + stackBytes()) & ~uintptr_t(15);
  uint64_t *Sp = reinterpret_cast<uint64_t *>(Top) - 8;
  Sp[0] = 0x1f80 | uint64_t(0x037f) << 32; // default MXCSR, x87 control word
  Sp[1] = Sp[2] = Sp[3] = 0;               // r15, r14, r13
  Sp[4] = uint64_t(&fiberMain);            // r12
  Sp[5] = 0;                               // rbx: fiberMain's argument
  Sp[6] = 0;                               // rbp
  Sp[7] = uint64_t(&cudahost_fiber_start);
  return Sp;
}

void setRegisters(Fiber &F, size_t Linear, Dim3 Block, Dim3 Grid,
                  Dim3 BlockIdx) {
  uint32_t *R = F.Regs;
  R[CUDAHOST_TID_X] = Linear % Block.X;
  R[CUDAHOST_TID_Y] = Linear / Block.X % Block.Y;
  R[CUDAHOST_TID_Z] = Linear / (size_t(Block.X) * Block.Y);
  R[CUDAHOST_NTID_X] = Block.X;
  R[CUDAHOST_NTID_Y] = Block.Y;
  R[CUDAHOST_NTID_Z] = Block.Z;
  R[CUDAHOST_CTAID_X] = BlockIdx.X;
  R[CUDAHOST_CTAID_Y] = BlockIdx.Y;
  R[CUDAHOST_CTAID_Z] = BlockIdx.Z;
  R[CUDAHOST_NCTAID_X] = Grid.X;
  R[CUDAHOST_NCTAID_Y] = Grid.Y;
  R[CUDAHOST_NCTAID_Z] = Grid.Z;
  uint32_t Lane = Linear % 32;
  R[CUDAHOST_LANEID] = Lane;
  R[CUDAHOST_WARPID] = Linear / 32;
  R[CUDAHOST_NWARPID] = (Block.count() + 31) / 32;
  R[CUDAHOST_LANEMASK_EQ] = 1u << Lane;
  R[CUDAHOST_LANEMASK_LT] = (1u << Lane) - 1;
  R[CUDAHOST_LANEMASK_LE] = R[CUDAHOST_LANEMASK_LT] | 1u << Lane;
  R[CUDAHOST_LANEMASK_GE] = ~R[CUDAHOST_LANEMASK_LT];
  R[CUDAHOST_LANEMASK_GT] = ~R[CUDAHOST_LANEMASK_LE];
}

[[noreturn]] void reportDeadlock() {
  Launch &L = *Active;
  size_t AtWarp = 0;
  for (Fiber &F : L.Fibers)
    AtWarp += F.State == FiberState::AtWarp;
  char Message[256];
  snprintf(Message, sizeof Message,
           "deadlock: %zu threads wait at a barrier and %zu at a warp "
           "operation, %zu have exited (a barrier or warp operation that not "
           "every thread it names reaches)",
           L.AtBarrier, AtWarp, L.Fibers.size() - L.Live);
  fatal(Message);
}

void runBlock(Launch &L, Dim3 Grid, Dim3 Block) {
  size_t N = Block.count();
  L.Live = N;
  L.AtBarrier = 0;
  for (size_t I = 0; I < N; ++I) {
    Fiber &F = L.Fibers[I];
    F.Stack = stackFor(I);
    F.Sp = initialContext(F.Stack);
    F.State = FiberState::Runnable;
    setRegisters(F, I, Block, Grid, L.BlockIdx);
  }
  for (size_t W = 0; W < L.Warps.size(); ++W) {
    size_t Lanes = N - W * 32 < 32 ? N - W * 32 : 32;
    L.Warps[W].Live = Lanes == 32 ? ~0u : (1u << Lanes) - 1;
    L.Warps[W].Arrived = 0;
  }
  while (L.Live > 0) {
    bool Ran = false;
    for (Fiber &F : L.Fibers) {
      if (F.State != FiberState::Runnable)
        continue;
      L.Current = &F;
      __cudahost_current = F.Regs;
      cudahost_switch(&L.SchedulerSp, F.Sp);
      Ran = true;
    }
    if (!Ran && L.Live > 0)
      reportDeadlock();
  }
}

} // namespace

void registerSharedArray(void *Storage, size_t Bytes) {
  sharedArrays().push_back({Storage, Bytes});
}

void runGrid(CudaHostKernelEntry Entry, const char *Kernel, Dim3 Grid,
             Dim3 Block, size_t SharedBytes, void **Args) {
  Launch L;
  L.Entry = Entry;
  L.Args = Args;
  L.Kernel = Kernel;
  L.Fibers.resize(Block.count());
  L.Warps.resize((Block.count() + 31) / 32);
  Active = &L;
  for (unsigned Z = 0; Z < Grid.Z; ++Z)
    for (unsigned Y = 0; Y < Grid.Y; ++Y)
      for (unsigned X = 0; X < Grid.X; ++X) {
        // Shared memory is undefined when a block starts: NaN-filled here,
        // so a kernel that reads it before writing it shows.
        for (auto [Storage, Bytes] : sharedArrays())
          memset(Storage, 0xff, Bytes);
        memset(__cudahost_dynamic_shared, 0xff, SharedBytes);
        L.BlockIdx = {X, Y, Z};
        runBlock(L, Grid, Block);
      }
  Active = nullptr;
  __cudahost_current = nullptr;
}

} // namespace cudahost

using namespace cudahost;

extern "C" {

void __cudahost_barrier(void) { __cudahost_barrier_reduce(CUDAHOST_RED_OR, 0); }

void __cudahost_barrier_count(uint32_t Count) {
  if (Count != Active->Fibers.size())
    fatal("a barrier for fewer threads than the block has (bar.sync with a "
          "count) is not supported");
  __cudahost_barrier();
}

uint32_t __cudahost_barrier_reduce(uint32_t Reduction, uint32_t Predicate) {
  if (faultInjected("barrier"))
    return 0;
  Fiber &F = *Active->Current;
  F.Mode = Reduction;
  F.Value = Predicate;
  F.State = FiberState::AtBarrier;
  ++Active->AtBarrier;
  releaseBarrierIfComplete();
  switchToScheduler();
  return uint32_t(F.Result);
}

void __cudahost_syncwarp(uint32_t Mask) {
  warpOp(WarpOp::Sync, 0, Mask, 0, 0, 0);
}

uint64_t __cudahost_shfl(uint32_t Mode, uint32_t Mask, uint32_t Value,
                         uint32_t Lane, uint32_t Clamp) {
  if (faultInjected("shuffle"))
    return Value;
  return warpOp(WarpOp::Shuffle, Mode, Mask, Value, Lane, Clamp);
}

uint32_t __cudahost_vote(uint32_t Mode, uint32_t Mask, uint32_t Predicate) {
  return uint32_t(warpOp(WarpOp::Vote, Mode, Mask, Predicate != 0, 0, 0));
}

uint32_t __cudahost_activemask(void) {
  Fiber &F = *Active->Current;
  return Active->Warps[F.Regs[CUDAHOST_WARPID]].Live;
}

void __cudahost_yield(void) {
  if (yieldAtStores())
    switchToScheduler();
}

} // extern "C"
