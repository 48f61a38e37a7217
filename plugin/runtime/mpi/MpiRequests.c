/*===- MpiRequests.c - Pending requests ------------------------------------===*
 *
 * Part of MpiDerivatives.c, which includes the parts in order as one
 * translation unit (so that their helpers stay static): the non-blocking
 * operations posted and not yet waited for, and their completion.
 *===----------------------------------------------------------------------===*/

/*===-- Pending requests --------------------------------------------------===*/

/* Requests posted by the wrappers and not yet waited for, in posting
   order; few at a time, so a plain array. Entries start with their
   RecordKind. A request's value alone does not name it: Open MPI hands the
   same static request to every send that completed at once. So an entry
   also keeps where the request was stored, and a wait takes the entry of
   the same value stored in the same place, else the oldest of that value
   (a request copied elsewhere; among sends that completed at once, which
   one a wait takes does not matter). */
typedef struct {
  MPI_Request req;
  MPI_Request *where;
  void *entry;
} PendingSlot;

static PendingSlot *pending;
static int pendingCount, pendingCap;
static unsigned long pendingSerial;

static void dropPendingAt(int i) {
  memmove(&pending[i], &pending[i + 1],
          (size_t)(pendingCount - i - 1) * sizeof *pending);
  if (--pendingCount == 0) {
    free(pending);
    pending = NULL;
    pendingCap = 0;
  }
}

static void addPending(MPI_Request *where, void *entry) {
  for (int i = 0; i < pendingCount; ++i)
    if (pending[i].req == *where && pending[i].where == where) {
      /* Stale: completed without a wrapper, its variable reused. Reverse
         mode's operations belong to their records; forward mode's go. */
      RecordKind kind = *(RecordKind *)pending[i].entry;
      if (kind == TAN_ISEND || kind == TAN_IRECV || kind == PLAIN_IRECV) {
        TangentPending *p = pending[i].entry;
        free(p->packed);
        free(p);
      }
      dropPendingAt(i);
      break;
    }
  if (pendingCount == pendingCap) {
    pendingCap = pendingCap ? 2 * pendingCap : 16;
    PendingSlot *grown = realloc(pending, (size_t)pendingCap * sizeof *grown);
    if (!grown)
      adFail("out of memory in the derivative of an MPI operation");
    pending = grown;
  }
  pending[pendingCount++] = (PendingSlot){*where, where, entry};
}

/* Removes and returns the entry of the request in *where; NULL for a
   request not ours. */
static void *takePending(MPI_Request *where) {
  if (*where == MPI_REQUEST_NULL)
    return NULL;
  int found = -1;
  for (int i = 0; i < pendingCount && found < 0; ++i)
    if (pending[i].req == *where && pending[i].where == where)
      found = i;
  for (int i = 0; i < pendingCount && found < 0; ++i)
    if (pending[i].req == *where)
      found = i;
  if (found < 0)
    return NULL;
  void *entry = pending[found].entry;
  dropPendingAt(found);
  return entry;
}

static void forgetPending(const void *entry) {
  for (int i = 0; i < pendingCount; ++i)
    if (pending[i].entry == entry) {
      dropPendingAt(i);
      return;
    }
}

/* Unpacks a received packed message into buf and its tangent, and makes
   the status count the values only. */
static void finishTangentRecv(void *packed, int n, MPI_Datatype t, EltKind k,
                              void *buf, void *tangent, MPI_Status *s) {
  if (s->MPI_SOURCE == MPI_PROC_NULL)
    return;
  int got = 0;
  MPI_Get_count(s, t, &got);
  int m = got == MPI_UNDEFINED ? 0 : got / 2;
  if (m > n)
    m = n;
  unpackTangent(packed, m, m, buf, tangent, k);
  MPI_Status_set_elements(s, t, m);
}

/* Reverse mode's receives count their message in its stream once the
   stream is known: an explicit receive when it is posted, a wildcard one
   when it completes. MPI matches the receives of one stream in posting
   order, so before a receive counts, the wildcard Irecvs posted before it
   (serial below before) that have completed count first, in posting order
   (MPI_Request_get_status looks without freeing the user's request). One
   whose message is still arriving counts later, when its wait completes
   it: waiting for a wildcard Irecv before an earlier-posted one of the
   same stream whose message is still in flight is the one order this
   cannot recover. */
static void countEarlierWildcards(unsigned long before) {
  int n = 0;
  for (int i = 0; i < pendingCount; ++i) {
    PendingOp *op = pending[i].entry;
    n += op->kind == REC_IRECV && !op->matched && op->serial < before;
  }
  if (n == 0)
    return;
  PendingSlot *early = adAlloc((size_t)n * sizeof *early);
  n = 0;
  for (int i = 0; i < pendingCount; ++i) {
    PendingOp *op = pending[i].entry;
    if (op->kind == REC_IRECV && !op->matched && op->serial < before)
      early[n++] = pending[i];
  }
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && ((PendingOp *)early[j - 1].entry)->serial >
                                 ((PendingOp *)early[j].entry)->serial;
         --j) {
      PendingSlot tmp = early[j];
      early[j] = early[j - 1];
      early[j - 1] = tmp;
    }
  for (int i = 0; i < n; ++i) {
    PendingOp *op = early[i].entry;
    int done = 0;
    MPI_Status s;
    MPI_Request_get_status(early[i].req, &done, &s);
    if (!done || s.MPI_TAG >= AD_ADJOINT_TAGS)
      continue;
    op->msg = receivedMessage("MPI_Irecv", op->msg.shadow, op->msg.count,
                              op->msg.type, op->msg.kind, &s, -1, op->msg.comm);
    op->matched = 1;
  }
  free(early);
}

/* A request's entry once its wait returned s. Reverse mode's operations
   learn their message; forward mode's receives unpack. */
static void completeEntry(void *entry, MPI_Status *s) {
  RecordKind kind = *(RecordKind *)entry;
  if (kind == REC_IRECV) {
    PendingOp *op = entry;
    if (op->anyTag)
      receiveAgainIfAdjoint(op->buf, op->msg.count, op->msg.type, op->source,
                            op->msg.comm, s);
    long seq = op->matched ? (long)(op->msg.adjTag & 0x7FFF) : -1;
    if (seq < 0)
      countEarlierWildcards(op->serial);
    op->msg = receivedMessage("MPI_Irecv", op->msg.shadow, op->msg.count,
                              op->msg.type, op->msg.kind, s, seq, op->msg.comm);
    op->matched = op->msg.peer != MPI_PROC_NULL;
  } else if (kind == TAN_ISEND || kind == TAN_IRECV || kind == PLAIN_IRECV) {
    TangentPending *p = entry;
    if (kind != TAN_ISEND && p->anyTag)
      receiveAgainIfAdjoint(p->packed ? p->packed : p->buf,
                            p->packed ? 2 * p->n : p->n, p->type, p->source,
                            p->comm, s);
    if (kind == TAN_IRECV)
      finishTangentRecv(p->packed, p->n, p->type, p->elt, p->buf, p->tangent,
                        s);
    free(p->packed);
    free(p);
  }
}

/* MPI_Wait on one request, in either mode: the request's entry (null when
   the program posted it outside a derivative), completed. */
static void *waitAndComplete(MPI_Request *req, MPI_Status *st) {
  MPI_Status own;
  MPI_Status *s = st == MPI_STATUS_IGNORE ? &own : st;
  void *entry = takePending(req);
  MPI_Wait(req, s);
  if (entry)
    completeEntry(entry, s);
  return entry;
}

/* Sorts the entries of a waitall by posting order (insertion sort: few). */
static void sortByPosting(PendingOp **ops, MPI_Status **sts, int n) {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && ops[j - 1]->serial > ops[j]->serial; --j) {
      PendingOp *o = ops[j];
      ops[j] = ops[j - 1];
      ops[j - 1] = o;
      MPI_Status *s = sts[j];
      sts[j] = sts[j - 1];
      sts[j - 1] = s;
    }
}

static void postAdjoint(PendingOp *op) {
  Message *m = &op->msg;
  op->adjPosted = 1;
  if (!op->matched) {
    op->adjReq = MPI_REQUEST_NULL;
    return;
  }
  if (op->kind == REC_IRECV) {
    op->scratch = copyOrZeros(m->shadow, m->count, m->kind);
    zeroElts(m->shadow, m->count, m->kind);
    MPI_Isend(op->scratch, m->count, m->type, m->peer, m->adjTag, m->comm,
              &op->adjReq);
  } else {
    size_t bytes = (size_t)m->count * eltSize(m->kind);
    op->scratch = adAllocZero(bytes);
    if (takeStashed(m->comm, m->peer, m->adjTag, op->scratch, bytes))
      op->adjReq = MPI_REQUEST_NULL;
    else
      MPI_Irecv(op->scratch, m->count, m->type, m->peer, m->adjTag, m->comm,
                &op->adjReq);
  }
}

static void reversePending(PendingOp *op) {
  forgetPending(op);
  if (!op->adjPosted)
    postAdjoint(op);
  MPI_Wait(&op->adjReq, MPI_STATUS_IGNORE);
  if (op->kind == REC_ISEND && op->matched)
    addElts(op->msg.shadow, op->scratch, op->msg.count, op->msg.kind);
  free(op->scratch);
  free(op);
}
