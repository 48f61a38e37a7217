// A ring of blocking MPI_Send/MPI_Recv: every rank sends a vector to its
// right neighbour and receives its left neighbour's, twice (the second time
// passing on what it received, transformed). Even ranks send first and odd
// ranks receive first, so that no two neighbours wait on each other. The
// adjoint of a receive is a send back to the source and the adjoint of a
// send a receive added into the sent buffer's shadow: in the reverse sweep
// the ranks wait in the mirrored order and must still not deadlock. A lone
// rank is its own neighbour: it keeps its message (a blocking send to itself
// would wait forever).
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 5

/* out goes right, in comes from the left, in the even/odd order */
static void shift_right(const double *out, double *in, int n, int tag) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  if (size == 1) {
    for (int i = 0; i < n; i++)
      in[i] = out[i];
  } else if (rank % 2 == 0) {
    MPI_Send(out, n, MPI_DOUBLE, right, tag, MPI_COMM_WORLD);
    MPI_Recv(in, n, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, n, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_DOUBLE, right, tag, MPI_COMM_WORLD);
  }
}

static double ring(double *x, int n) {
  double s1[N], r1[N], s2[N], r2[N], j = 0;
  for (int i = 0; i < n; i++)
    s1[i] = x[i] * x[i] + x[(i + 1) % n];
  shift_right(s1, r1, n, 3);
  for (int i = 0; i < n; i++)
    s2[i] = r1[i] * x[i] + cos(r1[(i + 2) % n]);
  shift_right(s2, r2, n, 4);
  for (int i = 0; i < n; i++)
    j += r2[i] * r1[i] * x[i] + exp(0.3 * r2[i]);
  return j;
}

/* the ring with the inputs sent directly (no local copy): x is the buffer of
 * the first message, whose adjoint lands in dx */
static double ring_direct(double *x, int n) {
  double r[N], j = 0;
  shift_right(x, r, n, 5);
  for (int i = 0; i < n; i++)
    j += sin(r[i]) * x[i] + r[i] * r[(i + 1) % n];
  return j;
}

int main(int argc, char **argv) {
  double x[N];
  mpi_test_init(&argc, &argv);
  mpi_fill(x, N, -1, 1);
  MPI_CHECK_SCALAR("ring", ring, x, N, 1e-6);
  MPI_CHECK_SCALAR("ring from the input", ring_direct, x, N, 1e-6);
  return mpi_test_finish();
}
