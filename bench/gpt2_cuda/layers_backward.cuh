// layers_backward.cuh - the handwritten backward of each forward layer, in
// the style of llm.c's CUDA backward kernels. Every gradient is added (+=)
// to what its buffer holds, as the plugin's gradients add theirs.
#ifndef GPT2_CUDA_LAYERS_BACKWARD_CUH
#define GPT2_CUDA_LAYERS_BACKWARD_CUH

#include "layers_forward.cuh"

constexpr int MaxChannels = 1024; // layernorm's per-block weight gradients

// A thread per element of dout: its gradient goes to the token's embedding
// row and the position's (rows several threads share: atomic adds).
__global__ void encoder_backward_kernel(real *__restrict__ dwte,
                                        real *__restrict__ dwpe,
                                        const real *__restrict__ dout,
                                        const int *__restrict__ inp, int B,
                                        int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * T * C)
    return;
  int c = idx % C, bt = idx / C, t = bt % T;
  real d = dout[idx];
  atomicAdd(&dwte[inp[bt] * C + c], d);
  atomicAdd(&dwpe[t * C + c], d);
}

// A warp per row, as the forward; the block sums its rows' weight and bias
// gradients in shared memory and adds them to the global ones once.
__global__ void layernorm_backward_kernel(
    real *__restrict__ dinp, real *__restrict__ dweight,
    real *__restrict__ dbias, const real *__restrict__ dout,
    const real *__restrict__ inp, const real *__restrict__ weight,
    const real *__restrict__ mean, const real *__restrict__ rstd, int N,
    int C) {
  __shared__ real dw[MaxChannels], db[MaxChannels];
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    dw[i] = db[i] = 0;
  __syncthreads();
  int lane = threadIdx.x % 32;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (row < N) {
    const real *x = inp + (long)row * C, *g = dout + (long)row * C;
    real m = mean[row], s = rstd[row];
    real dnormMean = 0, dnormNormMean = 0;
    for (int i = lane; i < C; i += 32) {
      real norm = (x[i] - m) * s;
      real dnorm = weight[i] * g[i];
      dnormMean += dnorm;
      dnormNormMean += dnorm * norm;
    }
    dnormMean = warpSum(dnormMean) / C;
    dnormNormMean = warpSum(dnormNormMean) / C;
    real *dx = dinp + (long)row * C;
    for (int i = lane; i < C; i += 32) {
      real norm = (x[i] - m) * s;
      real dnorm = weight[i] * g[i];
      atomicAdd(&db[i], g[i]);
      atomicAdd(&dw[i], norm * g[i]);
      dx[i] += s * (dnorm - dnormMean - norm * dnormNormMean);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    atomicAdd(&dweight[i], dw[i]);
    atomicAdd(&dbias[i], db[i]);
  }
}

template <bool ATransposed, bool BTransposed>
__global__ void
gemm_accumulate_kernel(real *__restrict__ out, const real *__restrict__ a,
                       const real *__restrict__ b, int M, int N, int K) {
  gemm_tile<true, false, ATransposed, BTransposed>(out, a, b, nullptr, M, N, K);
}

// dbias[oc] += sum over bt of dout[bt, oc]: 32 columns per block, its 8
// warps' rows summed in shared memory.
__global__ void bias_backward_kernel(real *__restrict__ dbias,
                                     const real *__restrict__ dout, int BT,
                                     int OC) {
  __shared__ real part[8][32];
  int oc = blockIdx.x * 32 + threadIdx.x;
  real s = 0;
  if (oc < OC)
    for (int bt = threadIdx.y; bt < BT; bt += 8)
      s += dout[(long)bt * OC + oc];
  part[threadIdx.y][threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.y == 0 && oc < OC) {
    for (int w = 1; w < 8; ++w)
      s += part[w][threadIdx.x];
    dbias[oc] += s;
  }
}

// dinp += dout . weight, dweight += dout^T . inp, dbias += column sums.
inline void matmul_backward_launch(real *dinp, real *dweight, real *dbias,
                                   const real *dout, const real *inp,
                                   const real *weight, int BT, int C, int OC) {
  gemm_accumulate_kernel<false, false>
      <<<gemmGrid(BT, C), GemmThreads>>>(dinp, dout, weight, BT, C, OC);
  gemm_accumulate_kernel<true, false>
      <<<gemmGrid(OC, C), GemmThreads>>>(dweight, dout, inp, OC, C, BT);
  if (dbias)
    bias_backward_kernel<<<ceilDiv(OC, 32), dim3(32, 8)>>>(dbias, dout, BT, OC);
}

// Attention's backward in two passes without atomics. First a thread per
// (b, t, head), as the forward: the gradient of each weight (datt), of each
// score through the softmax (dpreatt) and of the query. Then a thread per
// (b, t2, head) gathers its key's and value's gradients over the queries
// t >= t2 that saw them.
__global__ void attention_backward_query_kernel(real *__restrict__ dqkv,
                                                real *__restrict__ dpreatt,
                                                real *__restrict__ datt,
                                                const real *__restrict__ dout,
                                                const real *__restrict__ qkv,
                                                const real *__restrict__ att,
                                                int B, int T, int C, int NH) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * T * NH)
    return;
  AttentionThread a = attentionThread(idx, T, C, NH);
  int b = a.b, t = a.t, h = a.h, hs = a.hs, C3 = 3 * C;
  real scale = a.scale;
  const real *at = att + a.row;
  real *dat = datt + a.row, *dpre = dpreatt + a.row;
  const real *g = dout + (long)b * T * C + (long)t * C + h * hs;
  real dot = 0;
  for (int t2 = 0; t2 <= t; ++t2) {
    const real *v = qkv + (long)b * T * C3 + (long)t2 * C3 + h * hs + 2 * C;
    real d = 0;
    for (int i = 0; i < hs; ++i)
      d += v[i] * g[i];
    dat[t2] += d;
    dot += at[t2] * dat[t2];
  }
  real *dq = dqkv + (long)b * T * C3 + (long)t * C3 + h * hs;
  for (int t2 = 0; t2 <= t; ++t2) {
    real dp = at[t2] * (dat[t2] - dot);
    dpre[t2] += dp;
    const real *k = qkv + (long)b * T * C3 + (long)t2 * C3 + h * hs + C;
    for (int i = 0; i < hs; ++i)
      dq[i] += dpre[t2] * k[i] * scale;
  }
}
__global__ void attention_backward_key_value_kernel(
    real *__restrict__ dqkv, const real *__restrict__ dpreatt,
    const real *__restrict__ dout, const real *__restrict__ qkv,
    const real *__restrict__ att, int B, int T, int C, int NH) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * T * NH)
    return;
  AttentionThread a = attentionThread(idx, T, C, NH); // a.t: the key's t2
  int b = a.b, t2 = a.t, h = a.h, hs = a.hs, C3 = 3 * C;
  real scale = a.scale;
  real *dk = dqkv + (long)b * T * C3 + (long)t2 * C3 + h * hs + C;
  real *dv = dk + C;
  for (int t = t2; t < T; ++t) {
    long at = (((long)b * NH + h) * T + t) * T + t2;
    real dp = dpreatt[at] * scale, a = att[at];
    const real *q = qkv + (long)b * T * C3 + (long)t * C3 + h * hs;
    const real *g = dout + (long)b * T * C + (long)t * C + h * hs;
    for (int i = 0; i < hs; ++i) {
      dk[i] += dp * q[i];
      dv[i] += a * g[i];
    }
  }
}
inline void attention_backward_launch(real *dqkv, real *dpreatt, real *datt,
                                      const real *dout, const real *qkv,
                                      const real *att, int B, int T, int C,
                                      int NH) {
  dim3 grid = elementGrid((long)B * T * NH);
  attention_backward_query_kernel<<<grid, ElementBlock>>>(
      dqkv, dpreatt, datt, dout, qkv, att, B, T, C, NH);
  attention_backward_key_value_kernel<<<grid, ElementBlock>>>(
      dqkv, dpreatt, dout, qkv, att, B, T, C, NH);
}

__global__ void gelu_backward_kernel(real *__restrict__ dinp,
                                     const real *__restrict__ inp,
                                     const real *__restrict__ dout, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N)
    return;
  real x = inp[i];
  real cube = real(0.044715) * x * x * x;
  real arg = GELU_SCALE * (x + cube);
  real th = tanh(arg);
  real ch = cosh(arg);
  real sech2 = real(1) / (ch * ch);
  real local = real(0.5) * (real(1) + th) +
               x * real(0.5) * sech2 * GELU_SCALE *
                   (real(1) + real(3) * real(0.044715) * x * x);
  dinp[i] += local * dout[i];
}

__global__ void residual_backward_kernel(real *__restrict__ dinp1,
                                         real *__restrict__ dinp2,
                                         const real *__restrict__ dout, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N)
    return;
  real d = dout[i];
  dinp1[i] += d;
  dinp2[i] += d;
}

// llm.c's fused classifier: the softmax recomputed from the logits, a
// block per row, and dlogits = (softmax - onehot(target)) * dloss.
__global__ void crossentropy_backward_kernel(real *__restrict__ dlogits,
                                             const real *__restrict__ dlosses,
                                             const real *__restrict__ logits,
                                             const int *__restrict__ targets,
                                             int N, int V, int Vp) {
  __shared__ real scratch[ClassBlock];
  int row = blockIdx.x;
  const real *x = logits + (long)row * Vp;
  RowSoftmax r = rowSoftmax(x, V, scratch);
  real m = r.max, dloss = dlosses[row], inv = real(1) / r.sum;
  int target = targets[row];
  real *dx = dlogits + (long)row * Vp;
  for (int i = threadIdx.x; i < V; i += ClassBlock)
    dx[i] += (exp(x[i] - m) * inv - (i == target ? real(1) : real(0))) * dloss;
}

inline void encoder_backward_launch(real *dwte, real *dwpe, const real *dout,
                                    const int *inp, int B, int T, int C) {
  encoder_backward_kernel<<<elementGrid((long)B * T * C), ElementBlock>>>(
      dwte, dwpe, dout, inp, B, T, C);
}
inline void layernorm_backward_launch(real *dinp, real *dweight, real *dbias,
                                      const real *dout, const real *inp,
                                      const real *weight, const real *mean,
                                      const real *rstd, int N, int C) {
  layernorm_backward_kernel<<<rowGrid(N), RowBlock>>>(
      dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
}
inline void gelu_backward_launch(real *dinp, const real *inp, const real *dout,
                                 int N) {
  gelu_backward_kernel<<<elementGrid(N), ElementBlock>>>(dinp, inp, dout, N);
}
inline void residual_backward_launch(real *dinp1, real *dinp2, const real *dout,
                                     int N) {
  residual_backward_kernel<<<elementGrid(N), ElementBlock>>>(dinp1, dinp2, dout,
                                                             N);
}
inline void crossentropy_backward_launch(real *dlogits, const real *dlosses,
                                         const real *logits, const int *targets,
                                         int N, int V, int Vp) {
  crossentropy_backward_kernel<<<N, ClassBlock>>>(dlogits, dlosses, logits,
                                                  targets, N, V, Vp);
}

#endif
