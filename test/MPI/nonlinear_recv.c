// A receive into a local array that is then used nonlinearly (sin, products,
// cubes) together with the rank's own data, and passed on to the next rank
// as it is (the second message's buffer is the first one's receive buffer,
// so its shadow both receives adjoints and sends them). The second receive
// goes into memory malloc'd inside the function. Each exchange is a posted
// MPI_Irecv, a blocking MPI_Send and an MPI_Wait, so that it also runs on one
// rank (sending to itself).
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 5

static double received_nonlinear(double *x, int n) {
  double in[N], j = 0;
  int rank, size;
  MPI_Request rq;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Irecv(in, n, MPI_DOUBLE, left, 30, MPI_COMM_WORLD, &rq);
  MPI_Send(x, n, MPI_DOUBLE, right, 30, MPI_COMM_WORLD);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; i++)
    j += sin(in[i]) * in[(i + 1) % n] * x[i] + in[i] * in[i] * in[i];

  double *again = malloc(n * sizeof *again);
  MPI_Irecv(again, n, MPI_DOUBLE, left, 31, MPI_COMM_WORLD, &rq);
  MPI_Send(in, n, MPI_DOUBLE, right, 31, MPI_COMM_WORLD);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; i++)
    j += again[i] * sin(in[i] * x[(i + 2) % n]) + exp(again[i]) * x[i];
  free(again);
  return j;
}

int main(int argc, char **argv) {
  double x[N];
  mpi_test_init(&argc, &argv);
  mpi_fill(x, N, -1, 1);
  MPI_CHECK_SCALAR("received", received_nonlinear, x, N, 1e-6);
  return mpi_test_finish();
}
