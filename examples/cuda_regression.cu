// cuda_regression.cu - a reverse-mode gradient inside a CUDA kernel.
//
// Each thread fits one data point of y = a sin(b t) + c with a squared
// error; the three parameters are read by every thread, so their adjoints
// from all threads meet in dparams (the derivative adds them atomically).
// The gradient of the summed loss is checked against central finite
// differences computed on the host. `make demo` runs it on a GPU when one
// is present, else on the CPU with tools/cuda-host-run.
#include <ad.h>
#include <cmath>
#include <cstdio>

__host__ __device__ double model(const double *p, double t) {
  return p[0] * sin(p[1] * t) + p[2];
}

__device__ double loss(const double *params, const double *ts,
                       const double *ys) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double r = model(params, ts[i]) - ys[i];
  return r * r;
}

__global__ void gradient(const double *params, double *dparams,
                         const double *ts, const double *ys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __ad_autodiff((void *)loss, __ad_dup, params, dparams, __ad_const, ts,
                  __ad_const, ys);
}

int main() {
  const int n = 1024;
  double ts[n], ys[n], params[3] = {1.2, 0.8, -0.1}, grad[3];
  for (int i = 0; i < n; ++i) {
    ts[i] = 0.01 * i;
    ys[i] = 1.5 * std::sin(0.7 * ts[i]) + 0.2;
  }
  double *d_params, *d_grad, *d_ts, *d_ys;
  cudaMalloc(&d_params, sizeof params);
  cudaMalloc(&d_grad, sizeof grad);
  cudaMalloc(&d_ts, sizeof ts);
  cudaMalloc(&d_ys, sizeof ys);
  cudaMemcpy(d_params, params, sizeof params, cudaMemcpyHostToDevice);
  cudaMemcpy(d_ts, ts, sizeof ts, cudaMemcpyHostToDevice);
  cudaMemcpy(d_ys, ys, sizeof ys, cudaMemcpyHostToDevice);
  cudaMemset(d_grad, 0, sizeof grad);
  gradient<<<(n + 255) / 256, 256>>>(d_params, d_grad, d_ts, d_ys, n);
  if (cudaGetLastError() != cudaSuccess ||
      cudaMemcpy(grad, d_grad, sizeof grad, cudaMemcpyDeviceToHost) !=
          cudaSuccess) {
    printf("CUDA error\n");
    return 1;
  }
  int bad = 0;
  for (int k = 0; k < 3; ++k) {
    double h = 1e-6, lp = 0, lm = 0, p[3] = {params[0], params[1], params[2]};
    for (int i = 0; i < n; ++i) {
      p[k] = params[k] + h;
      double rp = model(p, ts[i]) - ys[i];
      p[k] = params[k] - h;
      double rm = model(p, ts[i]) - ys[i];
      lp += rp * rp, lm += rm * rm;
    }
    double fd = (lp - lm) / (2 * h);
    bool ok = std::fabs(grad[k] - fd) <= 1e-6 * (1 + std::fabs(fd));
    bad += !ok;
    printf("d loss / d p[%d] = %.10f   finite differences %.10f  %s\n", k,
           grad[k], fd, ok ? "ok" : "MISMATCH");
  }
  return bad;
}
