// layers_ad.cuh - the plugin's gradient of each forward layer: a kernel,
// launched with the forward's grid, in which every thread calls
// __ad_autodiff on the layer's device function with the arguments of its
// forward call and their shadows. Outputs are __ad_dupnoneed (the step has
// already used their values); their shadows hold the incoming gradient,
// which the derivative consumes, and the inputs' shadows receive theirs
// (+=), as the handwritten backward's do.
#ifndef GPT2_CUDA_LAYERS_AD_CUH
#define GPT2_CUDA_LAYERS_AD_CUH

#include "layers_forward.cuh"

#include <ad.h>

// None of these calls has an __ad_out argument, so none returns anything.
extern "C" __device__ void __ad_autodiff_void(void *, ...);

__global__ void
encoder_ad_kernel(real *__restrict__ out, real *__restrict__ dout,
                  const int *__restrict__ inp, const real *__restrict__ wte,
                  real *__restrict__ dwte, const real *__restrict__ wpe,
                  real *__restrict__ dwpe, int B, int T, int C) {
  __ad_autodiff_void((void *)encoder_forward, __ad_dupnoneed, out, dout,
                     __ad_const, inp, __ad_dup, wte, dwte, __ad_dup, wpe, dwpe,
                     __ad_const, B, __ad_const, T, __ad_const, C);
}

__global__ void layernorm_ad_kernel(
    real *__restrict__ out, real *__restrict__ dout, real *__restrict__ mean,
    real *__restrict__ dmean, real *__restrict__ rstd, real *__restrict__ drstd,
    const real *__restrict__ inp, real *__restrict__ dinp,
    const real *__restrict__ weight, real *__restrict__ dweight,
    const real *__restrict__ bias, real *__restrict__ dbias, int N, int C) {
  __ad_autodiff_void((void *)layernorm_forward, __ad_dupnoneed, out, dout,
                     __ad_dupnoneed, mean, dmean, __ad_dupnoneed, rstd, drstd,
                     __ad_dup, inp, dinp, __ad_dup, weight, dweight, __ad_dup,
                     bias, dbias, __ad_const, N, __ad_const, C);
}

__global__ void
matmul_ad_kernel(real *__restrict__ out, real *__restrict__ dout,
                 const real *__restrict__ inp, real *__restrict__ dinp,
                 const real *__restrict__ weight, real *__restrict__ dweight,
                 const real *__restrict__ bias, real *__restrict__ dbias,
                 int BT, int C, int OC) {
  if (bias)
    __ad_autodiff_void((void *)matmul_forward, __ad_dupnoneed, out, dout,
                       __ad_dup, inp, dinp, __ad_dup, weight, dweight, __ad_dup,
                       bias, dbias, __ad_const, BT, __ad_const, C, __ad_const,
                       OC);
  else
    __ad_autodiff_void((void *)matmul_forward_nobias, __ad_dupnoneed, out, dout,
                       __ad_dup, inp, dinp, __ad_dup, weight, dweight,
                       __ad_const, BT, __ad_const, C, __ad_const, OC);
}

__global__ void
attention_ad_kernel(real *__restrict__ out, real *__restrict__ dout,
                    real *__restrict__ preatt, real *__restrict__ dpreatt,
                    real *__restrict__ att, real *__restrict__ datt,
                    const real *__restrict__ qkv, real *__restrict__ dqkv,
                    int B, int T, int C, int NH) {
  __ad_autodiff_void((void *)attention_forward, __ad_dupnoneed, out, dout,
                     __ad_dupnoneed, preatt, dpreatt, __ad_dupnoneed, att, datt,
                     __ad_dup, qkv, dqkv, __ad_const, B, __ad_const, T,
                     __ad_const, C, __ad_const, NH);
}

__global__ void gelu_ad_kernel(real *__restrict__ out, real *__restrict__ dout,
                               const real *__restrict__ inp,
                               real *__restrict__ dinp, int N) {
  __ad_autodiff_void((void *)gelu_forward, __ad_dupnoneed, out, dout, __ad_dup,
                     inp, dinp, __ad_const, N);
}

__global__ void residual_ad_kernel(real *__restrict__ out,
                                   real *__restrict__ dout,
                                   const real *__restrict__ inp1,
                                   real *__restrict__ dinp1,
                                   const real *__restrict__ inp2,
                                   real *__restrict__ dinp2, int N) {
  __ad_autodiff_void((void *)residual_forward, __ad_dupnoneed, out, dout,
                     __ad_dup, inp1, dinp1, __ad_dup, inp2, dinp2, __ad_const,
                     N);
}

__global__ void crossentropy_ad_kernel(real *__restrict__ losses,
                                       real *__restrict__ dlosses,
                                       const real *__restrict__ logits,
                                       real *__restrict__ dlogits,
                                       const int *__restrict__ targets, int N,
                                       int V, int Vp) {
  __ad_autodiff_void((void *)crossentropy_forward, __ad_dupnoneed, losses,
                     dlosses, __ad_dup, logits, dlogits, __ad_const, targets,
                     __ad_const, N, __ad_const, V, __ad_const, Vp);
}

inline void encoder_ad_launch(real *out, real *dout, const int *inp,
                              const real *wte, real *dwte, const real *wpe,
                              real *dwpe, int B, int T, int C) {
  encoder_ad_kernel<<<elementGrid((long)B * T * C), ElementBlock>>>(
      out, dout, inp, wte, dwte, wpe, dwpe, B, T, C);
}
inline void layernorm_ad_launch(real *out, real *dout, real *mean, real *dmean,
                                real *rstd, real *drstd, const real *inp,
                                real *dinp, const real *weight, real *dweight,
                                const real *bias, real *dbias, int N, int C) {
  layernorm_ad_kernel<<<rowGrid(N), RowBlock>>>(out, dout, mean, dmean, rstd,
                                                drstd, inp, dinp, weight,
                                                dweight, bias, dbias, N, C);
}
inline void matmul_ad_launch(real *out, real *dout, const real *inp, real *dinp,
                             const real *weight, real *dweight,
                             const real *bias, real *dbias, int BT, int C,
                             int OC) {
  matmul_ad_kernel<<<gemmGrid(BT, OC), GemmThreads>>>(
      out, dout, inp, dinp, weight, dweight, bias, dbias, BT, C, OC);
}
inline void attention_ad_launch(real *out, real *dout, real *preatt,
                                real *dpreatt, real *att, real *datt,
                                const real *qkv, real *dqkv, int B, int T,
                                int C, int NH) {
  attention_ad_kernel<<<elementGrid((long)B * T * NH), ElementBlock>>>(
      out, dout, preatt, dpreatt, att, datt, qkv, dqkv, B, T, C, NH);
}
inline void gelu_ad_launch(real *out, real *dout, const real *inp, real *dinp,
                           int N) {
  gelu_ad_kernel<<<elementGrid(N), ElementBlock>>>(out, dout, inp, dinp, N);
}
inline void residual_ad_launch(real *out, real *dout, const real *inp1,
                               real *dinp1, const real *inp2, real *dinp2,
                               int N) {
  residual_ad_kernel<<<elementGrid(N), ElementBlock>>>(out, dout, inp1, dinp1,
                                                       inp2, dinp2, N);
}
inline void crossentropy_ad_launch(real *losses, real *dlosses,
                                   const real *logits, real *dlogits,
                                   const int *targets, int N, int V, int Vp) {
  crossentropy_ad_kernel<<<N, ClassBlock>>>(losses, dlosses, logits, dlogits,
                                            targets, N, V, Vp);
}

#endif
