// gpt2_main.cpp - Google Benchmark driver: a GPT-2 training step, and each of
// its layers, differentiated by hand (gpt2_layers.c, gpt2_model.c) and by the
// plugin (gpt2_ad.c).
//
// One iteration is one step: forward and backward of a layer or of the model
// (for AD, the single __ad_autodiff call, which does both). Inside the step
// it allocates what a training step allocates (outputs, saved activations
// and their gradients); inputs, parameters and parameter gradients live
// outside. heap_peak.c counts every allocation, the plugin's run-time tape
// included, and the counter peak_bytes is the most heap one step held above
// what was live when it started.
//
// Sizes: L=4 NH=4 C=256 V=Vp=8192 B=4 T=64 maxT=64, and every layer at the
// shape it has in that model. --gpt2_124m selects GPT-2 small instead: L=12
// NH=12 C=768 V=50257 Vp=50304 maxT=1024, still B=4 T=64; --gpt2_sizes=...
// sets single sizes (flags apply in order), e.g. to fit in less memory.
//
// main first runs gpt2_verify at a small size and times nothing if any
// gradient is wrong.
//
// Built as gpt2_bench_omp (GPT2_BENCH_OMP), the same driver times the layers
// compiled with -fopenmp, llm.c's OpenMP pragmas on (gpt2_layers.c), with
// the threads OMP_NUM_THREADS asks for; the context omp_threads says how many.
// Built as gpt2_bench_fast (GPT2_BENCH_FLAGS), both paths are compiled with
// llm.c's -Ofast; the context flags says so.

#include "gpt2.h"
#include "gpt2_verify.h"
#include "bench_steps.h"
#include "heap_peak.h"

#include <benchmark/benchmark.h>

#ifdef GPT2_BENCH_OMP
extern "C" int omp_get_max_threads(void); // libomp; no omp.h for g++
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <random>
#include <string>
#include <vector>

namespace {

// GPT2Config's fields, in order: maxT, V, Vp, L, NH, C.
constexpr GPT2Config kDefaultConfig = {64, 8192, 8192, 4, 4, 256};
constexpr GPT2Config kGpt2SmallConfig = {1024, 50257, 50304, 12, 12, 768};
// The gpt2_check default sizes: the check takes well under a second.
constexpr GPT2Config kCheckConfig = {8, 30, 32, 2, 2, 16};

GPT2Config cfg = kDefaultConfig;
int B = 4, T = 64;

std::vector<float> randomFloats(size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

std::vector<int> randomTokens(size_t n, int below, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(0, below - 1);
  std::vector<int> v(n);
  for (int &x : v)
    x = dist(gen);
  return v;
}

// Buffers a step allocates, with malloc and calloc as C code would.
float *uninitialized(size_t n) {
  return static_cast<float *>(std::malloc(n * sizeof(float)));
}
float *zeroed(size_t n) {
  return static_cast<float *>(std::calloc(n, sizeof(float)));
}
float *copyOf(const std::vector<float> &v) {
  float *p = uninitialized(v.size());
  std::memcpy(p, v.data(), v.size() * sizeof(float));
  return p;
}


size_t BT() { return static_cast<size_t>(B) * T; }
size_t BTC() { return BT() * cfg.C; }

// ---- encoder ----

struct EncoderData {
  std::vector<int> tokens = randomTokens(BT(), cfg.V, 1);
  std::vector<float> wte = randomFloats(size_t(cfg.Vp) * cfg.C, -1, 1, 2);
  std::vector<float> wpe = randomFloats(size_t(cfg.maxT) * cfg.C, -1, 1, 3);
  std::vector<float> dwte = std::vector<float>(wte.size());
  std::vector<float> dwpe = std::vector<float>(wpe.size());
  std::vector<float> upstream = randomFloats(BTC(), -1, 1, 4);
};

void BM_encoder_handwritten(benchmark::State &state) {
  EncoderData d;
  timeSteps(state, [&] {
    float *out = uninitialized(BTC()), *dout = copyOf(d.upstream);
    encoder_forward(out, d.tokens.data(), d.wte.data(), d.wpe.data(), B, T,
                    cfg.C);
    encoder_backward(d.dwte.data(), d.dwpe.data(), dout, d.tokens.data(), B, T,
                     cfg.C);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(dout);
  });
}

void BM_encoder_ad(benchmark::State &state) {
  EncoderData d;
  timeSteps(state, [&] {
    float *out = uninitialized(BTC()), *dout = copyOf(d.upstream);
    encoder_grad_ad(out, dout, d.tokens.data(), d.wte.data(), d.dwte.data(),
                    d.wpe.data(), d.dwpe.data(), B, T, cfg.C);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(dout);
  });
}

// ---- layernorm ----

struct LayernormData {
  std::vector<float> inp = randomFloats(BTC(), -2, 2, 5);
  std::vector<float> weight = randomFloats(cfg.C, 0.5f, 1.5f, 6);
  std::vector<float> bias = randomFloats(cfg.C, -0.5f, 0.5f, 7);
  std::vector<float> dinp = std::vector<float>(inp.size());
  std::vector<float> dweight = std::vector<float>(weight.size());
  std::vector<float> dbias = std::vector<float>(bias.size());
  std::vector<float> upstream = randomFloats(BTC(), -1, 1, 8);
};

void BM_layernorm_handwritten(benchmark::State &state) {
  LayernormData d;
  timeSteps(state, [&] {
    // dmean and drstd go unused, but a step has them: llm.c's activation
    // gradients cover every activation tensor (and so do the AD step's).
    float *out = uninitialized(BTC()), *mean = uninitialized(BT()),
          *rstd = uninitialized(BT()), *dout = copyOf(d.upstream),
          *dmean = zeroed(BT()), *drstd = zeroed(BT());
    layernorm_forward(out, mean, rstd, d.inp.data(), d.weight.data(),
                      d.bias.data(), B, T, cfg.C);
    layernorm_backward(d.dinp.data(), d.dweight.data(), d.dbias.data(), dout,
                       d.inp.data(), d.weight.data(), mean, rstd, B, T, cfg.C);
    benchmark::DoNotOptimize(out);
    benchmark::DoNotOptimize(dmean), benchmark::DoNotOptimize(drstd);
    std::free(out), std::free(mean), std::free(rstd), std::free(dout);
    std::free(dmean), std::free(drstd);
  });
}

void BM_layernorm_ad(benchmark::State &state) {
  LayernormData d;
  timeSteps(state, [&] {
    float *out = uninitialized(BTC()), *mean = uninitialized(BT()),
          *rstd = uninitialized(BT()), *dout = copyOf(d.upstream),
          *dmean = zeroed(BT()), *drstd = zeroed(BT());
    layernorm_grad_ad(out, dout, mean, dmean, rstd, drstd, d.inp.data(),
                      d.dinp.data(), d.weight.data(), d.dweight.data(),
                      d.bias.data(), d.dbias.data(), B, T, cfg.C);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(mean), std::free(rstd), std::free(dout);
    std::free(dmean), std::free(drstd);
  });
}

// ---- matmul: the qkv projection, C -> 3C ----

struct MatmulData {
  int C = cfg.C, OC = 3 * cfg.C;
  std::vector<float> inp = randomFloats(BTC(), -1, 1, 9);
  std::vector<float> weight = randomFloats(size_t(OC) * C, -0.1f, 0.1f, 10);
  std::vector<float> bias = randomFloats(OC, -0.1f, 0.1f, 11);
  std::vector<float> dinp = std::vector<float>(inp.size());
  std::vector<float> dweight = std::vector<float>(weight.size());
  std::vector<float> dbias = std::vector<float>(bias.size());
  std::vector<float> upstream = randomFloats(BT() * OC, -1, 1, 12);
};

void BM_matmul_handwritten(benchmark::State &state) {
  MatmulData d;
  timeSteps(state, [&] {
    float *out = uninitialized(BT() * d.OC), *dout = copyOf(d.upstream);
    matmul_forward(out, d.inp.data(), d.weight.data(), d.bias.data(), B, T, d.C,
                   d.OC);
    matmul_backward(d.dinp.data(), d.dweight.data(), d.dbias.data(), dout,
                    d.inp.data(), d.weight.data(), B, T, d.C, d.OC);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(dout);
  });
}

void BM_matmul_ad(benchmark::State &state) {
  MatmulData d;
  timeSteps(state, [&] {
    float *out = uninitialized(BT() * d.OC), *dout = copyOf(d.upstream);
    matmul_grad_ad(out, dout, d.inp.data(), d.dinp.data(), d.weight.data(),
                   d.dweight.data(), d.bias.data(), d.dbias.data(), B, T, d.C,
                   d.OC);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(dout);
  });
}

// ---- attention ----

struct AttentionData {
  size_t natt = BT() * cfg.NH * T;
  std::vector<float> inp = randomFloats(3 * BTC(), -1, 1, 13);
  std::vector<float> dinp = std::vector<float>(inp.size());
  std::vector<float> upstream = randomFloats(BTC(), -1, 1, 14);
};

void BM_attention_handwritten(benchmark::State &state) {
  AttentionData d;
  timeSteps(state, [&] {
    float *out = uninitialized(BTC()), *preatt = uninitialized(d.natt),
          *att = uninitialized(d.natt), *dout = copyOf(d.upstream),
          *dpreatt = zeroed(d.natt), *datt = zeroed(d.natt);
    attention_forward(out, preatt, att, d.inp.data(), B, T, cfg.C, cfg.NH);
    attention_backward(d.dinp.data(), dpreatt, datt, dout, d.inp.data(), att, B,
                       T, cfg.C, cfg.NH);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(preatt), std::free(att), std::free(dout);
    std::free(dpreatt), std::free(datt);
  });
}

void BM_attention_ad(benchmark::State &state) {
  AttentionData d;
  timeSteps(state, [&] {
    float *out = uninitialized(BTC()), *preatt = uninitialized(d.natt),
          *att = uninitialized(d.natt), *dout = copyOf(d.upstream),
          *dpreatt = zeroed(d.natt), *datt = zeroed(d.natt);
    attention_grad_ad(out, dout, preatt, dpreatt, att, datt, d.inp.data(),
                      d.dinp.data(), B, T, cfg.C, cfg.NH);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(preatt), std::free(att), std::free(dout);
    std::free(dpreatt), std::free(datt);
  });
}

// ---- gelu: the MLP's hidden layer, 4C wide ----

struct GeluData {
  int N = static_cast<int>(4 * BTC());
  std::vector<float> inp = randomFloats(N, -3, 3, 15);
  std::vector<float> dinp = std::vector<float>(inp.size());
  std::vector<float> upstream = randomFloats(N, -1, 1, 16);
};

void BM_gelu_handwritten(benchmark::State &state) {
  GeluData d;
  timeSteps(state, [&] {
    float *out = uninitialized(d.N), *dout = copyOf(d.upstream);
    gelu_forward(out, d.inp.data(), d.N);
    gelu_backward(d.dinp.data(), d.inp.data(), dout, d.N);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(dout);
  });
}

void BM_gelu_ad(benchmark::State &state) {
  GeluData d;
  timeSteps(state, [&] {
    float *out = uninitialized(d.N), *dout = copyOf(d.upstream);
    gelu_grad_ad(out, dout, d.inp.data(), d.dinp.data(), d.N);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(dout);
  });
}

// ---- residual ----

struct ResidualData {
  int N = static_cast<int>(BTC());
  std::vector<float> inp1 = randomFloats(N, -1, 1, 17);
  std::vector<float> inp2 = randomFloats(N, -1, 1, 18);
  std::vector<float> dinp1 = std::vector<float>(N),
                     dinp2 = std::vector<float>(N);
  std::vector<float> upstream = randomFloats(N, -1, 1, 19);
};

void BM_residual_handwritten(benchmark::State &state) {
  ResidualData d;
  timeSteps(state, [&] {
    float *out = uninitialized(d.N), *dout = copyOf(d.upstream);
    residual_forward(out, d.inp1.data(), d.inp2.data(), d.N);
    residual_backward(d.dinp1.data(), d.dinp2.data(), dout, d.N);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(dout);
  });
}

void BM_residual_ad(benchmark::State &state) {
  ResidualData d;
  timeSteps(state, [&] {
    float *out = uninitialized(d.N), *dout = copyOf(d.upstream);
    residual_grad_ad(out, dout, d.inp1.data(), d.dinp1.data(), d.inp2.data(),
                     d.dinp2.data(), d.N);
    benchmark::DoNotOptimize(out);
    std::free(out), std::free(dout);
  });
}

// ---- crossentropy: softmax over the vocabulary and the loss ----

struct CrossentropyData {
  size_t nlogits = BT() * cfg.Vp;
  std::vector<int> targets = randomTokens(BT(), cfg.V, 20);
  std::vector<float> logits = randomFloats(nlogits, -2, 2, 21);
  std::vector<float> dlogits = std::vector<float>(nlogits);
  std::vector<float> upstream = std::vector<float>(BT(), 1.0f / BT());
};

void BM_crossentropy_handwritten(benchmark::State &state) {
  CrossentropyData d;
  timeSteps(state, [&] {
    // dprobs goes unused (the backward goes straight to dlogits), but a
    // step has it, as the whole model's grad_acts and llm.c's do.
    float *losses = uninitialized(BT()), *probs = uninitialized(d.nlogits),
          *dlosses = copyOf(d.upstream), *dprobs = zeroed(d.nlogits);
    crossentropy_forward(losses, probs, d.logits.data(), d.targets.data(), B, T,
                         cfg.V, cfg.Vp);
    crossentropy_backward(d.dlogits.data(), dlosses, probs, d.targets.data(), B,
                          T, cfg.V, cfg.Vp);
    benchmark::DoNotOptimize(losses), benchmark::DoNotOptimize(dprobs);
    std::free(losses), std::free(probs), std::free(dlosses), std::free(dprobs);
  });
}

void BM_crossentropy_ad(benchmark::State &state) {
  CrossentropyData d;
  timeSteps(state, [&] {
    float *losses = uninitialized(BT()), *probs = uninitialized(d.nlogits),
          *dlosses = copyOf(d.upstream), *dprobs = zeroed(d.nlogits);
    crossentropy_grad_ad(losses, dlosses, probs, dprobs, d.logits.data(),
                         d.dlogits.data(), d.targets.data(), B, T, cfg.V,
                         cfg.Vp);
    benchmark::DoNotOptimize(losses);
    std::free(losses), std::free(probs), std::free(dlosses), std::free(dprobs);
  });
}

// ---- the whole model ----

struct ModelData {
  GPT2ParamLayout p;
  GPT2ActLayout a;
  std::vector<float> params, grads;
  std::vector<int> inputs = randomTokens(BT(), cfg.V, 22);
  std::vector<int> targets = randomTokens(BT(), cfg.V, 23);
  ModelData() {
    gpt2_param_layout(&cfg, &p);
    gpt2_act_layout(&cfg, B, T, &a);
    // GPT-2's scale of initial weights; layer norms start as identities.
    params = randomFloats(p.off[GPT2_NUM_PARAM_TENSORS], -0.04f, 0.04f, 24);
    for (int t : {GPT2_LN1W, GPT2_LN2W, GPT2_LNFW})
      std::fill(params.begin() + p.off[t], params.begin() + p.off[t + 1], 1.0f);
    grads.assign(params.size(), 0.0f);
  }
  size_t nacts() const { return a.off[GPT2_NUM_ACT_TENSORS]; }
};

void BM_gpt2_step_handwritten(benchmark::State &state) {
  ModelData d;
  timeSteps(state, [&] {
    float *acts = uninitialized(d.nacts()), *grad_acts = zeroed(d.nacts());
    float loss = gpt2_forward(d.params.data(), acts, d.inputs.data(),
                              d.targets.data(), B, T, &cfg);
    gpt2_backward(d.params.data(), d.grads.data(), acts, grad_acts,
                  d.inputs.data(), d.targets.data(), B, T, &cfg);
    benchmark::DoNotOptimize(loss);
    std::free(acts), std::free(grad_acts);
  });
}

void BM_gpt2_step_ad(benchmark::State &state) {
  ModelData d;
  timeSteps(state, [&] {
    float *acts = uninitialized(d.nacts()), *grad_acts = zeroed(d.nacts());
    gpt2_grad_ad(d.params.data(), d.grads.data(), acts, grad_acts,
                 d.inputs.data(), d.targets.data(), B, T, &cfg);
    benchmark::DoNotOptimize(acts);
    std::free(acts), std::free(grad_acts);
  });
}

} // namespace

#define GPT2_BENCHMARK(name) BENCHMARK(name)->Unit(benchmark::kMillisecond)
GPT2_BENCHMARK(BM_encoder_handwritten);
GPT2_BENCHMARK(BM_encoder_ad);
GPT2_BENCHMARK(BM_layernorm_handwritten);
GPT2_BENCHMARK(BM_layernorm_ad);
GPT2_BENCHMARK(BM_matmul_handwritten);
GPT2_BENCHMARK(BM_matmul_ad);
GPT2_BENCHMARK(BM_attention_handwritten);
GPT2_BENCHMARK(BM_attention_ad);
GPT2_BENCHMARK(BM_gelu_handwritten);
GPT2_BENCHMARK(BM_gelu_ad);
GPT2_BENCHMARK(BM_residual_handwritten);
GPT2_BENCHMARK(BM_residual_ad);
GPT2_BENCHMARK(BM_crossentropy_handwritten);
GPT2_BENCHMARK(BM_crossentropy_ad);
GPT2_BENCHMARK(BM_gpt2_step_handwritten);
GPT2_BENCHMARK(BM_gpt2_step_ad);

// --gpt2_sizes=NAME=VALUE,...: NAME is one of L NH C maxT V Vp B T. For
// runs that must fit in less memory than the default sizes need.
static bool parseSizes(const char *list) {
  std::string rest(list);
  while (!rest.empty()) {
    size_t comma = rest.find(','), eq = rest.find('=');
    std::string item = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    if (eq == std::string::npos || eq >= item.size())
      return false;
    std::string name = item.substr(0, eq);
    int value = std::atoi(item.c_str() + eq + 1);
    int *field = name == "L"      ? &cfg.L
                 : name == "NH"   ? &cfg.NH
                 : name == "C"    ? &cfg.C
                 : name == "maxT" ? &cfg.maxT
                 : name == "V"    ? &cfg.V
                 : name == "Vp"   ? &cfg.Vp
                 : name == "B"    ? &B
                 : name == "T"    ? &T
                                  : nullptr;
    if (!field || value < 1)
      return false;
    *field = value;
  }
  return cfg.C % cfg.NH == 0 && cfg.V <= cfg.Vp && T <= cfg.maxT;
}

int main(int argc, char **argv) {
  // Our flags, removed before Google Benchmark sees the arguments.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const char *sizes = "--gpt2_sizes=";
    if (std::strcmp(argv[i], "--gpt2_124m") == 0) {
      cfg = kGpt2SmallConfig;
    } else if (std::strncmp(argv[i], sizes, std::strlen(sizes)) == 0) {
      if (!parseSizes(argv[i] + std::strlen(sizes))) {
        std::fprintf(stderr,
                     "bad %s: want e.g. --gpt2_sizes=L=1,C=64,V=512,Vp=512"
                     " (NH | C, V <= Vp, T <= maxT)\n",
                     argv[i]);
        return 1;
      }
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  argv[argc] = nullptr;

  if (int failures = gpt2_verify(&kCheckConfig, 2, 8, /*finite_differences=*/1,
                                 /*verbose=*/0)) {
    std::fprintf(stderr, "%d gradient check(s) failed: not timing\n", failures);
    return 1;
  }

  // A training step reuses its buffers from one step to the next (llm.c
  // allocates activations once). These steps allocate and free them
  // instead, which must not turn into mapping fresh pages every step: with
  // glibc's defaults, a step whose blocks add up to more than twice the
  // largest one returns the heap to the kernel when it frees them, and
  // pays page faults on every page next time. Both paths get the same
  // allocator; peak_bytes counts what they ask for either way.
  mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's largest
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::AddCustomContext(
      "gpt2", "L=" + std::to_string(cfg.L) + " NH=" + std::to_string(cfg.NH) +
                  " C=" + std::to_string(cfg.C) + " V=" +
                  std::to_string(cfg.V) + " Vp=" + std::to_string(cfg.Vp) +
                  " maxT=" + std::to_string(cfg.maxT) +
                  " B=" + std::to_string(B) + " T=" + std::to_string(T));
#ifdef GPT2_BENCH_FLAGS
  benchmark::AddCustomContext("flags", GPT2_BENCH_FLAGS);
#endif
#ifdef GPT2_BENCH_OMP
  benchmark::AddCustomContext("omp_threads",
                              std::to_string(omp_get_max_threads()));
#endif
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
