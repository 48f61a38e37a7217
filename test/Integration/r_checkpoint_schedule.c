// Works (keep it working): the run-time checkpoint scheduler
// (plugin/runtime/checkpoint/CheckpointSchedule.c), driven without the
// plugin by a toy loop: a few doubles in two buffers that the steps swap (a
// chaotic map, so a state restored wrong shows in every later step), the
// buffer pointers and a step counter in a small struct that is part of the
// state. The loop names overlapping ranges, which must be saved once. The
// reverse callback checks that it is called once per step, last step first,
// each time with the memory exactly in the state before that step (against
// states from a plain run), and that the memory is the final state after
// the reverse. Known and unknown trip counts (a while loop), 1 to 1000
// steps, under budgets from none to all states: all-states, binomial and
// online schedules. The AD_TAPE_REPORT line of each case (captured) must
// count the steps run again as the loop saw them, keep the peak within the
// budget plus two snapshots, and for the binomial schedule rerun each step
// at most r times, C(s + r, s) >= n for s snapshots, and run no more steps
// again than the fewest, r n - C(s + r, s + 1) (exactly so where no undo
// records fit). A counted loop's advance says it ends after every step: the
// scheduler must not read it. AD_TAPE_BUDGET's suffixes and invalid text
// are read as documented. One report goes to FileCheck. %run (valgrind)
// sees no leak and no invalid access. Run the program with -v to see every
// case's report.
// RUN: clang-22 -O1 -Wall -Wextra -Werror %s %src/plugin/runtime/checkpoint/CheckpointSchedule.c -I%src/plugin/runtime/checkpoint -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// CHECK: ad: checkpointed toy: a loop: 1000 steps, schedule binomial, {{[0-9]+}} snapshots of 88 bytes, {{[0-9]+}} undo records of 56 bytes, {{[0-9]+}} steps recomputed, peak {{[0-9]+}} bytes, budget 880 bytes
// CHECK-NOT: {{.}}
#include "CheckpointSchedule.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { WIDTH = 4, MAX_STEPS = 1000 };

/* What the steps read and write. The struct is in the state: a step swaps
   the buffer pointers and counts itself. */
typedef struct {
  double buffers[2][WIDTH];
  struct {
    double *read, *write;
    int64_t steps_done;
  } cursor;
} toy_memory;

/* The bytes a snapshot and an undo record save. */
#define SNAPSHOT_BYTES ((uint64_t)sizeof(toy_memory))
#define UNDO_BYTES ((uint64_t)(WIDTH * sizeof(double) + 3 * 8))

typedef struct {
  toy_memory *memory;
  int64_t steps;
  int known;
  toy_memory *states; /* states[k]: the memory after k steps */
  int reversing;
  uint64_t advances, recomputed;
  int64_t next_reversal;
} toy;

static int failures;

/* To stdout: stderr is where the scheduler's report is captured. */
#define FAIL(...)                                                              \
  do {                                                                         \
    printf("FAIL %s:%d: ", __FILE__, __LINE__);                                \
    printf(__VA_ARGS__);                                                       \
    printf("\n");                                                              \
    fflush(stdout);                                                            \
    failures++;                                                                \
  } while (0)

static void step(toy_memory *m) {
  for (int i = 0; i < WIDTH; i++) {
    double y = 0.75 * m->cursor.read[i] + 0.25 * m->cursor.read[(i + 1) % WIDTH];
    m->cursor.write[i] = 3.7 * y * (1 - y);
  }
  double *t = m->cursor.read;
  m->cursor.read = m->cursor.write;
  m->cursor.write = t;
  m->cursor.steps_done++;
}

static int64_t toy_advance(void *env) {
  toy *t = env;
  step(t->memory);
  t->advances++;
  if (t->reversing)
    t->recomputed++;
  /* A counted loop's answer is not read: 0 makes sure of it. */
  return !t->known && t->memory->cursor.steps_done < t->steps;
}

static void toy_reverse(void *env) {
  toy *t = env;
  int64_t k = t->next_reversal--;
  if (k < 0) {
    FAIL("a step reversed after step 0");
  } else if (t->memory->cursor.steps_done != k) {
    FAIL("step %lld reversed when step %lld is due",
         (long long)t->memory->cursor.steps_done, (long long)k);
  } else if (memcmp(t->memory, &t->states[k], sizeof(toy_memory))) {
    FAIL("step %lld reversed from a state other than the one before it",
         (long long)k);
  }
  step(t->memory);
}

/* Overlapping ranges on purpose (and an empty one): merged, the snapshot
   is the two buffers and the cursor, the undo record the buffer the next
   step writes and the cursor. */
static uint64_t toy_ranges(void *env, int64_t whole, __ad_ckpt_range *out) {
  toy_memory *m = ((toy *)env)->memory;
  uint64_t n = 0;
  out[n++] = (__ad_ckpt_range){&m->cursor, sizeof m->cursor};
  if (whole) {
    out[n++] = (__ad_ckpt_range){m->buffers[1], sizeof m->buffers[1]};
    out[n++] = (__ad_ckpt_range){&m->buffers[0][2], 4 * sizeof(double)};
    out[n++] = (__ad_ckpt_range){m->buffers[0], sizeof m->buffers[0]};
  } else {
    out[n++] = (__ad_ckpt_range){m->cursor.write + 1, 2 * sizeof(double)};
    out[n++] = (__ad_ckpt_range){m->cursor.write, WIDTH * sizeof(double)};
  }
  out[n++] = (__ad_ckpt_range){&m->cursor.steps_done, 8};
  out[n++] = (__ad_ckpt_range){m->buffers[0], 0};
  return n;
}

static void initial_state(toy_memory *m) {
  for (int i = 0; i < WIDTH; i++) {
    m->buffers[0][i] = 0.1 + 0.2 * i;
    m->buffers[1][i] = -1;
  }
  m->cursor.read = m->buffers[0];
  m->cursor.write = m->buffers[1];
  m->cursor.steps_done = 0;
}

/* C(s + r, s): the most steps s snapshots reverse running no step more
   than r times again. */
static uint64_t beta(uint64_t s, uint64_t r) {
  uint64_t c = 1;
  for (uint64_t i = 1; i <= r; i++)
    c = c * (s + i) / i;
  return c;
}

/* The least r with beta(s, r) >= n. */
static uint64_t repetitions(uint64_t s, uint64_t n) {
  uint64_t r = 0;
  while (beta(s, r) < n)
    r++;
  return r;
}

/* The fewest steps run again to reverse n steps from s snapshots (Griewank
   and Walther), with no undo records. */
static uint64_t fewest_recomputed(uint64_t s, uint64_t n) {
  uint64_t r = repetitions(s, n);
  return r * n - (r ? beta(s + 1, r - 1) : 0);
}

typedef struct {
  unsigned long long steps, snapshots, snapshot_bytes, undo, undo_bytes,
      recomputed, peak, budget;
  char schedule[32];
} report_line;

static int parse_report(const char *line, report_line *r) {
  return sscanf(line,
                "ad: checkpointed toy: a loop: %llu steps, schedule %31[a-z-], "
                "%llu snapshots of %llu bytes, %llu undo records of %llu "
                "bytes, %llu steps recomputed, peak %llu bytes, budget %llu "
                "bytes",
                &r->steps, r->schedule, &r->snapshots, &r->snapshot_bytes,
                &r->undo, &r->undo_bytes, &r->recomputed, &r->peak,
                &r->budget) == 9;
}

static int verbose;

/* Runs the loop of n steps under the scheduler with AD_TAPE_BUDGET =
   budget_text (unset when NULL), expecting a budget of `budget` bytes.
   Captures the report unless `shown`. */
static void check(toy_memory *memory, toy_memory *states, int64_t n,
                  int known, const char *budget_text, uint64_t budget,
                  int shown) {
  char label[96];
  snprintf(label, sizeof label, "%lld steps, %s, budget \"%s\"", (long long)n,
           known ? "known" : "unknown", budget_text ? budget_text : "(unset)");
  if (budget_text)
    setenv("AD_TAPE_BUDGET", budget_text, 1);
  else
    unsetenv("AD_TAPE_BUDGET");
  setenv("AD_TAPE_REPORT", "1", 1);

  toy t = {memory, n, known, states, 0, 0, 0, n - 1};
  __ad_ckpt_loop loop = {.name = "toy: a loop",
                         .env = &t,
                         .advance = toy_advance,
                         .reverse = toy_reverse,
                         .ranges = toy_ranges,
                         .max_ranges = 8,
                         .trip_count = known ? n : -1,
                         .default_budget = 600};
  *memory = states[0];
  void *handle = __ad_ckpt_forward(&loop);
  if (t.advances != (uint64_t)n)
    FAIL("%s: %llu steps run forward", label, (unsigned long long)t.advances);
  if (memcmp(memory, &states[n], sizeof *memory))
    FAIL("%s: not the final state after the forward", label);

  t.reversing = 1;
  FILE *captured = NULL;
  int saved_stderr = -1;
  if (!shown) {
    captured = tmpfile();
    fflush(stderr);
    saved_stderr = dup(2);
    if (!captured || saved_stderr < 0 || dup2(fileno(captured), 2) < 0) {
      fprintf(stderr, "cannot capture stderr\n");
      exit(2);
    }
  }
  __ad_ckpt_reverse(handle);
  if (!shown) {
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
  }

  if (t.next_reversal != -1)
    FAIL("%s: steps from %lld down not reversed", label,
         (long long)t.next_reversal);
  if (memcmp(memory, &states[n], sizeof *memory))
    FAIL("%s: not the final state after the reverse", label);
  if (shown)
    return;

  char line[512] = "";
  rewind(captured);
  if (!fgets(line, sizeof line, captured))
    line[0] = 0;
  char extra[8];
  if (fgets(extra, sizeof extra, captured))
    FAIL("%s: more than one report line", label);
  fclose(captured);
  if (verbose)
    printf("%-40s %s", label, line);
  report_line r;
  if (!parse_report(line, &r)) {
    FAIL("%s: report not as documented: %s", label, line);
    return;
  }

  const uint64_t W = SNAPSHOT_BYTES, U = UNDO_BYTES, N = (uint64_t)n;
  const int all_states = N * U + 3 * W <= budget;
  const char *schedule =
      all_states ? "all-states" : known ? "binomial" : "online";
  uint64_t slots =
      budget / 2 > W && (budget - 2 * W) / W ? (budget - 2 * W) / W : 1;
  if (strcmp(r.schedule, schedule))
    FAIL("%s: schedule %s, want %s", label, r.schedule, schedule);
  if (r.steps != N || r.snapshot_bytes != W || r.undo_bytes != U ||
      r.budget != budget)
    FAIL("%s: report of %llu steps, %llu and %llu bytes, budget %llu", label,
         r.steps, r.snapshot_bytes, r.undo_bytes, r.budget);
  if (r.recomputed != t.recomputed)
    FAIL("%s: %llu steps recomputed reported, %llu seen", label, r.recomputed,
         (unsigned long long)t.recomputed);
  /* The initial and final snapshots and the memory as the reverse finds
     it are kept whatever the budget; online keeps at least one more. */
  uint64_t least = known ? 3 * W : 4 * W;
  uint64_t allowed = budget + 2 * W > least ? budget + 2 * W : least;
  if (r.peak > allowed)
    FAIL("%s: peak %llu bytes, more than %llu", label, r.peak,
         (unsigned long long)allowed);
  if (all_states) {
    if (r.recomputed || r.undo != N || r.snapshots != 3)
      FAIL("%s: all states with %llu recomputed, %llu records, %llu "
           "snapshots",
           label, r.recomputed, r.undo, r.snapshots);
  } else if (known) {
    uint64_t s = slots < N ? slots : N;
    uint64_t bound = N * repetitions(s, N);
    if (r.recomputed > bound || r.snapshots > s + 2)
      FAIL("%s: binomial with %llu recomputed (at most %llu), %llu "
           "snapshots (at most %llu)",
           label, r.recomputed, (unsigned long long)bound, r.snapshots,
           (unsigned long long)(s + 2));
    /* Treeverse alone runs the fewest steps again; a stretch reversed with
       undo records runs its steps but the last once, no more than that. */
    uint64_t fewest = fewest_recomputed(s, N);
    if (budget < 2 * W + 2 * U ? r.recomputed != fewest
                               : r.recomputed > fewest)
      FAIL("%s: binomial with %llu recomputed, the fewest %llu", label,
           r.recomputed, (unsigned long long)fewest);
  } else {
    uint64_t s = slots > 2 ? slots : 2;
    if (r.recomputed > N * (N - 1) / 2 || r.snapshots > s + 2)
      FAIL("%s: online with %llu recomputed, %llu snapshots", label,
           r.recomputed, r.snapshots);
  }
}

int main(int argc, char **argv) {
  verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
  toy_memory *memory = malloc(sizeof *memory);
  toy_memory *states = malloc((MAX_STEPS + 1) * sizeof *states);
  if (!memory || !states)
    return 2;
  initial_state(memory);
  for (int k = 0; k <= MAX_STEPS; k++) {
    states[k] = *memory;
    step(memory);
  }

  const uint64_t W = SNAPSHOT_BYTES;
  const int64_t lengths[] = {1, 2, 3, 7, 100, 1000};
  /* All states for every length; 10, 4 and 3 snapshots; less than two
     snapshots, less than one, nothing. */
  const uint64_t budgets[] = {1 << 20, 10 * W, 4 * W, 3 * W,
                              W + W / 2, W / 2, 0};
  for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++) {
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)budgets[b]);
    for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++)
      for (int known = 0; known < 2; known++)
        check(memory, states, lengths[i], known, text, budgets[b], 0);
  }

  /* How AD_TAPE_BUDGET reads; the default (600) for what it cannot. */
  const struct {
    const char *text;
    uint64_t bytes;
  } texts[] = {{"1M", 1 << 20},    {"1MiB", 1 << 20}, {"1mb", 600},
               {"1mB", 1 << 20},   {"2k", 2048},      {"2KB", 2048},
               {"1G", 1ull << 30}, {"1g", 1ull << 30}, {"700B", 700},
               {"12X", 600},       {"", 600},         {"-5", 600},
               {" 5", 600},        {"5 ", 600},       {"K", 600},
               {"99999999999999999999", 600},         {"17179869184G", 600}};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
    check(memory, states, 100, 1, texts[i].text, texts[i].bytes, 0);
  check(memory, states, 100, 0, NULL, 600, 0);

  /* The report FileCheck reads. */
  char ten[32];
  snprintf(ten, sizeof ten, "%llu", (unsigned long long)(10 * W));
  check(memory, states, 1000, 1, ten, 10 * W, 1);

  free(memory);
  free(states);
  return failures != 0;
}
