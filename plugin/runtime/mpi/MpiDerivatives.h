/*===- MpiDerivatives.h - Derivatives of MPI operations ---------*- C -*-===*
 *
 * The contract between the IR the plugin emits for a function that calls
 * MPI and the run-time support (MpiDerivatives.c), compiled to bitcode and
 * linked into the user's module (one copy per program).
 *
 * Each MPI call of the derivative's canonical primal becomes a call of a
 * wrapper below: the MPI call's arguments, then one shadow per buffer (NULL
 * where the buffer has no derivative). Reverse mode: the wrapper does the
 * primal operation and returns a record (NULL when its reverse has nothing
 * to do) that __ad_mpi_reverse consumes and frees at the mirrored place of
 * the reverse sweep; shadows hold adjoints. Forward mode: the _tangent
 * wrapper does the primal operation and moves the tangents (its shadows)
 * with the values; it returns NULL.
 *===----------------------------------------------------------------------===*/
#ifndef AD_MPI_DERIVATIVES_H
#define AD_MPI_DERIVATIVES_H

#include <mpi.h>

void *__ad_mpi_send(const void *buf, int n, MPI_Datatype t, int dest, int tag,
                    MPI_Comm c, void *shadow);
void *__ad_mpi_recv(void *buf, int n, MPI_Datatype t, int src, int tag,
                    MPI_Comm c, MPI_Status *st, void *shadow);
void *__ad_mpi_sendrecv(const void *sbuf, int sn, MPI_Datatype stype, int dest,
                        int stag, void *rbuf, int rn, MPI_Datatype rtype,
                        int src, int rtag, MPI_Comm c, MPI_Status *st,
                        void *sshadow, void *rshadow);
void *__ad_mpi_isend(const void *buf, int n, MPI_Datatype t, int dest, int tag,
                     MPI_Comm c, MPI_Request *req, void *shadow);
void *__ad_mpi_irecv(void *buf, int n, MPI_Datatype t, int src, int tag,
                     MPI_Comm c, MPI_Request *req, void *shadow);
void *__ad_mpi_wait(MPI_Request *req, MPI_Status *st);
void *__ad_mpi_waitall(int n, MPI_Request *reqs, MPI_Status *sts);
void *__ad_mpi_allreduce(const void *sbuf, void *rbuf, int n, MPI_Datatype t,
                         MPI_Op op, MPI_Comm c, void *sshadow, void *rshadow);
void *__ad_mpi_reduce(const void *sbuf, void *rbuf, int n, MPI_Datatype t,
                      MPI_Op op, int root, MPI_Comm c, void *sshadow,
                      void *rshadow);
void *__ad_mpi_bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm c,
                     void *shadow);
void __ad_mpi_reverse(void *record);

void *__ad_mpi_send_tangent(const void *buf, int n, MPI_Datatype t, int dest,
                            int tag, MPI_Comm c, void *shadow);
void *__ad_mpi_recv_tangent(void *buf, int n, MPI_Datatype t, int src, int tag,
                            MPI_Comm c, MPI_Status *st, void *shadow);
void *__ad_mpi_sendrecv_tangent(const void *sbuf, int sn, MPI_Datatype stype,
                                int dest, int stag, void *rbuf, int rn,
                                MPI_Datatype rtype, int src, int rtag,
                                MPI_Comm c, MPI_Status *st, void *sshadow,
                                void *rshadow);
void *__ad_mpi_isend_tangent(const void *buf, int n, MPI_Datatype t, int dest,
                             int tag, MPI_Comm c, MPI_Request *req,
                             void *shadow);
void *__ad_mpi_irecv_tangent(void *buf, int n, MPI_Datatype t, int src, int tag,
                             MPI_Comm c, MPI_Request *req, void *shadow);
void *__ad_mpi_wait_tangent(MPI_Request *req, MPI_Status *st);
void *__ad_mpi_waitall_tangent(int n, MPI_Request *reqs, MPI_Status *sts);
void *__ad_mpi_allreduce_tangent(const void *sbuf, void *rbuf, int n,
                                 MPI_Datatype t, MPI_Op op, MPI_Comm c,
                                 void *sshadow, void *rshadow);
void *__ad_mpi_reduce_tangent(const void *sbuf, void *rbuf, int n,
                              MPI_Datatype t, MPI_Op op, int root, MPI_Comm c,
                              void *sshadow, void *rshadow);
void *__ad_mpi_bcast_tangent(void *buf, int n, MPI_Datatype t, int root,
                             MPI_Comm c, void *shadow);

#endif
