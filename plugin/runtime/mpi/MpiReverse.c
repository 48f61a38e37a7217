/*===- MpiReverse.c - Reverse mode -----------------------------------------===*
 *
 * Part of MpiDerivatives.c, which includes the parts in order as one
 * translation unit (so that their helpers stay static): the wrappers of the
 * forward sweep and __ad_mpi_reverse.
 *===----------------------------------------------------------------------===*/

/*===-- Reverse mode: the forward sweep -----------------------------------===*/

void *__ad_mpi_send(const void *buf, int n, MPI_Datatype t, int dest, int tag,
                    MPI_Comm c, void *shadow) {
  EltKind k = classify("MPI_Send", t, shadow != NULL);
  Message sent = sentMessage("MPI_Send", shadow, n, t, k, dest, tag, c);
  MPI_Send(buf, n, t, dest, tag, c);
  return newMessageRecord(REC_SEND, sent, inactiveMessage());
}

void *__ad_mpi_recv(void *buf, int n, MPI_Datatype t, int src, int tag,
                    MPI_Comm c, MPI_Status *st, void *shadow) {
  MPI_Status own;
  MPI_Status *s = st == MPI_STATUS_IGNORE ? &own : st;
  EltKind k = classify("MPI_Recv", t, shadow != NULL);
  primalRecv(buf, n, t, src, tag, c, s);
  if (k != ELT_NONE)
    countEarlierWildcards(pendingSerial);
  Message received = receivedMessage("MPI_Recv", shadow, n, t, k, s, -1, c);
  return newMessageRecord(REC_RECV, inactiveMessage(), received);
}

void *__ad_mpi_sendrecv(const void *sbuf, int sn, MPI_Datatype stype, int dest,
                        int stag, void *rbuf, int rn, MPI_Datatype rtype,
                        int src, int rtag, MPI_Comm c, MPI_Status *st,
                        void *sshadow, void *rshadow) {
  MPI_Status own;
  MPI_Status *s = st == MPI_STATUS_IGNORE ? &own : st;
  EltKind sk = classify("MPI_Sendrecv", stype, sshadow != NULL);
  EltKind rk = classify("MPI_Sendrecv", rtype, rshadow != NULL);
  Message sent =
      sentMessage("MPI_Sendrecv", sshadow, sn, stype, sk, dest, stag, c);
  primalSendrecv(sbuf, sn, stype, dest, stag, rbuf, rn, rtype, src, rtag, c, s);
  if (rk != ELT_NONE)
    countEarlierWildcards(pendingSerial);
  Message received =
      receivedMessage("MPI_Sendrecv", rshadow, rn, rtype, rk, s, -1, c);
  return newMessageRecord(REC_SENDRECV, sent, received);
}

void *__ad_mpi_isend(const void *buf, int n, MPI_Datatype t, int dest, int tag,
                     MPI_Comm c, MPI_Request *req, void *shadow) {
  EltKind k = classify("MPI_Isend", t, shadow != NULL);
  Message sent = sentMessage("MPI_Isend", shadow, n, t, k, dest, tag, c);
  MPI_Isend(buf, n, t, dest, tag, c, req);
  if (sent.peer == MPI_PROC_NULL)
    return NULL;
  PendingOp *op = adAllocZero(sizeof *op);
  op->kind = REC_ISEND;
  op->msg = sent;
  op->matched = 1;
  op->serial = pendingSerial++;
  addPending(req, op);
  return op;
}

/* An Irecv of data without derivatives: with MPI_ANY_TAG, its wait has to
   look at what it took. */
static void irecvPlain(void *buf, int n, MPI_Datatype t, int src, int tag,
                       MPI_Comm c, MPI_Request *req) {
  MPI_Irecv(buf, n, t, src, tag, c, req);
  if (tag != MPI_ANY_TAG || src == MPI_PROC_NULL)
    return;
  TangentPending *p = adAllocZero(sizeof *p);
  *p =
      (TangentPending){PLAIN_IRECV, buf, NULL, NULL, n, ELT_NONE, t, src, 1, c};
  addPending(req, p);
}

void *__ad_mpi_irecv(void *buf, int n, MPI_Datatype t, int src, int tag,
                     MPI_Comm c, MPI_Request *req, void *shadow) {
  EltKind k = classify("MPI_Irecv", t, shadow != NULL);
  if (k == ELT_NONE || src == MPI_PROC_NULL) {
    irecvPlain(buf, n, t, src, tag, c, req);
    return NULL;
  }
  MPI_Irecv(buf, n, t, src, tag, c, req);
  PendingOp *op = adAllocZero(sizeof *op);
  op->kind = REC_IRECV;
  op->msg = (Message){shadow, n, t, k, src, 0, c};
  op->buf = buf;
  op->source = src;
  op->anyTag = tag == MPI_ANY_TAG;
  op->serial = pendingSerial++;
  if (!isWildcard(src, tag)) {
    /* Counted now: MPI matches this stream's receives in posting order. */
    requireAdjointTags();
    requirePrimalTag("MPI_Irecv", tag);
    countEarlierWildcards(op->serial);
    op->msg.adjTag = adjointTag(tag, nextInStream(c, src, tag, DIR_RECV));
    op->matched = 1;
  }
  addPending(req, op);
  return op;
}

static void *newWaitRecord(PendingOp **ops, int count) {
  if (count == 0)
    return NULL;
  WaitRecord *w = adAlloc(sizeof *w + (size_t)count * sizeof w->ops[0]);
  w->kind = REC_WAIT;
  w->count = count;
  memcpy(w->ops, ops, (size_t)count * sizeof ops[0]);
  return w;
}

void *__ad_mpi_wait(MPI_Request *req, MPI_Status *st) {
  void *entry = waitAndComplete(req, st);
  if (!entry)
    return NULL;
  RecordKind kind = *(RecordKind *)entry;
  if (kind != REC_ISEND && kind != REC_IRECV)
    return NULL;
  PendingOp *op = entry;
  return newWaitRecord(&op, 1);
}

/* Waits for reqs[0, n); the entries of the requests ours, completed in
   posting order (wildcard receives of one stream then count in the order
   MPI matched them). Returns how many of them are reverse mode's, first
   in ops. */
static int waitAll(int n, MPI_Request *reqs, MPI_Status *sts, PendingOp **ops) {
  MPI_Status *own = NULL;
  if (sts == MPI_STATUSES_IGNORE)
    sts = own = adAlloc((size_t)(n > 0 ? n : 1) * sizeof *own);
  void **entries = adAlloc((size_t)(n > 0 ? n : 1) * sizeof *entries);
  for (int i = 0; i < n; ++i)
    entries[i] = takePending(&reqs[i]);
  MPI_Waitall(n, reqs, sts);
  int count = 0;
  MPI_Status **opSts = adAlloc((size_t)(n > 0 ? n : 1) * sizeof *opSts);
  for (int i = 0; i < n; ++i) {
    if (!entries[i])
      continue;
    RecordKind kind = *(RecordKind *)entries[i];
    if (kind == REC_ISEND || kind == REC_IRECV) {
      ops[count] = entries[i];
      opSts[count++] = &sts[i];
    } else {
      completeEntry(entries[i], &sts[i]);
    }
  }
  sortByPosting(ops, opSts, count);
  for (int i = 0; i < count; ++i)
    completeEntry(ops[i], opSts[i]);
  free(opSts);
  free(entries);
  free(own);
  return count;
}

void *__ad_mpi_waitall(int n, MPI_Request *reqs, MPI_Status *sts) {
  PendingOp **ops = adAlloc((size_t)(n > 0 ? n : 1) * sizeof *ops);
  int count = waitAll(n, reqs, sts, ops);
  void *record = newWaitRecord(ops, count);
  free(ops);
  return record;
}

static CollectiveRecord *newCollectiveRecord(RecordKind kind, int n,
                                             MPI_Datatype t, EltKind k,
                                             ReduceKind red, int root,
                                             MPI_Comm c) {
  CollectiveRecord *r = adAllocZero(sizeof *r);
  r->kind = kind;
  r->n = n;
  r->type = t;
  r->elt = k;
  r->red = red;
  r->root = root;
  r->comm = c;
  MPI_Comm_rank(c, &r->rank);
  return r;
}

void *__ad_mpi_allreduce(const void *sbuf, void *rbuf, int n, MPI_Datatype t,
                         MPI_Op op, MPI_Comm c, void *sshadow, void *rshadow) {
  int inPlace = sbuf == MPI_IN_PLACE;
  void *inShadow = inPlace ? rshadow : sshadow;
  int hasShadow = inShadow || rshadow;
  ReduceKind red;
  EltKind k = reductionKind("MPI_Allreduce", t, op, hasShadow, &red);
  if (k == ELT_NONE) {
    MPI_Allreduce(sbuf, rbuf, n, t, op, c);
    return NULL;
  }
  CollectiveRecord *r = newCollectiveRecord(REC_ALLREDUCE, n, t, k, red, 0, c);
  r->inShadow = inShadow;
  r->outShadow = rshadow;
  if (red == RED_SUM)
    MPI_Allreduce(sbuf, rbuf, n, t, op, c);
  else
    r->winners =
        reduceWithWinners(inPlace ? rbuf : sbuf, rbuf, n, k, red, 1, 0, 1, c);
  return r;
}

void *__ad_mpi_reduce(const void *sbuf, void *rbuf, int n, MPI_Datatype t,
                      MPI_Op op, int root, MPI_Comm c, void *sshadow,
                      void *rshadow) {
  int rank;
  MPI_Comm_rank(c, &rank);
  int isRoot = rank == root;
  int inPlace = isRoot && sbuf == MPI_IN_PLACE;
  void *inShadow = inPlace ? rshadow : sshadow;
  void *outShadow = isRoot ? rshadow : NULL;
  int hasShadow = inShadow || outShadow;
  ReduceKind red;
  EltKind k = reductionKind("MPI_Reduce", t, op, hasShadow, &red);
  if (k == ELT_NONE) {
    MPI_Reduce(sbuf, rbuf, n, t, op, root, c);
    return NULL;
  }
  CollectiveRecord *r = newCollectiveRecord(REC_REDUCE, n, t, k, red, root, c);
  r->inShadow = inShadow;
  r->outShadow = outShadow;
  if (red == RED_SUM)
    MPI_Reduce(sbuf, rbuf, n, t, op, root, c);
  else
    r->winners = reduceWithWinners(inPlace ? rbuf : sbuf, rbuf, n, k, red, 0,
                                   root, isRoot, c);
  return r;
}

void *__ad_mpi_bcast(void *buf, int n, MPI_Datatype t, int root, MPI_Comm c,
                     void *shadow) {
  EltKind k = classify("MPI_Bcast", t, shadow != NULL);
  MPI_Bcast(buf, n, t, root, c);
  if (k == ELT_NONE)
    return NULL;
  CollectiveRecord *r =
      newCollectiveRecord(REC_BCAST, n, t, k, RED_SUM, root, c);
  r->inShadow = shadow;
  return r;
}

/*===-- Reverse mode: the reverse sweep -----------------------------------===*/

static void reverseMessages(MessageRecord *r) {
  Message *sent = &r->sent, *received = &r->received;
  /* The received buffer's adjoint goes back to its sender; the sent
     buffer's comes back from its receiver. */
  void *outgoing = NULL, *incoming = NULL;
  if (received->peer != MPI_PROC_NULL)
    outgoing = received->shadow
                   ? received->shadow
                   : copyOrZeros(NULL, received->count, received->kind);
  int toReceive = sent->peer != MPI_PROC_NULL;
  if (toReceive) {
    size_t bytes = (size_t)sent->count * eltSize(sent->kind);
    incoming = adAllocZero(bytes);
    toReceive =
        !takeStashed(sent->comm, sent->peer, sent->adjTag, incoming, bytes);
  }
  int toSend = received->peer != MPI_PROC_NULL;
  if (toReceive && !toSend)
    MPI_Recv(incoming, sent->count, sent->type, sent->peer, sent->adjTag,
             sent->comm, MPI_STATUS_IGNORE);
  else if (toSend && !toReceive)
    MPI_Send(outgoing, received->count, received->type, received->peer,
             received->adjTag, received->comm);
  else if (toSend && toReceive)
    MPI_Sendrecv(outgoing, received->count, received->type, received->peer,
                 received->adjTag, incoming, sent->count, sent->type,
                 sent->peer, sent->adjTag, sent->comm, MPI_STATUS_IGNORE);
  if (received->peer != MPI_PROC_NULL) {
    if (received->shadow)
      zeroElts(received->shadow, received->count, received->kind);
    else
      free(outgoing);
  }
  if (incoming) {
    addElts(sent->shadow, incoming, sent->count, sent->kind);
    free(incoming);
  }
  free(r);
}

static void reverseAllreduce(CollectiveRecord *r) {
  void *total = copyOrZeros(r->outShadow, r->n, r->elt);
  MPI_Allreduce(MPI_IN_PLACE, total, r->n, r->type, MPI_SUM, r->comm);
  zeroElts(r->outShadow, r->n, r->elt);
  addWon(r->inShadow, total, r->winners, r->rank, r->n, r->elt);
  free(total);
}

static void reverseReduce(CollectiveRecord *r) {
  int isRoot = r->rank == r->root;
  if (r->red == RED_SUM) {
    void *adj = isRoot ? copyOrZeros(r->outShadow, r->n, r->elt)
                       : adAlloc((size_t)r->n * eltSize(r->elt));
    zeroElts(r->outShadow, r->n, r->elt);
    MPI_Bcast(adj, r->n, r->type, r->root, r->comm);
    addElts(r->inShadow, adj, r->n, r->elt);
    free(adj);
    return;
  }
  /* The root's adjoints and winners, in one message. */
  void *pairs =
      newPairs(isRoot ? r->outShadow : NULL, r->winners, 0, r->n, r->elt);
  zeroElts(r->outShadow, r->n, r->elt);
  MPI_Bcast(pairs, r->n, pairType(r->elt), r->root, r->comm);
  void *adj = adAlloc((size_t)r->n * eltSize(r->elt));
  int *winners = adAlloc((size_t)r->n * sizeof *winners);
  splitPairs(pairs, r->n, r->elt, adj, winners);
  addWon(r->inShadow, adj, winners, r->rank, r->n, r->elt);
  free(winners);
  free(adj);
  free(pairs);
}

static void reverseBcast(CollectiveRecord *r) {
  int isRoot = r->rank == r->root;
  void *mine = r->inShadow ? r->inShadow : copyOrZeros(NULL, r->n, r->elt);
  void *total = isRoot ? adAlloc((size_t)r->n * eltSize(r->elt)) : NULL;
  MPI_Reduce(mine, total, r->n, r->type, MPI_SUM, r->root, r->comm);
  if (mine != r->inShadow)
    free(mine);
  if (isRoot && r->inShadow)
    memcpy(r->inShadow, total, (size_t)r->n * eltSize(r->elt));
  else if (!isRoot)
    zeroElts(r->inShadow, r->n, r->elt);
  free(total);
}

void __ad_mpi_reverse(void *record) {
  if (!record)
    return;
  switch (*(RecordKind *)record) {
  case REC_SEND:
  case REC_RECV:
  case REC_SENDRECV:
    reverseMessages(record);
    return;
  case REC_ISEND:
  case REC_IRECV:
    reversePending(record);
    return;
  case REC_WAIT: {
    WaitRecord *w = record;
    for (int i = w->count - 1; i >= 0; --i)
      postAdjoint(w->ops[i]);
    free(w);
    return;
  }
  case REC_ALLREDUCE:
  case REC_REDUCE:
  case REC_BCAST: {
    CollectiveRecord *r = record;
    if (r->kind == REC_ALLREDUCE)
      reverseAllreduce(r);
    else if (r->kind == REC_REDUCE)
      reverseReduce(r);
    else
      reverseBcast(r);
    free(r->winners);
    free(r);
    return;
  }
  case TAN_ISEND:
  case TAN_IRECV:
  case PLAIN_IRECV:
    return;
  }
}
