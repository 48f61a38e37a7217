/* burgers_mpi.h - a distributed 1-D viscous Burgers run with MPI (bench/mpi).
 *
 * Every rank holds n cells of a periodic domain of n * size cells and calls
 * the same functions at the same time (they communicate).
 */
#ifndef BURGERS_MPI_H
#define BURGERS_MPI_H

/* burgers_mpi_ad.c defines BURGERS_MPI_API as `static` and includes
 * burgers_mpi.c, so that the run it differentiates is a private copy of the
 * same source text as the plain object the primal timings call. */
#ifndef BURGERS_MPI_API
#define BURGERS_MPI_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* `steps` explicit steps from this rank's cells u0[0..n), each exchanging
 * one ghost cell with both neighbours (MPI_Sendrecv); returns J / size, where
 * J is sum(u^2) over the whole final state (MPI_Allreduce). Every rank's
 * return value is seeded with 1 in the gradient, so the ranks' seeds add up
 * to dJ. The plain build (burgers_mpi.c, no plugin). */
BURGERS_MPI_API double burgers_mpi(const double *u0, int n, int steps);

/* du0 += dJ/du0 for this rank's cells, by the plugin's reverse mode of the
 * same code (burgers_mpi_ad.c). */
void burgers_mpi_grad(const double *u0, double *du0, int n, int steps);

/* The same gradient written by hand (burgers_mpi_handwritten.c). */
void burgers_mpi_grad_handwritten(const double *u0, double *du0, int n,
                                  int steps);

/* A smooth initial state with a ripple, the same however the cells are
 * split among ranks. */
void burgers_mpi_init(double *u0, int n, int rank, int size);

#ifdef __cplusplus
}
#endif

#endif /* BURGERS_MPI_H */
