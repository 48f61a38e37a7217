// A 1-D heat equation split over the ranks, each rank holding N cells and
// exchanging one ghost cell with each neighbour per step (MPI_Sendrecv; the
// ends of the rod have none: MPI_PROC_NULL). Every rank computes the
// gradient of the global energy at the end, sum over all cells of u^2,
// with respect to its own cells of the initial temperature, and checks one
// entry of it against a central finite difference of the distributed
// program, and the whole gradient against forward mode.
//
//   OMPI_CC=clang-22 mpicc -O2 -fpass-plugin=build/ADPlugin.so -Iinclude \
//     examples/mpi/heat.c -o heat -lm && mpirun -np 2 ./heat
#include <ad.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 16
#define STEPS 50

double __ad_autodiff(void *, ...);
double __ad_fwddiff(void *, ...);

// This rank's share of the energy after STEPS steps from u0 (not changed).
static double energy(const double *u0) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double u[N + 2], next[N + 2];
  memcpy(u + 1, u0, sizeof(double) * N);
  u[0] = u[N + 1] = 0; // Ends of the rod: held at 0.
  for (int t = 0; t < STEPS; t++) {
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[N + 1], 1, MPI_DOUBLE,
                 right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[N], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left,
                 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= N; i++)
      next[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]);
    memcpy(u + 1, next + 1, sizeof(double) * N);
  }
  double e = 0;
  for (int i = 1; i <= N; i++)
    e += u[i] * u[i];
  return e;
}

static double total(const double *u0) {
  double mine = energy(u0), all;
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double u0[N], grad[N] = {0}, v[N];
  for (int i = 0; i < N; i++) {
    double x = (rank * N + i + 0.5) / (size * N);
    u0[i] = sin(3.14159265358979 * x) + 0.3 * x;
    v[i] = cos(i + rank); // A direction for forward mode.
  }
  // Every rank calls the gradient: the adjoints travel between them.
  __ad_autodiff((void *)energy, __ad_dup, u0, grad);
  double jv = __ad_fwddiff((void *)energy, __ad_dup, u0, v), sum_jv;
  MPI_Allreduce(&jv, &sum_jv, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double gv = 0, sum_gv;
  for (int i = 0; i < N; i++)
    gv += grad[i] * v[i];
  MPI_Allreduce(&gv, &sum_gv, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  // A central difference of cell 0 of the last rank, every rank running.
  const double h = 1e-6;
  int owner = size - 1;
  double saved = u0[0];
  if (rank == owner)
    u0[0] = saved + h;
  double up = total(u0);
  if (rank == owner)
    u0[0] = saved - h;
  double down = total(u0);
  if (rank == owner)
    u0[0] = saved;
  double fd = (up - down) / (2 * h);

  int ok = 1;
  if (rank == owner) {
    printf("rank %d of %d: d(energy)/d(u0[0]) = %.10f, finite difference "
           "%.10f\n", rank, size, grad[0], fd);
    ok = fabs(grad[0] - fd) <= 1e-6 * fabs(fd);
  }
  if (rank == 0)
    printf("<grad, v> = %.12f, forward mode J v = %.12f\n", sum_gv, sum_jv);
  ok = ok && fabs(sum_gv - sum_jv) <= 1e-12 * fabs(sum_jv);
  int all_ok;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
