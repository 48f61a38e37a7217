// model.cuh - the GPT-2 model on the GPU: llm.c's parameter and activation
// layout, the forward pass, and one backward pass over the layers in
// reverse that either path (handwritten kernels, or the plugin's gradients
// of the forward layers) fills in.
#ifndef GPT2_CUDA_MODEL_CUH
#define GPT2_CUDA_MODEL_CUH

#include "layers_ad.cuh"
#include "layers_backward.cuh"
#include "layers_forward.cuh"

#include <vector>

struct GPT2Config {
  int L, NH, C, V, Vp, maxT; // the model (GPT-2 124M: 12, 12, 768, 50257,
                             // 50304, 1024)
  int B, T;                  // the batch
};

enum { NumParams = 16, NumActs = 22 };

// The parameters (and their gradients, same layout) as llm.c orders them.
struct Params {
  real *wte, *wpe, *ln1w, *ln1b, *qkvw, *qkvb, *attprojw, *attprojb, *ln2w,
      *ln2b, *fcw, *fcb, *fcprojw, *fcprojb, *lnfw, *lnfb;
};
inline void paramSizes(const GPT2Config &c, size_t sizes[NumParams]) {
  size_t L = c.L, C = c.C;
  size_t s[NumParams] = {
      (size_t)c.Vp * C,   // wte
      (size_t)c.maxT * C, // wpe
      L * C,              // ln1w
      L * C,              // ln1b
      L * 3 * C * C,      // qkvw
      L * 3 * C,          // qkvb
      L * C * C,          // attprojw
      L * C,              // attprojb
      L * C,              // ln2w
      L * C,              // ln2b
      L * 4 * C * C,      // fcw
      L * 4 * C,          // fcb
      L * C * 4 * C,      // fcprojw
      L * C,              // fcprojb
      C,                  // lnfw
      C                   // lnfb
  };
  for (int i = 0; i < NumParams; ++i)
    sizes[i] = s[i];
}

// The activations (and their gradients, same layout).
struct Acts {
  real *encoded, *ln1, *ln1_mean, *ln1_rstd, *qkv, *atty, *preatt, *att,
      *attproj, *residual2, *ln2, *ln2_mean, *ln2_rstd, *fch, *fch_gelu,
      *fcproj, *residual3, *lnf, *lnf_mean, *lnf_rstd, *logits, *losses;
};
inline void actSizes(const GPT2Config &c, size_t sizes[NumActs]) {
  size_t L = c.L, C = c.C, BT = (size_t)c.B * c.T,
         att = (size_t)c.B * c.NH * c.T * c.T;
  size_t s[NumActs] = {
      BT * C,            // encoded
      L * BT * C,        // ln1
      L * BT,            // ln1_mean
      L * BT,            // ln1_rstd
      L * BT * 3 * C,    // qkv
      L * BT * C,        // atty
      L * att,           // preatt
      L * att,           // att
      L * BT * C,        // attproj
      L * BT * C,        // residual2
      L * BT * C,        // ln2
      L * BT,            // ln2_mean
      L * BT,            // ln2_rstd
      L * BT * 4 * C,    // fch
      L * BT * 4 * C,    // fch_gelu
      L * BT * C,        // fcproj
      L * BT * C,        // residual3
      BT * C,            // lnf
      BT,                // lnf_mean
      BT,                // lnf_rstd
      BT * (size_t)c.Vp, // logits
      BT                 // losses
  };
  for (int i = 0; i < NumActs; ++i)
    sizes[i] = s[i];
}

// Points the struct's members (an array of real *) into one allocation.
template <class Tensors, int N>
real *allocateTensors(Tensors &t, const size_t (&sizes)[N], size_t *total) {
  size_t n = 0;
  for (int i = 0; i < N; ++i)
    n += sizes[i];
  real *base = dmalloc<real>(n);
  real **member = reinterpret_cast<real **>(&t);
  size_t at = 0;
  for (int i = 0; i < N; ++i) {
    member[i] = base + at;
    at += sizes[i];
  }
  *total = n;
  return base;
}

struct GPT2 {
  GPT2Config config;
  Params params, grads;
  Acts acts, gradActs;
  real *paramMemory, *gradMemory, *actMemory, *gradActMemory;
  size_t numParams, numActs;
  int *inputs, *targets; // B x T tokens
};

// Allocates the model with parameters from `init` (numParams values, copied)
// and the batch's tokens.
inline void gpt2_build(GPT2 &m, const GPT2Config &c, const real *init,
                       const int *inputs, const int *targets) {
  m.config = c;
  size_t ps[NumParams], as[NumActs];
  paramSizes(c, ps);
  actSizes(c, as);
  m.paramMemory = allocateTensors(m.params, ps, &m.numParams);
  m.gradMemory = allocateTensors(m.grads, ps, &m.numParams);
  m.actMemory = allocateTensors(m.acts, as, &m.numActs);
  m.gradActMemory = allocateTensors(m.gradActs, as, &m.numActs);
  CUDA_OK(cudaMemcpy(m.paramMemory, init, m.numParams * sizeof(real),
                     cudaMemcpyHostToDevice));
  size_t bt = (size_t)c.B * c.T;
  m.inputs = dmalloc<int>(bt);
  m.targets = dmalloc<int>(bt);
  CUDA_OK(
      cudaMemcpy(m.inputs, inputs, bt * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_OK(
      cudaMemcpy(m.targets, targets, bt * sizeof(int), cudaMemcpyHostToDevice));
}
inline void gpt2_free(GPT2 &m) {
  for (void *p :
       {(void *)m.paramMemory, (void *)m.gradMemory, (void *)m.actMemory,
        (void *)m.gradActMemory, (void *)m.inputs, (void *)m.targets})
    dfree(p);
}

inline void gpt2_forward(GPT2 &m) {
  const GPT2Config &c = m.config;
  int B = c.B, T = c.T, C = c.C, NH = c.NH, BT = B * T;
  Params &p = m.params;
  Acts &a = m.acts;
  encoder_forward_launch(a.encoded, m.inputs, p.wte, p.wpe, B, T, C);
  for (int l = 0; l < c.L; ++l) {
    long btc = (long)BT * C, att = (long)B * NH * T * T;
    real *residual = l == 0 ? a.encoded : a.residual3 + (l - 1) * btc;
    real *ln1 = a.ln1 + l * btc, *qkv = a.qkv + l * 3 * btc;
    real *atty = a.atty + l * btc, *attproj = a.attproj + l * btc;
    real *residual2 = a.residual2 + l * btc, *ln2 = a.ln2 + l * btc;
    real *fch = a.fch + l * 4 * btc, *fch_gelu = a.fch_gelu + l * 4 * btc;
    real *fcproj = a.fcproj + l * btc, *residual3 = a.residual3 + l * btc;
    layernorm_forward_launch(ln1, a.ln1_mean + l * BT, a.ln1_rstd + l * BT,
                             residual, p.ln1w + l * C, p.ln1b + l * C, BT, C);
    matmul_forward_launch(qkv, ln1, p.qkvw + (long)l * 3 * C * C,
                          p.qkvb + l * 3 * C, BT, C, 3 * C);
    attention_forward_launch(atty, a.preatt + l * att, a.att + l * att, qkv, B,
                             T, C, NH);
    matmul_forward_launch(attproj, atty, p.attprojw + (long)l * C * C,
                          p.attprojb + l * C, BT, C, C);
    residual_forward_launch(residual2, residual, attproj, BT * C);
    layernorm_forward_launch(ln2, a.ln2_mean + l * BT, a.ln2_rstd + l * BT,
                             residual2, p.ln2w + l * C, p.ln2b + l * C, BT, C);
    matmul_forward_launch(fch, ln2, p.fcw + (long)l * 4 * C * C,
                          p.fcb + l * 4 * C, BT, C, 4 * C);
    gelu_forward_launch(fch_gelu, fch, BT * 4 * C);
    matmul_forward_launch(fcproj, fch_gelu, p.fcprojw + (long)l * 4 * C * C,
                          p.fcprojb + l * C, BT, 4 * C, C);
    residual_forward_launch(residual3, residual2, fcproj, BT * C);
  }
  real *last = c.L > 0 ? a.residual3 + (long)(c.L - 1) * BT * C : a.encoded;
  layernorm_forward_launch(a.lnf, a.lnf_mean, a.lnf_rstd, last, p.lnfw, p.lnfb,
                           BT, C);
  matmul_forward_launch(a.logits, a.lnf, p.wte, nullptr, BT, C, c.Vp);
  crossentropy_forward_launch(a.losses, a.logits, m.targets, BT, c.V, c.Vp);
}

__global__ void fill_kernel(real *x, real v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = v;
}

// The handwritten backward's layers, called as the traversal names them:
// (the layer's forward arguments, each followed by its gradient).
struct Handwritten {
  static void encoder(real *, real *dout, const int *inp, const real *,
                      real *dwte, const real *, real *dwpe, int B, int T,
                      int C) {
    encoder_backward_launch(dwte, dwpe, dout, inp, B, T, C);
  }
  static void layernorm(real *, real *dout, real *mean, real *, real *rstd,
                        real *, const real *inp, real *dinp, const real *w,
                        real *dw, const real *, real *db, int N, int C) {
    layernorm_backward_launch(dinp, dw, db, dout, inp, w, mean, rstd, N, C);
  }
  static void matmul(real *, real *dout, const real *inp, real *dinp,
                     const real *w, real *dw, const real *, real *db, int BT,
                     int C, int OC) {
    matmul_backward_launch(dinp, dw, db, dout, inp, w, BT, C, OC);
  }
  static void attention(real *, real *dout, real *, real *dpreatt, real *att,
                        real *datt, const real *qkv, real *dqkv, int B, int T,
                        int C, int NH) {
    attention_backward_launch(dqkv, dpreatt, datt, dout, qkv, att, B, T, C, NH);
  }
  static void gelu(real *, real *dout, const real *inp, real *dinp, int N) {
    gelu_backward_launch(dinp, inp, dout, N);
  }
  static void residual(real *, real *dout, const real *, real *dinp1,
                       const real *, real *dinp2, int N) {
    residual_backward_launch(dinp1, dinp2, dout, N);
  }
  static void crossentropy(real *, real *dlosses, const real *logits,
                           real *dlogits, const int *targets, int N, int V,
                           int Vp) {
    crossentropy_backward_launch(dlogits, dlosses, logits, targets, N, V, Vp);
  }
};

// The plugin's: the same arguments to the gradients of the forward layers.
struct Differentiated {
  static constexpr auto encoder = encoder_ad_launch;
  static constexpr auto layernorm = layernorm_ad_launch;
  static constexpr auto matmul = matmul_ad_launch;
  static constexpr auto attention = attention_ad_launch;
  static constexpr auto gelu = gelu_ad_launch;
  static constexpr auto residual = residual_ad_launch;
  static constexpr auto crossentropy = crossentropy_ad_launch;
};

// Zeroes every gradient, seeds each position's loss with 1 / (B T) (the
// step's loss is their mean) and runs Path's layers in reverse.
template <class Path> void gpt2_backward(GPT2 &m) {
  const GPT2Config &c = m.config;
  int B = c.B, T = c.T, C = c.C, NH = c.NH, BT = B * T;
  CUDA_OK(cudaMemsetAsync(m.gradMemory, 0, m.numParams * sizeof(real)));
  CUDA_OK(cudaMemsetAsync(m.gradActMemory, 0, m.numActs * sizeof(real)));
  Params &p = m.params, &g = m.grads;
  Acts &a = m.acts, &d = m.gradActs;
  fill_kernel<<<ceilDiv(BT, 256), 256>>>(d.losses, real(1) / BT, BT);
  Path::crossentropy(a.losses, d.losses, a.logits, d.logits, m.targets, BT, c.V,
                     c.Vp);
  Path::matmul(a.logits, d.logits, a.lnf, d.lnf, p.wte, g.wte, nullptr, nullptr,
               BT, C, c.Vp);
  long btc = (long)BT * C, att = (long)B * NH * T * T;
  real *last = c.L > 0 ? a.residual3 + (c.L - 1) * btc : a.encoded;
  real *dlast = c.L > 0 ? d.residual3 + (c.L - 1) * btc : d.encoded;
  Path::layernorm(a.lnf, d.lnf, a.lnf_mean, d.lnf_mean, a.lnf_rstd, d.lnf_rstd,
                  last, dlast, p.lnfw, g.lnfw, p.lnfb, g.lnfb, BT, C);
  for (int l = c.L - 1; l >= 0; --l) {
    real *residual = l == 0 ? a.encoded : a.residual3 + (l - 1) * btc;
    real *dresidual = l == 0 ? d.encoded : d.residual3 + (l - 1) * btc;
    long o1 = l * btc, o3 = 3 * l * btc, o4 = 4 * l * btc;
    long w1 = (long)l * C * C, w3 = 3 * w1, w4 = 4 * w1;
    Path::residual(a.residual3 + o1, d.residual3 + o1, a.residual2 + o1,
                   d.residual2 + o1, a.fcproj + o1, d.fcproj + o1, BT * C);
    Path::matmul(a.fcproj + o1, d.fcproj + o1, a.fch_gelu + o4, d.fch_gelu + o4,
                 p.fcprojw + w4, g.fcprojw + w4, p.fcprojb + l * C,
                 g.fcprojb + l * C, BT, 4 * C, C);
    Path::gelu(a.fch_gelu + o4, d.fch_gelu + o4, a.fch + o4, d.fch + o4,
               BT * 4 * C);
    Path::matmul(a.fch + o4, d.fch + o4, a.ln2 + o1, d.ln2 + o1, p.fcw + w4,
                 g.fcw + w4, p.fcb + 4 * l * C, g.fcb + 4 * l * C, BT, C,
                 4 * C);
    Path::layernorm(a.ln2 + o1, d.ln2 + o1, a.ln2_mean + l * BT,
                    d.ln2_mean + l * BT, a.ln2_rstd + l * BT,
                    d.ln2_rstd + l * BT, a.residual2 + o1, d.residual2 + o1,
                    p.ln2w + l * C, g.ln2w + l * C, p.ln2b + l * C,
                    g.ln2b + l * C, BT, C);
    Path::residual(a.residual2 + o1, d.residual2 + o1, residual, dresidual,
                   a.attproj + o1, d.attproj + o1, BT * C);
    Path::matmul(a.attproj + o1, d.attproj + o1, a.atty + o1, d.atty + o1,
                 p.attprojw + w1, g.attprojw + w1, p.attprojb + l * C,
                 g.attprojb + l * C, BT, C, C);
    Path::attention(a.atty + o1, d.atty + o1, a.preatt + l * att,
                    d.preatt + l * att, a.att + l * att, d.att + l * att,
                    a.qkv + o3, d.qkv + o3, B, T, C, NH);
    Path::matmul(a.qkv + o3, d.qkv + o3, a.ln1 + o1, d.ln1 + o1, p.qkvw + w3,
                 g.qkvw + w3, p.qkvb + 3 * l * C, g.qkvb + 3 * l * C, BT, C,
                 3 * C);
    Path::layernorm(a.ln1 + o1, d.ln1 + o1, a.ln1_mean + l * BT,
                    d.ln1_mean + l * BT, a.ln1_rstd + l * BT,
                    d.ln1_rstd + l * BT, residual, dresidual, p.ln1w + l * C,
                    g.ln1w + l * C, p.ln1b + l * C, g.ln1b + l * C, BT, C);
  }
  Path::encoder(a.encoded, d.encoded, m.inputs, p.wte, g.wte, p.wpe, g.wpe, B,
                T, C);
}

// Parameters for the check and the benchmark: small values of every sign
// from a fixed generator (the same on both paths), layernorm weights near 1.
inline std::vector<real> gpt2_random_params(const GPT2Config &c,
                                            unsigned seed) {
  size_t ps[NumParams], n = 0;
  paramSizes(c, ps);
  for (size_t s : ps)
    n += s;
  std::vector<real> v(n);
  unsigned long long x = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (size_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    v[i] = real(((x >> 40) / double(1ull << 24) - 0.5) * 0.1);
  }
  size_t at = 0;
  for (int t = 0; t < NumParams; ++t) {
    if (t == 2 || t == 8 || t == 14)
      for (size_t i = 0; i < ps[t]; ++i)
        v[at + i] += real(1);
    at += ps[t];
  }
  return v;
}

#endif
