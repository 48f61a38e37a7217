// mpi_main.cpp - Google Benchmark driver for the distributed Burgers run
// (burgers_mpi.c, plain clang-22 -O2) against its gradient by the plugin
// (burgers_mpi_ad.c, clang-22 -O2 with ADPlugin), run under mpirun: every
// rank runs every benchmark, and rank 0 alone reports.
//
//   primal/cells/steps     one burgers_mpi (cells per rank: weak scaling)
//   gradient/cells/steps   one burgers_mpi_grad (forward and reverse sweep)
//   ratio/cells/steps      both, and the gradient written by hand
//                          (burgers_mpi_handwritten.c), alternating in every
//                          iteration, each timed on its own: counters
//                          primal_ms, gradient_ms and handwritten_ms (mean
//                          per call), ratio (gradient / primal),
//                          handwritten_ratio (handwritten / primal), ranks
//
// Each benchmark first makes one untimed call of what it times (see
// BM_primal): first_gradient_ms is the first gradient's time.
//
// A call's time is the longest any rank took (MPI_Wtime around the call,
// reduced with MPI_MAX), reported as manual time after a barrier lines the
// ranks up. Every benchmark runs a fixed number of iterations, the same on
// every rank, since a collective call needs all of them: Google Benchmark's
// own choice of the count could differ between ranks and deadlock.
//
// main first checks the gradient against central finite differences on a
// small run (cells next to the rank boundaries included), and the
// handwritten gradient against the plugin's, and times nothing if either is
// wrong.

#include "burgers_mpi.h"

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int rank_ = 0, size_ = 1;

struct Problem {
  int n, steps;
  std::vector<double> u0, du0;
  Problem(int n, int steps) : n(n), steps(steps), u0(n), du0(n) {
    burgers_mpi_init(u0.data(), n, rank_, size_);
  }
  double primal() { return burgers_mpi(u0.data(), n, steps); }
  void gradient() {
    std::fill(du0.begin(), du0.end(), 0.0);
    burgers_mpi_grad(u0.data(), du0.data(), n, steps);
  }
  void handwritten() {
    std::fill(du0.begin(), du0.end(), 0.0);
    burgers_mpi_grad_handwritten(u0.data(), du0.data(), n, steps);
  }
};

// The longest time any rank spent in call(), in seconds.
template <class Call> double timed(Call call) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  call();
  double mine = MPI_Wtime() - start, longest = 0;
  MPI_Allreduce(&mine, &longest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return longest;
}

// One untimed call before the timed ones: the first gradient maps and
// faults in the tape memory that later calls reuse (about a second at 2^16
// cells per rank and 200 steps on a virtual machine, where page faults are
// slow), and the first primal its two buffers. The first gradient's time is
// reported as first_gradient_ms.
void BM_primal(benchmark::State &state) {
  Problem p(state.range(0), state.range(1));
  timed([&] { benchmark::DoNotOptimize(p.primal()); });
  for (auto _ : state)
    state.SetIterationTime(
        timed([&] { benchmark::DoNotOptimize(p.primal()); }));
  state.counters["ranks"] = size_;
}

void BM_gradient(benchmark::State &state) {
  Problem p(state.range(0), state.range(1));
  state.counters["first_gradient_ms"] = 1e3 * timed([&] { p.gradient(); });
  for (auto _ : state)
    state.SetIterationTime(timed([&] { p.gradient(); }));
  state.counters["ranks"] = size_;
}

void BM_ratio(benchmark::State &state) {
  Problem p(state.range(0), state.range(1));
  timed([&] { benchmark::DoNotOptimize(p.primal()); });
  state.counters["first_gradient_ms"] = 1e3 * timed([&] { p.gradient(); });
  timed([&] { p.handwritten(); });
  double primal = 0, gradient = 0, handwritten = 0;
  for (auto _ : state) {
    double t = timed([&] { benchmark::DoNotOptimize(p.primal()); });
    double g = timed([&] { p.gradient(); });
    double h = timed([&] { p.handwritten(); });
    primal += t;
    gradient += g;
    handwritten += h;
    state.SetIterationTime(t + g);
  }
  double calls = static_cast<double>(state.iterations());
  state.counters["primal_ms"] = 1e3 * primal / calls;
  state.counters["gradient_ms"] = 1e3 * gradient / calls;
  state.counters["handwritten_ms"] = 1e3 * handwritten / calls;
  state.counters["ratio"] = gradient / primal;
  state.counters["handwritten_ratio"] = handwritten / primal;
  state.counters["ranks"] = size_;
}

// Cells per rank (weak scaling) and steps; the iteration counts are fixed
// (see above).
void registerAll() {
  const int steps = 200;
  for (int cells : {1 << 12, 1 << 16}) {
    int iterations = cells > 10000 ? 10 : 50;
    for (auto *bm : {benchmark::RegisterBenchmark("primal", BM_primal),
                     benchmark::RegisterBenchmark("gradient", BM_gradient),
                     benchmark::RegisterBenchmark("ratio", BM_ratio)})
      bm->Args({cells, steps})
          ->Iterations(iterations)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
  }
}

// The gradient at a few cells of every rank (its first two, its middle,
// its last two: the ghost cells' neighbours) against central differences of
// J = size * burgers_mpi, every rank running each primal. Collective;
// returns the failures over all ranks.
int checkGradient() {
  const int n = 24, steps = 30;
  Problem p(n, steps);
  p.gradient();
  int failures = 0;
  const int cells[] = {0, 1, n / 2, n - 2, n - 1};
  for (int owner = 0; owner < size_; owner++)
    for (int i : cells) {
      double saved = p.u0[i], h = 1e-6;
      if (rank_ == owner)
        p.u0[i] = saved + h;
      double plus = p.primal();
      if (rank_ == owner)
        p.u0[i] = saved - h;
      double minus = p.primal();
      if (rank_ == owner)
        p.u0[i] = saved;
      double fd = size_ * (plus - minus) / (2 * h);
      if (rank_ == owner &&
          std::fabs(p.du0[i] - fd) > 1e-6 * std::max(1.0, std::fabs(fd))) {
        std::fprintf(stderr,
                     "mpi_bench: rank %d: gradient[%d] = %.12g, finite "
                     "differences %.12g\n",
                     rank_, i, p.du0[i], fd);
        failures++;
      }
    }
  // The handwritten gradient agrees with the plugin's.
  std::vector<double> plugin = p.du0;
  p.handwritten();
  for (int i = 0; i < n; i++)
    if (std::fabs(p.du0[i] - plugin[i]) >
        1e-10 * std::max(1.0, std::fabs(plugin[i]))) {
      std::fprintf(stderr,
                   "mpi_bench: rank %d: handwritten gradient[%d] = %.12g, "
                   "plugin's %.12g\n",
                   rank_, i, p.du0[i], plugin[i]);
      failures++;
    }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

// Rank 0 reports; the others run the same benchmarks silently.
class NullReporter : public benchmark::BenchmarkReporter {
public:
  bool ReportContext(const Context &) override { return true; }
  void ReportRuns(const std::vector<Run> &) override {}
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  // Google Benchmark removes its flags from argv: look for an output file
  // first, which only rank 0 may write.
  bool wantsFile = false;
  for (int i = 1; i < argc; i++)
    wantsFile |= std::strncmp(argv[i], "--benchmark_out=", 16) == 0;
  benchmark::Initialize(&argc, argv);
  if (int failures = checkGradient()) {
    if (rank_ == 0)
      std::fprintf(stderr,
                   "mpi_bench: %d gradient checks failed at %d ranks; "
                   "nothing timed\n",
                   failures, size_);
    MPI_Finalize();
    return 1;
  }
  registerAll();
  if (rank_ == 0) {
    std::printf("mpi_bench: %d ranks, gradient checked\n", size_);
    std::fflush(stdout);
    benchmark::RunSpecifiedBenchmarks();
  } else {
    NullReporter quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet, wantsFile ? &quiet : nullptr);
  }
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
