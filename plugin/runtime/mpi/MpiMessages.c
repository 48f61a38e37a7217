/*===- MpiMessages.c - Adjoint tags, records, MPI_ANY_TAG ------------------===*
 *
 * Part of MpiDerivatives.c, which includes the parts in order as one
 * translation unit (so that their helpers stay static): the adjoint
 * messages' tags and the stream counters behind them, the records the
 * reverse sweep reads, and receives with MPI_ANY_TAG that meet an adjoint.
 *===----------------------------------------------------------------------===*/

/*===-- Adjoint tags and stream counters ----------------------------------===*/

enum { DIR_SEND = 0, DIR_RECV = 1 };

/* A communicator's identity in the stream counters: a number it gets at
   its first message, kept as an attribute of the communicator. Its
   address would not do: a communicator freed and another created at the
   same address would go on with the old one's counts, on one rank and not
   on another. A duplicate does not copy the attribute (it is a new
   communicator, whose streams start afresh on every rank). */
typedef uintptr_t CommId;

static int commIdKey = MPI_KEYVAL_INVALID;
static CommId lastCommId;

static CommId commIdentity(MPI_Comm c) {
  if (commIdKey == MPI_KEYVAL_INVALID)
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                           &commIdKey, NULL);
  void *value = NULL;
  int found = 0;
  MPI_Comm_get_attr(c, commIdKey, &value, &found);
  if (!found) {
    value = (void *)++lastCommId;
    MPI_Comm_set_attr(c, commIdKey, value);
  }
  return (CommId)value;
}

/* Open addressing, linear probing; entries are never removed (a stream's
   count lives as long as its communicator, whose identity is never
   reused). */
typedef struct {
  CommId comm;
  int peer, tag, dir;
  unsigned count;
  int used;
} StreamCounter;

static StreamCounter *streams;
static size_t streamCap, streamUsed;

static size_t streamHash(CommId c, int peer, int tag, int dir) {
  uint64_t h = (uint64_t)c * 0x9E3779B97F4A7C15ull;
  h ^= ((uint64_t)(uint32_t)peer << 32 | (uint32_t)tag) * 0xC2B2AE3D27D4EB4Full;
  h ^= (uint64_t)dir * 0x165667B19E3779F9ull;
  h ^= h >> 29;
  return (size_t)h;
}

static StreamCounter *findStream(StreamCounter *table, size_t cap, CommId c,
                                 int peer, int tag, int dir) {
  size_t i = streamHash(c, peer, tag, dir) & (cap - 1);
  while (table[i].used && !(table[i].comm == c && table[i].peer == peer &&
                            table[i].tag == tag && table[i].dir == dir))
    i = (i + 1) & (cap - 1);
  return &table[i];
}

/* The index of the next message of a stream, counted from 0. */
static unsigned nextInStream(MPI_Comm comm, int peer, int tag, int dir) {
  CommId c = commIdentity(comm);
  if (2 * (streamUsed + 1) > streamCap) {
    size_t cap = streamCap ? 2 * streamCap : 64;
    StreamCounter *table = adAllocZero(cap * sizeof *table);
    for (size_t i = 0; i < streamCap; ++i)
      if (streams[i].used)
        *findStream(table, cap, streams[i].comm, streams[i].peer,
                    streams[i].tag, streams[i].dir) = streams[i];
    free(streams);
    streams = table;
    streamCap = cap;
  }
  StreamCounter *s = findStream(streams, streamCap, c, peer, tag, dir);
  if (!s->used) {
    *s = (StreamCounter){c, peer, tag, dir, 0, 1};
    ++streamUsed;
  }
  return s->count++;
}

/* Adjoint messages have tags from here up; primal ones below. */
#define AD_ADJOINT_TAGS (1 << 30)

static void requireAdjointTags(void) {
  static int checked;
  if (checked)
    return;
  checked = 1;
  int *ub = NULL, flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
  if (!flag || !ub || *ub < 0x7FFFFFFF)
    adFail("the MPI library's MPI_TAG_UB is below 2^31-1: the derivative's "
           "messages need tags up to 2^31-1");
}

static void requirePrimalTag(const char *what, int tag) {
  if (tag < AD_ADJOINT_TAGS)
    return;
  char message[200];
  snprintf(message, sizeof message,
           "%s with tag %d is not differentiated (reverse mode needs tags "
           "below 2^30 for its own messages)",
           what, tag);
  adFail(message);
}

/* The tag of the adjoint of the seq-th message with this tag. */
static int adjointTag(int tag, unsigned seq) {
  return AD_ADJOINT_TAGS | (tag & 0x7FFF) << 15 | (int)(seq & 0x7FFF);
}

/*===-- Records of the reverse sweep --------------------------------------===*/

typedef enum {
  REC_SEND,
  REC_RECV,
  REC_SENDRECV,
  REC_ISEND,
  REC_IRECV,
  REC_WAIT,
  REC_ALLREDUCE,
  REC_REDUCE,
  REC_BCAST,
  /* Pending requests of forward mode (never handed to the reverse). */
  TAN_ISEND,
  TAN_IRECV,
  /* An Irecv with MPI_ANY_TAG of data without derivatives. */
  PLAIN_IRECV
} RecordKind;

/* One primal message, as its adjoint needs it: the shadow of the buffer,
   count elements, the peer and the adjoint's tag. peer is MPI_PROC_NULL
   for a message with no adjoint. */
typedef struct {
  void *shadow;
  int count;
  MPI_Datatype type;
  EltKind kind;
  int peer;
  int adjTag;
  MPI_Comm comm;
} Message;

static Message inactiveMessage(void) {
  return (Message){NULL,          0, MPI_BYTE,     ELT_NONE,
                   MPI_PROC_NULL, 0, MPI_COMM_NULL};
}

typedef struct {
  RecordKind kind;
  Message sent, received;
} MessageRecord;

/* An Isend or Irecv: its record, and the entry of the pending-request
   table until a wait completes it. */
typedef struct {
  RecordKind kind;
  Message msg;
  void *buf;
  int source, anyTag;   /* As posted. */
  int matched;          /* msg.peer and msg.adjTag are known. */
  unsigned long serial; /* Posting order. */
  int adjPosted;
  MPI_Request adjReq;
  void *scratch;
} PendingOp;

typedef struct {
  RecordKind kind;
  int count;
  PendingOp *ops[];
} WaitRecord;

typedef struct {
  RecordKind kind;
  int n, rank, root;
  EltKind elt;
  MPI_Datatype type;
  MPI_Comm comm;
  int *winners; /* MAX/MIN (Allreduce: every rank; Reduce: the root). */
  ReduceKind red;
  void *inShadow; /* Allreduce/Reduce: the input's; Bcast: the buffer's. */
  void *outShadow;
} CollectiveRecord;

/* Forward mode's Isend/Irecv: the packed message until the wait; also a
   PLAIN_IRECV (packed NULL). */
typedef struct {
  RecordKind kind;
  void *buf, *tangent, *packed;
  int n;
  EltKind elt;
  MPI_Datatype type;
  int source, anyTag;
  MPI_Comm comm;
} TangentPending;

static void *newMessageRecord(RecordKind kind, Message sent, Message received) {
  if (sent.peer == MPI_PROC_NULL && received.peer == MPI_PROC_NULL)
    return NULL;
  MessageRecord *r = adAlloc(sizeof *r);
  *r = (MessageRecord){kind, sent, received};
  return r;
}

/* The sending side of a message with a derivative: counts its stream. */
static Message sentMessage(const char *what, void *shadow, int n,
                           MPI_Datatype t, EltKind k, int dest, int tag,
                           MPI_Comm c) {
  if (k == ELT_NONE || dest == MPI_PROC_NULL)
    return inactiveMessage();
  requireAdjointTags();
  requirePrimalTag(what, tag);
  unsigned seq = nextInStream(c, dest, tag, DIR_SEND);
  return (Message){shadow, n, t, k, dest, adjointTag(tag, seq), c};
}

/* The receiving side, from its status once it completed; seq is the index
   counted at posting, or -1 to count it now (under a wildcard). */
static Message receivedMessage(const char *what, void *shadow, int n,
                               MPI_Datatype t, EltKind k, const MPI_Status *s,
                               long seq, MPI_Comm c) {
  if (k == ELT_NONE || s->MPI_SOURCE == MPI_PROC_NULL)
    return inactiveMessage();
  requireAdjointTags();
  requirePrimalTag(what, s->MPI_TAG);
  int m = n;
  MPI_Get_count(s, t, &m);
  if (m == MPI_UNDEFINED || m > n)
    m = n;
  if (seq < 0)
    seq = nextInStream(c, s->MPI_SOURCE, s->MPI_TAG, DIR_RECV);
  return (Message){
      shadow, m, t, k, s->MPI_SOURCE, adjointTag(s->MPI_TAG, (unsigned)seq), c};
}

static int isWildcard(int src, int tag) {
  return src == MPI_ANY_SOURCE || tag == MPI_ANY_TAG;
}

/*===-- Receives with MPI_ANY_TAG -----------------------------------------===*/

/* Ranks reach their reverse sweeps at their own pace, so an adjoint may
   arrive while its receiver still waits in a primal receive. Tags keep the
   two apart, except for MPI_ANY_TAG, which matches any tag: such receives
   look at each message first (MPI_Mprobe) and set the derivative's own
   aside here, where the adjoint receive that was meant for it finds it. An
   Irecv with MPI_ANY_TAG cannot look first: when it turns out to have taken
   an adjoint, its wait sets that aside and receives again. */
typedef struct Stashed {
  struct Stashed *next;
  MPI_Comm comm;
  int source, tag, bytes;
  void *data;
} Stashed;

static Stashed *stash;

static Stashed *newStashed(MPI_Comm c, const MPI_Status *s) {
  Stashed *e = adAlloc(sizeof *e);
  e->comm = c;
  e->source = s->MPI_SOURCE;
  e->tag = s->MPI_TAG;
  e->bytes = 0;
  MPI_Get_count(s, MPI_BYTE, &e->bytes);
  e->data = adAlloc((size_t)e->bytes);
  e->next = stash;
  stash = e;
  return e;
}

/* Copies the set-aside adjoint (source, tag) to dst and forgets it; 0 when
   there is none. */
static int takeStashed(MPI_Comm c, int source, int tag, void *dst,
                       size_t room) {
  for (Stashed **link = &stash; *link; link = &(*link)->next) {
    Stashed *e = *link;
    if (e->comm != c || e->source != source || e->tag != tag)
      continue;
    memcpy(dst, e->data, (size_t)e->bytes < room ? (size_t)e->bytes : room);
    *link = e->next;
    free(e->data);
    free(e);
    return 1;
  }
  return 0;
}

static void recvSkippingAdjoints(void *buf, int n, MPI_Datatype t, int src,
                                 MPI_Comm c, MPI_Status *s) {
  for (;;) {
    MPI_Message msg;
    MPI_Mprobe(src, MPI_ANY_TAG, c, &msg, s);
    if (s->MPI_TAG < AD_ADJOINT_TAGS) {
      MPI_Mrecv(buf, n, t, &msg, s);
      return;
    }
    Stashed *e = newStashed(c, s);
    MPI_Mrecv(e->data, e->bytes, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
  }
}

/* MPI_Recv, the derivative's messages left alone. */
static void primalRecv(void *buf, int n, MPI_Datatype t, int src, int tag,
                       MPI_Comm c, MPI_Status *s) {
  if (tag != MPI_ANY_TAG || src == MPI_PROC_NULL)
    MPI_Recv(buf, n, t, src, tag, c, s);
  else
    recvSkippingAdjoints(buf, n, t, src, c, s);
}

static void primalSendrecv(const void *sbuf, int sn, MPI_Datatype stype,
                           int dest, int stag, void *rbuf, int rn,
                           MPI_Datatype rtype, int src, int rtag, MPI_Comm c,
                           MPI_Status *s) {
  if (rtag != MPI_ANY_TAG || src == MPI_PROC_NULL) {
    MPI_Sendrecv(sbuf, sn, stype, dest, stag, rbuf, rn, rtype, src, rtag, c, s);
    return;
  }
  MPI_Request sent;
  MPI_Isend(sbuf, sn, stype, dest, stag, c, &sent);
  recvSkippingAdjoints(rbuf, rn, rtype, src, c, s);
  MPI_Wait(&sent, MPI_STATUS_IGNORE);
}

/* After an Irecv with MPI_ANY_TAG into buf completed with s: an adjoint it
   took is set aside, and the primal message received in its place. */
static void receiveAgainIfAdjoint(void *buf, int n, MPI_Datatype t, int src,
                                  MPI_Comm c, MPI_Status *s) {
  if (s->MPI_SOURCE == MPI_PROC_NULL || s->MPI_TAG < AD_ADJOINT_TAGS)
    return;
  Stashed *e = newStashed(c, s);
  memcpy(e->data, buf, (size_t)e->bytes);
  recvSkippingAdjoints(buf, n, t, src, c, s);
}
