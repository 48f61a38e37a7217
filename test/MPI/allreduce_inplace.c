// MPI_Allreduce with MPI_IN_PLACE: the buffer is both the rank's
// contribution and, afterwards, the result, so its shadow is both (the
// adjoint of the result is summed over ranks and replaces the shadow of the
// contribution). A vector with MPI_SUM, a scalar with MPI_SUM reusing a
// variable that held a local value, and a vector with MPI_MAX.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 6

static double in_place(double *x, int n) {
  double w[N], m[N], s = 0, j = 0;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < n; i++) {
    w[i] = x[i] * x[i] * (rank + 1);
    m[i] = x[i] + 0.1 * x[(i + 1) % n];
    s += x[i] * sin(x[i]);
  }
  j = s * s; /* the local s, before it is overwritten */
  MPI_Allreduce(MPI_IN_PLACE, w, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, m, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    j += sin(w[i]) * x[i] + s * w[i] + m[i] * m[i] * x[(i + 2) % n];
  return j;
}

int main(int argc, char **argv) {
  double x[N];
  mpi_test_init(&argc, &argv);
  mpi_fill(x, N, -1, 1);
  MPI_CHECK_SCALAR("in place", in_place, x, N, 1e-6);
  return mpi_test_finish();
}
