// A reduction whose operation the derivative does not know (MPI_PROD) on
// data that carries derivatives, where the MPI_Op is a run-time value (a
// variable main sets, so the compiler cannot tell which it is; a constant one
// is a compile-time error, error_unsupported.c): the derivative stops the
// program there, with a message and MPI_Abort, in reverse and in forward
// mode; never a silent wrong derivative. The same reduction on data without
// a shadow runs.
// REQUIRES: mpi
// RUN: %mpicc_ad -O0 %s -o %t.O0 -lm
// RUN: not %mpirun -np 2 %t.O0 rev 2>&1 | FileCheck %s --check-prefix=REV --implicit-check-not="reached the end"
// RUN: not %mpirun -np 2 %t.O0 fwd 2>&1 | FileCheck %s --check-prefix=FWD --implicit-check-not="reached the end"
// RUN: %mpicc_ad -O2 %s -o %t.O2 -lm
// RUN: not %mpirun -np 2 %t.O2 rev 2>&1 | FileCheck %s --check-prefix=REV --implicit-check-not="reached the end"
// RUN: not %mpirun -np 2 %t.O2 fwd 2>&1 | FileCheck %s --check-prefix=FWD --implicit-check-not="reached the end"
#include "mpi_test.h"

// (stdout and stderr arrive through mpirun in either order)
// REV-DAG: inactive product: 6
// REV-DAG: ad: MPI_Allreduce with MPI_PROD on MPI_DOUBLE data is not differentiated (use MPI_SUM, MPI_MAX or MPI_MIN)
// FWD-DAG: inactive product: 6
// FWD-DAG: ad: MPI_Allreduce with MPI_PROD on MPI_DOUBLE data is not differentiated (use MPI_SUM, MPI_MAX or MPI_MIN)

static MPI_Op chosen;

static double product(double *x, int n) {
  double p;
  (void)n;
  MPI_Allreduce(x, &p, 1, MPI_DOUBLE, chosen, MPI_COMM_WORLD);
  return p * x[1];
}

int main(int argc, char **argv) {
  double x[2] = {2, 3}, dx[2] = {0}, v[2] = {1, 1}, p, mine;
  mpi_test_init(&argc, &argv);
  chosen = argc > 5 ? MPI_SUM : MPI_PROD;
  /* the plain reduction, outside any derivative: 2 * 3 at 2 ranks */
  mine = mpi_rank + 2;
  MPI_Allreduce(&mine, &p, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  if (mpi_rank == 0)
    printf("inactive product: %g\n", p);
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "rev") == 0)
    __ad_autodiff_void((void *)product, x, dx, 2);
  else
    __ad_fwddiff((void *)product, x, v, 2);
  if (mpi_rank == 0)
    printf("reached the end\n");
  return mpi_test_finish();
}
