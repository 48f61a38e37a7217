/*===- MpiValues.c - Values and reductions ---------------------------------===*
 *
 * Part of MpiDerivatives.c, which includes the parts in order as one
 * translation unit (so that their helpers stay static): failure and memory,
 * the element types that carry derivatives, packing values with tangents,
 * and reductions that find their winners.
 *===----------------------------------------------------------------------===*/

/*===-- Failure and memory ------------------------------------------------===*/

_Noreturn static void adFail(const char *message) {
  fprintf(stderr, "ad: %s\n", message);
  fflush(stderr);
  /* mpirun forwards a rank's output as it comes, and MPI_Abort tears the
     job down at once: the message could be lost on the way. A moment for
     it to pass first (this is the way out, never the way on). */
  struct timespec moment = {0, 300 * 1000 * 1000};
  nanosleep(&moment, NULL);
  MPI_Abort(MPI_COMM_WORLD, 1);
  abort();
}

static void *adAlloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    adFail("out of memory in the derivative of an MPI operation");
  return p;
}

static void *adAllocZero(size_t bytes) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p)
    adFail("out of memory in the derivative of an MPI operation");
  return p;
}

/*===-- Element types -----------------------------------------------------===*/

typedef enum { ELT_NONE, ELT_FLOAT, ELT_DOUBLE } EltKind;

static size_t eltSize(EltKind k) { return k == ELT_DOUBLE ? 8 : 4; }

/* The name of a floating type that carries values but no derivatives here;
   NULL for any other type. */
static const char *undifferentiatedFloatName(MPI_Datatype t) {
  if (t == MPI_LONG_DOUBLE)
    return "MPI_LONG_DOUBLE";
  if (t == MPI_C_FLOAT_COMPLEX)
    return "MPI_C_FLOAT_COMPLEX";
  if (t == MPI_C_DOUBLE_COMPLEX)
    return "MPI_C_DOUBLE_COMPLEX";
  if (t == MPI_C_LONG_DOUBLE_COMPLEX)
    return "MPI_C_LONG_DOUBLE_COMPLEX";
  if (t == MPI_COMPLEX)
    return "MPI_COMPLEX";
  if (t == MPI_DOUBLE_COMPLEX)
    return "MPI_DOUBLE_COMPLEX";
  if (t == MPI_CXX_FLOAT_COMPLEX)
    return "MPI_CXX_FLOAT_COMPLEX";
  if (t == MPI_CXX_DOUBLE_COMPLEX)
    return "MPI_CXX_DOUBLE_COMPLEX";
  if (t == MPI_CXX_LONG_DOUBLE_COMPLEX)
    return "MPI_CXX_LONG_DOUBLE_COMPLEX";
  return NULL;
}

/* Whether datatype t, predefined or built by the program, holds a
   floating-point type anywhere. */
static int holdsFloats(MPI_Datatype t) {
  int nInts = 0, nAddrs = 0, nTypes = 0, combiner = MPI_COMBINER_NAMED;
  MPI_Type_get_envelope(t, &nInts, &nAddrs, &nTypes, &combiner);
  if (combiner == MPI_COMBINER_NAMED)
    return t == MPI_DOUBLE || t == MPI_FLOAT || t == MPI_DOUBLE_PRECISION ||
           t == MPI_REAL || undifferentiatedFloatName(t) != NULL;
  if (combiner == MPI_COMBINER_F90_REAL ||
      combiner == MPI_COMBINER_F90_COMPLEX)
    return 1;
  int *ints = adAlloc((size_t)nInts * sizeof *ints);
  MPI_Aint *addrs = adAlloc((size_t)nAddrs * sizeof *addrs);
  MPI_Datatype *types = adAlloc((size_t)nTypes * sizeof *types);
  MPI_Type_get_contents(t, nInts, nAddrs, nTypes, ints, addrs, types);
  int any = 0;
  for (int i = 0; i < nTypes; ++i) {
    any |= holdsFloats(types[i]);
    /* get_contents hands out new handles of the derived ones. */
    int ni, na, nt, c;
    MPI_Type_get_envelope(types[i], &ni, &na, &nt, &c);
    if (c != MPI_COMBINER_NAMED)
      MPI_Type_free(&types[i]);
  }
  free(ints);
  free(addrs);
  free(types);
  return any;
}

/* Whether data of type t carries derivatives; stops the program where it
   should and cannot. hasShadow: some buffer of the operation has one. A
   type the program built (contiguous, vector, struct) that holds floats
   stops it whatever the shadows: MPI matches such a message with one of
   MPI_DOUBLE (the same type signature) on the other side, which moves
   derivatives, so both sides could not agree on what travels. */
static EltKind classify(const char *opName, MPI_Datatype t, int hasShadow) {
  if (t == MPI_DOUBLE || t == MPI_DOUBLE_PRECISION)
    return ELT_DOUBLE;
  if (t == MPI_FLOAT || t == MPI_REAL)
    return ELT_FLOAT;
  const char *name = undifferentiatedFloatName(t);
  int stop = name && hasShadow;
  int nInts, nAddrs, nTypes, combiner = MPI_COMBINER_NAMED;
  MPI_Type_get_envelope(t, &nInts, &nAddrs, &nTypes, &combiner);
  if (!name && combiner != MPI_COMBINER_NAMED && holdsFloats(t)) {
    name = "a derived datatype's floating-point";
    stop = 1;
  }
  if (stop) {
    char message[200];
    snprintf(message, sizeof message,
             "%s on %s data is not differentiated (use MPI_DOUBLE or "
             "MPI_FLOAT)",
             opName, name);
    adFail(message);
  }
  return ELT_NONE;
}

static void zeroElts(void *p, int n, EltKind k) {
  if (p && n > 0)
    memset(p, 0, (size_t)n * eltSize(k));
}

/* dst[i] += src[i]; a NULL dst has no derivative to receive it. */
static void addElts(void *dst, const void *src, int n, EltKind k) {
  if (!dst)
    return;
  if (k == ELT_DOUBLE) {
    double *d = dst;
    const double *s = src;
    for (int i = 0; i < n; ++i)
      d[i] += s[i];
  } else {
    float *d = dst;
    const float *s = src;
    for (int i = 0; i < n; ++i)
      d[i] += s[i];
  }
}

/* A copy of n elements of a shadow, zeros where there is none. */
static void *copyOrZeros(const void *shadow, int n, EltKind k) {
  size_t bytes = (size_t)(n > 0 ? n : 0) * eltSize(k);
  if (!shadow)
    return adAllocZero(bytes);
  void *copy = adAlloc(bytes);
  memcpy(copy, shadow, bytes);
  return copy;
}

/* The count of forward mode's message of n values: 2n, which must fit. */
static int packedCount(int n) {
  if (n > INT_MAX / 2)
    adFail("a message of more than 2^30 elements is not differentiated in "
           "forward mode (it carries its tangents too)");
  return 2 * n;
}

/* Forward mode's message: n values then n tangents (zeros for none). */
static void *packTangent(const void *vals, const void *tans, int n, EltKind k) {
  size_t bytes = (size_t)(n > 0 ? n : 0) * eltSize(k);
  char *packed = adAlloc(2 * bytes);
  if (bytes)
    memcpy(packed, vals, bytes);
  if (tans)
    memcpy(packed + bytes, tans, bytes);
  else
    memset(packed + bytes, 0, bytes);
  return packed;
}

/* The inverse of packTangent for a message of m values (stride: the room
   for values the buffer had, where the tangents start). */
static void unpackTangent(const void *packed, int m, int stride, void *vals,
                          void *tans, EltKind k) {
  size_t sz = eltSize(k);
  if (m <= 0)
    return;
  memcpy(vals, packed, (size_t)m * sz);
  if (tans)
    memcpy(tans, (const char *)packed + (size_t)stride * sz, (size_t)m * sz);
}

/*===-- Reductions --------------------------------------------------------===*/

typedef enum { RED_SUM, RED_MAX, RED_MIN, RED_OTHER } ReduceKind;

static ReduceKind reduceKind(MPI_Op op) {
  if (op == MPI_SUM)
    return RED_SUM;
  if (op == MPI_MAX)
    return RED_MAX;
  if (op == MPI_MIN)
    return RED_MIN;
  return RED_OTHER;
}

static const char *opName(MPI_Op op) {
  static const char *const names[] = {
      "MPI_PROD", "MPI_LAND", "MPI_LOR",    "MPI_LXOR",   "MPI_BAND",
      "MPI_BOR",  "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE"};
  MPI_Op ops[] = {MPI_PROD, MPI_LAND, MPI_LOR,    MPI_LXOR,   MPI_BAND,
                  MPI_BOR,  MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i)
    if (op == ops[i])
      return names[i];
  return "a user-defined MPI_Op";
}

_Noreturn static void failReduction(const char *what, MPI_Op op, EltKind k) {
  char message[200];
  snprintf(message, sizeof message,
           "%s with %s on %s data is not differentiated (use MPI_SUM, "
           "MPI_MAX or MPI_MIN)",
           what, opName(op), k == ELT_DOUBLE ? "MPI_DOUBLE" : "MPI_FLOAT");
  adFail(message);
}

/* What a reduction of type t by op carries: its element kind and (in
   *red) which reduction it is, or ELT_NONE where it carries no derivative
   and runs as MPI runs it. Stops the program where it should carry one and
   cannot (hasShadow: some buffer of it has a shadow). */
static EltKind reductionKind(const char *what, MPI_Datatype t, MPI_Op op,
                             int hasShadow, ReduceKind *red) {
  EltKind k = classify(what, t, hasShadow);
  *red = reduceKind(op);
  if (k != ELT_NONE && *red == RED_OTHER && hasShadow)
    failReduction(what, op, k);
  return *red == RED_OTHER ? ELT_NONE : k;
}

/* MPI_DOUBLE_INT and MPI_FLOAT_INT are these structs, padding included. */
typedef struct {
  double value;
  int rank;
} DoubleRank;
typedef struct {
  float value;
  int rank;
} FloatRank;

static MPI_Datatype pairType(EltKind k) {
  return k == ELT_DOUBLE ? MPI_DOUBLE_INT : MPI_FLOAT_INT;
}

static void *newPairs(const void *vals, const int *ranks, int rank, int n,
                      EltKind k) {
  if (k == ELT_DOUBLE) {
    DoubleRank *p = adAlloc((size_t)n * sizeof *p);
    for (int i = 0; i < n; ++i) {
      p[i].value = vals ? ((const double *)vals)[i] : 0.0;
      p[i].rank = ranks ? ranks[i] : rank;
    }
    return p;
  }
  FloatRank *p = adAlloc((size_t)n * sizeof *p);
  for (int i = 0; i < n; ++i) {
    p[i].value = vals ? ((const float *)vals)[i] : 0.0f;
    p[i].rank = ranks ? ranks[i] : rank;
  }
  return p;
}

/* Splits pairs into values (where vals is not NULL) and ranks. */
static void splitPairs(const void *pairs, int n, EltKind k, void *vals,
                       int *ranks) {
  for (int i = 0; i < n; ++i) {
    if (k == ELT_DOUBLE) {
      const DoubleRank *p = pairs;
      if (vals)
        ((double *)vals)[i] = p[i].value;
      if (ranks)
        ranks[i] = p[i].rank;
    } else {
      const FloatRank *p = pairs;
      if (vals)
        ((float *)vals)[i] = p[i].value;
      if (ranks)
        ranks[i] = p[i].rank;
    }
  }
}

/* The MAX or MIN of in over the ranks of c, as MAXLOC or MINLOC with the
   rank as index: the values go to out (where writeOut), and the returned
   array (malloc'd; NULL where the ranks do not get them) says which rank
   won each element, the lowest among equals. toAll: every rank gets the
   result (Allreduce), else the root only. in may be out (MPI_IN_PLACE). */
static int *reduceWithWinners(const void *in, void *out, int n, EltKind k,
                              ReduceKind rk, int toAll, int root, int writeOut,
                              MPI_Comm c) {
  int rank;
  MPI_Comm_rank(c, &rank);
  void *pairs = newPairs(in, NULL, rank, n, k);
  MPI_Op op = rk == RED_MAX ? MPI_MAXLOC : MPI_MINLOC;
  int gets = toAll || rank == root;
  if (toAll)
    MPI_Allreduce(MPI_IN_PLACE, pairs, n, pairType(k), op, c);
  else if (rank == root)
    MPI_Reduce(MPI_IN_PLACE, pairs, n, pairType(k), op, root, c);
  else
    MPI_Reduce(pairs, NULL, n, pairType(k), op, root, c);
  int *winners = NULL;
  if (gets) {
    winners = adAlloc((size_t)n * sizeof *winners);
    splitPairs(pairs, n, k, writeOut ? out : NULL, winners);
  }
  free(pairs);
  return winners;
}

/* dst[i] += src[i] where winners[i] is rank (everywhere if no winners). */
static void addWon(void *dst, const void *src, const int *winners, int rank,
                   int n, EltKind k) {
  if (!dst)
    return;
  if (!winners) {
    addElts(dst, src, n, k);
    return;
  }
  for (int i = 0; i < n; ++i) {
    if (winners[i] != rank)
      continue;
    if (k == ELT_DOUBLE)
      ((double *)dst)[i] += ((const double *)src)[i];
    else
      ((float *)dst)[i] += ((const float *)src)[i];
  }
}
