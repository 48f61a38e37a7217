// adbench_main.cpp - Google Benchmark driver: ADBench's GMM gradient and BA
// Jacobian, handwritten (gmm_manual.c, ba_manual.c) and by the plugin
// (adbench_ad.c), with the objectives alone for scale.
//
// GMM: BM_gmm_objective/d/K, BM_gmm_handwritten/d/K and BM_gmm_ad/d/K for
// every size of ADBench (d in 2 10 20 32 64, K in 5 10 25 50 100 200,
// n = 1000), registered size by size so that the two gradients of a size
// run one after the other. BA: BM_ba_objective, BM_ba_handwritten,
// BM_ba_ad (reverse mode, a sweep per residual row) and BM_ba_ad_fwd
// (forward mode, a sweep per column), 49 cameras, 7776 points, 31843
// observations. One iteration is one objective or one derivative;
// inputs and outputs live outside it. heap_peak.c counts every allocation
// (the objective's scratch buffers, the plugin's tape), and peak_bytes is
// the most heap live at once above what was live before the first
// iteration, the tape the run-time keeps between calls included
// (bench/gpt2/bench_steps.h).
//
// --adbench_all (ours, removed before Google Benchmark reads the flags)
// adds the GMM sizes left out by default (see tooLarge()). The allocator keeps
// glibc's defaults, as a user's program would: blocks over 32 MiB (glibc's
// largest mmap threshold, so mallopt cannot keep them) are mapped afresh on
// every call.
//
// main first checks every derivative at small sizes (adbench_verify.c) and
// times nothing if one is wrong.

#include "adbench.h"
#include "heap_peak.h"
#include "bench_steps.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kGmmDims[] = {2, 10, 20, 32, 64};
constexpr int kGmmComponents[] = {5, 10, 25, 50, 100, 200};
constexpr int kGmmPoints = 1000;
constexpr int kBaCams = 49, kBaPoints = 7776, kBaObs = 31843;

// Sizes whose plugin gradient needs too much memory for the default run
// (4.7 and 9.4 GiB of tape, README.md); --adbench_all adds them.
bool tooLarge(int d, int K) { return d == 64 && K >= 100; }


// ---- GMM ----

struct GmmData {
  GmmInput in;
  std::vector<double> dalphas, dmeans, dicf;
  GmmData(int d, int K) {
    gmm_input_make(&in, d, K, kGmmPoints, 1000003u * d + K);
    dalphas.resize(K);
    dmeans.resize(size_t(K) * d);
    dicf.resize(size_t(K) * gmm_icf_size(d));
  }
  ~GmmData() { gmm_input_free(&in); }
};

enum class GmmWhat { Objective, Handwritten, AD };

void gmmBenchmark(benchmark::State &state, int d, int K, GmmWhat what) {
  GmmData g(d, K);
  GmmInput &in = g.in;
  timeSteps(state, [&] {
    double f = 0;
    switch (what) {
    case GmmWhat::Objective:
      f = gmm_objective(d, K, in.n, in.alphas, in.means, in.icf, in.x, in.gamma,
                        in.m);
      break;
    case GmmWhat::Handwritten:
      f = gmm_objective_grad_manual(d, K, in.n, in.alphas, in.means, in.icf,
                                    in.x, in.gamma, in.m, g.dalphas.data(),
                                    g.dmeans.data(), g.dicf.data());
      break;
    case GmmWhat::AD:
      gmm_objective_grad_ad(d, K, in.n, in.alphas, in.means, in.icf, in.x,
                            in.gamma, in.m, g.dalphas.data(), g.dmeans.data(),
                            g.dicf.data());
      break;
    }
    benchmark::DoNotOptimize(f);
    benchmark::DoNotOptimize(g.dicf.data());
  });
}

void registerGmm(bool all) {
  static const std::pair<const char *, GmmWhat> kinds[] = {
      {"BM_gmm_objective", GmmWhat::Objective},
      {"BM_gmm_handwritten", GmmWhat::Handwritten},
      {"BM_gmm_ad", GmmWhat::AD}};
  for (int d : kGmmDims)
    for (int K : kGmmComponents) {
      if (tooLarge(d, K) && !all)
        continue;
      for (const auto &[name, what] : kinds) {
        std::string full = std::string(name) + "/" + std::to_string(d) + "/" +
                           std::to_string(K);
        benchmark::RegisterBenchmark(full.c_str(), gmmBenchmark, d, K, what)
            ->Unit(benchmark::kMillisecond);
      }
    }
}

// ---- BA ----

struct BaData {
  BaInput in;
  std::vector<double> err, werr, J, Jw;
  BaData() {
    ba_input_make(&in, kBaCams, kBaPoints, kBaObs, 7);
    err.resize(2 * size_t(kBaObs));
    werr.resize(kBaObs);
    J.resize(2 * size_t(kBaObs) * BA_NCOLS);
    Jw.resize(kBaObs);
  }
  ~BaData() { ba_input_free(&in); }
};

using BaJacobian = void (*)(const BaInput *, double *, double *, double *,
                            double *);

void baJacobianBenchmark(benchmark::State &state, BaJacobian jac) {
  BaData b;
  timeSteps(state, [&] {
    jac(&b.in, b.err.data(), b.werr.data(), b.J.data(), b.Jw.data());
    benchmark::DoNotOptimize(b.J.data());
  });
}

void BM_ba_objective(benchmark::State &state) {
  BaData b;
  timeSteps(state, [&] {
    ba_objective(&b.in, b.err.data(), b.werr.data());
    benchmark::DoNotOptimize(b.err.data());
  });
}

void registerBa() {
  benchmark::RegisterBenchmark("BM_ba_objective", BM_ba_objective)
      ->Unit(benchmark::kMillisecond);
  const std::pair<const char *, BaJacobian> jacobians[] = {
      {"BM_ba_handwritten", ba_jacobian_manual},
      {"BM_ba_ad", ba_jacobian_ad},
      {"BM_ba_ad_fwd", ba_jacobian_ad_fwd}};
  for (const auto &[name, jac] : jacobians)
    benchmark::RegisterBenchmark(name, baJacobianBenchmark, jac)
        ->Unit(benchmark::kMillisecond);
}

} // namespace

int main(int argc, char **argv) {
  bool all = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--adbench_all") == 0)
      all = true;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;

  int failures = adbench_verify_gmm(2, 3, 10, 1, 0) +
                 adbench_verify_gmm(5, 4, 12, 1, 0) +
                 adbench_verify_ba(3, 5, 12, 1, 0);
  if (failures) {
    std::fprintf(stderr, "%d derivative check(s) failed: not timing\n",
                 failures);
    return 1;
  }

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  registerGmm(all);
  registerBa();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
