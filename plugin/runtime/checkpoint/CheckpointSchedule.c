/*===- CheckpointSchedule.c - Run-time checkpointing of a time loop -------===*
 *
 * The reverse of a loop needs every step's input state, last step first.
 * Keeping them all can take far more memory than the tape budget (a time
 * loop of many steps over a large state), and whether to keep or to run
 * steps again depends on the number of steps and on the state's size, often
 * known only once the loop starts. So the plugin hands the loop to this
 * scheduler, which chooses at run time, under the budget (AD_TAPE_BUDGET,
 * else the one compiled in), among three schedules:
 *
 *  - all states: an undo record per step (what the step writes, saved
 *    before it) fits, and nothing runs twice. A loop whose length only its
 *    exit tells starts so, and turns online when the records outgrow the
 *    budget.
 *  - binomial (revolve, Griewank's treeverse): the trip count is known and
 *    the records do not fit. The forward keeps the initial state only; the
 *    reverse places its s snapshots where the binomial rule says, so that
 *    no step runs again more than r times, r the least with
 *    C(s + r, s) >= n, and the steps run again number the fewest that s
 *    snapshots allow, r n - C(s + r, s + 1). Stretches whose undo records
 *    fit in what the snapshots leave of the budget take them instead: no
 *    more steps, fewer bytes copied.
 *  - online: the trip count is unknown and the records do not fit.
 *    Snapshots are kept every d steps; when the slots run out every other
 *    one is dropped and d doubled, so that they stay evenly spread over
 *    however many steps the loop runs. Each stretch between two of them is
 *    reversed as the binomial schedule reverses its steps.
 *
 * Memory is saved as records: the ranges the loop names, sorted, then the
 * overlapping ones merged (so bytes that two ranges share are saved and
 * restored once), then their bytes. Ranges that only touch stay apart:
 * they may be two objects, and one copy across both would reach outside
 * the object its address came from once this file is part of the user's
 * module. The budget counts the bytes saved, not the bookkeeping around
 * them. The scheduler knows which state the memory is in and restores a
 * state only when the memory is not in it already.
 *
 * A budget below three snapshots still works: the initial state, the
 * final one (the reverse starts from it) and the memory as the reverse
 * finds it (put back after it: what ran after the loop may have changed
 * it) are always kept, and the steps then run again from the start.
 *
 * This file is compiled to bitcode and linked, internal, into each module
 * that checkpoints a loop: it uses libc only and keeps no global state, and
 * nothing in it recurses (the binomial reverse keeps its pending stretches
 * in a heap array, as deep as the snapshots it holds, which for a small
 * state may number millions). Running out of memory aborts, as the tape's
 * growth does.
 *===----------------------------------------------------------------------===*/
#include "CheckpointSchedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Saved memory: count disjoint ranges sorted by address, then their bytes
   one after the other. */
typedef struct {
  uint64_t count;
  uint64_t bytes;
  int64_t whole; /* a snapshot (1) or an undo record (0) */
  __ad_ckpt_range ranges[];
} ckpt_record;

typedef struct {
  ckpt_record **items;
  uint64_t count, capacity;
} ckpt_record_list;

typedef enum {
  SCHEDULE_ALL_STATES,
  SCHEDULE_BINOMIAL,
  SCHEDULE_ONLINE
} ckpt_schedule_kind;

typedef struct {
  __ad_ckpt_loop *loop;
  ckpt_schedule_kind schedule;
  uint64_t steps;
  uint64_t budget;
  /* Measured on the initial state: what one snapshot and one step's undo
     record cost (every step is taken to cost about the same). */
  uint64_t snapshot_bytes, undo_bytes;
  /* Binomial and online: the snapshots that may be held at once, the
     initial one included, the final one not. */
  uint64_t slots;
  /* Online: the steps between two kept snapshots. */
  uint64_t spacing;
  /* Room for loop->max_ranges ranges, where the loop writes them. */
  __ad_ckpt_range *scratch;
  ckpt_record *initial, *final;
  /* Undo records of consecutive steps, the first step's first. */
  ckpt_record_list undo;
  /* Online: the snapshot of state i * spacing at i (the initial at 0). */
  ckpt_record_list spaced;
  /* The state the memory is in: state k is the state after k steps. */
  uint64_t memory_state;
  int reversing;
  /* For the report (AD_TAPE_REPORT). */
  uint64_t held_bytes, peak_bytes;
  uint64_t snapshots_held, most_snapshots;
  uint64_t undo_held, most_undo;
  uint64_t recomputed;
} ckpt_handle;

static _Noreturn void out_of_memory(const __ad_ckpt_loop *loop) {
  fprintf(stderr, "ad: out of memory checkpointing %s\n",
          loop->name ? loop->name : "a loop");
  abort();
}

/*===- Budget -------------------------------------------------------------===*/

/* "123", "64K", "64k", "64KB", "64KiB", "2M", "1G", "100B": bytes, the
   suffixes meaning 2^10, 2^20 and 2^30. Returns 0 for anything else, a
   value too large included. */
static int parse_byte_count(const char *text, uint64_t *bytes) {
  const char *p = text;
  uint64_t value = 0;
  if (*p < '0' || *p > '9')
    return 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    uint64_t digit = (uint64_t)(*p - '0');
    if (value > (UINT64_MAX - digit) / 10)
      return 0;
    value = value * 10 + digit;
  }
  unsigned shift = 0;
  switch (*p) {
  case 'k':
  case 'K':
    shift = 10;
    break;
  case 'm':
  case 'M':
    shift = 20;
    break;
  case 'g':
  case 'G':
    shift = 30;
    break;
  default:
    break;
  }
  if (shift) {
    p++;
    if (p[0] == 'i' && p[1] == 'B')
      p += 2;
    else if (p[0] == 'B')
      p++;
  } else if (p[0] == 'B') {
    p++;
  }
  if (*p || value > UINT64_MAX >> shift)
    return 0;
  *bytes = value << shift;
  return 1;
}

static uint64_t read_budget(const __ad_ckpt_loop *loop) {
  const char *text = getenv("AD_TAPE_BUDGET");
  uint64_t bytes;
  if (text && parse_byte_count(text, &bytes))
    return bytes;
  return loop->default_budget;
}

/* How many snapshots fit in the budget once two are set aside (the final
   state, and the memory as the reverse finds it): at least one (the
   initial state is always kept). */
static uint64_t snapshot_slots(uint64_t budget, uint64_t snapshot_bytes) {
  if (snapshot_bytes == 0)
    return UINT64_MAX;
  if (budget / 2 <= snapshot_bytes)
    return 1;
  uint64_t slots = (budget - 2 * snapshot_bytes) / snapshot_bytes;
  return slots ? slots : 1;
}

/* Whether undo records for `steps` more steps fit beside what is held. */
static int undo_records_fit(const ckpt_handle *h, uint64_t steps) {
  if (h->held_bytes > h->budget)
    return steps == 0 || h->undo_bytes == 0;
  uint64_t left = h->budget - h->held_bytes;
  return h->undo_bytes == 0 || steps <= left / h->undo_bytes;
}

/*===- Records ------------------------------------------------------------===*/

static uintptr_t range_start(const __ad_ckpt_range *range) {
  return (uintptr_t)range->addr;
}

static void swap_ranges(__ad_ckpt_range *a, __ad_ckpt_range *b) {
  __ad_ckpt_range t = *a;
  *a = *b;
  *b = t;
}

/* Heapsort: no recursion and no quadratic case, whatever the loop names. */
static void sift_down(__ad_ckpt_range *ranges, uint64_t root,
                      uint64_t count) {
  for (;;) {
    uint64_t child = 2 * root + 1;
    if (child >= count)
      return;
    if (child + 1 < count &&
        range_start(&ranges[child + 1]) > range_start(&ranges[child]))
      child++;
    if (range_start(&ranges[root]) >= range_start(&ranges[child]))
      return;
    swap_ranges(&ranges[root], &ranges[child]);
    root = child;
  }
}

static void sort_by_address(__ad_ckpt_range *ranges, uint64_t count) {
  for (uint64_t root = count / 2; root-- > 0;)
    sift_down(ranges, root, count);
  for (uint64_t end = count; end > 1; end--) {
    swap_ranges(&ranges[0], &ranges[end - 1]);
    sift_down(ranges, 0, end - 1);
  }
}

/* Drops the empty ranges, sorts the others and merges those that overlap
   (they lie in one object: two objects never overlap). Returns how many
   are left. */
static uint64_t merge_overlapping(__ad_ckpt_range *ranges, uint64_t count) {
  uint64_t nonempty = 0;
  for (uint64_t i = 0; i < count; i++)
    if (ranges[i].len)
      ranges[nonempty++] = ranges[i];
  sort_by_address(ranges, nonempty);
  uint64_t merged = 0;
  for (uint64_t i = 0; i < nonempty; i++) {
    uintptr_t start = range_start(&ranges[i]);
    uintptr_t end = start + ranges[i].len;
    if (merged) {
      __ad_ckpt_range *last = &ranges[merged - 1];
      uintptr_t last_end = range_start(last) + last->len;
      if (start < last_end) {
        if (end > last_end)
          last->len = end - range_start(last);
        continue;
      }
    }
    ranges[merged++] = ranges[i];
  }
  return merged;
}

/* Asks the loop for the ranges of its state now (whole: a snapshot's, else
   an undo record's), merged, into h->scratch; returns how many, and in
   *bytes what saving them takes. */
static uint64_t gather_ranges(ckpt_handle *h, int64_t whole,
                              uint64_t *bytes) {
  __ad_ckpt_loop *loop = h->loop;
  uint64_t count = 0;
  if (loop->max_ranges) {
    count = loop->ranges(loop->env, whole, h->scratch);
    if (count == UINT64_MAX) {
      /* The plugin bounded the step's writes assuming narrow index
         arithmetic does not wrap, and here it would: saving too little
         would give wrong derivatives. */
      fprintf(stderr,
              "ad: checkpointing %s: the memory a step writes is not known "
              "(its index arithmetic wraps); rebuild with -mllvm "
              "-ad-checkpoint=false\n",
              loop->name ? loop->name : "a loop");
      abort();
    }
    if (count > loop->max_ranges)
      count = loop->max_ranges;
  }
  count = merge_overlapping(h->scratch, count);
  uint64_t total = 0;
  for (uint64_t i = 0; i < count; i++)
    total += h->scratch[i].len;
  *bytes = total;
  return count;
}

static void note_held(ckpt_handle *h, int64_t whole, uint64_t bytes) {
  h->held_bytes += bytes;
  if (h->held_bytes > h->peak_bytes)
    h->peak_bytes = h->held_bytes;
  if (whole) {
    if (++h->snapshots_held > h->most_snapshots)
      h->most_snapshots = h->snapshots_held;
  } else if (++h->undo_held > h->most_undo) {
    h->most_undo = h->undo_held;
  }
}

/* Saves the bytes of the ranges gather_ranges left in h->scratch. */
static ckpt_record *save_gathered(ckpt_handle *h, int64_t whole,
                                  uint64_t count, uint64_t bytes) {
  uint64_t table = count * sizeof(__ad_ckpt_range);
  uint64_t size = sizeof(ckpt_record) + table;
  if (bytes > SIZE_MAX - size)
    out_of_memory(h->loop);
  ckpt_record *record = malloc((size_t)(size + bytes));
  if (!record)
    out_of_memory(h->loop);
  record->count = count;
  record->bytes = bytes;
  record->whole = whole;
  if (count)
    memcpy(record->ranges, h->scratch, (size_t)table);
  unsigned char *data = (unsigned char *)(record->ranges + count);
  for (uint64_t i = 0; i < count; i++) {
    memcpy(data, record->ranges[i].addr, (size_t)record->ranges[i].len);
    data += record->ranges[i].len;
  }
  note_held(h, whole, bytes);
  return record;
}

static ckpt_record *take_record(ckpt_handle *h, int64_t whole) {
  uint64_t bytes;
  uint64_t count = gather_ranges(h, whole, &bytes);
  return save_gathered(h, whole, count, bytes);
}

/* Writes the saved bytes back where they came from. */
static void apply_record(const ckpt_record *record) {
  const unsigned char *data =
      (const unsigned char *)(record->ranges + record->count);
  for (uint64_t i = 0; i < record->count; i++) {
    memcpy(record->ranges[i].addr, data, (size_t)record->ranges[i].len);
    data += record->ranges[i].len;
  }
}

static void release_record(ckpt_handle *h, ckpt_record *record) {
  if (!record)
    return;
  h->held_bytes -= record->bytes;
  if (record->whole)
    h->snapshots_held--;
  else
    h->undo_held--;
  free(record);
}

static void append_record(ckpt_handle *h, ckpt_record_list *list,
                          ckpt_record *record) {
  if (list->count == list->capacity) {
    uint64_t capacity = list->capacity ? 2 * list->capacity : 16;
    if (capacity > SIZE_MAX / sizeof(ckpt_record *))
      out_of_memory(h->loop);
    ckpt_record **items =
        realloc(list->items, (size_t)capacity * sizeof(ckpt_record *));
    if (!items)
      out_of_memory(h->loop);
    list->items = items;
    list->capacity = capacity;
  }
  list->items[list->count++] = record;
}

static void release_all(ckpt_handle *h, ckpt_record_list *list) {
  for (uint64_t i = 0; i < list->count; i++)
    release_record(h, list->items[i]);
  list->count = 0;
}

/*===- Moving the memory between states -----------------------------------===*/

static int64_t run_step(ckpt_handle *h) {
  int64_t more = h->loop->advance(h->loop->env);
  h->memory_state++;
  if (h->reversing)
    h->recomputed++;
  return more;
}

static void run_steps_to(ckpt_handle *h, uint64_t state) {
  while (h->memory_state < state)
    run_step(h);
}

/* Reverses the step from the state the memory is in, which it leaves in
   the state after the step. */
static void reverse_step(ckpt_handle *h) {
  h->loop->reverse(h->loop->env);
  h->memory_state++;
}

/* Puts the memory in `state`, of which `snapshot` is a snapshot. */
static void restore_state(ckpt_handle *h, const ckpt_record *snapshot,
                          uint64_t state) {
  if (h->memory_state == state)
    return;
  apply_record(snapshot);
  h->memory_state = state;
}

/*===- Reversing stretches of steps ---------------------------------------===*/

/* Steps [from, to) with the memory in state `to` (or `to - 1`) and h->undo
   holding their undo records: each record takes the memory back to the
   state before its step, the step is reversed from there, and the record
   takes it back again, for the step before (not after the first step:
   nothing precedes it). */
static void reverse_with_undo_records(ckpt_handle *h, uint64_t from,
                                      uint64_t to) {
  for (uint64_t step = to; step-- > from;) {
    ckpt_record *record = h->undo.items[step - from];
    if (h->memory_state != step) {
      apply_record(record);
      h->memory_state = step;
    }
    reverse_step(h);
    if (step > from) {
      apply_record(record);
      h->memory_state = step;
    }
    release_record(h, record);
  }
  h->undo.count = 0;
}

/* Steps [from, to) from a snapshot of state `from`, once more forward
   taking undo records (which the budget has room for), then back. The last
   step is not run: reversing it runs it, and its record is taken before. */
static void reverse_recording_undo(ckpt_handle *h, uint64_t from,
                                   uint64_t to, const ckpt_record *start) {
  restore_state(h, start, from);
  for (;;) {
    append_record(h, &h->undo, take_record(h, 0));
    if (h->memory_state + 1 >= to)
      break;
    run_step(h);
  }
  reverse_with_undo_records(h, from, to);
}

/* Steps [from, to) from a snapshot of state `from` and no room for more:
   each step reached again from there. */
static void reverse_recomputing(ckpt_handle *h, uint64_t from, uint64_t to,
                                const ckpt_record *start) {
  for (uint64_t step = to; step-- > from;) {
    restore_state(h, start, from);
    run_steps_to(h, step);
    reverse_step(h);
  }
}

/* C(slots + r, r) from C(slots + r - 1, r - 1): the steps that `slots`
   snapshots (the one at the stretch's start among them) reverse with each
   step run again at most r times. Exact (the factor r divides out first),
   saturating at UINT64_MAX. */
static uint64_t next_binomial(uint64_t previous, uint64_t slots, uint64_t r) {
  if (previous == UINT64_MAX)
    return UINT64_MAX;
  uint64_t a = previous, b = r;
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  uint64_t factor = (slots + r) / (r / a);
  uint64_t scaled = previous / a;
  if (factor && scaled > UINT64_MAX / factor)
    return UINT64_MAX;
  return scaled * factor;
}

/* Where treeverse puts the next snapshot in [from, to) (l = to - from >= 2
   steps), holding one at `from` and with free_slots >= 1 more. With
   s = free_slots + 1 snapshots in all, beta(s, r) = C(s + r, s) steps is
   the most that s snapshots reverse running no step more than r times
   again; let r be the least with beta(s, r) >= l. The snapshot goes m steps
   on: then the m steps before it (s snapshots, one repetition spent
   reaching it) and the l - m after it (s - 1 snapshots) are reversed the
   same way. No step runs more than r times again when m <= beta(s, r - 1)
   and l - m <= beta(s - 1, r); the fewest repetitions in all (r l -
   beta(s + 1, r - 1), Griewank's minimum) need besides m >= beta(s, r - 2)
   and l - m >= beta(s - 1, r - 1), as the cost of a step more on either
   side is then r. m = max(1, beta(s, r - 2), l - beta(s - 1, r)) meets all
   four (beta(s, r) = beta(s, r - 1) + beta(s - 1, r)). */
static uint64_t binomial_split(uint64_t from, uint64_t to,
                               uint64_t free_slots) {
  uint64_t steps = to - from;
  uint64_t slots = free_slots + 1;
  /* beta(s, r), beta(s, r - 1), beta(s, r - 2) and beta(s - 1, r), the
     beta of a negative r being 0. */
  uint64_t all = 1, all_before = 0, all_two_before = 0, after = 1;
  for (uint64_t r = 1; all < steps; r++) {
    all_two_before = all_before;
    all_before = all;
    all = next_binomial(all, slots, r);
    after = next_binomial(after, slots - 1, r);
  }
  uint64_t middle = all_two_before > 1 ? all_two_before : 1;
  if (after < steps && steps - after > middle)
    middle = steps - after;
  return from + middle;
}

/* A stretch treeverse has still to reverse: steps [from, to), from the
   snapshot `start` of state `from`, with room for free_slots more. */
typedef struct {
  uint64_t from, to;
  ckpt_record *start;
  uint64_t free_slots;
  int owns_start;
} ckpt_stretch;

typedef struct {
  ckpt_stretch *items;
  uint64_t depth, capacity;
} ckpt_stretch_stack;

static void push_stretch(ckpt_handle *h, ckpt_stretch_stack *stack,
                         ckpt_stretch stretch) {
  if (stack->depth == stack->capacity) {
    uint64_t capacity = stack->capacity ? 2 * stack->capacity : 16;
    if (capacity > SIZE_MAX / sizeof(ckpt_stretch))
      out_of_memory(h->loop);
    ckpt_stretch *items =
        realloc(stack->items, (size_t)capacity * sizeof(ckpt_stretch));
    if (!items)
      out_of_memory(h->loop);
    stack->items = items;
    stack->capacity = capacity;
  }
  stack->items[stack->depth++] = stretch;
}

/* Reverses steps [from, to) holding a snapshot `start` of state `from` and
   room for free_slots more snapshots (Griewank's treeverse). A stretch
   whose undo records fit in what is left of the budget is recorded and
   reversed at once; with no free slot each step is reached from the
   start. Else the next snapshot goes where binomial_split says, the
   stretch after it is reversed holding it, then the one before it with
   the slot free again: the stretches pending form a stack, one for each
   snapshot held, on the heap rather than in recursive calls. */
static void reverse_binomial(ckpt_handle *h, uint64_t from, uint64_t to,
                             ckpt_record *start, uint64_t free_slots) {
  ckpt_stretch_stack stack = {NULL, 0, 0};
  ckpt_stretch whole = {from, to, start, free_slots, 0};
  push_stretch(h, &stack, whole);
  while (stack.depth) {
    ckpt_stretch *top = &stack.items[stack.depth - 1];
    uint64_t steps = top->to - top->from;
    if (steps == 0) {
      if (top->owns_start)
        release_record(h, top->start);
      stack.depth--;
      continue;
    }
    /* Free slots beyond one for each step after the first are of no use. */
    uint64_t usable =
        top->free_slots < steps - 1 ? top->free_slots : steps - 1;
    if (steps == 1) {
      restore_state(h, top->start, top->from);
      reverse_step(h);
    } else if (undo_records_fit(h, steps)) {
      reverse_recording_undo(h, top->from, top->to, top->start);
    } else if (usable == 0) {
      reverse_recomputing(h, top->from, top->to, top->start);
    } else {
      uint64_t middle = binomial_split(top->from, top->to, usable);
      restore_state(h, top->start, top->from);
      run_steps_to(h, middle);
      ckpt_stretch after = {middle, top->to, take_record(h, 1), usable - 1, 1};
      top->to = middle;
      push_stretch(h, &stack, after); /* may move top */
      continue;
    }
    top->to = top->from;
  }
  free(stack.items);
}

/*===- The forward --------------------------------------------------------===*/

/* Known trip count: undo records for every step if they fit, else the
   initial state only, for the binomial reverse. */
static void run_counted(ckpt_handle *h, uint64_t steps) {
  h->steps = steps;
  /* Three whole states are held beside the undo records: the initial
     one, the final one and the memory as the reverse finds it. */
  uint64_t whole = h->snapshot_bytes;
  if (steps == 0 ||
      (whole <= h->budget / 3 &&
       (h->undo_bytes == 0 ||
        steps <= (h->budget - 3 * whole) / h->undo_bytes))) {
    h->schedule = SCHEDULE_ALL_STATES;
    for (uint64_t step = 0; step < steps; step++) {
      append_record(h, &h->undo, take_record(h, 0));
      run_step(h);
    }
    return;
  }
  h->schedule = SCHEDULE_BINOMIAL;
  h->slots = snapshot_slots(h->budget, whole);
  if (h->slots > steps)
    h->slots = steps;
  for (uint64_t step = 0; step < steps; step++)
    run_step(h);
}

/* Online: at a state `state` that is a multiple of the spacing, with its
   step due, keeps a snapshot, first thinning the kept ones to every other
   one (doubling the spacing) when the slots are full. */
static void keep_spaced_snapshot(ckpt_handle *h, uint64_t state) {
  ckpt_record_list *kept = &h->spaced;
  if (kept->count >= h->slots) {
    uint64_t left = 0;
    for (uint64_t i = 0; i < kept->count; i++) {
      if (i % 2)
        release_record(h, kept->items[i]);
      else
        kept->items[left++] = kept->items[i];
    }
    kept->count = left;
    h->spacing *= 2;
    if (state % h->spacing)
      return;
  }
  append_record(h, kept, take_record(h, 1));
}

/* From undo records to snapshots, at state `state` with its step due. */
static void turn_online(ckpt_handle *h, uint64_t state) {
  release_all(h, &h->undo);
  h->schedule = SCHEDULE_ONLINE;
  h->slots = snapshot_slots(h->budget, h->snapshot_bytes);
  if (h->slots < 2)
    h->slots = 2;
  h->spacing = state ? state : 1;
  append_record(h, &h->spaced, h->initial);
  h->initial = NULL;
  if (state)
    append_record(h, &h->spaced, take_record(h, 1));
}

/* Unknown trip count: undo records while they fit in the budget, then
   spaced snapshots; until a step says the loop ends. */
static void run_until_exit(ckpt_handle *h) {
  h->schedule = SCHEDULE_ALL_STATES;
  for (uint64_t state = 0;; state++) {
    if (h->schedule == SCHEDULE_ALL_STATES) {
      uint64_t bytes;
      uint64_t count = gather_ranges(h, 0, &bytes);
      /* Room kept for the final state and the memory as the reverse
         finds it. */
      uint64_t later = 2 * h->snapshot_bytes;
      if (later <= h->budget && bytes <= h->budget - later &&
          h->held_bytes <= h->budget - later - bytes)
        append_record(h, &h->undo, save_gathered(h, 0, count, bytes));
      else
        turn_online(h, state);
    } else if (state % h->spacing == 0) {
      keep_spaced_snapshot(h, state);
    }
    if (!run_step(h)) {
      h->steps = state + 1;
      return;
    }
  }
}

void *__ad_ckpt_forward(__ad_ckpt_loop *loop) {
  ckpt_handle *h = calloc(1, sizeof *h);
  if (!h)
    out_of_memory(loop);
  h->loop = loop;
  h->budget = read_budget(loop);
  if (loop->max_ranges) {
    if (loop->max_ranges > SIZE_MAX / sizeof(__ad_ckpt_range))
      out_of_memory(h->loop);
    h->scratch = malloc((size_t)loop->max_ranges * sizeof(__ad_ckpt_range));
    if (!h->scratch)
      out_of_memory(h->loop);
  }
  h->initial = take_record(h, 1);
  h->snapshot_bytes = h->initial->bytes;
  gather_ranges(h, 0, &h->undo_bytes);
  if (loop->trip_count >= 0)
    run_counted(h, (uint64_t)loop->trip_count);
  else
    run_until_exit(h);
  h->final = take_record(h, 1);
  return h;
}

/*===- The reverse --------------------------------------------------------===*/

/* Online: the stretches between kept snapshots, the last first, each
   holding the snapshots before it and its own. */
static void reverse_spaced(ckpt_handle *h) {
  ckpt_record_list *kept = &h->spaced;
  for (uint64_t i = kept->count; i-- > 0;) {
    uint64_t from = i * h->spacing;
    uint64_t to = h->steps - from > h->spacing ? from + h->spacing : h->steps;
    uint64_t free_slots = h->slots > i + 1 ? h->slots - (i + 1) : 0;
    reverse_binomial(h, from, to, kept->items[i], free_slots);
    release_record(h, kept->items[i]);
  }
  kept->count = 0;
}

static const char *schedule_name(ckpt_schedule_kind schedule) {
  switch (schedule) {
  case SCHEDULE_ALL_STATES:
    return "all-states";
  case SCHEDULE_BINOMIAL:
    return "binomial";
  case SCHEDULE_ONLINE:
    return "online";
  }
  return "unknown";
}

static void report(const ckpt_handle *h) {
  const char *wanted = getenv("AD_TAPE_REPORT");
  if (!wanted || strcmp(wanted, "0") == 0)
    return;
  fprintf(stderr,
          "ad: checkpointed %s: %llu steps, schedule %s, %llu snapshots of "
          "%llu bytes, %llu undo records of %llu bytes, %llu steps "
          "recomputed, peak %llu bytes, budget %llu bytes\n",
          h->loop->name ? h->loop->name : "a loop",
          (unsigned long long)h->steps, schedule_name(h->schedule),
          (unsigned long long)h->most_snapshots,
          (unsigned long long)h->snapshot_bytes,
          (unsigned long long)h->most_undo,
          (unsigned long long)h->undo_bytes,
          (unsigned long long)h->recomputed,
          (unsigned long long)h->peak_bytes, (unsigned long long)h->budget);
}

void __ad_ckpt_reverse(void *handle) {
  ckpt_handle *h = handle;
  h->reversing = 1;
  /* What runs after the loop may have written memory the loop writes, or
     what it only reads (the plugin adds those ranges to snapshots): kept
     here and put back at the end, while the steps run again from the
     loop's own final state. */
  ckpt_record *found = take_record(h, 1);
  apply_record(h->final);
  h->memory_state = h->steps;
  switch (h->schedule) {
  case SCHEDULE_ALL_STATES:
    reverse_with_undo_records(h, 0, h->steps);
    break;
  case SCHEDULE_BINOMIAL:
    reverse_binomial(h, 0, h->steps, h->initial, h->slots - 1);
    break;
  case SCHEDULE_ONLINE:
    reverse_spaced(h);
    break;
  }
  apply_record(found);
  report(h);
  release_record(h, found);
  release_record(h, h->initial);
  release_record(h, h->final);
  release_all(h, &h->undo);
  release_all(h, &h->spaced);
  free(h->undo.items);
  free(h->spaced.items);
  free(h->scratch);
  free(h);
}
