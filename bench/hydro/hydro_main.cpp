// hydro_main.cpp - Google Benchmark driver: the LULESH-style hydro run
// (hydro.c, plain clang-22 -O2) against its gradient by the plugin
// (hydro_ad.c, clang-22 -O2 with ADPlugin), s x s x s elements, `steps`
// Lagrangian steps.
//
//   primal/s/steps     one hydro_run
//   gradient/s/steps   one hydro_grad_ad (forward and reverse sweep)
//   ratio/s/steps      both, alternating in every iteration, each timed on
//                      its own: counters primal_s and gradient_s (mean
//                      wall seconds per call), time_ratio, cpu_ratio (the
//                      same with the thread's CPU time, steadier on a
//                      loaded machine), and the peak heap bytes each call
//                      held above what was live before it (primal_peak,
//                      gradient_peak, memory_ratio)
//   ratio_kept_heap/s/steps  the same with glibc told to keep the heap
//                      between calls, so that the gradient's tape is not
//                      mapped and faulted in again on every call
//
// heap_peak.c (bench/gpt2) counts every allocation, the plugin's run-time
// tape and shadow memory included. main first checks the gradient against
// finite differences at a small size and times nothing if it is wrong.

#include "../gpt2/heap_peak.h"
#include "hydro.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <malloc.h>
#include <vector>

namespace {

struct Problem {
  int s, steps;
  std::vector<double> params, grad;
  Problem(int s, int steps)
      : s(s), steps(steps), params(hydro_nparams(s)), grad(params.size()) {
    hydro_init_params(params.data(), s, 0.05);
  }
  double primal() { return hydro_run(params.data(), s, steps); }
  void gradient() {
    std::fill(grad.begin(), grad.end(), 0.0);
    hydro_grad_ad(params.data(), grad.data(), s, steps);
  }
};

// The heap a call holds at its peak above what was live when it started.
template <class Call> size_t peakOf(Call call) {
  size_t base = heap_live_bytes();
  heap_reset_peak();
  call();
  return heap_peak_bytes() - base;
}

void setBytes(benchmark::State &state, const char *name, size_t bytes) {
  state.counters[name] = benchmark::Counter(static_cast<double>(bytes),
                                            benchmark::Counter::kDefaults,
                                            benchmark::Counter::OneK::kIs1024);
}

void BM_primal(benchmark::State &state) {
  Problem p(state.range(0), state.range(1));
  size_t peak = 0;
  for (auto _ : state)
    peak =
        std::max(peak, peakOf([&] { benchmark::DoNotOptimize(p.primal()); }));
  setBytes(state, "peak_bytes", peak);
}

void BM_gradient(benchmark::State &state) {
  Problem p(state.range(0), state.range(1));
  // The first call allocates the tape the run-time then keeps between calls
  // (counted there); the later ones reuse it.
  heap_forget_tape_cache();
  size_t peak = 0;
  for (auto _ : state) {
    peak = std::max(peak, peakOf([&] { p.gradient(); }));
    benchmark::ClobberMemory();
  }
  setBytes(state, "peak_bytes", peak);
}

double threadCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void timeRatio(benchmark::State &state, Problem &p) {
  using Clock = std::chrono::steady_clock;
  double primal_s = 0, gradient_s = 0, primal_cpu = 0, gradient_cpu = 0;
  size_t primal_peak = 0, gradient_peak = 0;
  heap_forget_tape_cache(); // See BM_gradient.
  for (auto _ : state) {
    double c0 = threadCpuSeconds();
    auto t0 = Clock::now();
    primal_peak = std::max(
        primal_peak, peakOf([&] { benchmark::DoNotOptimize(p.primal()); }));
    auto t1 = Clock::now();
    double c1 = threadCpuSeconds();
    gradient_peak = std::max(gradient_peak, peakOf([&] { p.gradient(); }));
    benchmark::ClobberMemory();
    auto t2 = Clock::now();
    double c2 = threadCpuSeconds();
    primal_s += std::chrono::duration<double>(t1 - t0).count();
    gradient_s += std::chrono::duration<double>(t2 - t1).count();
    primal_cpu += c1 - c0;
    gradient_cpu += c2 - c1;
  }
  double n = static_cast<double>(state.iterations());
  state.counters["primal_s"] = primal_s / n;
  state.counters["gradient_s"] = gradient_s / n;
  state.counters["time_ratio"] = gradient_s / primal_s;
  state.counters["cpu_ratio"] = gradient_cpu / primal_cpu;
  setBytes(state, "primal_peak", primal_peak);
  setBytes(state, "gradient_peak", gradient_peak);
  state.counters["memory_ratio"] =
      static_cast<double>(gradient_peak) / static_cast<double>(primal_peak);
}

void BM_ratio(benchmark::State &state) {
  Problem p(state.range(0), state.range(1));
  timeRatio(state, p);
}

// The same with the heap kept between calls: no block is mapped on its
// own (M_MMAP_MAX 0) and nothing goes back to the kernel (M_TRIM_THRESHOLD
// off), so after one untimed call the tape's pages stay mapped and are not
// faulted in again, as a tape cache would have it. glibc's defaults come
// back afterwards (setting any of these turns its adaptive mmap threshold
// off for the rest of the process, so this benchmark comes last).
void BM_ratio_kept_heap(benchmark::State &state) {
  Problem p(state.range(0), state.range(1));
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  p.gradient();
  timeRatio(state, p);
  mallopt(M_MMAP_MAX, 65536);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);
  malloc_trim(0);
}

// s = 10, steps = 50 is the size (LULESH's wrapped run); s = 20
// has 8 times the elements.
void sizes(benchmark::internal::Benchmark *b) {
  b->Args({10, 50})->Args({20, 50})->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_primal)->Apply(sizes);
BENCHMARK(BM_gradient)->Apply(sizes);
BENCHMARK(BM_ratio)->Apply(sizes);
BENCHMARK(BM_ratio_kept_heap)->Apply(sizes);

// The gradient at s = 3 against central finite differences, and the run
// must produce a finite energy (checked before anything is timed).
bool gradientIsRight() {
  Problem p(3, 6);
  p.gradient();
  std::vector<double> shifted = p.params;
  double worst = 0, scale = 0;
  for (size_t i = 0; i < p.params.size(); i++) {
    double h = 1e-6 * std::max(std::fabs(p.params[i]), 1e-2);
    shifted[i] = p.params[i] + h;
    double up = hydro_run(shifted.data(), p.s, p.steps);
    shifted[i] = p.params[i] - h;
    double down = hydro_run(shifted.data(), p.s, p.steps);
    shifted[i] = p.params[i];
    double fd = (up - down) / (2 * h);
    scale =
        std::max(scale, std::fabs(fd) * std::max(std::fabs(p.params[i]), 1e-2));
    worst = std::max(worst, std::fabs(fd - p.grad[i]) *
                                std::max(std::fabs(p.params[i]), 1e-2));
  }
  return std::isfinite(p.primal()) && scale > 0 && worst <= 1e-6 * scale;
}

} // namespace

int main(int argc, char **argv) {
  if (!gradientIsRight()) {
    std::fprintf(stderr, "hydro_bench: the gradient disagrees with finite "
                         "differences; nothing timed\n");
    return 1;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
