/* burgers_mpi_handwritten.c - the gradient of burgers_mpi (burgers_mpi.c)
 * written by hand, as an expert would without checkpointing: the forward
 * sweep keeps every step's state (the ghost cells included), the reverse
 * sweep runs the steps backwards, and the adjoints of the ghost cells go
 * back to the neighbours that sent them, one MPI_Sendrecv each way per
 * step. It keeps the same memory the plugin's tape does (the states, in
 * one buffer reused between calls) and is the baseline the plugin's
 * gradient is timed against (mpi_main.cpp, counter handwritten_ms).
 */
#include "burgers_mpi.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define BURGERS_DT 0.2
#define BURGERS_NU 0.5

void burgers_mpi_grad_handwritten(const double *u0, double *du0, int n,
                                  int steps) {
  const double c = BURGERS_DT / 2, r = BURGERS_NU * BURGERS_DT;
  static double *states; /* steps x (n + 2), kept for the next call */
  static size_t capacity;
  size_t need = (size_t)steps * (n + 2);
  if (need > capacity) {
    free(states);
    states = malloc(need * sizeof *states);
    capacity = need;
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;

  double *a = malloc((n + 2) * sizeof *a), *b = malloc((n + 2) * sizeof *b);
  for (int i = 0; i < n; i++)
    a[i + 1] = u0[i];
  for (int s = 0; s < steps; s++) {
    MPI_Sendrecv(&a[n], 1, MPI_DOUBLE, right, 0, &a[0], 1, MPI_DOUBLE, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&a[1], 1, MPI_DOUBLE, left, 1, &a[n + 1], 1, MPI_DOUBLE, right,
                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double *state = states + (size_t)s * (n + 2);
    state[0] = a[0];
    state[n + 1] = a[n + 1];
    for (int i = 1; i <= n; i++) {
      state[i] = a[i];
      b[i] = a[i] - c * a[i] * (a[i + 1] - a[i - 1]) +
             r * (a[i + 1] - 2 * a[i] + a[i - 1]);
    }
    double *t = a;
    a = b;
    b = t;
  }

  /* J = (sum over ranks of sum a^2) / size, and every rank seeds its J with
     1: the Allreduce's adjoint gives every rank d(global) = 1. */
  double *da = calloc(n + 2, sizeof *da), *db = calloc(n + 2, sizeof *db);
  for (int i = 1; i <= n; i++)
    db[i] = 2 * a[i];
  for (int s = steps - 1; s >= 0; s--) {
    const double *state = states + (size_t)s * (n + 2);
    memset(da, 0, (n + 2) * sizeof *da);
    for (int i = 1; i <= n; i++) {
      double g = db[i], ai = state[i];
      da[i] += g * (1 - c * (state[i + 1] - state[i - 1]) - 2 * r);
      da[i + 1] += g * (r - c * ai);
      da[i - 1] += g * (r + c * ai);
    }
    /* The ghost cells' adjoints back to where they came from: a[n + 1] was
       the right neighbour's a[1], a[0] the left neighbour's a[n]. */
    double from_left, from_right;
    MPI_Sendrecv(&da[n + 1], 1, MPI_DOUBLE, right, 3, &from_left, 1,
                 MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&da[0], 1, MPI_DOUBLE, left, 2, &from_right, 1, MPI_DOUBLE,
                 right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    da[1] += from_left;
    da[n] += from_right;
    double *t = da;
    da = db;
    db = t;
  }
  for (int i = 0; i < n; i++)
    du0[i] += db[i + 1];
  free(a);
  free(b);
  free(da);
  free(db);
}
