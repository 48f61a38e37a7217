// A memcpy of a struct holding a double and a pointer into output memory:
// the destination's shadow holds the seed (d out.v = 1), and the forward
// sweep copied the source's whole shadow over it to carry the pointer's
// shadow along, so the seed was gone before the reverse sweep moved it back
// (d in.v came out 0). Now only the pointers' shadows are copied
// (__ad_memcpy_pointers). Also an array of such structs, copied by a
// run-time length, and forward mode (where the whole shadow does move).
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <string.h>

typedef struct { double v; double *p; } S;

__attribute__((noinline)) static void copy_one(S *out, const S *in) {
  memcpy(out, in, sizeof(S));
}
/* out[i] = in[i] for n structs, then out[i].v *= *out[i].p */
__attribute__((noinline)) static void copy_scale(S *out, const S *in, int n) {
  memcpy(out, in, n * sizeof(S));
  for (int i = 0; i < n; i++)
    out[i].v *= *out[i].p;
}

int main(void) {
  double a = 2, da = 0;
  S in = {3, &a}, din = {0, &da}, out, dout = {1, &da};
  __ad_autodiff((void *)copy_one, &out, &dout, &in, &din);
  CHECK_CLOSE(din.v, 1, 0);
  CHECK_CLOSE(dout.v, 0, 0);

  double w[3] = {1.5, -2, 4}, dw[3] = {0};
  S ins[3] = {{1, &w[0]}, {2, &w[1]}, {3, &w[2]}};
  S dins[3] = {{0, &dw[0]}, {0, &dw[1]}, {0, &dw[2]}};
  S outs[3], douts[3] = {{1, &dw[0]}, {0.5, &dw[1]}, {-1, &dw[2]}};
  __ad_autodiff((void *)copy_scale, outs, douts, ins, dins, 3);
  for (int i = 0; i < 3; i++) {
    double seed = i == 0 ? 1 : i == 1 ? 0.5 : -1;
    CHECK_CLOSE(dins[i].v, seed * w[i], 1e-15);     /* d out.v / d in.v */
    CHECK_CLOSE(dw[i], seed * ins[i].v, 1e-15);      /* d out.v / d w */
  }

  /* Forward: the tangent of out.v is in.v's tangent times w, plus in.v
     times w's tangent. */
  double tw[3] = {0.25, 0, -1};
  S tins[3] = {{1, &tw[0]}, {0, &tw[1]}, {2, &tw[2]}}, touts[3];
  __ad_fwddiff((void *)copy_scale, outs, touts, ins, tins, 3);
  for (int i = 0; i < 3; i++)
    CHECK_CLOSE(touts[i].v, tins[i].v * w[i] + ins[i].v * tw[i], 1e-15);
  return ad_test_finish();
}
