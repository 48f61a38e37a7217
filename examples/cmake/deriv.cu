// deriv.cu - forward and reverse mode in a CUDA kernel, checked on the host
// against the closed form: every thread differentiates g at its own point.
//
//   g(x) = x^3 sin(x),   g'(x) = 3 x^2 sin(x) + x^3 cos(x)
#include <ad.h>

#include <cmath>
#include <cstdio>

__device__ double g(double x) { return x * x * x * sin(x); }

__global__ void derivatives(const double *x, double *fwd, double *rev, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  fwd[i] = __ad_fwddiff((void *)g, x[i], 1.0);
  rev[i] = __ad_autodiff((void *)g, x[i]);
}

int main() {
  const int n = 64;
  double hx[n], hf[n], hr[n], *x, *f, *r;
  for (int i = 0; i < n; ++i)
    hx[i] = -2.0 + 4.0 * i / n;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&f, sizeof hf);
  cudaMalloc(&r, sizeof hr);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  derivatives<<<2, 32>>>(x, f, r, n);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  cudaError_t status = cudaMemcpy(hr, r, sizeof hr, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(status));
    return 2;
  }
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    double xi = hx[i];
    double want = 3 * xi * xi * std::sin(xi) + xi * xi * xi * std::cos(xi);
    double tol = 1e-12 * (1 + std::fabs(want));
    failures += std::fabs(hf[i] - want) > tol || std::fabs(hr[i] - want) > tol;
  }
  std::printf("CUDA g'(x) at %d points: %s\n", n, failures ? "WRONG" : "ok");
  cudaFree(x);
  cudaFree(f);
  cudaFree(r);
  return failures != 0;
}
