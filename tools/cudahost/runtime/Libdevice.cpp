//===- Libdevice.cpp - libdevice's __nv_* functions on the host -----------===//
//
// The rows of NvFunctions.def, defined with the host's libm: a kernel's
// math calls give the host's correctly rounded or nearly so results, within
// the few ulps libdevice promises of the exact ones.
//
//===----------------------------------------------------------------------===//

#include <cmath>

namespace {
unsigned long long reverseBits(unsigned long long X, int Bits) {
  unsigned long long R = 0;
  for (int I = 0; I < Bits; ++I, X >>= 1)
    R = R << 1 | (X & 1);
  return R;
}
} // namespace

extern "C" {
#define NV_F1(N, E)                                                            \
  float __nv_##N(float x) { return E; }
#define NV_D1(N, E)                                                            \
  double __nv_##N(double x) { return E; }
#define NV_F2(N, E)                                                            \
  float __nv_##N(float x, float y) { return E; }
#define NV_D2(N, E)                                                            \
  double __nv_##N(double x, double y) { return E; }
#define NV_F3(N, E)                                                            \
  float __nv_##N(float x, float y, float z) { return E; }
#define NV_D3(N, E)                                                            \
  double __nv_##N(double x, double y, double z) { return E; }
#define NV_FN(N, R, P, E)                                                      \
  R __nv_##N P { return E; }
#include "NvFunctions.def"
}
