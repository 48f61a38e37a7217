// A datatype the program built (MPI_Type_vector of doubles: a matrix
// column) in differentiated code: MPI matches it with MPI_DOUBLE on the
// other side (the same type signature), whose derivative moves derivatives,
// while the plugin cannot tell where the vector's floats are. The derivative
// stops the program with a message and MPI_Abort, in both modes, even where
// the column is a constant (no shadow): the two sides could not agree on
// what travels. Never a silent wrong derivative or a hang.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: not %mpirun -np 2 %t.O0 rev 2>&1 | FileCheck %s --implicit-check-not="reached the end"
// RUN: not %mpirun -np 2 %t.O0 fwd 2>&1 | FileCheck %s --implicit-check-not="reached the end"
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: not %mpirun -np 2 %t.O2 rev 2>&1 | FileCheck %s --implicit-check-not="reached the end"
#include "mpi_test.h"

// CHECK: ad: MPI_Send on a derived datatype's floating-point data is not differentiated (use MPI_DOUBLE or MPI_FLOAT)

static double matrix[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
static MPI_Datatype column;

static double column_sum(double *x, int n) {
  double c[3] = {0, 0, 0};
  (void)n;
  if (mpi_rank == 0)
    MPI_Send(&matrix[0][1], 1, column, 1, 0, MPI_COMM_WORLD);
  if (mpi_rank == 1)
    MPI_Recv(c, 3, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return x[0] * (c[0] + c[1] + c[2]);
}

int main(int argc, char **argv) {
  mpi_test_init(&argc, &argv);
  MPI_Type_vector(3, 1, 3, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  double x[1] = {1}, dx[1] = {0}, v[1] = {1};
  if (argc > 1 && !strcmp(argv[1], "fwd"))
    __ad_fwddiff((void *)column_sum, x, v, 1);
  else
    __ad_autodiff_void((void *)column_sum, x, dx, 1);
  printf("reached the end\n");
  MPI_Type_free(&column);
  MPI_Finalize();
  return 0;
}
