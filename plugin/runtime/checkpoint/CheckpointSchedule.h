/*===- CheckpointSchedule.h - Run-time checkpointing of a time loop -------===*
 *
 * The contract between the IR the plugin emits for a checkpointed loop
 * (plugin/modes/CheckpointBuilder.cpp) and the scheduler
 * (CheckpointSchedule.c). The scheduler is C compiled to bitcode when the
 * plugin is built and linked into a module that needs it (internal to the
 * module): a program built with the plugin still links with nothing else.
 *
 * A loop is a sequence of steps. The plugin outlines one step and gives the
 * scheduler three callbacks on it; the scheduler decides, at run time and
 * under the tape budget, which states to keep (snapshots) and which steps to
 * run again, and reverses the steps in reverse order.
 *
 * The layout is mirrored by the plugin (every field 8 bytes): keep them in
 * step.
 *===----------------------------------------------------------------------===*/
#ifndef AD_CHECKPOINT_SCHEDULE_H
#define AD_CHECKPOINT_SCHEDULE_H

#include <stdint.h>

/* Bytes [addr, addr + len) of memory. */
typedef struct {
  void *addr;
  uint64_t len;
} __ad_ckpt_range;

typedef struct {
  /* What the run-time report calls the loop: "f: loop at file.c:12". */
  const char *name;
  /* Handed to the callbacks. */
  void *env;
  /* Runs one step of the primal from the memory as it is; nonzero when the
     loop goes on after this step (a step exists after it). */
  int64_t (*advance)(void *env);
  /* Runs one step, recording it, then its adjoint, from the memory as it
     is: adds the step's adjoints. Leaves the memory as the step leaves it. */
  void (*reverse)(void *env);
  /* Writes into out (room for max_ranges) the ranges of memory a state of
     the loop is made of, and returns how many. whole == 0: what the next
     step may write, read at the current state (an undo record: restoring
     it after the step gives the state before it back). whole == 1: all the
     loop may write in any of its steps (a snapshot: restoring it at any
     later state gives this state back). Ranges may overlap. */
  uint64_t (*ranges)(void *env, int64_t whole, __ad_ckpt_range *out);
  uint64_t max_ranges;
  /* Steps the loop runs, when known as it starts; -1 when only its exit
     tells (a while loop). At least 1 when known. */
  int64_t trip_count;
  /* The budget compiled in (-mllvm -ad-tape-budget), bytes; AD_TAPE_BUDGET
     read at run time overrides it. */
  uint64_t default_budget;
} __ad_ckpt_loop;

/* Runs the loop forward from the memory as it is (its first step is due),
   keeping what the reverse needs; the memory is left as the loop leaves it.
   Returns a handle for __ad_ckpt_reverse. *loop must stay valid until then. */
void *__ad_ckpt_forward(__ad_ckpt_loop *loop);

/* Calls loop->reverse once for every step, last step first, each from the
   memory state that step started from; then leaves the memory as the loop
   left it (as after __ad_ckpt_forward) and frees the handle. */
void __ad_ckpt_reverse(void *handle);

#endif
