// Works (keep it working): a loop whose every iteration pushes a record
// makes sure of the tape's capacity once per entry into the loop, for all
// its iterations, and its pushes do not check it
// (TapeRecords::checkCapacityPerEntry). Repeated sines in place, whose
// reverse needs each iteration's input, against the closed form. The rows
// run in a while loop of unknown count, so nothing is reserved ahead: the
// check before each row is what grows the tape, from empty through several
// doublings (long rows, then many short ones); %run (valgrind) sees every
// record written inside the buffer. A loop with a record in a branch keeps
// its checked pushes, and is right as well.
// RUN: %clang_ad -O2 %s -o %t -lm && %run %t
// RUN: %clang_ad -O0 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=BRANCH < %t.ll
// CHECK-LABEL: define internal {{.*}}@sines.ad.gradient(
// CHECK:         call void @__ad_tape_ensure(
// CHECK:         call ptr @__ad_tape_push_unchecked(
// BRANCH-LABEL: define internal {{.*}}@sines_where_positive.ad.gradient(
// BRANCH-NOT:     __ad_tape_push_unchecked
// BRANCH:         call ptr @__ad_tape_push(
// BRANCH-NOT:     __ad_tape_push_unchecked
// BRANCH:         ret void
#include "ad_test.h"
#include <ad.h>
#include <math.h>

void sines(double *restrict x, int n, const int *restrict more) {
  for (int r = 0; more[r]; r++)
    for (int i = 0; i < n; i++)
      x[i] = sin(x[i]) * 1.5;
}

void sines_where_positive(double *restrict x, int n,
                          const int *restrict more) {
  for (int r = 0; more[r]; r++)
    for (int i = 0; i < n; i++)
      if (x[i] > 0)
        x[i] = sin(x[i]) * 1.5;
}

/* d x_final[i] / d x[i]: the product of each applied step's derivative. */
static double closed_form(double x, int rows, int only_positive) {
  double d = 1;
  for (int r = 0; r < rows; r++) {
    if (only_positive && !(x > 0))
      continue;
    d *= 1.5 * cos(x);
    x = sin(x) * 1.5;
  }
  return d;
}

static void check(int n, int rows) {
  double *x = malloc(n * sizeof *x), *dx = malloc(n * sizeof *dx);
  int *more = calloc(rows + 1, sizeof *more);
  for (int r = 0; r < rows; r++)
    more[r] = 1;
  for (int i = 0; i < n; i++)
    x[i] = sin(0.7 * i + 0.3), dx[i] = 1;
  __ad_autodiff(sines, __ad_dup, x, dx, __ad_const, n, __ad_const, more);
  for (int i = 0; i < n; i++)
    CHECK_CLOSE(dx[i], closed_form(sin(0.7 * i + 0.3), rows, 0), 1e-12);
  for (int i = 0; i < n; i++)
    x[i] = sin(0.7 * i + 0.3), dx[i] = 1;
  __ad_autodiff(sines_where_positive, __ad_dup, x, dx, __ad_const, n,
                __ad_const, more);
  for (int i = 0; i < n; i++)
    CHECK_CLOSE(dx[i], closed_form(sin(0.7 * i + 0.3), rows, 1), 1e-12);
  free(x), free(dx), free(more);
}

int main(void) {
  check(5000, 3); /* 40,000 bytes a row: grown to exactly that. */
  check(3, 700);  /* 24 bytes a row: growth now and then. */
  check(0, 4);    /* rows of no iterations. */
  check(17, 0);   /* no rows. */
  printf("%d checks, %d failures\n", ad_test_checks, ad_test_failures);
  return ad_test_failures;
}
