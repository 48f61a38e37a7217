/* cuda_forward.cu - forward mode in a CUDA kernel: every GPU thread
 * integrates its own Lotka-Volterra predator-prey system and gets the
 * sensitivity of the final prey population to the prey's growth rate,
 * checked against central finite differences on the host.
 *
 *   prey' = a prey - b prey pred,   pred' = d prey pred - c pred
 *
 * Thread i uses growth rate a_i; __ad_fwddiff carries the tangent da = 1
 * through the RK4 loop inside the kernel.
 *
 * make demo builds it for sm_80 and sm_90 and runs it on the GPU when one is
 * there, and otherwise on the CPU with tools/cuda-host-run. By hand:
 *   clang++-22 -x cuda --cuda-gpu-arch=sm_80 --cuda-path=/usr/local/cuda \
 *     -Xclang -target-sdk-version=13.0 -Wno-unknown-cuda-version \
 *     -fpass-plugin=build/ADPlugin.so -Iinclude -O2 examples/cuda_forward.cu \
 *     -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -pthread && ./a.out
 *   tools/cuda-host-run examples/cuda_forward.cu -O2
 */
#include <cmath>
#include <cstdio>

extern "C" __device__ double __ad_fwddiff(void *, ...);

/* The prey population after `steps` RK4 steps from (2, 1). */
__host__ __device__ double final_prey(double a, int steps) {
  const double b = 0.6, c = 0.8, d = 0.3, h = 0.01;
  double x = 2, y = 1;
  for (int s = 0; s < steps; ++s) {
    double k1x = a * x - b * x * y, k1y = d * x * y - c * y;
    double x2 = x + h / 2 * k1x, y2 = y + h / 2 * k1y;
    double k2x = a * x2 - b * x2 * y2, k2y = d * x2 * y2 - c * y2;
    double x3 = x + h / 2 * k2x, y3 = y + h / 2 * k2y;
    double k3x = a * x3 - b * x3 * y3, k3y = d * x3 * y3 - c * y3;
    double x4 = x + h * k3x, y4 = y + h * k3y;
    double k4x = a * x4 - b * x4 * y4, k4y = d * x4 * y4 - c * y4;
    x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    y += h / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);
  }
  return x;
}

__device__ double prey(double a, int steps) { return final_prey(a, steps); }

__global__ void sensitivities(const double *a, double *x, double *dx_da,
                              int steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  x[i] = prey(a[i], steps);
  /* Each active argument is followed by its tangent; `steps` is an int
   * and is passed as it is. */
  dx_da[i] = __ad_fwddiff((void *)prey, a[i], 1.0, steps);
}

int main() {
  const int n = 256, steps = 500;
  double ha[n], hx[n], hd[n], *a, *x, *d;
  for (int i = 0; i < n; ++i)
    ha[i] = 0.5 + 1.5 * i / n;
  cudaMalloc(&a, sizeof ha);
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&d, sizeof hd);
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  sensitivities<<<(n + 127) / 128, 128>>>(a, x, d, steps, n);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    printf("launch failed: %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    double h = 1e-6;
    double fd = (final_prey(ha[i] + h, steps) - final_prey(ha[i] - h, steps)) /
                (2 * h);
    worst = fmax(worst, fabs(hd[i] - fd) / (1 + fabs(fd)));
  }
  for (int i = 0; i < n; i += 85)
    printf("a = %.4f: prey(T) = %.6f, d prey(T)/da = %.6f\n", ha[i], hx[i],
           hd[i]);
  printf("%d threads: largest relative difference from finite differences "
         "%.1e\n",
         n, worst);
  return worst < 1e-6 ? 0 : 1;
}
