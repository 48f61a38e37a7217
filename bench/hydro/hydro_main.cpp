// hydro_main.cpp - Google Benchmark driver: the LULESH-style hydro run
// (hydro.c, plain clang-22 -O2) against its gradient by the plugin
// (hydro_ad.c, clang-22 -O2 with ADPlugin), s x s x s elements, `steps`
// Lagrangian steps.
//
//   primal/s/steps     one hydro_run
//   gradient/s/steps   one hydro_grad_ad (forward and reverse sweep)
//   ratio/s/steps      both, alternating in every iteration, each timed on
//                      its own: counters primal_s and gradient_s (mean
//                      seconds per call), time_ratio, and the peak heap
//                      bytes each call held above what was live before it
//                      (primal_peak, gradient_peak, memory_ratio)
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
  size_t peak = 0;
  for (auto _ : state) {
    peak = std::max(peak, peakOf([&] { p.gradient(); }));
    benchmark::ClobberMemory();
  }
  setBytes(state, "peak_bytes", peak);
}

void BM_ratio(benchmark::State &state) {
  using Clock = std::chrono::steady_clock;
  Problem p(state.range(0), state.range(1));
  double primal_s = 0, gradient_s = 0;
  size_t primal_peak = 0, gradient_peak = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    primal_peak = std::max(
        primal_peak, peakOf([&] { benchmark::DoNotOptimize(p.primal()); }));
    auto t1 = Clock::now();
    gradient_peak = std::max(gradient_peak, peakOf([&] { p.gradient(); }));
    benchmark::ClobberMemory();
    auto t2 = Clock::now();
    primal_s += std::chrono::duration<double>(t1 - t0).count();
    gradient_s += std::chrono::duration<double>(t2 - t1).count();
  }
  double n = static_cast<double>(state.iterations());
  state.counters["primal_s"] = primal_s / n;
  state.counters["gradient_s"] = gradient_s / n;
  state.counters["time_ratio"] = gradient_s / primal_s;
  setBytes(state, "primal_peak", primal_peak);
  setBytes(state, "gradient_peak", gradient_peak);
  state.counters["memory_ratio"] =
      static_cast<double>(gradient_peak) / static_cast<double>(primal_peak);
}

// s = 10, steps = 50 is the size (LULESH's wrapped run); s = 20
// has 8 times the elements.
void sizes(benchmark::internal::Benchmark *b) {
  b->Args({10, 50})->Args({20, 50})->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_primal)->Apply(sizes);
BENCHMARK(BM_gradient)->Apply(sizes);
BENCHMARK(BM_ratio)->Apply(sizes);

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
