// MPI_Allreduce with MPI_MAX and MPI_MIN on a vector: the adjoint of each
// element of the result goes to the rank whose element won, and where ranks
// tie, to the lowest of them (the forward mode takes that rank's tangent).
// Element 3 ties on every rank (rank 0 wins both), element 4 ties for the
// maximum on the ranks above 0 (rank 1 wins; rank 0 holds the minimum) and
// element 5 ties for the minimum there. Where a rank ties, J has no
// derivative with respect to its element alone: the check moves all the tied
// ranks' elements together and expects the whole derivative on the lowest
// of them and 0 on the others. Elsewhere, finite differences of one rank's
// element as usual; J depends on x only through the maxima and minima, so a
// rank that did not win must get exactly 0.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 6

static double max_min(double *x, int n) {
  double hi[N], lo[N], j = 0;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(x, hi, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(x, lo, n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    j += (0.3 + 0.1 * (rank + i)) * hi[i] * hi[i] +
         (1 - 0.2 * rank + 0.1 * i) * sin(lo[i]) + hi[i] * lo[i];
  return j;
}

/* element i of rank owner ties with another rank's */
static int tied(int owner, int i) {
  return mpi_size > 1 && (i == 3 || (owner >= 1 && (i == 4 || i == 5)));
}

/* The ranks from `first` up tie at element i: all of the derivative there
 * goes to `first`. */
static void check_tie(double *x, const double *dx, int i, int first) {
  double whole = mpi_fd_ranks(max_min, x, N, i, mpi_rank >= first);
  if (mpi_rank >= first)
    mpi_check_close(mpi_rank == first ? "tie winner" : "tie loser", i, dx[i],
                    mpi_rank == first ? whole : 0, 1e-6);
}

int main(int argc, char **argv) {
  double x[N], dx[N] = {0}, v[N], dir[N];
  mpi_test_init(&argc, &argv);
  mpi_fill(x, N, -1, 1);
  x[3] = 0.25;
  x[4] = mpi_rank == 0 ? -0.6 : 0.8;
  x[5] = mpi_rank == 0 ? 0.7 : -0.9;
  mpi_fill(v, N, -1, 1);

  __ad_autodiff_void((void *)max_min, x, dx, N);
  mpi_check_grad("gradient", max_min, x, dx, N, 1e-6, tied);
  if (mpi_size > 1) {
    check_tie(x, dx, 3, 0);
    check_tie(x, dx, 4, 1);
    check_tie(x, dx, 5, 1);
  }

  /* forward: against the reverse along any v (ties included: both modes
   * must pick the same rank), and against finite differences along a
   * direction that leaves the tied elements alone */
  double t = mpi_sum(__ad_fwddiff((void *)max_min, x, v, N));
  mpi_check_close("forward vs reverse", 0, t, mpi_dot(v, dx, N), 1e-10);
  for (int i = 0; i < N; i++)
    dir[i] = tied(mpi_rank, i) ? 0 : v[i];
  t = mpi_sum(__ad_fwddiff((void *)max_min, x, dir, N));
  mpi_check_close("forward vs finite differences", 0, t,
                  mpi_fd_dir(max_min, x, dir, N), 1e-6);
  return mpi_test_finish();
}
