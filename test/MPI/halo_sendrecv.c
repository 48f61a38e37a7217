// A 1-D stencil whose ghost cells come from the neighbouring ranks through
// MPI_Sendrecv, in both modes at 1, 2 and 4 ranks: on a periodic ring (two
// ghost cells a side, sent from a local copy), and on an open chain whose end
// ranks name MPI_PROC_NULL, sending straight from the input and writing a
// vector output. The adjoint of each ghost cell must travel back to the rank
// that owns the cell. A receive from MPI_PROC_NULL leaves its buffer alone:
// the chain's end ghosts keep boundary values computed from x before the
// exchange, and their adjoints must reach x too (not be dropped as a
// received value's would be).
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 7
#define G 2 /* ghost cells a side on the ring */

/* sum_i (u[i-2] - 2 u[i] + u[i+2])^2 + u[i] sin(u[i+1] u[i-1]) */
static double ring_stencil(double *x, int n) {
  double u[N + 2 * G], s = 0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int i = 0; i < n; i++)
    u[G + i] = x[i];
  /* my last G cells go right, my left ghosts come from the left */
  MPI_Sendrecv(&u[n], G, MPI_DOUBLE, right, 0, &u[0], G, MPI_DOUBLE, left, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[G], G, MPI_DOUBLE, left, 1, &u[G + n], G, MPI_DOUBLE, right,
               1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = G; i < G + n; i++) {
    double lap = u[i - 2] - 2 * u[i] + u[i + 2];
    s += lap * lap + u[i] * sin(u[i + 1] * u[i - 1]);
  }
  return s;
}

/* y[i] = u[i-1] u[i+1] + sin(u[i]) with u = x and one ghost a side; the
 * ends of the chain keep boundary values that depend on x. */
static void chain_stencil(const double *x, double *y, int n) {
  double lo = 0.5 * x[0], hi = x[n - 1] * x[n - 1];
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(&x[n - 1], 1, MPI_DOUBLE, right, 7, &lo, 1, MPI_DOUBLE, left, 7,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, left, 8, &hi, 1, MPI_DOUBLE, right, 8,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; i++) {
    double a = i > 0 ? x[i - 1] : lo, b = i + 1 < n ? x[i + 1] : hi;
    y[i] = a * b + sin(x[i]);
  }
}

int main(int argc, char **argv) {
  double x[N];
  mpi_test_init(&argc, &argv);
  mpi_fill(x, N, -1, 1);
  MPI_CHECK_SCALAR("ring", ring_stencil, x, N, 1e-6);
  MPI_CHECK_VECTOR("chain", chain_stencil, x, N, N, 1e-6);
  return mpi_test_finish();
}
