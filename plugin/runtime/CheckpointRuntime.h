//===- CheckpointRuntime.h - The checkpointing scheduler, linked in -------===//
//
// The run-time schedule of checkpointed loops (binomial, online, all
// states; checkpoint/CheckpointSchedule.c) is C, compiled to bitcode when
// the plugin is built and embedded in it. A module whose gradient
// checkpoints a loop gets a copy linked in, internal to it: the program
// still links with nothing but the C library.
//
//===----------------------------------------------------------------------===//
#ifndef AD_RUNTIME_CHECKPOINTRUNTIME_H
#define AD_RUNTIME_CHECKPOINTRUNTIME_H

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace ad {

struct CheckpointScheduler {
  /// void *__ad_ckpt_forward(__ad_ckpt_loop *)
  llvm::Function *Forward;
  /// void __ad_ckpt_reverse(void *handle)
  llvm::Function *Reverse;
};

/// Links the scheduler into \p M (once) and returns its entry points.
CheckpointScheduler linkCheckpointScheduler(llvm::Module &M);

} // namespace ad

#endif
