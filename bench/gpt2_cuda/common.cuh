// common.cuh - what every part of the CUDA GPT-2 step shares: the number
// type, error checks, and device memory counted at cudaMalloc (the step's
// peak_bytes).
#ifndef GPT2_CUDA_COMMON_CUH
#define GPT2_CUDA_COMMON_CUH

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

// The kernels' number type: float, as llm.c's; the check builds a double
// copy too, whose central differences are exact enough to check against.
#ifndef GPT2_REAL
#define GPT2_REAL float
#endif
typedef GPT2_REAL real;

#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   cudaGetErrorString(err_));                                  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// Every buffer of the step comes from dmalloc, which keeps the bytes held
// and the most held at once.
struct DeviceBytes {
  size_t live = 0, peak = 0;
  std::unordered_map<void *, size_t> sizes;
};
inline DeviceBytes &deviceBytes() {
  static DeviceBytes bytes;
  return bytes;
}
inline void resetDevicePeak() { deviceBytes().peak = deviceBytes().live; }

template <typename T> T *dmalloc(size_t count) {
  T *p = nullptr;
  size_t bytes = count * sizeof(T);
  CUDA_OK(cudaMalloc(&p, bytes));
  DeviceBytes &b = deviceBytes();
  b.sizes[p] = bytes;
  b.live += bytes;
  if (b.live > b.peak)
    b.peak = b.live;
  return p;
}
inline void dfree(void *p) {
  if (!p)
    return;
  DeviceBytes &b = deviceBytes();
  b.live -= b.sizes[p];
  b.sizes.erase(p);
  CUDA_OK(cudaFree(p));
}

inline int ceilDiv(long a, long b) { return int((a + b - 1) / b); }

#endif
