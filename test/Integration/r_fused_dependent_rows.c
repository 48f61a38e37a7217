// Works (keep it working): a loop whose iterations are not independent is
// not fused (modes/FusedIterations.h): each row here is the row before it
// times exponentials, so the reverse of a row must run before that of the
// row before it, after every later row's. A fused gradient would reverse
// row 1 before row 2 had added its adjoint into row 1's shadow. The missed
// remark names the loop and the access whose footprints overlap; the
// gradient is checked against central differences.
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass-missed=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: gradient of 'cumulative' sweeps its loops whole, not one iteration at a time: iterations of the loop at line [[#@LINE+9]] touch overlapping memory (the access at line [[#@LINE+11]])
#include "ad_test.h"
#include <ad.h>
#include <math.h>

#define ROWS 30
#define COLS 100

void cumulative(double rows[restrict ROWS][COLS], const double x[restrict ROWS][COLS]) {
  for (int r = 1; r < ROWS; r++)
    for (int i = 0; i < COLS; i++)
      rows[r][i] = exp(x[r][i]) * rows[r - 1][i];
}

static double x[ROWS][COLS], weights[ROWS][COLS], first[COLS];

static double objective(const double at[ROWS][COLS]) {
  static double rows[ROWS][COLS];
  for (int i = 0; i < COLS; i++)
    rows[0][i] = first[i];
  cumulative(rows, at);
  double s = 0;
  for (int r = 0; r < ROWS; r++)
    for (int i = 0; i < COLS; i++)
      s += weights[r][i] * rows[r][i];
  return s;
}

int main(void) {
  static double rows[ROWS][COLS], drows[ROWS][COLS], dx[ROWS][COLS];
  for (int i = 0; i < COLS; i++)
    first[i] = ad_test_uniform(0.5, 1.5);
  for (int r = 0; r < ROWS; r++)
    for (int i = 0; i < COLS; i++) {
      x[r][i] = ad_test_uniform(-0.1, 0.1);
      weights[r][i] = ad_test_uniform(-1, 1);
      drows[r][i] = weights[r][i];
      rows[r][i] = r == 0 ? first[i] : 0;
    }
  __ad_autodiff((void *)cumulative, __ad_dup, rows, drows, __ad_dup, x, dx);
  static double shifted[ROWS][COLS];
  for (int r = 1; r < ROWS; r += 4)
    for (int i = 0; i < COLS; i += 11) {
      const double h = 1e-6;
      for (int a = 0; a < ROWS; a++)
        for (int b = 0; b < COLS; b++)
          shifted[a][b] = x[a][b];
      shifted[r][i] = x[r][i] + h;
      double up = objective(shifted);
      shifted[r][i] = x[r][i] - h;
      double down = objective(shifted);
      CHECK_CLOSE(dx[r][i], (up - down) / (2 * h), 1e-6);
    }
  return ad_test_finish();
}
