// Works (keep it working): a value loaded in an inner loop that no write of
// that loop changes, though a later pass of the outer loop rewrites it
// (primal/ReloadVersioning.cpp, "unchanged in its loop"). ADBench's GMM
// computes xc = x - mu into one scratch buffer per component and walks the
// lower triangle with out[j] += ltri[L] * xc[i]: xc[i] is the same for every
// j, but alias analysis cannot tell xc from out (both are parameters), so
// the gradient taped xc[i] once per step of the triangle. A run-time check
// that the buffers are apart lets it keep xc[i] once per row instead; where
// they overlap (out written over xc) it runs the copy that tapes. Both
// layouts are checked against central differences at -O0 and -O2.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: gradient of 'gmm_like' checks at run time ({{[0-9]+}} conditions) that no later write changes {{[0-9]+}} loaded or stored values, and reads them back instead of caching them when none does; and that no write in their own loop changes 1 more, cached once per entry into the loop instead of once per iteration
// The triangle's inner loop tapes ltri[L] and xc[i] where the checks fail
// and only ltri[L] where they pass; its outer loop then keeps xc[i], once
// per row.
// (The running index L costs nothing per row: primal/CountedLoops.cpp.)
// CHECK: remark: gradient of 'gmm_like' caches {{.*}}16 bytes per iteration of the loop at line [[INNER:[0-9]+]], 4 bytes {{.*}}(where its run-time checks pass: {{.*}}8 bytes per iteration of the loop at line [[INNER]], 8 bytes per iteration of the loop at line [[OUTER:[0-9]+]], 4 bytes
// -Rpass-analysis=ad names each field: xc[i] (column 41 of the triangle's
// statement) per step where the checks fail, per row where they pass.
// RUN: %clang_ad -O2 -Rpass-analysis=ad -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIELDS
// FIELDS-DAG: remark: per iteration of the loop at line {{[0-9]+}}, the tape holds 8 bytes of load at line [[STMT:[0-9]+]]:41
// FIELDS-DAG: remark: per iteration of the loop at line {{[0-9]+}} (where its run-time checks pass), the tape holds 8 bytes of load at line [[STMT]]:41
#include <ad.h>
#include "ad_test.h"

#define D 4
#define K 3
#define NPTS 2
#define TRI (D * (D - 1) / 2)

/* sum over points and components of |Q_k (x - mu_k)|^2, Q_k lower triangular
 * with unit diagonal, its strict lower part in ltri (column by column). */
double gmm_like(const double *mu, const double *ltri, const double *x,
                double *xc, double *out, int d, int k, int n) {
  double r = 0;
  for (int p = 0; p < n; p++)
    for (int c = 0; c < k; c++) {
      for (int i = 0; i < d; i++)
        xc[i] = x[p * d + i] - mu[c * d + i];
      for (int i = 0; i < d; i++)
        out[i] = xc[i];
      int L = 0;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++) {
          out[j] += ltri[c * TRI + L] * xc[i];
          L++;
        }
      for (int i = 0; i < d; i++)
        r += out[i] * out[i] * (1.0 + 0.1 * c);
    }
  return r;
}

static double MU[K * D], LT[K * TRI], XS[NPTS * D];
/* Scratch: xc at D, out apart from it (offset D) or overlapping (offset -1:
 * out[j] is xc[j - 1], so the first step of row i's inner loop rewrites the
 * xc[i] the rest of the row reads). */
static double Scratch[3 * D];

static double value(int offset) {
  return gmm_like(MU, LT, XS, Scratch + D, Scratch + D + offset, D, K, NPTS);
}

static void check(int offset) {
  double dmu[K * D] = {0}, dlt[K * TRI] = {0}, dscratch[3 * D] = {0};
  __ad_autodiff((void *)gmm_like, MU, dmu, LT, dlt, __ad_const, XS,
                Scratch + D, dscratch + D, Scratch + D + offset,
                dscratch + D + offset, D, K, NPTS);
  double h = 1e-6;
  for (int q = 0; q < K * D; q++) {
    double s = MU[q];
    MU[q] = s + h;
    double up = value(offset);
    MU[q] = s - h;
    double down = value(offset);
    MU[q] = s;
    CHECK_CLOSE(dmu[q], (up - down) / (2 * h), 1e-6);
  }
  for (int q = 0; q < K * TRI; q++) {
    double s = LT[q];
    LT[q] = s + h;
    double up = value(offset);
    LT[q] = s - h;
    double down = value(offset);
    LT[q] = s;
    CHECK_CLOSE(dlt[q], (up - down) / (2 * h), 1e-6);
  }
}

int main(void) {
  for (int q = 0; q < K * D; q++)
    MU[q] = 0.3 * sin(q + 1.0);
  for (int q = 0; q < K * TRI; q++)
    LT[q] = 0.5 * cos(2.0 * q + 0.5);
  for (int q = 0; q < NPTS * D; q++)
    XS[q] = 1.0 + 0.7 * sin(3.0 * q);
  check(D); /* apart: the in-loop check passes */
  check(-1); /* overlapping: it fails, the taped copy runs */
  return ad_test_failures;
}
