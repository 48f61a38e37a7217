// Works (keep it working): llm.c's crossentropy forward (softmax rows of
// run-time length V padded to Vp, the loss read at a target index the
// program loads) is differentiated one row at a time
// (modes/FusedIterations.h): the rows are apart where V <= Vp, checked at
// run time, and each loss's target lies in its own row, which an inspection
// of the targets checks before the rows run. Where a check fails, the whole
// sweeps run instead (here: a target before its row, which reads the row
// before's last probability: a fused gradient would have reversed that row
// before this one added the loss's adjoint into its shadow). Each call
// against central differences, in double; V == Vp, V < Vp, and the stray
// target.
// RUN: %clang_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clang_ad -O2 -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: gradient of 'crossentropy' runs the forward and reverse sweeps of each iteration of the 2 loop(s) at line [[#@LINE+16]] [[#@LINE+17]] back to back (their iterations are independent, where its run-time checks pass): its tape holds one iteration
// Under -ffast-math the row's exponentials are not taped either: each is
// the stored probability times the sum (InvertedQuotients.cpp); without
// reassociation and reciprocals allowed it is taped, per element.
// RUN: %clang_ad -O2 -ffast-math %s -o %t.fast -lm && %run %t.fast
// RUN: %clang_ad -O2 -ffast-math -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAST
// RUN: %clang_ad -O2 -ffast-math -fno-associative-math -fno-reciprocal-math -Rpass=ad -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXACT
// FAST: remark: gradient of 'crossentropy.ad.iteration' caches {{.*}}(where its run-time checks pass: {{[0-9]+}} bytes per call);
// EXACT: remark: gradient of 'crossentropy.ad.iteration' caches {{.*}}(where its run-time checks pass: {{[0-9]+}} bytes per call, 8 bytes per iteration of the loop at line {{[0-9]+}});
#include "ad_test.h"
#include <ad.h>
#include <math.h>

void crossentropy(double *restrict losses, double *restrict probs,
                  const double *restrict logits, const int *restrict targets,
                  int B, int T, int V, int Vp) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const double *logits_bt = logits + b * T * Vp + t * Vp;
      double *probs_bt = probs + b * T * Vp + t * Vp;
      double maxval = logits_bt[0];
      for (int i = 1; i < V; i++)
        if (logits_bt[i] > maxval)
          maxval = logits_bt[i];
      double sum = 0.0;
      for (int i = 0; i < V; i++) {
        probs_bt[i] = exp(logits_bt[i] - maxval);
        sum += probs_bt[i];
      }
      for (int i = 0; i < V; i++)
        probs_bt[i] /= sum;
      for (int i = V; i < Vp; i++)
        probs_bt[i] = 0.0;
      losses[b * T + t] = -log(probs_bt[targets[b * T + t]]);
    }
  }
}

enum { B = 2, T = 3, MaxVp = 24 };
static double logits[B * T * MaxVp], weights[B * T];
static int targets[B * T];

static double objective(const double *l, int V, int Vp) {
  double losses[B * T], probs[B * T * MaxVp];
  crossentropy(losses, probs, l, targets, B, T, V, Vp);
  double s = 0;
  for (int k = 0; k < B * T; k++)
    s += weights[k] * losses[k];
  return s;
}

static void check(int V, int Vp) {
  double losses[B * T], dlosses[B * T], probs[B * T * MaxVp];
  double dprobs[B * T * MaxVp] = {0}, dlogits[B * T * MaxVp] = {0};
  for (int k = 0; k < B * T; k++)
    dlosses[k] = weights[k];
  __ad_autodiff((void *)crossentropy, __ad_dup, losses, dlosses, __ad_dup,
                probs, dprobs, __ad_dup, logits, dlogits, __ad_const, targets,
                __ad_const, B, __ad_const, T, __ad_const, V, __ad_const, Vp);
  for (int k = 0; k < B * T * Vp; k++) {
    double saved = logits[k], h = 1e-6;
    logits[k] = saved + h;
    double up = objective(logits, V, Vp);
    logits[k] = saved - h;
    double down = objective(logits, V, Vp);
    logits[k] = saved;
    CHECK_CLOSE(dlogits[k], (up - down) / (2 * h), 1e-6);
  }
}

int main(void) {
  for (int k = 0; k < B * T * MaxVp; k++)
    logits[k] = ad_test_uniform(-2, 2);
  for (int k = 0; k < B * T; k++) {
    weights[k] = ad_test_uniform(0.5, 1.5);
    targets[k] = (k * 7) % 20;
  }
  check(20, 20);
  check(20, 24);
  // Row 3's target reads row 2's last probability.
  targets[3] = -1;
  check(20, 20);
  return ad_test_finish();
}
