// Receives with MPI_ANY_SOURCE (and MPI_ANY_TAG): rank 0 collects one
// message from every other rank in whatever order they arrive, places each by
// its status's MPI_SOURCE, combines them nonlinearly and sends each rank an
// answer. The adjoint of a wildcard receive must go back to the rank the
// message actually came from (recorded in the primal), and the status must
// be filled as the primal's would be. The same with non-blocking wildcard
// receives (MPI_Irecv, completed by MPI_Waitall with statuses), each into its
// own buffer, placed after the wait by the statuses.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 4
#define MAX_RANKS 16

static double gather_any(double *x, int n) {
  double mine[N], all[MAX_RANKS * N], back[N], buf[N], j = 0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < n; i++)
    mine[i] = x[i] * x[i] + 0.5 * x[(i + 1) % n];
  if (rank == 0) {
    double total = 0;
    for (int i = 0; i < n; i++)
      all[i] = mine[i];
    for (int k = 1; k < size; k++) {
      MPI_Status st;
      MPI_Recv(buf, n, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
               &st);
      if (st.MPI_TAG != 100 + st.MPI_SOURCE)
        total += 1000; /* a wrong status shows in the value */
      for (int i = 0; i < n; i++)
        all[st.MPI_SOURCE * n + i] = buf[i];
    }
    for (int r = 0; r < size; r++)
      for (int i = 0; i < n; i++)
        total += sin(all[r * n + i]) * (r + 1);
    for (int r = size - 1; r >= 0; r--) {
      for (int i = 0; i < n; i++)
        back[i] = total * all[r * n + (i + 1) % n];
      if (r > 0)
        MPI_Send(back, n, MPI_DOUBLE, r, 200, MPI_COMM_WORLD);
    }
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 100 + rank, MPI_COMM_WORLD);
    MPI_Recv(back, n, MPI_DOUBLE, 0, 200, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  for (int i = 0; i < n; i++)
    j += back[i] * x[i] + back[i] * back[i];
  return j;
}

static double irecv_any(double *x, int n) {
  double mine[N], bufs[MAX_RANKS][N], all[MAX_RANKS * N], total = 0, j = 0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < n; i++)
    mine[i] = x[i] * x[(i + 1) % n];
  if (rank == 0) {
    MPI_Request req[MAX_RANKS];
    MPI_Status st[MAX_RANKS];
    for (int k = 1; k < size; k++)
      MPI_Irecv(bufs[k], n, MPI_DOUBLE, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD,
                &req[k - 1]);
    MPI_Waitall(size - 1, req, st);
    for (int i = 0; i < n; i++)
      all[i] = mine[i];
    for (int k = 1; k < size; k++)
      for (int i = 0; i < n; i++)
        all[st[k - 1].MPI_SOURCE * n + i] = bufs[k][i];
    for (int r = 0; r < size * n; r++)
      total += cos(all[r]) * (r + 1);
  } else {
    MPI_Send(mine, n, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
  }
  MPI_Bcast(&total, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++)
    j += total * x[i] * x[i];
  return j;
}

int main(int argc, char **argv) {
  double x[N];
  mpi_test_init(&argc, &argv);
  if (mpi_size > MAX_RANKS) {
    fprintf(stderr, "at most %d ranks\n", MAX_RANKS);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  mpi_fill(x, N, -1, 1);
  MPI_CHECK_SCALAR("any source", gather_any, x, N, 1e-6);
  MPI_CHECK_SCALAR("non-blocking any source", irecv_any, x, N, 1e-6);
  return mpi_test_finish();
}
