// Reverse mode: matrix multiply in flat arrays (C is a dup output) and in double[3][3] arrays.
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"

#define NR 3
#define NK 4
#define NC 2

void __ad_autodiff_void(void *, ...);

/* C (n x p) = A (n x m) * B (m x p), row-major flat storage. */
static void matmul(const double *A, const double *B, double *C, int n, int m, int p) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      double s = 0;
      for (int k = 0; k < m; k++)
        s += A[i * m + k] * B[k * p + j];
      C[i * p + j] = s;
    }
}

/* sum_ij C_ij sin(C_ij) with C = A B, using 2-D arrays and a local product. */
static double loss3(double A[3][3], double B[3][3]) {
  double C[3][3], s = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      C[i][j] = 0;
      for (int k = 0; k < 3; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      s += C[i][j] * sin(C[i][j]);
  return s;
}

static double A3[3][3], B3[3][3];
static double loss3_a(double *a, int n) { (void)n; return loss3((double(*)[3])a, B3); }
static double loss3_b(double *b, int n) { (void)n; return loss3(A3, (double(*)[3])b); }

/* <G, A B>, the scalar that seeding dC with G differentiates. */
static double A[NR * NK], B[NK * NC], G[NR * NC];
static double gab(const double *a, const double *b) {
  double c[NR * NC], s = 0;
  matmul(a, b, c, NR, NK, NC);
  for (int i = 0; i < NR * NC; i++) s += G[i] * c[i];
  return s;
}
static double gab_a(double *a, int n) { (void)n; return gab(a, B); }
static double gab_b(double *b, int n) { (void)n; return gab(A, b); }

int main(void) {
  double C[NR * NC];
  double dA[NR * NK] = {0}, dB[NK * NC] = {0}, dC[NR * NC], Cref[NR * NC];
  for (int i = 0; i < NR * NK; i++) A[i] = ad_test_uniform(-1, 1);
  for (int i = 0; i < NK * NC; i++) B[i] = ad_test_uniform(-1, 1);
  for (int i = 0; i < NR * NC; i++) dC[i] = G[i] = ad_test_uniform(-1, 1);
  matmul(A, B, Cref, NR, NK, NC);

  /* Seed dC = G: dA = G B^T, dB = A^T G, dC reset to zero, C holds the product. */
  __ad_autodiff_void((void *)matmul, A, dA, B, dB, C, dC, NR, NK, NC);
  for (int i = 0; i < NR; i++)
    for (int k = 0; k < NK; k++) {
      double want = 0;
      for (int j = 0; j < NC; j++) want += G[i * NC + j] * B[k * NC + j];
      CHECK_CLOSE(dA[i * NK + k], want, 1e-10);
      CHECK_CLOSE(dA[i * NK + k], ad_fd_array(gab_a, A, NR * NK, i * NK + k), 1e-5);
    }
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NC; j++) {
      double want = 0;
      for (int i = 0; i < NR; i++) want += A[i * NK + k] * G[i * NC + j];
      CHECK_CLOSE(dB[k * NC + j], want, 1e-10);
      CHECK_CLOSE(dB[k * NC + j], ad_fd_array(gab_b, B, NK * NC, k * NC + j), 1e-5);
    }
  for (int i = 0; i < NR * NC; i++) {
    CHECK_TRUE(dC[i] == 0.0);
    CHECK_CLOSE(C[i], Cref[i], 1e-14);
  }

  /* 2-D arrays: dL/dC = sin C + C cos C =: H; dA = H B^T, dB = A^T H. */
  double dA3[3][3] = {{0}}, dB3[3][3] = {{0}}, C3[3][3], H[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      A3[i][j] = ad_test_uniform(-1, 1);
      B3[i][j] = ad_test_uniform(-1, 1);
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      C3[i][j] = 0;
      for (int k = 0; k < 3; k++) C3[i][j] += A3[i][k] * B3[k][j];
      H[i][j] = sin(C3[i][j]) + C3[i][j] * cos(C3[i][j]);
    }
  __ad_autodiff((void *)loss3, A3, dA3, B3, dB3);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double wa = 0, wb = 0;
      for (int k = 0; k < 3; k++) {
        wa += H[i][k] * B3[j][k];
        wb += A3[k][i] * H[k][j];
      }
      CHECK_CLOSE(dA3[i][j], wa, 1e-10);
      CHECK_CLOSE(dB3[i][j], wb, 1e-10);
      CHECK_CLOSE(dA3[i][j], ad_fd_array(loss3_a, &A3[0][0], 9, 3 * i + j), 1e-5);
      CHECK_CLOSE(dB3[i][j], ad_fd_array(loss3_b, &B3[0][0], 9, 3 * i + j), 1e-5);
    }

  return ad_test_finish();
}
