/* omp_test.h - checks shared by the OpenMP programs of test/OpenMP.
 *
 * The programs include it after <ad.h>. It adds to ad_test.h (whose counters
 * and exit status they share) what the OpenMP programs need: checks that name
 * the quantity and index that failed (the programs check hundreds of
 * entries, and a line number alone would not say which), finite differences
 * along a direction of a vector-valued function, and a check that the
 * program runs with the number of threads OMP_NUM_THREADS asks for, so that
 * a run with 4 threads really has 4.
 */
#ifndef OMP_TEST_H
#define OMP_TEST_H

#include <ad.h>
#include <omp.h>
#include <string.h>

#include "ad_test.h"

/* Entry points with other return types (docs: "Declarations"). */
void __ad_autodiff_void(void *, ...);
void __ad_fwddiff_void(void *, ...);
float __ad_fwddiff_f(void *, ...);

/* |got - want| <= rtol * max(1, |want|), reported as what[i]. */
static inline void omp_check_close(const char *what, int i, double got,
                                   double want, double rtol) {
  ad_test_checks++;
  if (!ad_test_close(got, want, rtol, rtol)) {
    ad_test_failures++;
    fprintf(stderr, "%s[%d]: got %.17g, want %.17g (threads %d)\n", what, i,
            got, want, omp_get_max_threads());
  }
}

static inline double omp_dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

static inline double omp_dotf(const float *a, const float *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (double)a[i] * b[i];
  return s;
}

/* The reverse gradient dx of f at x against central finite differences. */
static inline void omp_check_grad(const char *what, double (*f)(double *, int),
                                  double *x, const double *dx, int n,
                                  double rtol) {
  for (int i = 0; i < n; i++)
    omp_check_close(what, i, dx[i], ad_fd_array(f, x, n, i), rtol);
}

/* Central finite difference of y = f(x) (m outputs) along v, into jv. */
static inline void omp_fd_dir(void (*f)(const double *, double *, int),
                              const double *x, const double *v, int n, int m,
                              double *jv) {
  double *xp = malloc(n * sizeof *xp), *xm = malloc(n * sizeof *xm);
  double *yp = malloc(m * sizeof *yp), *ym = malloc(m * sizeof *ym);
  double h = 1e-6;
  for (int i = 0; i < n; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  f(xp, yp, n);
  f(xm, ym, n);
  for (int j = 0; j < m; j++)
    jv[j] = (yp[j] - ym[j]) / (2 * h);
  free(xp);
  free(xm);
  free(yp);
  free(ym);
}

static inline void omp_fill(double *x, int n, double lo, double hi) {
  for (int i = 0; i < n; i++)
    x[i] = ad_test_uniform(lo, hi);
}

static inline void omp_fillf(float *x, int n, double lo, double hi) {
  for (int i = 0; i < n; i++)
    x[i] = (float)ad_test_uniform(lo, hi);
}

/* A parallel region has OMP_NUM_THREADS threads (when it is set). */
static inline void omp_check_team_size(void) {
  const char *env = getenv("OMP_NUM_THREADS");
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  ad_test_checks++;
  if (env && atoi(env) != team) {
    ad_test_failures++;
    fprintf(stderr, "OMP_NUM_THREADS=%s but a region has %d threads\n", env,
            team);
  }
}

/* The scalar <w, f(x)> of a vector-valued f, for finite differences of the
 * reverse mode's J^T w (OMP_CHECK_VECTOR sets what it reads). */
static void (*omp_vec_f)(const double *, double *, int);
static const double *omp_vec_w;
static int omp_vec_m;
static inline double omp_vec_wf(double *x, int n) {
  double *y = malloc(omp_vec_m * sizeof *y);
  omp_vec_f(x, y, n);
  double s = omp_dot(omp_vec_w, y, omp_vec_m);
  free(y);
  return s;
}

/* Both modes of double f(double *x, int n) at x: the reverse gradient against
 * central finite differences, and the forward derivative along a random v
 * against <v, gradient>. A macro, so that f is the constant the plugin needs
 * at the entry point's call. */
#define OMP_CHECK_SCALAR(name, f, x, n, rtol)                                  \
  do {                                                                         \
    double *dx_ = calloc((n), sizeof(double));                                 \
    double *v_ = malloc((n) * sizeof(double));                                 \
    omp_fill(v_, (n), -1, 1);                                                  \
    __ad_autodiff_void((void *)(f), (x), dx_, (n));                            \
    omp_check_grad(name ": gradient", (f), (x), dx_, (n), (rtol));             \
    double t_ = __ad_fwddiff((void *)(f), (x), v_, (n));                       \
    omp_check_close(name ": forward vs reverse", 0, t_, omp_dot(v_, dx_, (n)), \
                    1e-10);                                                    \
    free(dx_);                                                                 \
    free(v_);                                                                  \
  } while (0)

/* Both modes of float f(float *x, int n) at x, whose double twin fd (the same
 * code in double) gives the finite differences: float's own would be too
 * coarse. The float gradient must match them to rtol, and the forward
 * derivative <v, gradient> to float precision. */
#define OMP_CHECK_SCALAR_F(name, f, fd, x, n, rtol)                            \
  do {                                                                         \
    float *dx_ = calloc((n), sizeof(float));                                   \
    float *v_ = malloc((n) * sizeof(float));                                   \
    double *xd_ = malloc((n) * sizeof(double));                                \
    double *dxd_ = malloc((n) * sizeof(double));                               \
    omp_fillf(v_, (n), -1, 1);                                                 \
    __ad_autodiff_void((void *)(f), (x), dx_, (n));                            \
    for (int i_ = 0; i_ < (n); i_++) {                                         \
      xd_[i_] = (x)[i_];                                                       \
      dxd_[i_] = dx_[i_];                                                      \
    }                                                                          \
    omp_check_grad(name ": float gradient", (fd), xd_, dxd_, (n), (rtol));     \
    float t_ = __ad_fwddiff_f((void *)(f), (x), v_, (n));                      \
    omp_check_close(name ": float forward vs reverse", 0, t_,                  \
                    omp_dotf(v_, dx_, (n)), 1e-4);                             \
    free(dx_);                                                                 \
    free(v_);                                                                  \
    free(xd_);                                                                 \
    free(dxd_);                                                                \
  } while (0)

/* Both modes of void f(const double *x, double *y, int n) with m outputs, at
 * x, along a random direction v with random output weights w: J v against
 * finite differences, <J v, w> against <v, J^T w>, J^T w against finite
 * differences of <w, f(x)>, and the reverse sweep leaves the output shadow
 * 0 (it read the seed and reset it). */
#define OMP_CHECK_VECTOR(name, f, x, n, m, rtol)                               \
  do {                                                                         \
    double *v_ = malloc((n) * sizeof(double));                                 \
    double *w_ = malloc((m) * sizeof(double));                                 \
    double *y_ = calloc((m), sizeof(double));                                  \
    double *jv_ = calloc((m), sizeof(double));                                 \
    double *fd_ = calloc((m), sizeof(double));                                 \
    double *dy_ = malloc((m) * sizeof(double));                                \
    double *dx_ = calloc((n), sizeof(double));                                 \
    omp_fill(v_, (n), -1, 1);                                                  \
    omp_fill(w_, (m), -1, 1);                                                  \
    __ad_fwddiff_void((void *)(f), (x), v_, y_, jv_, (n));                     \
    omp_fd_dir((f), (x), v_, (n), (m), fd_);                                   \
    for (int j_ = 0; j_ < (m); j_++)                                           \
      omp_check_close(name ": J v", j_, jv_[j_], fd_[j_], (rtol));             \
    memcpy(dy_, w_, (m) * sizeof(double));                                     \
    __ad_autodiff_void((void *)(f), (x), dx_, y_, dy_, (n));                   \
    omp_check_close(name ": <J v, w> vs <v, J^T w>", 0, omp_dot(jv_, w_, (m)), \
                    omp_dot(v_, dx_, (n)), 1e-10);                             \
    for (int j_ = 0; j_ < (m); j_++)                                           \
      omp_check_close(name ": output shadow after reverse", j_, dy_[j_], 0,    \
                      0);                                                      \
    omp_vec_f = (f);                                                           \
    omp_vec_w = w_;                                                            \
    omp_vec_m = (m);                                                           \
    omp_check_grad(name ": J^T w", omp_vec_wf, (x), dx_, (n), (rtol));         \
    free(v_);                                                                  \
    free(w_);                                                                  \
    free(y_);                                                                  \
    free(jv_);                                                                 \
    free(fd_);                                                                 \
    free(dy_);                                                                 \
    free(dx_);                                                                 \
  } while (0)

#endif /* OMP_TEST_H */
