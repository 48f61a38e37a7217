// MPI_FLOAT buffers: a periodic halo exchange with MPI_Sendrecv, a
// non-blocking exchange (MPI_Isend/MPI_Irecv, MPI_Waitall) and an
// MPI_Allreduce with MPI_SUM, all on float data whose shadows are float too
// (an adjoint message of the wrong width would scramble them). Finite
// differences come from the same code in double, with MPI_DOUBLE messages.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: %mpi_run %t.O0
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: %mpi_run %t.O2
#include "mpi_test.h"

#define N 6

/* The same function for T = float and T = double (MPI type D). */
#define HALO_SUM(name, T, D, SIN)                                              \
  static T name(T *x, int n) {                                                 \
    T u[N + 2], far[2], total, j = 0, local = 0;                               \
    int rank, size;                                                            \
    MPI_Request req[2];                                                        \
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);                                      \
    MPI_Comm_size(MPI_COMM_WORLD, &size);                                      \
    int left = (rank + size - 1) % size, right = (rank + 1) % size;            \
    for (int i = 0; i < n; i++)                                                \
      u[i + 1] = x[i] * x[i];                                                  \
    MPI_Sendrecv(&u[n], 1, D, right, 0, &u[0], 1, D, left, 0, MPI_COMM_WORLD,  \
                 MPI_STATUS_IGNORE);                                           \
    MPI_Sendrecv(&u[1], 1, D, left, 1, &u[n + 1], 1, D, right, 1,              \
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);                           \
    MPI_Irecv(far, 2, D, left, 2, MPI_COMM_WORLD, &req[0]);                    \
    MPI_Isend(&x[n - 2], 2, D, right, 2, MPI_COMM_WORLD, &req[1]);             \
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);                                  \
    for (int i = 1; i <= n; i++)                                               \
      local += u[i] * SIN(u[i - 1] - u[i + 1]);                                \
    MPI_Allreduce(&local, &total, 1, D, MPI_SUM, MPI_COMM_WORLD);              \
    for (int i = 0; i < n; i++)                                                \
      j += total * x[i] + far[i % 2] * far[(i + 1) % 2] * x[i];                \
    return j;                                                                  \
  }

HALO_SUM(halo_float, float, MPI_FLOAT, sinf)
HALO_SUM(halo_double, double, MPI_DOUBLE, sin)

int main(int argc, char **argv) {
  float x[N];
  mpi_test_init(&argc, &argv);
  mpi_fillf(x, N, -1, 1);
  MPI_CHECK_SCALAR_F("float halo", halo_float, halo_double, x, N, 2e-4);
  return mpi_test_finish();
}
