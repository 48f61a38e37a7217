/* ad_test.h - checks shared by the integration tests.
 *
 * Each test compares an AD derivative against a closed form, a central finite
 * difference, or the other mode. A failing check prints where and why; the
 * program's exit status is the number of failed checks (0 = all passed).
 */
#ifndef AD_TEST_H
#define AD_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int ad_test_failures = 0;
static int ad_test_checks = 0;

static inline int ad_test_close(double got, double want, double rtol, double atol) {
  if (isnan(got) || isnan(want))
    return isnan(got) && isnan(want);
  return fabs(got - want) <= atol + rtol * fabs(want);
}

/* CHECK_CLOSE(got, want, rtol): |got - want| <= rtol * max(1, |want|). */
#define CHECK_CLOSE(got, want, rtol)                                            \
  do {                                                                         \
    double g_ = (double)(got), w_ = (double)(want);                            \
    ad_test_checks++;                                                          \
    if (!ad_test_close(g_, w_, (rtol), (rtol))) {                              \
      ad_test_failures++;                                                      \
      fprintf(stderr, "%s:%d: CHECK_CLOSE(%s, %s) failed: got %.17g, want %.17g\n", \
              __FILE__, __LINE__, #got, #want, g_, w_);                        \
    }                                                                          \
  } while (0)

/* CHECK_TRUE(cond): a plain condition. */
#define CHECK_TRUE(cond)                                                       \
  do {                                                                         \
    ad_test_checks++;                                                          \
    if (!(cond)) {                                                             \
      ad_test_failures++;                                                      \
      fprintf(stderr, "%s:%d: CHECK_TRUE(%s) failed\n", __FILE__, __LINE__,   \
              #cond);                                                          \
    }                                                                          \
  } while (0)

/* Central finite difference of a scalar function of one double. */
static inline double ad_fd1(double (*f)(double), double x) {
  double h = 1e-6 * (fabs(x) > 1 ? fabs(x) : 1);
  return (f(x + h) - f(x - h)) / (2 * h);
}

/* Central finite difference of g(x) = f(x[0..n)) with respect to x[i].
 * x is restored before returning. */
static inline double ad_fd_array(double (*f)(double *, int), double *x, int n, int i) {
  double saved = x[i];
  double h = 1e-6 * (fabs(saved) > 1 ? fabs(saved) : 1);
  x[i] = saved + h;
  double fp = f(x, n);
  x[i] = saved - h;
  double fm = f(x, n);
  x[i] = saved;
  return (fp - fm) / (2 * h);
}

/* Deterministic pseudo-random numbers in [lo, hi), independent of libc's rand. */
static unsigned long long ad_test_rng_state = 0x9E3779B97F4A7C15ull;
static inline double ad_test_uniform(double lo, double hi) {
  ad_test_rng_state = ad_test_rng_state * 6364136223846793005ull + 1442695040888963407ull;
  double u = (double)(ad_test_rng_state >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * u;
}

/* Call at the end of main: prints a summary and returns the exit status. */
static inline int ad_test_finish(void) {
  if (ad_test_checks == 0) {
    fprintf(stderr, "no checks ran\n");
    return 1;
  }
  if (ad_test_failures)
    fprintf(stderr, "%d of %d checks failed\n", ad_test_failures, ad_test_checks);
  return ad_test_failures ? 1 : 0;
}

#endif /* AD_TEST_H */
