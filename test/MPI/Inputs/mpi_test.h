/* mpi_test.h - checks shared by the MPI programs of test/MPI.
 *
 * Every program runs on several ranks; each rank owns a local slice x_r of the
 * input and the distributed function f returns each rank's local piece J_r.
 * The objective is J = sum_r J_r, and every rank calls the entry point on f
 * with its own data at the same time, seeding its own J_r with 1, so rank r's
 * shadow receives dJ/dx_r (adjoints that crossed ranks included).
 *
 * The checks, all collective (every rank must call them, in the same order):
 * - the reverse gradient against central finite differences of J, perturbing
 *   element i of rank r's slice only, every rank running the primal;
 * - the forward derivative summed over ranks against <v, gradient> summed
 *   over ranks (<J v, 1> = <v, J^T 1>) and against finite differences of J
 *   along v;
 * - for a vector-valued f, <J v, w> = <v, J^T w> summed over ranks, J v and
 *   J^T w against finite differences, and the output shadow reset to 0.
 * A failing check prints its rank, quantity and index. The exit status is the
 * number of failures summed over ranks, so every rank exits non-zero when any
 * rank failed and mpirun reports it.
 *
 * The programs include it instead of <ad.h>; ad_test.h gives the counters.
 */
#ifndef MPI_TEST_H
#define MPI_TEST_H

#include <ad.h>
#include <mpi.h>
#include <string.h>

#include "ad_test.h"

/* Entry points with other return types (docs: "Declarations"). */
void __ad_autodiff_void(void *, ...);
void __ad_fwddiff_void(void *, ...);
float __ad_fwddiff_f(void *, ...);

static int mpi_rank, mpi_size;

/* MPI_Init, and a random stream of this rank's own, so that ranks hold
 * different data. */
static inline void mpi_test_init(int *argc, char ***argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
  ad_test_rng_state ^=
      0x2545F4914F6CDD1Dull * (unsigned long long)(mpi_rank + 1);
  for (int i = 0; i < 4; i++)
    ad_test_uniform(0, 1);
}

/* |got - want| <= rtol * max(1, |want|), reported as what[i] on this rank. */
static inline void mpi_check_close(const char *what, int i, double got,
                                   double want, double rtol) {
  ad_test_checks++;
  if (!ad_test_close(got, want, rtol, rtol)) {
    ad_test_failures++;
    fprintf(stderr, "rank %d of %d: %s[%d]: got %.17g, want %.17g\n", mpi_rank,
            mpi_size, what, i, got, want);
  }
}

static inline double mpi_sum(double x) {
  double s;
  MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

/* sum_r <a_r, b_r> */
static inline double mpi_dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return mpi_sum(s);
}

static inline double mpi_dotf(const float *a, const float *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (double)a[i] * b[i];
  return mpi_sum(s);
}

static inline void mpi_fill(double *x, int n, double lo, double hi) {
  for (int i = 0; i < n; i++)
    x[i] = ad_test_uniform(lo, hi);
}

static inline void mpi_fillf(float *x, int n, double lo, double hi) {
  for (int i = 0; i < n; i++)
    x[i] = (float)ad_test_uniform(lo, hi);
}

typedef double (*mpi_scalar_fn)(double *, int);

/* J(x) = sum_r f(x_r), every rank running f. */
static inline double mpi_objective(mpi_scalar_fn f, double *x, int n) {
  return mpi_sum(f(x, n));
}

/* Central finite difference of J with respect to x[i] on rank `owner` (the
 * other ranks run f on unchanged data). The same value on every rank. */
static inline double mpi_fd(mpi_scalar_fn f, double *x, int n, int owner,
                            int i) {
  double h = 0, saved = 0;
  if (mpi_rank == owner) {
    saved = x[i];
    h = 1e-6 * (fabs(saved) > 1 ? fabs(saved) : 1);
  }
  MPI_Bcast(&h, 1, MPI_DOUBLE, owner, MPI_COMM_WORLD);
  if (mpi_rank == owner)
    x[i] = saved + h;
  double fp = mpi_objective(f, x, n);
  if (mpi_rank == owner)
    x[i] = saved - h;
  double fm = mpi_objective(f, x, n);
  if (mpi_rank == owner)
    x[i] = saved;
  return (fp - fm) / (2 * h);
}

/* Central finite difference of J when x[i] moves by the same h on every rank
 * that passes moves != 0 (for elements where ranks tie, whose one-rank
 * differences do not exist). */
static inline double mpi_fd_ranks(mpi_scalar_fn f, double *x, int n, int i,
                                  int moves) {
  double saved = x[i], h = 1e-6;
  if (moves)
    x[i] = saved + h;
  double fp = mpi_objective(f, x, n);
  if (moves)
    x[i] = saved - h;
  double fm = mpi_objective(f, x, n);
  x[i] = saved;
  return (fp - fm) / (2 * h);
}

/* Central finite difference of J along v (v_r on rank r). */
static inline double mpi_fd_dir(mpi_scalar_fn f, double *x, const double *v,
                                int n) {
  double *xs = malloc(n * sizeof *xs), h = 1e-6;
  memcpy(xs, x, n * sizeof *xs);
  for (int i = 0; i < n; i++)
    x[i] = xs[i] + h * v[i];
  double fp = mpi_objective(f, x, n);
  for (int i = 0; i < n; i++)
    x[i] = xs[i] - h * v[i];
  double fm = mpi_objective(f, x, n);
  memcpy(x, xs, n * sizeof *xs);
  free(xs);
  return (fp - fm) / (2 * h);
}

/* Rank r's gradient dx (n may differ between ranks) against mpi_fd for every
 * element of every rank. `skip(owner, i)`, when given, leaves element i of
 * rank owner out (where ranks tie, J has no derivative there). */
static inline void mpi_check_grad(const char *what, mpi_scalar_fn f, double *x,
                                  const double *dx, int n, double rtol,
                                  int (*skip)(int, int)) {
  for (int owner = 0; owner < mpi_size; owner++) {
    int count = n;
    MPI_Bcast(&count, 1, MPI_INT, owner, MPI_COMM_WORLD);
    for (int i = 0; i < count; i++) {
      if (skip && skip(owner, i))
        continue;
      double fd = mpi_fd(f, x, n, owner, i);
      if (mpi_rank == owner)
        mpi_check_close(what, i, dx[i], fd, rtol);
    }
  }
}

/* Both modes of double f(double *x, int n), which must not write x: the
 * reverse gradient against finite differences, the forward derivative along
 * a random v (summed over ranks) against the reverse one and against finite
 * differences along v. A macro, so that f is the constant the plugin needs at
 * the entry point's call. */
#define MPI_CHECK_SCALAR(name, f, x, n, rtol)                                  \
  do {                                                                         \
    double *dx_ = calloc((n), sizeof(double));                                 \
    double *v_ = malloc((n) * sizeof(double));                                 \
    mpi_fill(v_, (n), -1, 1);                                                  \
    __ad_autodiff_void((void *)(f), (x), dx_, (n));                            \
    mpi_check_grad(name ": gradient", (f), (x), dx_, (n), (rtol), NULL);       \
    double t_ = mpi_sum(__ad_fwddiff((void *)(f), (x), v_, (n)));              \
    mpi_check_close(name ": forward vs reverse", 0, t_, mpi_dot(v_, dx_, (n)), \
                    1e-10);                                                    \
    mpi_check_close(name ": forward vs finite differences", 0, t_,             \
                    mpi_fd_dir((f), (x), v_, (n)), (rtol));                    \
    free(dx_);                                                                 \
    free(v_);                                                                  \
  } while (0)

/* Both modes of float f(float *x, int n), whose double twin fd (the same code
 * in double, with MPI_DOUBLE messages) gives the finite differences: float's
 * own would be too coarse. */
#define MPI_CHECK_SCALAR_F(name, f, fd, x, n, rtol)                            \
  do {                                                                         \
    float *dx_ = calloc((n), sizeof(float));                                   \
    float *v_ = malloc((n) * sizeof(float));                                   \
    double *xd_ = malloc((n) * sizeof(double));                                \
    double *dxd_ = malloc((n) * sizeof(double));                               \
    mpi_fillf(v_, (n), -1, 1);                                                 \
    __ad_autodiff_void((void *)(f), (x), dx_, (n));                            \
    for (int i_ = 0; i_ < (n); i_++) {                                         \
      xd_[i_] = (x)[i_];                                                       \
      dxd_[i_] = dx_[i_];                                                      \
    }                                                                          \
    mpi_check_grad(name ": float gradient", (fd), xd_, dxd_, (n), (rtol),      \
                   NULL);                                                      \
    float t_ = __ad_fwddiff_f((void *)(f), (x), v_, (n));                      \
    mpi_check_close(name ": float forward vs reverse", 0, mpi_sum(t_),         \
                    mpi_dotf(v_, dx_, (n)), 1e-4);                             \
    free(dx_);                                                                 \
    free(v_);                                                                  \
    free(xd_);                                                                 \
    free(dxd_);                                                                \
  } while (0)

/* The scalar sum_r <w_r, f(x_r)> of a vector-valued f, for finite
 * differences of the reverse mode's J^T w (MPI_CHECK_VECTOR sets what it
 * reads). */
static void (*mpi_vec_f)(const double *, double *, int);
static const double *mpi_vec_w;
static int mpi_vec_m;
static inline double mpi_vec_wf(double *x, int n) {
  double *y = malloc(mpi_vec_m * sizeof *y), s = 0;
  mpi_vec_f(x, y, n);
  for (int j = 0; j < mpi_vec_m; j++)
    s += mpi_vec_w[j] * y[j];
  free(y);
  return s;
}

/* Central finite difference of y = f(x) (m local outputs) along v, into jv;
 * every rank moves its own slice. */
static inline void mpi_fd_vec_dir(void (*f)(const double *, double *, int),
                                  const double *x, const double *v, int n,
                                  int m, double *jv) {
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

/* Both modes of void f(const double *x, double *y, int n) with m local
 * outputs, along a random v with random output weights w (each rank its
 * own): J v against finite differences, <J v, w> against <v, J^T w> (both
 * summed over ranks), J^T w against finite differences of sum_r <w_r, y_r>,
 * and the reverse sweep leaves the output shadow 0. */
#define MPI_CHECK_VECTOR(name, f, x, n, m, rtol)                               \
  do {                                                                         \
    double *v_ = malloc((n) * sizeof(double));                                 \
    double *w_ = malloc((m) * sizeof(double));                                 \
    double *y_ = calloc((m), sizeof(double));                                  \
    double *jv_ = calloc((m), sizeof(double));                                 \
    double *fd_ = calloc((m), sizeof(double));                                 \
    double *dy_ = malloc((m) * sizeof(double));                                \
    double *dx_ = calloc((n), sizeof(double));                                 \
    mpi_fill(v_, (n), -1, 1);                                                  \
    mpi_fill(w_, (m), -1, 1);                                                  \
    __ad_fwddiff_void((void *)(f), (x), v_, y_, jv_, (n));                     \
    mpi_fd_vec_dir((f), (x), v_, (n), (m), fd_);                               \
    for (int j_ = 0; j_ < (m); j_++)                                           \
      mpi_check_close(name ": J v", j_, jv_[j_], fd_[j_], (rtol));             \
    memcpy(dy_, w_, (m) * sizeof(double));                                     \
    __ad_autodiff_void((void *)(f), (x), dx_, y_, dy_, (n));                   \
    mpi_check_close(name ": <J v, w> vs <v, J^T w>", 0, mpi_dot(jv_, w_, (m)), \
                    mpi_dot(v_, dx_, (n)), 1e-10);                             \
    for (int j_ = 0; j_ < (m); j_++)                                           \
      mpi_check_close(name ": output shadow after reverse", j_, dy_[j_], 0,    \
                      0);                                                      \
    mpi_vec_f = (f);                                                           \
    mpi_vec_w = w_;                                                            \
    mpi_vec_m = (m);                                                           \
    mpi_check_grad(name ": J^T w", mpi_vec_wf, (x), dx_, (n), (rtol), NULL);   \
    free(v_);                                                                  \
    free(w_);                                                                  \
    free(y_);                                                                  \
    free(jv_);                                                                 \
    free(fd_);                                                                 \
    free(dy_);                                                                 \
    free(dx_);                                                                 \
  } while (0)

/* Call at the end of main: the failures summed over ranks (capped at 255),
 * the same on every rank, after MPI_Finalize. Rank 0 prints the summary. */
static inline int mpi_test_finish(void) {
  int local[2] = {ad_test_failures, ad_test_checks}, total[2], min_checks;
  MPI_Allreduce(local, total, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&ad_test_checks, &min_checks, 1, MPI_INT, MPI_MIN,
                MPI_COMM_WORLD);
  int status = total[0];
  if (min_checks == 0) {
    if (mpi_rank == 0)
      fprintf(stderr, "a rank ran no checks (%d ranks)\n", mpi_size);
    status++;
  } else if (total[0] && mpi_rank == 0) {
    fprintf(stderr, "%d of %d checks failed (%d ranks)\n", total[0], total[1],
            mpi_size);
  }
  MPI_Finalize();
  return status > 255 ? 255 : status;
}

#endif /* MPI_TEST_H */
