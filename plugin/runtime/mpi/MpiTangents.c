/*===- MpiTangents.c - Forward mode ----------------------------------------===*
 *
 * Part of MpiDerivatives.c, which includes the parts in order as one
 * translation unit (so that their helpers stay static): the tangent
 * wrappers.
 *===----------------------------------------------------------------------===*/

/*===-- Forward mode ------------------------------------------------------===*/

void *__ad_mpi_send_tangent(const void *buf, int n, MPI_Datatype t, int dest,
                            int tag, MPI_Comm c, void *shadow) {
  EltKind k = classify("MPI_Send", t, shadow != NULL);
  if (k == ELT_NONE) {
    MPI_Send(buf, n, t, dest, tag, c);
    return NULL;
  }
  void *packed = packTangent(buf, shadow, n, k);
  MPI_Send(packed, packedCount(n), t, dest, tag, c);
  free(packed);
  return NULL;
}

void *__ad_mpi_recv_tangent(void *buf, int n, MPI_Datatype t, int src, int tag,
                            MPI_Comm c, MPI_Status *st, void *shadow) {
  EltKind k = classify("MPI_Recv", t, shadow != NULL);
  MPI_Status own;
  MPI_Status *s = st == MPI_STATUS_IGNORE ? &own : st;
  if (k == ELT_NONE || src == MPI_PROC_NULL) {
    primalRecv(buf, n, t, src, tag, c, s);
    return NULL;
  }
  void *packed = adAlloc(2 * (size_t)n * eltSize(k));
  primalRecv(packed, packedCount(n), t, src, tag, c, s);
  finishTangentRecv(packed, n, t, k, buf, shadow, s);
  free(packed);
  return NULL;
}

void *__ad_mpi_sendrecv_tangent(const void *sbuf, int sn, MPI_Datatype stype,
                                int dest, int stag, void *rbuf, int rn,
                                MPI_Datatype rtype, int src, int rtag,
                                MPI_Comm c, MPI_Status *st, void *sshadow,
                                void *rshadow) {
  EltKind sk = classify("MPI_Sendrecv", stype, sshadow != NULL);
  EltKind rk = classify("MPI_Sendrecv", rtype, rshadow != NULL);
  MPI_Status own;
  MPI_Status *s = st == MPI_STATUS_IGNORE ? &own : st;
  void *spacked = sk == ELT_NONE ? NULL : packTangent(sbuf, sshadow, sn, sk);
  void *rpacked = rk == ELT_NONE ? NULL : adAlloc(2 * (size_t)rn * eltSize(rk));
  primalSendrecv(spacked ? spacked : sbuf, spacked ? packedCount(sn) : sn,
                 stype, dest, stag, rpacked ? rpacked : rbuf,
                 rpacked ? packedCount(rn) : rn, rtype, src, rtag, c, s);
  if (rpacked)
    finishTangentRecv(rpacked, rn, rtype, rk, rbuf, rshadow, s);
  free(spacked);
  free(rpacked);
  return NULL;
}

void *__ad_mpi_isend_tangent(const void *buf, int n, MPI_Datatype t, int dest,
                             int tag, MPI_Comm c, MPI_Request *req,
                             void *shadow) {
  EltKind k = classify("MPI_Isend", t, shadow != NULL);
  if (k == ELT_NONE || dest == MPI_PROC_NULL) {
    MPI_Isend(buf, n, t, dest, tag, c, req);
    return NULL;
  }
  TangentPending *p = adAllocZero(sizeof *p);
  *p = (TangentPending){TAN_ISEND, NULL, NULL, packTangent(buf, shadow, n, k),
                        n,         k,    t,    dest,
                        0,         c};
  MPI_Isend(p->packed, packedCount(n), t, dest, tag, c, req);
  addPending(req, p);
  return NULL;
}

void *__ad_mpi_irecv_tangent(void *buf, int n, MPI_Datatype t, int src, int tag,
                             MPI_Comm c, MPI_Request *req, void *shadow) {
  EltKind k = classify("MPI_Irecv", t, shadow != NULL);
  if (k == ELT_NONE || src == MPI_PROC_NULL) {
    irecvPlain(buf, n, t, src, tag, c, req);
    return NULL;
  }
  TangentPending *p = adAllocZero(sizeof *p);
  *p = (TangentPending){TAN_IRECV,
                        buf,
                        shadow,
                        adAlloc(2 * (size_t)n * eltSize(k)),
                        n,
                        k,
                        t,
                        src,
                        tag == MPI_ANY_TAG,
                        c};
  MPI_Irecv(p->packed, packedCount(n), t, src, tag, c, req);
  addPending(req, p);
  return NULL;
}

void *__ad_mpi_wait_tangent(MPI_Request *req, MPI_Status *st) {
  waitAndComplete(req, st);
  return NULL;
}

void *__ad_mpi_waitall_tangent(int n, MPI_Request *reqs, MPI_Status *sts) {
  PendingOp **ops = adAlloc((size_t)(n > 0 ? n : 1) * sizeof *ops);
  waitAll(n, reqs, sts, ops);
  free(ops);
  return NULL;
}

/* The tangent of a MAX or MIN: the winner's, summed to where the result
   goes (every rank, or the root). */
static void tangentWithWinners(const void *in, void *out, const void *inTan,
                               void *outTan, int n, EltKind k, ReduceKind red,
                               MPI_Datatype t, int toAll, int root,
                               MPI_Comm c) {
  int rank;
  MPI_Comm_rank(c, &rank);
  int isRoot = rank == root;
  /* Winners on every rank, so that each masks its own tangents. */
  int *winners =
      reduceWithWinners(in, out, n, k, red, 1, root, toAll || isRoot, c);
  void *masked = adAllocZero((size_t)n * eltSize(k));
  if (inTan)
    addWon(masked, inTan, winners, rank, n, k);
  if (toAll)
    MPI_Allreduce(MPI_IN_PLACE, masked, n, t, MPI_SUM, c);
  else if (isRoot)
    MPI_Reduce(MPI_IN_PLACE, masked, n, t, MPI_SUM, root, c);
  else
    MPI_Reduce(masked, NULL, n, t, MPI_SUM, root, c);
  if (outTan && (toAll || isRoot))
    memcpy(outTan, masked, (size_t)n * eltSize(k));
  free(masked);
  free(winners);
}

void *__ad_mpi_allreduce_tangent(const void *sbuf, void *rbuf, int n,
                                 MPI_Datatype t, MPI_Op op, MPI_Comm c,
                                 void *sshadow, void *rshadow) {
  int inPlace = sbuf == MPI_IN_PLACE;
  const void *in = inPlace ? rbuf : sbuf;
  void *inTan = inPlace ? rshadow : sshadow;
  int hasShadow = inTan || rshadow;
  ReduceKind red;
  EltKind k = reductionKind("MPI_Allreduce", t, op, hasShadow, &red);
  if (k == ELT_NONE) {
    MPI_Allreduce(sbuf, rbuf, n, t, op, c);
    return NULL;
  }
  if (red != RED_SUM) {
    tangentWithWinners(in, rbuf, inTan, rshadow, n, k, red, t, 1, 0, c);
    return NULL;
  }
  void *packed = packTangent(in, inTan, n, k);
  MPI_Allreduce(MPI_IN_PLACE, packed, packedCount(n), t, MPI_SUM, c);
  unpackTangent(packed, n, n, rbuf, rshadow, k);
  free(packed);
  return NULL;
}

void *__ad_mpi_reduce_tangent(const void *sbuf, void *rbuf, int n,
                              MPI_Datatype t, MPI_Op op, int root, MPI_Comm c,
                              void *sshadow, void *rshadow) {
  int rank;
  MPI_Comm_rank(c, &rank);
  int isRoot = rank == root;
  int inPlace = isRoot && sbuf == MPI_IN_PLACE;
  const void *in = inPlace ? rbuf : sbuf;
  void *inTan = inPlace ? rshadow : sshadow;
  void *outTan = isRoot ? rshadow : NULL;
  int hasShadow = inTan || outTan;
  ReduceKind red;
  EltKind k = reductionKind("MPI_Reduce", t, op, hasShadow, &red);
  if (k == ELT_NONE) {
    MPI_Reduce(sbuf, rbuf, n, t, op, root, c);
    return NULL;
  }
  if (red != RED_SUM) {
    tangentWithWinners(in, rbuf, inTan, outTan, n, k, red, t, 0, root, c);
    return NULL;
  }
  void *packed = packTangent(in, inTan, n, k);
  if (isRoot) {
    MPI_Reduce(MPI_IN_PLACE, packed, packedCount(n), t, MPI_SUM, root, c);
    unpackTangent(packed, n, n, rbuf, outTan, k);
  } else {
    MPI_Reduce(packed, NULL, packedCount(n), t, MPI_SUM, root, c);
  }
  free(packed);
  return NULL;
}

void *__ad_mpi_bcast_tangent(void *buf, int n, MPI_Datatype t, int root,
                             MPI_Comm c, void *shadow) {
  EltKind k = classify("MPI_Bcast", t, shadow != NULL);
  if (k == ELT_NONE) {
    MPI_Bcast(buf, n, t, root, c);
    return NULL;
  }
  int rank;
  MPI_Comm_rank(c, &rank);
  void *packed = rank == root ? packTangent(buf, shadow, n, k)
                              : adAlloc(2 * (size_t)n * eltSize(k));
  MPI_Bcast(packed, packedCount(n), t, root, c);
  if (rank != root)
    unpackTangent(packed, n, n, buf, shadow, k);
  free(packed);
  return NULL;
}
