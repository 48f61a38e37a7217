/* burgers_mpi.c - the distributed Burgers run (burgers_mpi.h).
 *
 * BURGERS_MPI_API (burgers_mpi.h) is empty for the plain build and `static`
 * where burgers_mpi_ad.c includes this file to differentiate it; that copy
 * leaves burgers_mpi_init to the plain object.
 */
#include "burgers_mpi.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>

/* dx = 1: advection number dt / 2 and diffusion number nu dt, stable for
 * |u| <= 1 */
#define BURGERS_DT 0.2
#define BURGERS_NU 0.5

BURGERS_MPI_API double burgers_mpi(const double *u0, int n, int steps) {
  const double c = BURGERS_DT / 2, r = BURGERS_NU * BURGERS_DT;
  double *a = malloc((n + 2) * sizeof *a), *b = malloc((n + 2) * sizeof *b);
  double local = 0, global = 0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int i = 0; i < n; i++)
    a[i + 1] = u0[i];
  for (int s = 0; s < steps; s++) {
    /* a[0] and a[n + 1] are the ghost cells */
    MPI_Sendrecv(&a[n], 1, MPI_DOUBLE, right, 0, &a[0], 1, MPI_DOUBLE, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&a[1], 1, MPI_DOUBLE, left, 1, &a[n + 1], 1, MPI_DOUBLE, right,
                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; i++)
      b[i] = a[i] - c * a[i] * (a[i + 1] - a[i - 1]) +
             r * (a[i + 1] - 2 * a[i] + a[i - 1]);
    double *t = a;
    a = b;
    b = t;
  }
  for (int i = 1; i <= n; i++)
    local += a[i] * a[i];
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  free(a);
  free(b);
  return global / size;
}

#ifndef BURGERS_MPI_NO_INIT
void burgers_mpi_init(double *u0, int n, int rank, int size) {
  const double pi = 3.14159265358979323846;
  double cells = (double)n * size;
  for (int i = 0; i < n; i++) {
    double x = (double)rank * n + i;
    u0[i] =
        0.5 + 0.3 * sin(2 * pi * x / cells) + 0.1 * sin(14 * pi * x / cells);
  }
}
#endif
