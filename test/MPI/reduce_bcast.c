// MPI_Reduce to one rank (the last, so that rank 0 is not special), with
// MPI_SUM and with MPI_MAX, then MPI_Bcast of what that rank computed from
// the results: a scalar and a vector. The adjoint of a broadcast is a sum
// reduced to its root, and that of a reduction to a root a broadcast of the
// root's adjoint (to the winning rank only, for MPI_MAX). The other ranks'
// receive buffers of the reductions are not significant: their contents stay
// the ranks' own, and so do their shadows. The idioms of real codes too: a
// NULL receive buffer on the other ranks, and MPI_IN_PLACE at the root.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 5

static double reduce_then_bcast(double *x, int n) {
  double sum[N], big[N], q[N], r = 0, j = 0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = size - 1;
  for (int i = 0; i < n; i++)
    sum[i] = big[i] = q[i] = 0;
  MPI_Reduce(x, sum, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  MPI_Reduce(x, big, n, MPI_DOUBLE, MPI_MAX, root, MPI_COMM_WORLD);
  if (rank == root) {
    for (int i = 0; i < n; i++) {
      r += 0.1 * sum[i] * sum[i] + sin(big[i]);
      q[i] = sum[i] * big[i];
    }
  }
  MPI_Bcast(&r, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
  MPI_Bcast(q, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    j += r * x[i] * x[i] + q[i] * cos(x[i]) * (1 + 0.25 * rank);
  return j;
}

/* a scalar broadcast from rank 0 and used everywhere: its adjoints from all
 * ranks come back to rank 0 */
static double bcast_scalar(double *x, int n) {
  double c = 0, j = 0;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    c = exp(0.5 * x[0]) + x[1] * x[2];
  MPI_Bcast(&c, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    j += c * c * x[i] + sin(c * x[i]);
  return j;
}

/* MPI_Reduce with NULL as the receive buffer off the root (a middle rank),
 * and MPI_IN_PLACE at the root */
static double reduce_idioms(double *x, int n) {
  double s[N], w[N], r = 0, j = 0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int root = size / 2;
  for (int i = 0; i < n; i++)
    w[i] = x[i] * x[i];
  MPI_Reduce(x, rank == root ? s : NULL, n, MPI_DOUBLE, MPI_SUM, root,
             MPI_COMM_WORLD);
  MPI_Reduce(rank == root ? MPI_IN_PLACE : w, rank == root ? w : NULL, n,
             MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
  if (rank == root)
    for (int i = 0; i < n; i++)
      r += sin(s[i]) * w[i];
  MPI_Bcast(&r, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    j += r * x[i];
  return j;
}

int main(int argc, char **argv) {
  double x[N];
  mpi_test_init(&argc, &argv);
  mpi_fill(x, N, -1, 1);
  MPI_CHECK_SCALAR("reduce then broadcast", reduce_then_bcast, x, N, 1e-6);
  MPI_CHECK_SCALAR("broadcast from rank 0", bcast_scalar, x, N, 1e-6);
  MPI_CHECK_SCALAR("NULL and MPI_IN_PLACE", reduce_idioms, x, N, 1e-6);
  return mpi_test_finish();
}
