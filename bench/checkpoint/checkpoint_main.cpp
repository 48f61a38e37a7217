// checkpoint_main.cpp - Google Benchmark driver: reverse-mode gradients of
// long explicit time loops (checkpoint.h), the plugin's (checkpoint_ad.c,
// clang-22 -O2 with ADPlugin) against handwritten adjoints that store every
// step's state (checkpoint_manual.c, clang-22 -O2), under tape budgets.
//
// For each problem (burgers, heat2d), named <problem>/<case>/<sizes>:
//   primal             one plain run (burgers.c, heat2d.c)
//   handwritten        one handwritten gradient (forward storing the state
//                      before every step, reverse through the transposed
//                      step Jacobians)
//   ad/budget:B        one plugin gradient with AD_TAPE_BUDGET set to B
//                      bytes (setenv before the timed loop; the plugin's
//                      run-time reads it when the gradient runs)
// Each iteration times the call alone (manual time): resetting the initial
// state and zeroing the shadows are outside it. Counters:
//   peak_bytes         the most heap one call held above what was live
//                      before it (bench/gpt2/heap_peak.c counts every
//                      allocation: the stored states, the plugin's tape and
//                      snapshots; the plugin's cached tape is freed before
//                      each gradient so that it counts)
//   peak_per_states    peak_bytes / (steps x state bytes), the states the
//                      handwritten adjoint stores (handwritten and ad)
//   budget, peak_per_budget   the budget and peak_bytes / budget (ad)
//   time_ratio, cpu_ratio     the gradient's mean wall / thread-CPU time
//                      per call over the handwritten adjoint's, measured in
//                      the same process (by the handwritten case when it ran
//                      before, else by one call before the ad case) (ad)
//   grad_err           the largest relative difference of any gradient
//                      component from the handwritten gradient (ad)
//
// Flags (removed before Google Benchmark reads the rest):
//   --burgers_n=4000 --burgers_steps=10000
//   --heat2d_nx=128 --heat2d_ny=128 --heat2d_steps=10000
//   --budgets=1G,64M,8M     (bytes, with an optional K, M or G: powers of
//                            1024)
//   --gradient_iterations=3 (iterations of the handwritten and ad cases; 0
//                            lets Google Benchmark choose, as for primal:
//                            until --benchmark_min_time of manual time, one
//                            call when a call takes longer)
// main first checks the plugin's gradients against the handwritten ones at
// a small size and times nothing if they disagree.

#include "../gpt2/heap_peak.h"
#include "checkpoint.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

namespace {

double threadCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Wall and thread-CPU seconds of one call.
template <class Call> std::pair<double, double> timeOf(Call call) {
  using Clock = std::chrono::steady_clock;
  double c0 = threadCpuSeconds();
  auto t0 = Clock::now();
  call();
  auto t1 = Clock::now();
  double c1 = threadCpuSeconds();
  return {std::chrono::duration<double>(t1 - t0).count(), c1 - c0};
}

// The heap a call holds at its peak above what was live when it started.
template <class Call> size_t peakOf(Call call) {
  size_t base = heap_live_bytes();
  heap_reset_peak();
  call();
  return heap_peak_bytes() - base;
}

void setBytes(benchmark::State &state, const char *name, double bytes) {
  state.counters[name] = benchmark::Counter(
      bytes, benchmark::Counter::kDefaults, benchmark::Counter::OneK::kIs1024);
}

// One problem: its buffers and the three ways to run it.
struct Problem {
  std::string name, sizes;
  size_t cells = 0;
  int steps = 0;
  std::vector<double> u0, u, un, du, dun;
  // The handwritten gradient at these sizes and its mean times per call.
  std::vector<double> reference;
  double manualWall = 0, manualCpu = 0;

  virtual ~Problem() = default;
  virtual double primal() = 0;
  virtual double manual() = 0;
  virtual void ad() = 0;

  void allocate() {
    u.resize(cells);
    un.resize(cells);
    du.resize(cells);
    dun.resize(cells);
  }
  // Back to the initial state, shadows zero.
  void reset() {
    std::copy(u0.begin(), u0.end(), u.begin());
    std::fill(un.begin(), un.end(), 0.0);
    std::fill(du.begin(), du.end(), 0.0);
    std::fill(dun.begin(), dun.end(), 0.0);
  }
  double stateBytes() const { return static_cast<double>(cells) * 8; }
  double storedBytes() const { return stateBytes() * steps; }
  // The reference gradient (and times, unless the handwritten case has
  // measured them): one handwritten call.
  void ensureReference() {
    if (!reference.empty())
      return;
    reset();
    auto t = timeOf([&] { benchmark::DoNotOptimize(manual()); });
    reference = du;
    if (manualWall == 0) {
      manualWall = t.first;
      manualCpu = t.second;
    }
  }
  double gradError() const {
    double worst = 0;
    for (size_t i = 0; i < cells; i++) {
      double err = std::fabs(du[i] - reference[i]) / std::fabs(reference[i]);
      if (!(err <= worst))
        worst = err;
    }
    return worst;
  }
};

struct Burgers : Problem {
  burgers_problem p;
  Burgers(int n, int steps_) : p(burgers_make(n, steps_)) {
    name = "burgers";
    sizes = "n:" + std::to_string(n) + "/steps:" + std::to_string(steps_);
    cells = static_cast<size_t>(n);
    steps = steps_;
    u0.resize(cells);
    burgers_init(&p, u0.data());
    allocate();
  }
  double primal() override { return burgers_run(&p, u.data(), un.data()); }
  double manual() override {
    return burgers_grad_manual(&p, u.data(), du.data(), un.data());
  }
  void ad() override {
    burgers_grad_ad(&p, u.data(), du.data(), un.data(), dun.data());
  }
};

struct Heat2d : Problem {
  heat2d_problem p;
  Heat2d(int nx, int ny, int steps_) : p(heat2d_make(nx, ny, steps_)) {
    name = "heat2d";
    sizes = "nx:" + std::to_string(nx) + "/ny:" + std::to_string(ny) +
            "/steps:" + std::to_string(steps_);
    cells = static_cast<size_t>(nx) * static_cast<size_t>(ny);
    steps = steps_;
    u0.resize(cells);
    heat2d_init(&p, u0.data());
    allocate();
  }
  double primal() override { return heat2d_run(&p, u.data(), un.data()); }
  double manual() override {
    return heat2d_grad_manual(&p, u.data(), du.data(), un.data());
  }
  void ad() override {
    heat2d_grad_ad(&p, u.data(), du.data(), un.data(), dun.data());
  }
};

void BM_primal(benchmark::State &state, Problem *p) {
  size_t peak = 0;
  for (auto _ : state) {
    p->reset();
    double seconds = 0;
    peak = std::max(peak, peakOf([&] {
                      seconds = timeOf([&] {
                                  benchmark::DoNotOptimize(p->primal());
                                }).first;
                    }));
    state.SetIterationTime(seconds);
  }
  setBytes(state, "peak_bytes", static_cast<double>(peak));
}

void BM_handwritten(benchmark::State &state, Problem *p) {
  size_t peak = 0;
  double wall = 0, cpu = 0;
  for (auto _ : state) {
    p->reset();
    std::pair<double, double> t;
    peak =
        std::max(peak, peakOf([&] {
                   t = timeOf([&] { benchmark::DoNotOptimize(p->manual()); });
                 }));
    state.SetIterationTime(t.first);
    wall += t.first;
    cpu += t.second;
  }
  double n = static_cast<double>(state.iterations());
  p->manualWall = wall / n;
  p->manualCpu = cpu / n;
  if (p->reference.empty())
    p->reference = p->du;
  setBytes(state, "peak_bytes", static_cast<double>(peak));
  state.counters["peak_per_states"] =
      static_cast<double>(peak) / p->storedBytes();
}

void BM_ad(benchmark::State &state, Problem *p, size_t budget) {
  p->ensureReference();
  std::string value = std::to_string(budget);
  setenv("AD_TAPE_BUDGET", value.c_str(), 1);
  size_t peak = 0;
  double wall = 0, cpu = 0;
  for (auto _ : state) {
    p->reset();
    // The tape the run-time kept from the last gradient: freed, so that
    // every call allocates (and counts) its own.
    heap_forget_tape_cache();
    std::pair<double, double> t;
    peak = std::max(peak, peakOf([&] { t = timeOf([&] { p->ad(); }); }));
    benchmark::ClobberMemory();
    state.SetIterationTime(t.first);
    wall += t.first;
    cpu += t.second;
  }
  unsetenv("AD_TAPE_BUDGET");
  heap_forget_tape_cache();
  double n = static_cast<double>(state.iterations());
  setBytes(state, "peak_bytes", static_cast<double>(peak));
  setBytes(state, "budget", static_cast<double>(budget));
  state.counters["peak_per_budget"] =
      static_cast<double>(peak) / static_cast<double>(budget);
  state.counters["peak_per_states"] =
      static_cast<double>(peak) / p->storedBytes();
  state.counters["time_ratio"] = wall / n / p->manualWall;
  state.counters["cpu_ratio"] = cpu / n / p->manualCpu;
  state.counters["grad_err"] = p->gradError();
}

// "8M" -> 8 << 20; K, M and G are powers of 1024; 0 on a bad spelling.
size_t parseBytes(const std::string &text) {
  char *end = nullptr;
  unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (end == text.c_str())
    return 0;
  std::string unit(end);
  int shift = unit == ""    ? 0
              : unit == "K" ? 10
              : unit == "M" ? 20
              : unit == "G" ? 30
                            : -1;
  if (shift < 0)
    return 0;
  return static_cast<size_t>(value) << shift;
}

// The plugin's gradients against the handwritten ones at a small size.
bool gradientsAreRight() {
  Burgers b(64, 50);
  Heat2d h(8, 8, 20);
  for (Problem *p : {static_cast<Problem *>(&b), static_cast<Problem *>(&h)}) {
    p->ensureReference();
    p->reset();
    p->ad();
    if (!(p->gradError() <= 1e-9)) {
      std::fprintf(stderr, "%s: gradient off by %g (relative)\n",
                   p->name.c_str(), p->gradError());
      return false;
    }
  }
  return true;
}

bool intFlag(const char *arg, const char *name, int *out) {
  size_t len = std::strlen(name);
  if (std::strncmp(arg, name, len) != 0 || arg[len] != '=')
    return false;
  *out = std::atoi(arg + len + 1);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int n = 4000, bsteps = 10000, nx = 128, ny = 128, hsteps = 10000;
  int iterations = 3;
  std::string budgetList = "1G,64M,8M";
  // Our flags, removed before Google Benchmark sees the arguments.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const char *budgets = "--budgets=";
    if (intFlag(argv[i], "--burgers_n", &n) ||
        intFlag(argv[i], "--burgers_steps", &bsteps) ||
        intFlag(argv[i], "--heat2d_nx", &nx) ||
        intFlag(argv[i], "--heat2d_ny", &ny) ||
        intFlag(argv[i], "--heat2d_steps", &hsteps) ||
        intFlag(argv[i], "--gradient_iterations", &iterations))
      continue;
    if (std::strncmp(argv[i], budgets, std::strlen(budgets)) == 0)
      budgetList = argv[i] + std::strlen(budgets);
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  argv[argc] = nullptr;
  if (n < 3 || bsteps < 1 || nx < 3 || ny < 3 || hsteps < 1 || iterations < 0) {
    std::fprintf(stderr, "checkpoint_bench: want --burgers_n, --heat2d_nx, "
                         "--heat2d_ny >= 3, steps >= 1, "
                         "--gradient_iterations >= 0\n");
    return 1;
  }
  std::vector<std::pair<std::string, size_t>> budgets;
  for (size_t start = 0; start <= budgetList.size();) {
    size_t comma = std::min(budgetList.find(',', start), budgetList.size());
    std::string item = budgetList.substr(start, comma - start);
    size_t bytes = parseBytes(item);
    if (bytes == 0) {
      std::fprintf(stderr,
                   "checkpoint_bench: bad budget '%s' in --budgets=%s: want "
                   "e.g. --budgets=1G,64M,8M\n",
                   item.c_str(), budgetList.c_str());
      return 1;
    }
    budgets.emplace_back(item, bytes);
    start = comma + 1;
  }

  if (!gradientsAreRight()) {
    std::fprintf(stderr, "checkpoint_bench: the plugin's gradients disagree "
                         "with the handwritten ones; nothing timed\n");
    return 1;
  }

  std::vector<std::unique_ptr<Problem>> problems;
  problems.emplace_back(new Burgers(n, bsteps));
  problems.emplace_back(new Heat2d(nx, ny, hsteps));
  for (auto &owned : problems) {
    Problem *p = owned.get();
    std::string tail = "/" + p->sizes;
    benchmark::RegisterBenchmark((p->name + "/primal" + tail).c_str(),
                                 BM_primal, p)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    auto *hw = benchmark::RegisterBenchmark(
        (p->name + "/handwritten" + tail).c_str(), BM_handwritten, p);
    hw->UseManualTime()->Unit(benchmark::kMillisecond);
    if (iterations > 0)
      hw->Iterations(iterations);
    for (auto &b : budgets) {
      auto *ad = benchmark::RegisterBenchmark(
          (p->name + "/ad/budget:" + b.first + tail).c_str(), BM_ad, p,
          b.second);
      ad->UseManualTime()->Unit(benchmark::kMillisecond);
      if (iterations > 0)
        ad->Iterations(iterations);
    }
  }

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  char stored[160];
  std::snprintf(stored, sizeof stored,
                "burgers %.0f bytes, heat2d %.0f bytes (steps x state)",
                problems[0]->storedBytes(), problems[1]->storedBytes());
  benchmark::AddCustomContext("stored_states", stored);
  benchmark::AddCustomContext("budgets", budgetList);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
