// An MPI call the plugin does not differentiate (here MPI_Scatter,
// MPI_Alltoall and MPI_Gather) on data that carries derivatives is a
// compile-time error at its line, in reverse and forward mode, naming the
// function and the MPI call; never a silent zero. So is a reduction with an
// operation other than MPI_SUM, MPI_MAX and MPI_MIN, when the operation is a
// constant (error_reduction_op.c: when it is not), differentiated data
// sent as MPI_BYTE, and a receive into an __ad_const argument. The same calls on data without derivatives (integers)
// are fine.
// REQUIRES: mpi
// RUN: not %mpicc_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %mpicc_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <math.h>
#include <mpi.h>

void __ad_autodiff_void(void *, ...);

/* rank 0's x is scattered: each rank gets 2 of its elements */
double scatter(double *x, int n) {
  double part[2];
  (void)n;
  // CHECK-DAG: error_unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'scatter': call to 'MPI_Scatter' with differentiated data: this MPI function is not differentiated
  MPI_Scatter(x, 2, MPI_DOUBLE, part, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return sin(part[0]) * part[1];
}

double alltoall(double *x, int n) {
  double y[64], s = 0;
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // CHECK-DAG: error_unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'alltoall': call to 'MPI_Alltoall' with differentiated data: this MPI function is not differentiated
  MPI_Alltoall(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < size && i < n; i++)
    s += y[i] * y[i];
  return s;
}

/* the gathered data is active through the product; the integer gather of
 * the ranks' counts is not */
double gather(double *x, int n) {
  double all[64], s = 0;
  int counts[64], size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
  double local = x[0] * x[1];
  // CHECK-DAG: error_unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'gather': call to 'MPI_Gather' with differentiated data: this MPI function is not differentiated
  MPI_Gather(&local, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < size && i < 64; i++)
    s += all[i] * counts[i];
  return s;
}

/* inactive: integers only, around an active computation */
double counts_only(double *x, int n) {
  int counts[64], size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
  return x[0] * counts[size - 1];
}

double product_all(double *x, int n) {
  double p;
  (void)n;
  // CHECK-DAG: error_unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'product_all': MPI_Allreduce with operation 'prod' on differentiated data is not differentiated; hint: reduce floating-point data with MPI_SUM, MPI_MAX or MPI_MIN
  MPI_Allreduce(x, &p, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  return p * x[1];
}

double product_root(double *x, int n) {
  double p = 0;
  (void)n;
  // CHECK-DAG: error_unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'product_root': MPI_Reduce with operation 'prod' on differentiated data is not differentiated
  MPI_Reduce(x, &p, 1, MPI_DOUBLE, MPI_PROD, 0, MPI_COMM_WORLD);
  return p * x[1];
}

/* doubles sent as bytes: nothing says where their derivatives are */
double as_bytes(double *x, int n) {
  // CHECK-DAG: error_unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'as_bytes': MPI_Send moves differentiated data as MPI type 'byte', whose derivative the plugin cannot move; hint: send floating-point data as MPI_DOUBLE or MPI_FLOAT
  MPI_Send(x, 8 * n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
  return x[0] * x[0];
}

/* a work array passed as __ad_const: what arrives there has derivatives */
double into_const(double *x, double *work) {
  // CHECK-DAG: error_unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'into_const': MPI_Recv receives into memory that has no shadow (parameter 2 of 'into_const'), so the derivatives that arrive there would be lost; hint: receive into local memory, or pass this memory as __ad_dup
  MPI_Recv(work, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return work[0] * x[0];
}

void rev(double *x, double *dx, int n) {
  __ad_autodiff_void((void *)into_const, x, dx, __ad_const, x + n);
  __ad_autodiff_void((void *)as_bytes, x, dx, n);
  __ad_autodiff_void((void *)product_all, x, dx, n);
  __ad_autodiff_void((void *)scatter, x, dx, n);
  __ad_autodiff_void((void *)gather, x, dx, n);
  __ad_autodiff_void((void *)counts_only, x, dx, n);
}
double fwd(double *x, double *v, int n) {
  return __ad_fwddiff((void *)alltoall, x, v, n) +
         __ad_fwddiff((void *)product_root, x, v, n);
}
