// layers_forward.cuh - GPT-2's forward layers as CUDA device functions, in
// the style of llm.c's CUDA kernels, each with the kernel that runs it and
// its launch. The plugin differentiates these same device functions
// (layers_ad.cuh), launched with the same grids, so the two backward paths
// differ only in how the gradient is obtained.
//
// Every layer function computes the share of the thread that calls it from
// the thread and block indices; its kernel only calls it.
#ifndef GPT2_CUDA_LAYERS_FORWARD_CUH
#define GPT2_CUDA_LAYERS_FORWARD_CUH

#include "common.cuh"

#include <cmath>

constexpr int ElementBlock = 256; // threads per block of the elementwise layers
constexpr int RowBlock = 256;     // layernorm: 8 warps, a row each
constexpr int ClassBlock = 256;   // crossentropy: a block per row
constexpr int GemmBM = 64, GemmBN = 64, GemmBK = 16; // a block's tile
constexpr int GemmThreads = 256; // 16 x 16, a 4 x 4 part of the tile each

__device__ __forceinline__ real warpSum(real v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// out[b,t,:] = wte[inp[b,t],:] + wpe[t,:]; a thread per element.
__device__ void encoder_forward(real *out, const int *inp, const real *wte,
                                const real *wpe, int B, int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * T * C)
    return;
  int c = idx % C, bt = idx / C, t = bt % T;
  out[idx] = wte[inp[bt] * C + c] + wpe[t * C + c];
}

// A warp per row of C: mean and reciprocal standard deviation by warp
// reductions, then the normalized row scaled and shifted.
__device__ void layernorm_forward(real *out, real *mean, real *rstd,
                                  const real *inp, const real *weight,
                                  const real *bias, int N, int C) {
  int lane = threadIdx.x % 32;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (row >= N)
    return; // whole warps: blockDim is a multiple of 32
  const real *x = inp + (long)row * C;
  real sum = 0;
  for (int i = lane; i < C; i += 32)
    sum += x[i];
  real m = warpSum(sum) / C;
  real var = 0;
  for (int i = lane; i < C; i += 32) {
    real d = x[i] - m;
    var += d * d;
  }
  real s = real(1) / sqrt(warpSum(var) / C + real(1e-5));
  real *o = out + (long)row * C;
  for (int i = lane; i < C; i += 32)
    o[i] = (s * (x[i] - m)) * weight[i] + bias[i];
  if (lane == 0) {
    mean[row] = m;
    rstd[row] = s;
  }
}

// out(m, n) [+]= sum_k A(m, k) B(k, n) (+ bias[n]), out M x N row-major,
// A M x K and B K x N each row-major or transposed (ATransposed: A(m, k) =
// a[k * M + m], else a[m * K + k]; BTransposed: B(k, n) = b[n * K + k],
// else b[k * N + n]): a 64 x 64 tile of out per block, through 16-deep
// shared-memory tiles of A and B; each thread keeps a 4 x 4 part in
// registers (rows ty + 16 i, columns tx + 16 j, so that a warp's shared
// reads and global writes are consecutive). The forward matmuls and the
// handwritten backward's all run it, each with its own layout.
template <bool Accumulate, bool HasBias, bool ATransposed, bool BTransposed>
__device__ __forceinline__ void gemm_tile(real *out, const real *a,
                                          const real *b, const real *bias,
                                          int M, int N, int K) {
  const long am = ATransposed ? 1 : K, ak = ATransposed ? M : 1;
  const long bk = BTransposed ? 1 : N, bn = BTransposed ? K : 1;
  __shared__ real As[GemmBK][GemmBM];
  __shared__ real Bs[GemmBK][GemmBN];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int m0 = blockIdx.y * GemmBM, n0 = blockIdx.x * GemmBN;
  real acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0;
  for (int k0 = 0; k0 < K; k0 += GemmBK) {
    // Each tile is 1024 elements, 4 per thread; consecutive threads take
    // consecutive addresses along whichever index has stride 1.
    for (int l = 0; l < 4; ++l) {
      int e = threadIdx.x + l * GemmThreads;
      int mm = ATransposed ? e % GemmBM : e / GemmBK;
      int kk = ATransposed ? e / GemmBM : e % GemmBK;
      int gm = m0 + mm, gk = k0 + kk;
      As[kk][mm] = gm < M && gk < K ? a[gm * am + gk * ak] : real(0);
      int nn = BTransposed ? e / GemmBK : e % GemmBN;
      int kb = BTransposed ? e % GemmBK : e / GemmBN;
      int gn = n0 + nn, gkb = k0 + kb;
      Bs[kb][nn] = gkb < K && gn < N ? b[gkb * bk + gn * bn] : real(0);
    }
    __syncthreads();
    for (int kk = 0; kk < GemmBK; ++kk) {
      real ar[4], br[4];
      for (int i = 0; i < 4; ++i)
        ar[i] = As[kk][ty + 16 * i];
      for (int j = 0; j < 4; ++j)
        br[j] = Bs[kk][tx + 16 * j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += ar[i] * br[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) {
        real v = acc[i][j];
        if (HasBias)
          v += bias[gn];
        real *o = out + (long)gm * N + gn;
        *o = Accumulate ? *o + v : v;
      }
    }
}

// out[bt, oc] = inp[bt, :] . weight[oc, :] + bias[oc] (weight OC x C).
__device__ void matmul_forward(real *out, const real *inp, const real *weight,
                               const real *bias, int BT, int C, int OC) {
  gemm_tile<false, true, false, true>(out, inp, weight, bias, BT, OC, C);
}
// The same without a bias (the tied classifier, weight = wte).
__device__ void matmul_forward_nobias(real *out, const real *inp,
                                      const real *weight, int BT, int C,
                                      int OC) {
  gemm_tile<false, false, false, true>(out, inp, weight, nullptr, BT, OC, C);
}

// Which (b, t, head) attention's thread idx works on (heads fastest), with
// the head's size, its scores' scale and where its row of T scores starts:
// the forward's threads and the handwritten backward's alike.
struct AttentionThread {
  int b, t, h, hs;
  real scale;
  long row;
};
__device__ __forceinline__ AttentionThread attentionThread(int idx, int T,
                                                           int C, int NH) {
  int b = idx / (NH * T), t = idx / NH % T, h = idx % NH, hs = C / NH;
  return {
      b, t, h, hs, real(1) / sqrt(real(hs)), (((long)b * NH + h) * T + t) * T};
}

// Causal self-attention, a thread per (b, t, head), as llm.c's reference:
// scores against every earlier key (preatt), their softmax (att), and the
// weighted sum of the values into out. qkv holds q, k, v per position.
__device__ void attention_forward(real *out, real *preatt, real *att,
                                  const real *qkv, int B, int T, int C,
                                  int NH) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * T * NH)
    return;
  AttentionThread a = attentionThread(idx, T, C, NH);
  int b = a.b, t = a.t, h = a.h, hs = a.hs, C3 = 3 * C;
  real scale = a.scale;
  const real *q = qkv + (long)b * T * C3 + (long)t * C3 + h * hs;
  real *pre = preatt + a.row, *at = att + a.row;
  real maxv = real(-10000);
  for (int t2 = 0; t2 <= t; ++t2) {
    const real *k = qkv + (long)b * T * C3 + (long)t2 * C3 + h * hs + C;
    real v = 0;
    for (int i = 0; i < hs; ++i)
      v += q[i] * k[i];
    v *= scale;
    pre[t2] = v;
    maxv = fmax(maxv, v);
  }
  real sum = 0;
  for (int t2 = 0; t2 <= t; ++t2) {
    real e = exp(pre[t2] - maxv);
    sum += e;
    at[t2] = e;
  }
  real inv = real(1) / sum;
  for (int t2 = 0; t2 < T; ++t2)
    at[t2] = t2 <= t ? at[t2] * inv : real(0);
  real *o = out + (long)b * T * C + (long)t * C + h * hs;
  for (int i = 0; i < hs; ++i)
    o[i] = 0;
  for (int t2 = 0; t2 <= t; ++t2) {
    const real *v = qkv + (long)b * T * C3 + (long)t2 * C3 + h * hs + 2 * C;
    real a = at[t2];
    for (int i = 0; i < hs; ++i)
      o[i] += a * v[i];
  }
}

#define GELU_SCALE real(0.7978845608028654) // sqrt(2 / pi)
__device__ void gelu_forward(real *out, const real *inp, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N)
    return;
  real x = inp[i];
  real cube = real(0.044715) * x * x * x;
  out[i] = real(0.5) * x * (real(1) + tanh(GELU_SCALE * (x + cube)));
}

__device__ void residual_forward(real *out, const real *inp1, const real *inp2,
                                 int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N)
    return;
  out[i] = inp1[i] + inp2[i];
}

// A block's maximum and sum over its threads' values, through shared memory
// (every thread gets the result).
__device__ __forceinline__ real blockMax(real v, real *scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (int stride = ClassBlock / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      scratch[threadIdx.x] =
          fmax(scratch[threadIdx.x], scratch[threadIdx.x + stride]);
    __syncthreads();
  }
  real r = scratch[0];
  __syncthreads();
  return r;
}
__device__ __forceinline__ real blockSum(real v, real *scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
  for (int stride = ClassBlock / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      scratch[threadIdx.x] += scratch[threadIdx.x + stride];
    __syncthreads();
  }
  real r = scratch[0];
  __syncthreads();
  return r;
}

// The largest of a row's V logits and the sum of exp(x - largest), the
// block's threads each taking every ClassBlock-th: the first two passes of
// llm.c's fused classifier, forward and backward alike.
struct RowSoftmax {
  real max, sum;
};
__device__ __forceinline__ RowSoftmax rowSoftmax(const real *x, int V,
                                                 real *scratch) {
  real m = real(-1e30);
  for (int i = threadIdx.x; i < V; i += ClassBlock)
    m = fmax(m, x[i]);
  m = blockMax(m, scratch);
  real s = 0;
  for (int i = threadIdx.x; i < V; i += ClassBlock)
    s += exp(x[i] - m);
  return {m, blockSum(s, scratch)};
}

// Softmax over a row's V logits (of Vp, padded) and the negative log
// likelihood of its target, a block per row, as llm.c's fused classifier
// computes it: loss = max + log(sum exp(x - max)) - x[target].
__device__ void crossentropy_forward(real *losses, const real *logits,
                                     const int *targets, int N, int V, int Vp) {
  __shared__ real scratch[ClassBlock];
  int row = blockIdx.x;
  const real *x = logits + (long)row * Vp;
  RowSoftmax r = rowSoftmax(x, V, scratch);
  if (threadIdx.x == 0 && row < N)
    losses[row] = r.max + log(r.sum) - x[targets[row]];
}

// The kernels and their launches.
__global__ void encoder_forward_kernel(real *__restrict__ out,
                                       const int *__restrict__ inp,
                                       const real *__restrict__ wte,
                                       const real *__restrict__ wpe, int B,
                                       int T, int C) {
  encoder_forward(out, inp, wte, wpe, B, T, C);
}
__global__ void
layernorm_forward_kernel(real *__restrict__ out, real *__restrict__ mean,
                         real *__restrict__ rstd, const real *__restrict__ inp,
                         const real *__restrict__ weight,
                         const real *__restrict__ bias, int N, int C) {
  layernorm_forward(out, mean, rstd, inp, weight, bias, N, C);
}
__global__ void matmul_forward_kernel(real *__restrict__ out,
                                      const real *__restrict__ inp,
                                      const real *__restrict__ weight,
                                      const real *__restrict__ bias, int BT,
                                      int C, int OC) {
  if (bias)
    matmul_forward(out, inp, weight, bias, BT, C, OC);
  else
    matmul_forward_nobias(out, inp, weight, BT, C, OC);
}
__global__ void attention_forward_kernel(real *__restrict__ out,
                                         real *__restrict__ preatt,
                                         real *__restrict__ att,
                                         const real *__restrict__ qkv, int B,
                                         int T, int C, int NH) {
  attention_forward(out, preatt, att, qkv, B, T, C, NH);
}
__global__ void gelu_forward_kernel(real *__restrict__ out,
                                    const real *__restrict__ inp, int N) {
  gelu_forward(out, inp, N);
}
__global__ void residual_forward_kernel(real *__restrict__ out,
                                        const real *__restrict__ inp1,
                                        const real *__restrict__ inp2, int N) {
  residual_forward(out, inp1, inp2, N);
}
__global__ void crossentropy_forward_kernel(real *__restrict__ losses,
                                            const real *__restrict__ logits,
                                            const int *__restrict__ targets,
                                            int N, int V, int Vp) {
  crossentropy_forward(losses, logits, targets, N, V, Vp);
}

// Grids: the layer's launch shape, which its gradients reuse.
inline dim3 elementGrid(long n) { return dim3(ceilDiv(n, ElementBlock)); }
inline dim3 rowGrid(int rows) { return dim3(ceilDiv(rows, RowBlock / 32)); }
inline dim3 gemmGrid(int M, int N) {
  return dim3(ceilDiv(N, GemmBN), ceilDiv(M, GemmBM));
}

inline void encoder_forward_launch(real *out, const int *inp, const real *wte,
                                   const real *wpe, int B, int T, int C) {
  encoder_forward_kernel<<<elementGrid((long)B * T * C), ElementBlock>>>(
      out, inp, wte, wpe, B, T, C);
}
inline void layernorm_forward_launch(real *out, real *mean, real *rstd,
                                     const real *inp, const real *weight,
                                     const real *bias, int N, int C) {
  layernorm_forward_kernel<<<rowGrid(N), RowBlock>>>(out, mean, rstd, inp,
                                                     weight, bias, N, C);
}
inline void matmul_forward_launch(real *out, const real *inp,
                                  const real *weight, const real *bias, int BT,
                                  int C, int OC) {
  matmul_forward_kernel<<<gemmGrid(BT, OC), GemmThreads>>>(out, inp, weight,
                                                           bias, BT, C, OC);
}
inline void attention_forward_launch(real *out, real *preatt, real *att,
                                     const real *qkv, int B, int T, int C,
                                     int NH) {
  attention_forward_kernel<<<elementGrid((long)B * T * NH), ElementBlock>>>(
      out, preatt, att, qkv, B, T, C, NH);
}
inline void gelu_forward_launch(real *out, const real *inp, int N) {
  gelu_forward_kernel<<<elementGrid(N), ElementBlock>>>(out, inp, N);
}
inline void residual_forward_launch(real *out, const real *inp1,
                                    const real *inp2, int N) {
  residual_forward_kernel<<<elementGrid(N), ElementBlock>>>(out, inp1, inp2, N);
}
inline void crossentropy_forward_launch(real *losses, const real *logits,
                                        const int *targets, int N, int V,
                                        int Vp) {
  crossentropy_forward_kernel<<<N, ClassBlock>>>(losses, logits, targets, N, V,
                                                 Vp);
}

#endif
