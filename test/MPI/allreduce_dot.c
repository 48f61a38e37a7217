// A distributed dot product: each rank holds a slice of a and of b, and
// MPI_Allreduce with MPI_SUM makes g = <a, b> known everywhere (a scalar),
// then a vector sum s = sum_r a_r the same way. Every rank returns its own
// piece of the objective, which uses g and s nonlinearly, so the adjoint of
// g on each rank is summed over all ranks and reaches every rank's a and b.
// Checked against finite differences, the other mode, and the closed form of
// the plain dot product's gradient, size * cos(g) * b_r.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define M 5 /* a and b: x = [a | b] */

static double global_dot(const double *a, const double *b, int m) {
  double local = 0, g;
  for (int i = 0; i < m; i++)
    local += a[i] * b[i];
  MPI_Allreduce(&local, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

/* every rank returns sin(<a, b>) */
static double sin_dot(double *x, int n) {
  return sin(global_dot(x, x + n / 2, n / 2));
}

static double dot_and_sum(double *x, int n) {
  int m = n / 2, rank;
  const double *a = x, *b = x + m;
  double s[M], j;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double g = global_dot(a, b, m);
  MPI_Allreduce(a, s, m, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  j = g * g * (rank + 1) + tanh(g) * a[0];
  for (int i = 0; i < m; i++)
    j += s[i] * s[i] * b[i] + g * s[i];
  return j;
}

int main(int argc, char **argv) {
  double x[2 * M], dx[2 * M] = {0};
  mpi_test_init(&argc, &argv);
  mpi_fill(x, 2 * M, -1, 1);
  MPI_CHECK_SCALAR("sin of the dot", sin_dot, x, 2 * M, 1e-6);
  MPI_CHECK_SCALAR("dot and sum", dot_and_sum, x, 2 * M, 1e-6);
  /* J = size * sin(g): dJ/da_r = size cos(g) b_r, dJ/db_r = size cos(g) a_r */
  __ad_autodiff_void((void *)sin_dot, x, dx, 2 * M);
  double c = mpi_size * cos(global_dot(x, x + M, M));
  for (int i = 0; i < M; i++) {
    mpi_check_close("closed form: da", i, dx[i], c * x[M + i], 1e-12);
    mpi_check_close("closed form: db", i, dx[M + i], c * x[i], 1e-12);
  }
  return mpi_test_finish();
}
