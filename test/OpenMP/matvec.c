// A row-parallel matrix-vector product y = tanh(W x), W and x both active,
// in double and float, in both modes. dW's rows belong to the thread that
// ran the row (plain updates suffice); every thread reads all of x, so dx
// is shared and its adjoints must all arrive.
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && %omp_run %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && %omp_run %t.O2
#include "omp_test.h"
#include <ad.h>

#define ROWS 23
#define COLS 17

/* x holds W (ROWS x COLS, row-major) then the vector (COLS) */
static void matvec(const double *x, double *y, int n) {
  const double *w = x, *v = x + ROWS * COLS;
  (void)n;
#pragma omp parallel for
  for (int r = 0; r < ROWS; r++) {
    double s = 0;
    for (int c = 0; c < COLS; c++)
      s += w[r * COLS + c] * v[c];
    y[r] = tanh(s);
  }
}

/* float, W and x as separate arguments, reduced to <u, W x> serially. */
static const float U[ROWS] = {0.3f,  -0.2f, 0.5f,  0.1f,  -0.7f, 0.4f,
                              0.9f,  -0.1f, 0.2f,  -0.3f, 0.6f,  -0.5f,
                              0.8f,  0.05f, -0.4f, 0.7f,  -0.6f, 0.15f,
                              -0.9f, 0.25f, 0.35f, -0.8f, 0.45f};

static float matvec_f(const float *w, const float *v) {
  float y[ROWS], s = 0;
#pragma omp parallel for schedule(static, 2)
  for (int r = 0; r < ROWS; r++) {
    float a = 0;
    for (int c = 0; c < COLS; c++)
      a += w[r * COLS + c] * v[c];
    y[r] = a * a;
  }
  for (int r = 0; r < ROWS; r++)
    s += U[r] * y[r];
  return s;
}

static double matvec_f_twin(double *x, int n) {
  double s = 0;
  (void)n;
  for (int r = 0; r < ROWS; r++) {
    double a = 0;
    for (int c = 0; c < COLS; c++)
      a += x[r * COLS + c] * x[ROWS * COLS + c];
    s += U[r] * a * a;
  }
  return s;
}

static void check_float(void) {
  enum { NW = ROWS * COLS, NX = NW + COLS };
  float w[NW], v[COLS], dw[NW] = {0}, dv[COLS] = {0}, tw[NW], tv[COLS];
  double x[NX], dx[NX];
  omp_fillf(w, NW, -1, 1);
  omp_fillf(v, COLS, -1, 1);
  omp_fillf(tw, NW, -1, 1);
  omp_fillf(tv, COLS, -1, 1);
  __ad_autodiff_void((void *)matvec_f, w, dw, v, dv);
  for (int i = 0; i < NW; i++) {
    x[i] = w[i];
    dx[i] = dw[i];
  }
  for (int c = 0; c < COLS; c++) {
    x[NW + c] = v[c];
    dx[NW + c] = dv[c];
  }
  omp_check_grad("float matvec: gradient", matvec_f_twin, x, dx, NX, 1e-4);
  float t = __ad_fwddiff_f((void *)matvec_f, w, tw, v, tv);
  omp_check_close("float matvec: forward vs reverse", 0, t,
                  omp_dotf(tw, dw, NW) + omp_dotf(tv, dv, COLS), 1e-4);
}

int main(void) {
  double x[ROWS * COLS + COLS];
  omp_check_team_size();
  omp_fill(x, ROWS * COLS + COLS, -0.5, 0.5);
  OMP_CHECK_VECTOR("matvec", matvec, x, ROWS * COLS + COLS, ROWS, 1e-6);
  check_float();
  return ad_test_finish();
}
