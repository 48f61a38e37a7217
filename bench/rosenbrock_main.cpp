// rosenbrock_main.cpp - Google Benchmark driver: the handwritten Rosenbrock
// gradient against the one the plugin generates (bench/rosenbrock.c).
//
// Before timing anything, main checks that the two gradients agree, so a
// benchmark never reports the speed of a wrong derivative.

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <vector>

extern "C" {
double rosenbrock(const double *x, int n);
void rosenbrock_grad_handwritten(const double *x, double *grad, int n);
void rosenbrock_grad_ad(const double *x, double *grad, int n);
}

namespace {

std::vector<double> startingPoint(int n) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.5 + 0.01 * (i % 17) - 0.3 * (i % 2);
  return x;
}

using GradientFn = void (*)(const double *, double *, int);

void benchGradient(benchmark::State &state, GradientFn gradient) {
  int n = static_cast<int>(state.range(0));
  std::vector<double> x = startingPoint(n), grad(n);
  for (auto _ : state) {
    gradient(x.data(), grad.data(), n);
    benchmark::DoNotOptimize(grad.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_rosenbrock_primal(benchmark::State &state) {
  int n = static_cast<int>(state.range(0));
  std::vector<double> x = startingPoint(n);
  for (auto _ : state)
    benchmark::DoNotOptimize(rosenbrock(x.data(), n));
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_rosenbrock_handwritten(benchmark::State &state) {
  benchGradient(state, rosenbrock_grad_handwritten);
}

void BM_rosenbrock_ad(benchmark::State &state) {
  benchGradient(state, rosenbrock_grad_ad);
}

// True when the AD gradient matches the handwritten one at every size timed.
bool gradientsAgree() {
  for (int n : {2, 64, 4096}) {
    std::vector<double> x = startingPoint(n), want(n), got(n);
    rosenbrock_grad_handwritten(x.data(), want.data(), n);
    rosenbrock_grad_ad(x.data(), got.data(), n);
    for (int i = 0; i < n; ++i) {
      if (std::fabs(got[i] - want[i]) > 1e-9 * (1.0 + std::fabs(want[i]))) {
        std::fprintf(stderr, "n=%d: AD gradient[%d] = %.17g, handwritten %.17g\n",
                     n, i, got[i], want[i]);
        return false;
      }
    }
  }
  return true;
}

} // namespace

BENCHMARK(BM_rosenbrock_primal)->RangeMultiplier(8)->Range(8, 1 << 15);
BENCHMARK(BM_rosenbrock_handwritten)->RangeMultiplier(8)->Range(8, 1 << 15);
BENCHMARK(BM_rosenbrock_ad)->RangeMultiplier(8)->Range(8, 1 << 15);

int main(int argc, char **argv) {
  if (!gradientsAgree())
    return 1;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
