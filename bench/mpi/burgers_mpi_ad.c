/* burgers_mpi_ad.c - the plugin's gradient of the distributed Burgers run:
 * the same source as the plain build (burgers_mpi.c), included as static
 * code, compiled with the plugin. */
#define BURGERS_MPI_API static
#define BURGERS_MPI_NO_INIT
#include "burgers_mpi.c"

#include <ad.h>

void __ad_autodiff_void(void *, ...);

void burgers_mpi_grad(const double *u0, double *du0, int n, int steps) {
  __ad_autodiff_void((void *)burgers_mpi, u0, du0, n, steps);
}
