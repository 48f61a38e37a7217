// gpt2_cuda_bench - Google Benchmark of the CUDA GPT-2 step: each layer's
// handwritten backward (BM_<layer>_handwritten) against the plugin's
// gradient of its forward (BM_<layer>_ad), and the whole training step
// (BM_gpt2_step_*: forward, zeroed gradients, backward). Times are CUDA
// events around the GPU work (manual time); input buffers are refreshed
// outside the timed part.
//
// Counters: peak_bytes, the most device memory the benchmark's buffers held
// at once (cudaMalloc'ed, counted by dmalloc) plus, for the plugin's
// gradients, the device heap reserved for their tapes (heap_bytes:
// cudaLimitMallocHeapSize, set at start from GPT2_CUDA_HEAP_MB, default
// 8192; the handwritten backward never allocates on the device).
//
// Size: GPT-2 124M (L=12, NH=12, C=768, V=50257, Vp=50304, maxT=1024) with
// B=4, T=256, or GPT2_CUDA_SIZE="L NH C V Vp B T".
#include "model.cuh"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

GPT2Config config() {
  GPT2Config c = {12, 12, 768, 50257, 50304, 1024, 4, 256};
  if (const char *s = std::getenv("GPT2_CUDA_SIZE")) {
    if (std::sscanf(s, "%d %d %d %d %d %d %d", &c.L, &c.NH, &c.C, &c.V, &c.Vp,
                    &c.B, &c.T) != 7) {
      std::fprintf(stderr, "GPT2_CUDA_SIZE: want \"L NH C V Vp B T\"\n");
      std::exit(2);
    }
    c.maxT = c.T;
  }
  return c;
}

size_t heapBytes() {
  static size_t bytes = [] {
    const char *s = std::getenv("GPT2_CUDA_HEAP_MB");
    size_t mb = s ? std::strtoull(s, nullptr, 10) : 8192;
    CUDA_OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, mb << 20));
    size_t got = 0;
    CUDA_OK(cudaDeviceGetLimit(&got, cudaLimitMallocHeapSize));
    return got;
  }();
  return bytes;
}

// Device buffers of random values in [-1, 1) (a fixed generator).
struct Buffers {
  std::vector<void *> owned;
  unsigned long long state = 12345;
  real *random(size_t n, double scale = 1) {
    std::vector<real> h(n);
    for (size_t i = 0; i < n; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      h[i] = real(((state >> 40) / double(1ull << 24) * 2 - 1) * scale);
    }
    real *d = dmalloc<real>(n);
    CUDA_OK(cudaMemcpy(d, h.data(), n * sizeof(real), cudaMemcpyHostToDevice));
    owned.push_back(d);
    return d;
  }
  real *zeros(size_t n) {
    real *d = dmalloc<real>(n);
    CUDA_OK(cudaMemset(d, 0, n * sizeof(real)));
    owned.push_back(d);
    return d;
  }
  int *tokens(size_t n, int V) {
    std::vector<int> h(n);
    for (size_t i = 0; i < n; ++i)
      h[i] = int((i * 2654435761u) % V);
    int *d = dmalloc<int>(n);
    CUDA_OK(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    owned.push_back(d);
    return d;
  }
  ~Buffers() {
    for (void *p : owned)
      dfree(p);
  }
};

// Times `work` with CUDA events, after `prepare` (untimed) each iteration;
// a warm-up run first unless `warmUp` is false (the whole step, whose
// plugin gradient runs for a minute: docs in README.md).
void timeOnGpu(benchmark::State &state, bool differentiated,
               const std::function<void()> &prepare,
               const std::function<void()> &work, bool warmUp = true) {
  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  if (warmUp) {
    prepare();
    work();
    CUDA_OK(cudaDeviceSynchronize());
  }
  for (auto _ : state) {
    prepare();
    CUDA_OK(cudaEventRecord(start));
    work();
    CUDA_OK(cudaEventRecord(stop));
    CUDA_OK(cudaEventSynchronize(stop));
    CUDA_OK(cudaGetLastError());
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, start, stop));
    state.SetIterationTime(ms / 1e3);
  }
  CUDA_OK(cudaEventDestroy(start));
  CUDA_OK(cudaEventDestroy(stop));
  size_t heap = differentiated ? heapBytes() : 0;
  state.counters["peak_bytes"] = benchmark::Counter(
      double(deviceBytes().peak + heap), benchmark::Counter::kDefaults,
      benchmark::Counter::OneK::kIs1024);
  state.counters["heap_bytes"] =
      benchmark::Counter(double(heap), benchmark::Counter::kDefaults,
                         benchmark::Counter::OneK::kIs1024);
}

// A layer's benchmark: its buffers, the incoming gradient refreshed from a
// saved copy before each run (the plugin's gradient consumes it), and the
// inputs' gradients zeroed.
struct LayerRun {
  Buffers buf;
  std::vector<std::pair<real *, real *>> refresh; // (dout, saved copy)
  std::vector<std::pair<real *, size_t>> zero;
  real *incoming(size_t n) {
    real *saved = buf.random(n), *d = buf.zeros(n);
    refresh.push_back({d, saved});
    sizes.push_back(n);
    return d;
  }
  real *gradient(size_t n) {
    real *d = buf.zeros(n);
    zero.push_back({d, n});
    return d;
  }
  std::vector<size_t> sizes;
  void prepare() {
    for (size_t i = 0; i < refresh.size(); ++i)
      CUDA_OK(cudaMemcpyAsync(refresh[i].first, refresh[i].second,
                              sizes[i] * sizeof(real),
                              cudaMemcpyDeviceToDevice));
    for (auto &z : zero)
      CUDA_OK(cudaMemsetAsync(z.first, 0, z.second * sizeof(real)));
  }
};

template <class Path> constexpr bool isAd() {
  return std::is_same<Path, Differentiated>::value;
}

template <class Path> void BM_encoder(benchmark::State &state) {
  GPT2Config c = config();
  resetDevicePeak();
  LayerRun r;
  size_t btc = (size_t)c.B * c.T * c.C;
  int *inp = r.buf.tokens((size_t)c.B * c.T, c.V);
  real *out = r.buf.zeros(btc), *dout = r.incoming(btc);
  real *wte = r.buf.random((size_t)c.Vp * c.C),
       *wpe = r.buf.random((size_t)c.T * c.C);
  real *dwte = r.gradient((size_t)c.Vp * c.C),
       *dwpe = r.gradient((size_t)c.T * c.C);
  timeOnGpu(
      state, isAd<Path>(), [&] { r.prepare(); },
      [&] {
        Path::encoder(out, dout, inp, wte, dwte, wpe, dwpe, c.B, c.T, c.C);
      });
}

template <class Path> void BM_layernorm(benchmark::State &state) {
  GPT2Config c = config();
  resetDevicePeak();
  LayerRun r;
  int N = c.B * c.T;
  size_t nc = (size_t)N * c.C;
  real *inp = r.buf.random(nc), *w = r.buf.random(c.C), *b = r.buf.random(c.C);
  real *out = r.buf.zeros(nc), *mean = r.buf.zeros(N), *rstd = r.buf.zeros(N);
  layernorm_forward_launch(out, mean, rstd, inp, w, b, N, c.C);
  real *dout = r.incoming(nc), *dmean = r.gradient(N), *drstd = r.gradient(N);
  real *dinp = r.gradient(nc), *dw = r.gradient(c.C), *db = r.gradient(c.C);
  timeOnGpu(
      state, isAd<Path>(), [&] { r.prepare(); },
      [&] {
        Path::layernorm(out, dout, mean, dmean, rstd, drstd, inp, dinp, w, dw,
                        b, db, N, c.C);
      });
}

// The MLP's first matmul (C -> 4C), the step's largest but the classifier.
template <class Path> void BM_matmul(benchmark::State &state) {
  GPT2Config c = config();
  resetDevicePeak();
  LayerRun r;
  int BT = c.B * c.T, C = c.C, OC = 4 * c.C;
  real *inp = r.buf.random((size_t)BT * C),
       *w = r.buf.random((size_t)OC * C, 0.05);
  real *b = r.buf.random(OC), *out = r.buf.zeros((size_t)BT * OC);
  real *dout = r.incoming((size_t)BT * OC);
  real *dinp = r.gradient((size_t)BT * C), *dw = r.gradient((size_t)OC * C);
  real *db = r.gradient(OC);
  timeOnGpu(
      state, isAd<Path>(), [&] { r.prepare(); },
      [&] { Path::matmul(out, dout, inp, dinp, w, dw, b, db, BT, C, OC); });
}

template <class Path> void BM_attention(benchmark::State &state) {
  GPT2Config c = config();
  resetDevicePeak();
  LayerRun r;
  size_t btc = (size_t)c.B * c.T * c.C, att = (size_t)c.B * c.NH * c.T * c.T;
  real *qkv = r.buf.random(3 * btc), *out = r.buf.zeros(btc);
  real *preatt = r.buf.zeros(att), *at = r.buf.zeros(att);
  attention_forward_launch(out, preatt, at, qkv, c.B, c.T, c.C, c.NH);
  real *dout = r.incoming(btc), *dpreatt = r.gradient(att);
  real *datt = r.gradient(att), *dqkv = r.gradient(3 * btc);
  timeOnGpu(
      state, isAd<Path>(), [&] { r.prepare(); },
      [&] {
        Path::attention(out, dout, preatt, dpreatt, at, datt, qkv, dqkv, c.B,
                        c.T, c.C, c.NH);
      });
}

template <class Path> void BM_gelu(benchmark::State &state) {
  GPT2Config c = config();
  resetDevicePeak();
  LayerRun r;
  int n = c.B * c.T * 4 * c.C;
  real *inp = r.buf.random(n, 3), *out = r.buf.zeros(n);
  real *dout = r.incoming(n), *dinp = r.gradient(n);
  timeOnGpu(
      state, isAd<Path>(), [&] { r.prepare(); },
      [&] { Path::gelu(out, dout, inp, dinp, n); });
}

template <class Path> void BM_residual(benchmark::State &state) {
  GPT2Config c = config();
  resetDevicePeak();
  LayerRun r;
  int n = c.B * c.T * c.C;
  real *a = r.buf.random(n), *b = r.buf.random(n), *out = r.buf.zeros(n);
  real *dout = r.incoming(n), *da = r.gradient(n), *db = r.gradient(n);
  timeOnGpu(
      state, isAd<Path>(), [&] { r.prepare(); },
      [&] { Path::residual(out, dout, a, da, b, db, n); });
}

template <class Path> void BM_crossentropy(benchmark::State &state) {
  GPT2Config c = config();
  resetDevicePeak();
  LayerRun r;
  int N = c.B * c.T;
  real *logits = r.buf.random((size_t)N * c.Vp, 4), *losses = r.buf.zeros(N);
  int *targets = r.buf.tokens(N, c.V);
  real *dlosses = r.incoming(N), *dlogits = r.gradient((size_t)N * c.Vp);
  timeOnGpu(
      state, isAd<Path>(), [&] { r.prepare(); },
      [&] {
        Path::crossentropy(losses, dlosses, logits, dlogits, targets, N, c.V,
                           c.Vp);
      });
}

template <class Path> void BM_gpt2_step(benchmark::State &state) {
  GPT2Config c = config();
  resetDevicePeak();
  std::vector<real> init = gpt2_random_params(c, 7);
  int BT = c.B * c.T;
  std::vector<int> inputs(BT), targets(BT);
  for (int i = 0; i < BT; ++i) {
    inputs[i] = int((i * 2654435761u) % c.V);
    targets[i] = int((i * 40503u + 17) % c.V);
  }
  GPT2 m;
  gpt2_build(m, c, init.data(), inputs.data(), targets.data());
  timeOnGpu(
      state, isAd<Path>(), [] {},
      [&] {
        gpt2_forward(m);
        gpt2_backward<Path>(m);
      },
      /*warmUp=*/false);
  gpt2_free(m);
}

} // namespace

#define GPT2_CUDA_LAYER(name)                                                  \
  BENCHMARK_TEMPLATE(BM_##name, Handwritten)                                   \
      ->Name("BM_" #name "_handwritten")                                       \
      ->UseManualTime()                                                        \
      ->Unit(benchmark::kMillisecond);                                         \
  BENCHMARK_TEMPLATE(BM_##name, Differentiated)                                \
      ->Name("BM_" #name "_ad")                                                \
      ->UseManualTime()                                                        \
      ->Unit(benchmark::kMillisecond)
GPT2_CUDA_LAYER(encoder);
GPT2_CUDA_LAYER(layernorm);
GPT2_CUDA_LAYER(matmul);
GPT2_CUDA_LAYER(attention);
GPT2_CUDA_LAYER(gelu);
GPT2_CUDA_LAYER(residual);
GPT2_CUDA_LAYER(crossentropy);
GPT2_CUDA_LAYER(gpt2_step);

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  heapBytes(); // before any kernel: the device heap's size is fixed then
  GPT2Config c = config();
  benchmark::AddCustomContext(
      "gpt2_size",
      "L=" + std::to_string(c.L) + " NH=" + std::to_string(c.NH) +
          " C=" + std::to_string(c.C) + " V=" + std::to_string(c.V) +
          " B=" + std::to_string(c.B) + " T=" + std::to_string(c.T));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
