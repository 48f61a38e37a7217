// A periodic halo exchange with non-blocking MPI_Isend/MPI_Irecv, completed
// by one MPI_Waitall, and again by four separate MPI_Wait calls whose order
// differs between neighbouring ranks (even ranks in posting order, odd ranks
// in the reverse order, sends first). At 2 ranks both neighbours are the same
// rank: the two directions are told apart by their tags alone, in the
// primal's messages and in the adjoint's. However the derivative orders the
// adjoint's messages of a request (posted at the wait, completed at the post,
// or otherwise), the ranks' different orders must not deadlock it.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 6

static void neighbours(int *left, int *right, int *rank) {
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  *left = (*rank + size - 1) % size;
  *right = (*rank + 1) % size;
}

/* sum_i u[i] * (u[i-1] + u[i+1])^2 + sin(u[i-1] - u[i+1]), ghosts from the
 * neighbours; x's end cells are sent straight from x */
static double local_sum(const double *x, int n, double lo, double hi) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double a = i > 0 ? x[i - 1] : lo, b = i + 1 < n ? x[i + 1] : hi;
    s += x[i] * (a + b) * (a + b) + sin(a - b);
  }
  return s;
}

static double halo_waitall(double *x, int n) {
  double lo, hi;
  int left, right, rank;
  MPI_Request req[4];
  neighbours(&left, &right, &rank);
  MPI_Irecv(&lo, 1, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(&hi, 1, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(&x[n - 1], 1, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(&x[0], 1, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  return local_sum(x, n, lo, hi);
}

/* Two cells a side from local copies scaled by their owner's rank, each
 * request completed by its own MPI_Wait. */
static double halo_waits(double *x, int n) {
  double lo[2], hi[2], out_lo[2], out_hi[2], s = 0;
  int left, right, rank;
  MPI_Request rl, rr, sl, sr;
  neighbours(&left, &right, &rank);
  for (int k = 0; k < 2; k++) {
    out_lo[k] = x[k] * x[k];
    out_hi[k] = x[n - 2 + k] * (1 + 0.5 * rank);
  }
  if (rank % 2 == 0) {
    MPI_Irecv(lo, 2, MPI_DOUBLE, left, 20, MPI_COMM_WORLD, &rl);
    MPI_Irecv(hi, 2, MPI_DOUBLE, right, 21, MPI_COMM_WORLD, &rr);
    MPI_Isend(out_hi, 2, MPI_DOUBLE, right, 20, MPI_COMM_WORLD, &sr);
    MPI_Isend(out_lo, 2, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &sl);
    MPI_Wait(&rl, MPI_STATUS_IGNORE);
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Wait(&sl, MPI_STATUS_IGNORE);
  } else {
    MPI_Isend(out_lo, 2, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &sl);
    MPI_Isend(out_hi, 2, MPI_DOUBLE, right, 20, MPI_COMM_WORLD, &sr);
    MPI_Irecv(hi, 2, MPI_DOUBLE, right, 21, MPI_COMM_WORLD, &rr);
    MPI_Irecv(lo, 2, MPI_DOUBLE, left, 20, MPI_COMM_WORLD, &rl);
    MPI_Wait(&sl, MPI_STATUS_IGNORE);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    MPI_Wait(&rl, MPI_STATUS_IGNORE);
  }
  for (int k = 0; k < 2; k++)
    s += lo[k] * hi[1 - k] + cos(lo[k]) * x[k] + hi[k] * hi[k] * x[n - 1 - k];
  return s + local_sum(x, n, lo[1], hi[0]);
}

int main(int argc, char **argv) {
  double x[N];
  mpi_test_init(&argc, &argv);
  mpi_fill(x, N, -1, 1);
  MPI_CHECK_SCALAR("waitall", halo_waitall, x, N, 1e-6);
  MPI_CHECK_SCALAR("separate waits", halo_waits, x, N, 1e-6);
  return mpi_test_finish();
}
