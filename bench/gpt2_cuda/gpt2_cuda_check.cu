// gpt2_cuda_check - the plugin's gradient of the CUDA GPT-2 step against
// the handwritten backward, and the handwritten one against central
// differences of the loss (double builds), at a size small enough for the
// CPU runner (tools/cuda-host-run). Prints one line per failure and
// "gpt2_cuda_check: N failures".
//
// Tolerances: every parameter gradient of the plugin's step within
// 1e-4 (float) or 1e-10 (double) of the handwritten one, relative to the
// largest magnitude in that parameter tensor (the two sum in different
// orders: atomics, shuffles); the handwritten gradient of 3 entries of
// every tensor within 1e-6 + 1e-5 |fd| of a central difference with step
// 1e-5 (double only: float's rounding would swamp the difference).
//
//   gpt2_cuda_check [L NH C V Vp B T]    (default 2 2 40 61 64 2 8)
//   GPT2_CUDA_HEAP_MB: the device heap for the tapes, in MiB
#include "model.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static int failures = 0;

static const char *paramNames[NumParams] = {
    "wte",      "wpe",      "ln1w", "ln1b", "qkvw", "qkvb",
    "attprojw", "attprojb", "ln2w", "ln2b", "fcw",  "fcb",
    "fcprojw",  "fcprojb",  "lnfw", "lnfb"};

static std::vector<real> download(const real *p, size_t n) {
  std::vector<real> v(n);
  CUDA_OK(cudaMemcpy(v.data(), p, n * sizeof(real), cudaMemcpyDeviceToHost));
  return v;
}

static double meanLoss(GPT2 &m) {
  gpt2_forward(m);
  size_t bt = (size_t)m.config.B * m.config.T;
  std::vector<real> l = download(m.acts.losses, bt);
  double s = 0;
  for (real x : l)
    s += x;
  return s / bt;
}

template <class Path> static std::vector<real> stepGradients(GPT2 &m) {
  gpt2_forward(m);
  gpt2_backward<Path>(m);
  CUDA_OK(cudaDeviceSynchronize());
  return download(m.gradMemory, m.numParams);
}

int main(int argc, char **argv) {
  // A derivative whose threads record more than 256 bytes keeps its tape in
  // the device heap; GPT2_CUDA_HEAP_MB sizes it (as the benchmark's).
  if (const char *mb = std::getenv("GPT2_CUDA_HEAP_MB"))
    CUDA_OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize,
                               std::strtoull(mb, nullptr, 10) << 20));
  GPT2Config c = {2, 2, 40, 61, 64, 8, 2, 8};
  if (argc == 8) {
    c.L = atoi(argv[1]), c.NH = atoi(argv[2]), c.C = atoi(argv[3]);
    c.V = atoi(argv[4]), c.Vp = atoi(argv[5]), c.B = atoi(argv[6]);
    c.T = c.maxT = atoi(argv[7]);
  }
  int BT = c.B * c.T;
  std::vector<int> inputs(BT), targets(BT);
  for (int i = 0; i < BT; ++i) {
    inputs[i] = (7 * i + 3) % c.V;
    targets[i] = (11 * i + 5) % c.V;
  }
  std::vector<real> init = gpt2_random_params(c, 42);
  GPT2 m;
  gpt2_build(m, c, init.data(), inputs.data(), targets.data());

  std::vector<real> hand = stepGradients<Handwritten>(m);
  std::vector<real> ad = stepGradients<Differentiated>(m);

  const double tol = sizeof(real) == 4 ? 1e-4 : 1e-10;
  size_t sizes[NumParams], at = 0;
  paramSizes(c, sizes);
  for (int t = 0; t < NumParams; ++t) {
    double scale = 0, worst = 0;
    size_t worstAt = 0;
    for (size_t i = 0; i < sizes[t]; ++i)
      scale = std::fmax(scale, std::fabs(double(hand[at + i])));
    for (size_t i = 0; i < sizes[t]; ++i) {
      double e = std::fabs(double(ad[at + i]) - double(hand[at + i]));
      if (!(e <= worst))
        worst = e, worstAt = i;
    }
    if (!(scale > 0) || !(worst <= tol * scale)) {
      std::printf("FAIL %s[%zu]: plugin %.9g handwritten %.9g (largest "
                  "|gradient| %.3g)\n",
                  paramNames[t], worstAt, double(ad[at + worstAt]),
                  double(hand[at + worstAt]), scale);
      ++failures;
    }
    at += sizes[t];
  }

  if (sizeof(real) == 8) {
    const double h = 1e-5;
    at = 0;
    for (int t = 0; t < NumParams; ++t) {
      for (int k = 0; k < 3; ++k) {
        size_t i = at + (sizes[t] - 1) * k / 2;
        if (t == 0) // an embedding row of a token that occurs
          i = at + (size_t)inputs[k] * c.C + k;
        real saved = init[i];
        init[i] = saved + real(h);
        CUDA_OK(cudaMemcpy(m.paramMemory + i, &init[i], sizeof(real),
                           cudaMemcpyHostToDevice));
        double up = meanLoss(m);
        init[i] = saved - real(h);
        CUDA_OK(cudaMemcpy(m.paramMemory + i, &init[i], sizeof(real),
                           cudaMemcpyHostToDevice));
        double down = meanLoss(m);
        init[i] = saved;
        CUDA_OK(cudaMemcpy(m.paramMemory + i, &init[i], sizeof(real),
                           cudaMemcpyHostToDevice));
        double fd = (up - down) / (2 * h);
        if (!(std::fabs(fd - double(hand[i])) <= 1e-6 + 1e-5 * std::fabs(fd))) {
          std::printf("FAIL %s[%zu]: handwritten %.12g central difference "
                      "%.12g\n",
                      paramNames[t], i - at, double(hand[i]), fd);
          ++failures;
        }
      }
      at += sizes[t];
    }
  }
  gpt2_free(m);
  std::printf("gpt2_cuda_check (%s): %d failures\n",
              sizeof(real) == 4 ? "float" : "double", failures);
  return failures != 0;
}
