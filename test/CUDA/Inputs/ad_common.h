// Entry points and markers for device code, declared as a program may
// declare them itself (include/ad.h declares them too).
extern "C" __device__ double __ad_autodiff(void *, ...);
extern "C" __device__ float __ad_autodiff_float(void *, ...);
extern "C" __device__ void __ad_autodiff_void(void *, ...);
extern "C" __device__ double __ad_fwddiff(void *, ...);
extern "C" __device__ float __ad_fwddiff_float(void *, ...);
extern "C" __device__ void __ad_fwddiff_void(void *, ...);
extern __device__ int __ad_dup, __ad_const, __ad_out;

// Tolerances for a derivative against central finite differences of a
// host evaluation (h relative), per type.
template <typename T> struct Tol;
template <> struct Tol<double> {
  static constexpr double fd = 1e-6, exact = 1e-12;
  static constexpr double h = 1e-6;
};
template <> struct Tol<float> {
  static constexpr double fd = 2e-3, exact = 1e-5;
  static constexpr double h = 1e-3;
};

// Copies n Ts to a new device buffer.
template <typename T> T *to_device(const T *host, int n) {
  T *d;
  CUDA_OK(cudaMalloc(&d, sizeof(T) * n));
  CUDA_OK(cudaMemcpy(d, host, sizeof(T) * n, cudaMemcpyHostToDevice));
  return d;
}
template <typename T> T *zeros_on_device(int n) {
  T *d;
  CUDA_OK(cudaMalloc(&d, sizeof(T) * n));
  CUDA_OK(cudaMemset(d, 0, sizeof(T) * n));
  return d;
}
template <typename T> void to_host(T *host, const T *dev, int n) {
  CUDA_OK(cudaMemcpy(host, dev, sizeof(T) * n, cudaMemcpyDeviceToHost));
}
