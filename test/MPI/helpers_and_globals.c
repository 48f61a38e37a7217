// MPI calls where the differentiated data is not: every message a
// derivative's rank sends or receives must be met by the other side's
// derivative, so these must all take part in the adjoint (and tangent)
// exchange, or a rank waits for an adjoint nobody sends:
//   - a helper that sends constants (no differentiated data on the sending
//     rank), received into an active computation on the others; then an
//     active send on the same tag (the two streams' counts must agree);
//   - requests kept in a global array and completed by a helper that sees
//     no floating-point data (MPI_Waitall);
//   - a receive into a file-scope buffer (a halo kept in a global: it gets
//     a shadow like any mutable global written with derivatives);
//   - a communicator duplicated for each gradient and freed after it, with
//     rank 0 alone creating another communicator in between (the next
//     duplicate may take the freed one's address on some ranks only: the
//     adjoint messages' counts must start afresh on every rank).
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 4

__attribute__((noinline)) static void send_constants(int dest) {
  double c[2] = {1.5, 2.5};
  MPI_Send(c, 2, MPI_DOUBLE, dest, 7, MPI_COMM_WORLD);
}

static double constants_from_rank0(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  if (mpi_rank == 0) {
    for (int d = 1; d < mpi_size; d++)
      send_constants(d);
  } else {
    double buf[2];
    MPI_Recv(buf, 2, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    s += buf[0] * x[0] + buf[1] * sin(x[1]);
  }
  return s;
}

static double active_from_rank0(double *x, int n) {
  double s = x[n - 1];
  if (mpi_rank == 0) {
    for (int d = 1; d < mpi_size; d++)
      MPI_Send(x, 2, MPI_DOUBLE, d, 7, MPI_COMM_WORLD);
  } else {
    double buf[2];
    MPI_Recv(buf, 2, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    s += buf[0] * buf[0] * x[0] + buf[1] * sin(x[1]);
  }
  return s;
}

static MPI_Request requests[4];
static void complete_all(void) {
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
}

static double waits_in_helper(double *x, int n) {
  int right = (mpi_rank + 1) % mpi_size;
  int left = (mpi_rank + mpi_size - 1) % mpi_size;
  double lo, hi;
  MPI_Irecv(&lo, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(&hi, 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &requests[1]);
  MPI_Isend(&x[n - 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &requests[2]);
  MPI_Isend(&x[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &requests[3]);
  complete_all();
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * (lo + 2 * hi);
  return s + lo * hi;
}

static double halo[2];
static double global_halo(double *x, int n) {
  int right = (mpi_rank + 1) % mpi_size;
  int left = (mpi_rank + mpi_size - 1) % mpi_size;
  MPI_Sendrecv(x, 2, MPI_DOUBLE, right, 3, halo, 2, MPI_DOUBLE, left, 3,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * (halo[0] + halo[1] * halo[1]);
  return s;
}

/* x[0] times the left neighbour's x[0], over communicator `work`:
 * d(sum)/dx[0] = x_left[0] + x_right[0]. */
static MPI_Comm work;
static double ring_product(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(work, &rank);
  MPI_Comm_size(work, &size);
  double from_left;
  MPI_Sendrecv(x, 1, MPI_DOUBLE, (rank + 1) % size, 0, &from_left, 1,
               MPI_DOUBLE, (rank + size - 1) % size, 0, work,
               MPI_STATUS_IGNORE);
  return x[0] * from_left + 0 * n;
}

static void check_fresh_communicators(double *x) {
  MPI_Comm extra = MPI_COMM_NULL;
  for (int round = 0; round < 3; round++) {
    MPI_Comm_dup(MPI_COMM_WORLD, &work);
    double dx[N] = {0};
    __ad_autodiff_void((void *)ring_product, x, dx, N);
    double left, right;
    MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, (mpi_rank + 1) % mpi_size, 9, &left, 1,
                 MPI_DOUBLE, (mpi_rank + mpi_size - 1) % mpi_size, 9,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, (mpi_rank + mpi_size - 1) % mpi_size,
                 10, &right, 1, MPI_DOUBLE, (mpi_rank + 1) % mpi_size, 10,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    mpi_check_close("fresh communicator: dx", round, dx[0], left + right,
                    1e-12);
    MPI_Comm_free(&work);
    // Rank 0 alone takes an allocation the others do not.
    if (mpi_rank == 0 && extra == MPI_COMM_NULL)
      MPI_Comm_dup(MPI_COMM_SELF, &extra);
  }
  if (extra != MPI_COMM_NULL)
    MPI_Comm_free(&extra);
}

int main(int argc, char **argv) {
  double x[N];
  mpi_test_init(&argc, &argv);
  mpi_fill(x, N, -1, 1);
  MPI_CHECK_SCALAR("constants from rank 0", constants_from_rank0, x, N, 1e-6);
  MPI_CHECK_SCALAR("then active on the same tag", active_from_rank0, x, N,
                   1e-6);
  MPI_CHECK_SCALAR("waits in a helper", waits_in_helper, x, N, 1e-6);
  MPI_CHECK_SCALAR("halo in a global", global_halo, x, N, 1e-6);
  check_fresh_communicators(x);
  return mpi_test_finish();
}
