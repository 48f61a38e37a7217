// Works (keep it working): a softmax over the rows of a matrix whose rows
// the dependence analysis shows independent is differentiated one row at a
// time (modes/FusedIterations.h): each row's forward and reverse run back
// to back, through the gradient of the outlined row, whose tape (the row's
// exponentials, taped rather than recomputed) holds one row. Against
// central differences of the same function, at -O0 (not fused: the loops
// are not rotated there) and at -O2 (fused).
// RUN: %clang_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: gradient of 'softmax' runs the forward and reverse sweeps of each iteration of the 1 loop(s) at line [[#@LINE+9]] back to back (their iterations are independent): its tape holds one iteration
#include "ad_test.h"
#include <ad.h>
#include <math.h>

#define ROWS 40
#define COLS 100

void softmax(double probs[restrict ROWS][COLS], const double logits[restrict ROWS][COLS]) {
  for (int r = 0; r < ROWS; r++) {
    double m = -INFINITY;
    for (int i = 0; i < COLS; i++)
      if (logits[r][i] > m)
        m = logits[r][i];
    double sum = 0.0;
    for (int i = 0; i < COLS; i++) {
      probs[r][i] = exp(logits[r][i] - m);
      sum += probs[r][i];
    }
    for (int i = 0; i < COLS; i++)
      probs[r][i] /= sum;
  }
}

static double logits[ROWS][COLS], weights[ROWS][COLS];

/* The weighted sum of the probabilities: what the seeds weights pull. */
static double objective(const double l[ROWS][COLS]) {
  static double p[ROWS][COLS];
  softmax(p, l);
  double s = 0;
  for (int r = 0; r < ROWS; r++)
    for (int i = 0; i < COLS; i++)
      s += weights[r][i] * p[r][i];
  return s;
}

int main(void) {
  static double probs[ROWS][COLS], dprobs[ROWS][COLS], dlogits[ROWS][COLS];
  for (int r = 0; r < ROWS; r++)
    for (int i = 0; i < COLS; i++) {
      logits[r][i] = ad_test_uniform(-3, 3);
      weights[r][i] = ad_test_uniform(-1, 1);
      dprobs[r][i] = weights[r][i];
    }
  __ad_autodiff((void *)softmax, __ad_dup, probs, dprobs, __ad_dup, logits,
                dlogits);
  static double shifted[ROWS][COLS];
  for (int r = 0; r < ROWS; r += 7)
    for (int i = 0; i < COLS; i += 9) {
      const double h = 1e-6;
      for (int a = 0; a < ROWS; a++)
        for (int b = 0; b < COLS; b++)
          shifted[a][b] = logits[a][b];
      shifted[r][i] = logits[r][i] + h;
      double up = objective(shifted);
      shifted[r][i] = logits[r][i] - h;
      double down = objective(shifted);
      CHECK_CLOSE(dlogits[r][i], (up - down) / (2 * h), 1e-6);
    }
  // The primal's outputs are the function's own.
  double p[ROWS][COLS];
  softmax(p, logits);
  for (int r = 0; r < ROWS; r++)
    for (int i = 0; i < COLS; i++)
      CHECK_CLOSE(probs[r][i], p[r][i], 1e-15);
  return ad_test_finish();
}
