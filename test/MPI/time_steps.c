// A loop of time steps: explicit viscous Burgers on a chain of ranks (ends
// held at 0 through MPI_PROC_NULL), each step exchanging ghost cells, on even
// steps with MPI_Sendrecv and on odd steps with MPI_Isend/MPI_Irecv and
// MPI_Waitall: one gradient replays many messages in reverse, each adjoint
// matched to its own step. The ranks hold different numbers of cells.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define MAXN 12
#define STEPS 12

static void exchange(double *u, int n, int left, int right, int step) {
  if (step % 2 == 0) {
    MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 0, &u[0], 1, MPI_DOUBLE, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[n + 1], 1, MPI_DOUBLE, right,
                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Request req[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  }
}

/* u_t + u u_x = nu u_xx, dx = 1, J_r = sum of u^2 at the end */
static double burgers(double *x, int n) {
  double u[MAXN + 2], next[MAXN + 2], dt = 0.1, nu = 0.4, j = 0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  u[0] = u[n + 1] = 0;
  for (int i = 0; i < n; i++)
    u[i + 1] = x[i];
  for (int step = 0; step < STEPS; step++) {
    exchange(u, n, left, right, step);
    for (int i = 1; i <= n; i++)
      next[i] = u[i] + dt * (nu * (u[i - 1] - 2 * u[i] + u[i + 1]) -
                             0.5 * u[i] * (u[i + 1] - u[i - 1]));
    for (int i = 1; i <= n; i++)
      u[i] = next[i];
  }
  for (int i = 1; i <= n; i++)
    j += u[i] * u[i];
  return j;
}

int main(int argc, char **argv) {
  double x[MAXN];
  mpi_test_init(&argc, &argv);
  int n = 5 + mpi_rank % 4;
  mpi_fill(x, n, -1, 1);
  MPI_CHECK_SCALAR("burgers", burgers, x, n, 1e-6);
  return mpi_test_finish();
}
