// bench_steps.h - timing a step with Google Benchmark and reporting the
// heap it holds at its peak (heap_peak.c), for the GPT-2 and ADBench
// benchmarks.
#ifndef BENCH_STEPS_H
#define BENCH_STEPS_H

#include "heap_peak.h"

#include <benchmark/benchmark.h>

#include <cstddef>

// Times `step` once per iteration; peak_bytes is the most heap live at once
// above what was live before the first iteration, with the tape buffer the
// plugin's run-time keeps between gradients counted: the cache is emptied
// first, so the first iteration allocates the tape and the others reuse it.
template <class Step> void timeSteps(benchmark::State &state, Step step) {
  heap_forget_tape_cache();
  size_t base = heap_live_bytes();
  heap_reset_peak();
  for (auto _ : state) {
    step();
    benchmark::ClobberMemory();
  }
  state.counters["peak_bytes"] = benchmark::Counter(
      static_cast<double>(heap_peak_bytes() - base),
      benchmark::Counter::kDefaults, benchmark::Counter::OneK::kIs1024);
}

#endif
