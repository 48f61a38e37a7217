/*===- harness.c - The MPI derivatives, tested without the plugin --------===*
 *
 * Calls the wrappers of MpiDerivatives.c as the plugin's derivatives would,
 * with hand-made shadows, and checks them against derivatives worked out by
 * hand: each case is a small distributed linear (or piecewise linear) map
 * y = f(x) over the ranks, run
 *   - in forward mode with tangents v: the outputs must be f(x) and the
 *     tangents J v;
 *   - in reverse mode (the wrappers, then __ad_mpi_reverse on the records,
 *     last first) with output adjoints w and input adjoints starting at a0:
 *     the outputs f(x), the input adjoints a0 + J^T w, the output adjoints
 *     consumed;
 *   - and the two against each other: sum over ranks of <J v, w> equals the
 *     sum of <v, J^T w>.
 * Every case runs on MPI_DOUBLE and MPI_FLOAT data.
 *
 *   OMPI_CC=clang-22 mpicc -O1 -g harness.c MpiDerivatives.c -o harness -lm
 *   mpirun --oversubscribe -np 4 ./harness       (exit status 0: all pass)
 *   mpirun -np 2 ./harness abort-longdouble|abort-prod|abort-tag
 *       (each must stop with a message on stderr and a nonzero status)
 *===----------------------------------------------------------------------===*/
#include "MpiDerivatives.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;
static MPI_Datatype T; /* MPI_DOUBLE or MPI_FLOAT: the case's data. */
static int passes, failures;
static const char *caseName;

static size_t eltBytes(void) { return T == MPI_DOUBLE ? 8 : 4; }
static double get(const void *p, int i) {
  return T == MPI_DOUBLE ? ((const double *)p)[i] : ((const float *)p)[i];
}
static void set(void *p, int i, double v) {
  if (T == MPI_DOUBLE)
    ((double *)p)[i] = v;
  else
    ((float *)p)[i] = (float)v;
}

static void check(const char *what, int i, double got, double want) {
  double tol = (T == MPI_DOUBLE ? 1e-12 : 1e-5) * (1 + fabs(want));
  if (fabs(got - want) <= tol) {
    ++passes;
    return;
  }
  if (++failures <= 40)
    fprintf(stderr, "FAIL rank %d %s (%s): %s[%d] = %g, expected %g\n", rank,
            caseName, T == MPI_DOUBLE ? "double" : "float", what, i, got, want);
}

static void checkTrue(const char *what, int ok) {
  check(what, 0, ok ? 1 : 0, 1);
}

/*===-- Running a case in either mode -------------------------------------===*/

typedef enum { REVERSE, TANGENT } Mode;
static Mode mode;
static void *records[64];
static int recordCount;

static void keep(void *record) {
  if (record)
    records[recordCount++] = record;
}

/* One MPI operation as a derivative calls it. */
#define AD(op, ...)                                                            \
  do {                                                                         \
    if (mode == REVERSE)                                                       \
      keep(__ad_mpi_##op(__VA_ARGS__));                                        \
    else                                                                       \
      (void)__ad_mpi_##op##_tangent(__VA_ARGS__);                              \
  } while (0)

#define left ((rank + size - 1) % size)
#define right ((rank + 1) % size)

typedef double (*Gen)(int r, int i);

typedef struct {
  const char *name;
  int nx, ny;
  Gen x;                  /* Primal inputs. */
  int (*inPlace)(int r);  /* y is x's buffer on rank r. */
  int (*noShadow)(int r); /* x has no shadow on rank r. */
  void (*body)(void *x, void *xs, void *y, void *ys);
  /* Hand-derived: y, J v, J^T w, and the adjoint of y after the reverse. */
  double (*y)(int r, int i, double before);
  double (*jv)(int r, int i, Gen v);
  double (*jtw)(int r, int i, Gen w);
  double (*ybarAfter)(int r, int i, Gen w);
  /* J depends on the order messages arrive in, which may differ between
     the two runs: no dot test. */
  int orderDependent;
} Case;

static const Case *current;

static double yInit(int r, int i) { return -7.0 - i - 0.5 * r; }
static double vSeed(int r, int i) { return (r + 1) * 10 + i + 1; }
static double wSeed(int r, int i) { return (r + 1) * 100 + 3 * i + 7; }
static double a0Seed(int r, int i) { return 0.5 * (i + 1) + r; }
static int never(int r) { return (void)r, 0; }
static int always(int r) { return (void)r, 1; }
static int oddRank(int r) { return r % 2; }
static int rankZero(int r) { return r == 0; }
/* The tangents x really has: none where it has no shadow. */
static double vEff(int r, int i) {
  return current->noShadow(r) ? 0.0 : vSeed(r, i);
}
/* The adjoints y really has: none where y is x's buffer without shadow. */
static double wEff(int r, int i) {
  return current->inPlace(r) && current->noShadow(r) ? 0.0 : wSeed(r, i);
}
static double xOf(int r, int i) { return current->x(r, i); }
static double consumed(int r, int i, Gen w) {
  return (void)r, (void)i, (void)w, 0.0;
}

static double dotOverRanks(const void *a, Gen b, int n) {
  double local = 0, total = 0;
  for (int i = 0; i < n; ++i)
    local += get(a, i) * b(rank, i);
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

static void runCase(const Case *c, MPI_Datatype type) {
  current = c;
  caseName = c->name;
  T = type;
  int inPlace = c->inPlace(rank), noShadow = c->noShadow(rank);
  size_t bx = (size_t)c->nx * eltBytes(), by = (size_t)c->ny * eltBytes();
  void *x = malloc(bx), *xs = malloc(bx), *y = malloc(by), *ys = malloc(by);

  /* Forward mode. */
  for (int i = 0; i < c->nx; ++i) {
    set(x, i, c->x(rank, i));
    set(xs, i, vSeed(rank, i));
  }
  for (int i = 0; i < c->ny; ++i) {
    set(y, i, yInit(rank, i));
    set(ys, i, 0);
  }
  mode = TANGENT;
  void *yb = inPlace ? x : y, *ysb = inPlace ? xs : ys;
  c->body(x, noShadow ? NULL : xs, yb, inPlace && noShadow ? NULL : ysb);
  for (int i = 0; i < c->ny; ++i) {
    check("y (forward)", i, get(yb, i),
          c->y(rank, i, inPlace ? c->x(rank, i) : yInit(rank, i)));
    if (!(inPlace && noShadow))
      check("J v", i, get(ysb, i), c->jv(rank, i, vEff));
  }
  double jvw = dotOverRanks(ysb, wEff, c->ny);

  /* Reverse mode. */
  for (int i = 0; i < c->nx; ++i) {
    set(x, i, c->x(rank, i));
    set(xs, i, inPlace ? 0 : a0Seed(rank, i));
  }
  for (int i = 0; i < c->ny; ++i) {
    set(y, i, yInit(rank, i));
    set(ys, i, 0);
  }
  mode = REVERSE;
  recordCount = 0;
  c->body(x, noShadow ? NULL : xs, yb, inPlace && noShadow ? NULL : ysb);
  for (int i = 0; i < c->ny; ++i) {
    check("y (reverse)", i, get(yb, i),
          c->y(rank, i, inPlace ? c->x(rank, i) : yInit(rank, i)));
    set(ysb, i, wSeed(rank, i));
  }
  while (recordCount > 0)
    __ad_mpi_reverse(records[--recordCount]);
  double vjtw = 0;
  for (int i = 0; i < c->nx; ++i) {
    double want = c->jtw(rank, i, wEff);
    double got = get(xs, i) - (inPlace ? 0 : a0Seed(rank, i));
    if (!noShadow)
      check("a0 + J^T w", i, get(xs, i),
            want + (inPlace ? 0 : a0Seed(rank, i)));
    vjtw += vEff(rank, i) * (noShadow ? 0 : got);
  }
  if (!inPlace)
    for (int i = 0; i < c->ny; ++i)
      check("y adjoint after", i, get(ys, i), c->ybarAfter(rank, i, wEff));
  double total = 0;
  MPI_Allreduce(&vjtw, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (!c->orderDependent)
    check("<J v, w> - <v, J^T w>", 0, jvw - total, 0);
  free(x);
  free(xs);
  free(y);
  free(ys);
}

/*===-- Point to point ----------------------------------------------------===*/

/* y_r = x_{r-1} (a ring); odd ranks receive with wildcards. */
static void ringBody(void *x, void *xs, void *y, void *ys) {
  MPI_Status st;
  int wild = rank % 2;
  AD(sendrecv, x, 5, T, right, 3, y, 5, T, wild ? MPI_ANY_SOURCE : left,
     wild ? MPI_ANY_TAG : 3, MPI_COMM_WORLD, &st, xs, ys);
  int count = -1;
  MPI_Get_count(&st, T, &count);
  checkTrue("ring: status source", st.MPI_SOURCE == left);
  checkTrue("ring: status tag", st.MPI_TAG == 3);
  checkTrue("ring: status count", count == 5);
}
static double ringY(int r, int i, double before) {
  return (void)before, xOf((r + size - 1) % size, i);
}
static double ringJv(int r, int i, Gen v) {
  return v((r + size - 1) % size, i);
}
static double ringJtw(int r, int i, Gen w) { return w((r + 1) % size, i); }

static double plainX(int r, int i) { return 1.0 + 0.5 * r + 0.25 * i; }

/* y_r = x_{r-1} along a chain: rank 0 receives from MPI_PROC_NULL (y kept),
   the last rank sends to it. Receives 5 elements into room for 7. */
static void chainBody(void *x, void *xs, void *y, void *ys) {
  MPI_Status st;
  AD(recv, y, 7, T, rank > 0 ? rank - 1 : MPI_PROC_NULL, 4, MPI_COMM_WORLD, &st,
     ys);
  int count = -1;
  MPI_Get_count(&st, T, &count);
  checkTrue("chain: status count", count == (rank > 0 ? 5 : 0));
  AD(send, x, 5, T, rank < size - 1 ? rank + 1 : MPI_PROC_NULL, 4,
     MPI_COMM_WORLD, xs);
}
static double chainY(int r, int i, double before) {
  return r > 0 && i < 5 ? xOf(r - 1, i) : before;
}
static double chainJv(int r, int i, Gen v) {
  return r > 0 && i < 5 ? v(r - 1, i) : 0;
}
static double chainJtw(int r, int i, Gen w) {
  return r < size - 1 ? w(r + 1, i) : 0;
}
static double chainYbar(int r, int i, Gen w) {
  return r > 0 && i < 5 ? 0 : w(r, i);
}

/* Two messages each way on one stream (same peers and tag), and an int
   message between them; even ranks complete them in one Waitall, odd ranks
   one by one, last posted first. The reverse posts the adjoints in the
   mirrored orders, which differ across each pair of neighbours: adjoint
   messages matched by tag alone would cross. */
static void requestBody(void *x, void *xs, void *y, void *ys, int wild) {
  size_t h = 3 * eltBytes();
  MPI_Request rq[6];
  int in = -1, out = 1000 + rank;
  int src = wild ? MPI_ANY_SOURCE : left;
  AD(irecv, y, 3, T, src, 9, MPI_COMM_WORLD, &rq[0], ys);
  AD(irecv, (char *)y + h, 3, T, src, 9, MPI_COMM_WORLD, &rq[1],
     ys ? (char *)ys + h : NULL);
  AD(irecv, &in, 1, MPI_INT, left, 10, MPI_COMM_WORLD, &rq[4], NULL);
  AD(isend, x, 3, T, right, 9, MPI_COMM_WORLD, &rq[2], xs);
  AD(isend, (char *)x + h, 3, T, right, 9, MPI_COMM_WORLD, &rq[3],
     xs ? (char *)xs + h : NULL);
  AD(isend, &out, 1, MPI_INT, right, 10, MPI_COMM_WORLD, &rq[5], NULL);
  if (rank % 2 == 0) {
    AD(waitall, 6, rq, MPI_STATUSES_IGNORE);
  } else {
    MPI_Status st[2];
    AD(wait, &rq[1], &st[0]);
    int count = -1;
    MPI_Get_count(&st[0], T, &count);
    checkTrue("requests: status count", count == 3);
    checkTrue("requests: status source", st[0].MPI_SOURCE == left);
    AD(wait, &rq[0], MPI_STATUS_IGNORE);
    AD(wait, &rq[3], MPI_STATUS_IGNORE);
    AD(wait, &rq[2], MPI_STATUS_IGNORE);
    AD(waitall, 2, &rq[4], st);
  }
  checkTrue("requests: int message", in == 1000 + left);
}
static void requestsBody(void *x, void *xs, void *y, void *ys) {
  requestBody(x, xs, y, ys, 0);
}
static void wildRequestsBody(void *x, void *xs, void *y, void *ys) {
  requestBody(x, xs, y, ys, 1);
}

/* Rank 0 gathers two messages from every other rank with MPI_ANY_SOURCE
   and MPI_ANY_TAG, in whatever order they come: slot k of y holds the k-th
   arrival. Where each went is known after the forward sweep only, so the
   expectations read it from arrival[] (broadcast). */
static int arrival[64][2]; /* Rank, message: the slot it went to. */
static void gatherBody(void *x, void *xs, void *y, void *ys) {
  size_t h = 2 * eltBytes();
  int slotOf[64][2];
  memset(slotOf, 0, sizeof slotOf);
  if (rank == 0) {
    int seen[64] = {0};
    for (int k = 0; k < 2 * (size - 1); ++k) {
      MPI_Status st;
      AD(recv, (char *)y + k * h, 2, T, MPI_ANY_SOURCE, MPI_ANY_TAG,
         MPI_COMM_WORLD, &st, ys ? (char *)ys + k * h : NULL);
      checkTrue("gather: tag", st.MPI_TAG == 20 + st.MPI_SOURCE);
      slotOf[st.MPI_SOURCE][seen[st.MPI_SOURCE]++] = k;
    }
  } else {
    for (int j = 0; j < 2; ++j)
      AD(send, (char *)x + j * h, 2, T, 0, 20 + rank, MPI_COMM_WORLD,
         xs ? (char *)xs + j * h : NULL);
  }
  MPI_Bcast(slotOf, sizeof slotOf / sizeof(int), MPI_INT, 0, MPI_COMM_WORLD);
  memcpy(arrival, slotOf, sizeof arrival);
}
/* The sender and element of slot element i of rank 0's y, or -1. */
static int gatherSource(int i, int *elt) {
  int k = i / 2;
  for (int r = 1; r < size; ++r)
    for (int j = 0; j < 2; ++j)
      if (arrival[r][j] == k) {
        *elt = 2 * j + i % 2;
        return k < 2 * (size - 1) ? r : -1;
      }
  return -1;
}
static double gatherY(int r, int i, double before) {
  int elt, src = r == 0 ? gatherSource(i, &elt) : -1;
  return src >= 0 ? xOf(src, elt) : before;
}
static double gatherJv(int r, int i, Gen v) {
  int elt, src = r == 0 ? gatherSource(i, &elt) : -1;
  return src >= 0 ? v(src, elt) : 0;
}
static double gatherJtw(int r, int i, Gen w) {
  if (r == 0)
    return 0;
  return w(0, 2 * arrival[r][i / 2] + i % 2);
}
static double gatherYbar(int r, int i, Gen w) {
  return r == 0 && i < 4 * (size - 1) ? 0 : w(r, i);
}

/*===-- Collectives -------------------------------------------------------===*/

/* Values with ties: for MAX and MIN, several elements are won by more
   than one rank (the lowest wins). */
static double tieX(int r, int i) {
  switch (i % 5) {
  case 0:
    return 5.0; /* All tie. */
  case 1:
    return r * (i + 1) + 1.0; /* Increasing with the rank. */
  case 2:
    return (r % 2) + 2.0; /* Odd ranks tie, even ranks tie. */
  case 3:
    return -(r - 1.0) * (r - 1.0);
  default:
    return r == 0 ? 9.0 : 1.0; /* Ranks 1.. tie. */
  }
}
static int isMax;
static int winner(int i) {
  int best = 0;
  for (int q = 1; q < size; ++q)
    if (isMax ? tieX(q, i) > tieX(best, i) : tieX(q, i) < tieX(best, i))
      best = q;
  return best;
}
static int reduceRoot;

static double sumOver(Gen g, int i) {
  double s = 0;
  for (int q = 0; q < size; ++q)
    s += g(q, i);
  return s;
}

static void allreduceSumBody(void *x, void *xs, void *y, void *ys) {
  AD(allreduce, x, y, 4, T, MPI_SUM, MPI_COMM_WORLD, xs, ys);
}
static void allreduceSumInPlaceBody(void *x, void *xs, void *y, void *ys) {
  (void)x, (void)xs;
  AD(allreduce, MPI_IN_PLACE, y, 4, T, MPI_SUM, MPI_COMM_WORLD, NULL, ys);
}
static double sumY(int r, int i, double before) {
  return (void)r, (void)before, sumOver(xOf, i);
}
static double sumJv(int r, int i, Gen v) { return (void)r, sumOver(v, i); }
static double sumJtw(int r, int i, Gen w) { return (void)r, sumOver(w, i); }

static void allreduceMaxBody(void *x, void *xs, void *y, void *ys) {
  isMax = 1;
  AD(allreduce, x, y, 10, T, MPI_MAX, MPI_COMM_WORLD, xs, ys);
}
static void allreduceMinInPlaceBody(void *x, void *xs, void *y, void *ys) {
  (void)x, (void)xs;
  isMax = 0;
  AD(allreduce, MPI_IN_PLACE, y, 10, T, MPI_MIN, MPI_COMM_WORLD, NULL, ys);
}
static double extY(int r, int i, double before) {
  return (void)r, (void)before, tieX(winner(i), i);
}
static double extJv(int r, int i, Gen v) { return (void)r, v(winner(i), i); }
static double extJtw(int r, int i, Gen w) {
  return winner(i) == r ? sumOver(w, i) : 0;
}

static void reduceSumBody(void *x, void *xs, void *y, void *ys) {
  reduceRoot = size - 1;
  AD(reduce, x, y, 4, T, MPI_SUM, reduceRoot, MPI_COMM_WORLD, xs, ys);
}
static int isLastRank(int r) { return r == size - 1; }
static void reduceSumInPlaceBody(void *x, void *xs, void *y, void *ys) {
  reduceRoot = size - 1;
  int root = rank == reduceRoot;
  AD(reduce, root ? MPI_IN_PLACE : x, y, 4, T, MPI_SUM, reduceRoot,
     MPI_COMM_WORLD, root ? NULL : xs, ys);
}
static double rootSumY(int r, int i, double before) {
  return r == reduceRoot ? sumOver(xOf, i) : before;
}
static double rootSumJv(int r, int i, Gen v) {
  return r == reduceRoot ? sumOver(v, i) : 0;
}
static double rootSumJtw(int r, int i, Gen w) {
  return (void)r, w(reduceRoot, i);
}
static double rootYbar(int r, int i, Gen w) {
  return r == reduceRoot ? 0 : w(r, i);
}

static void reduceMaxInPlaceBody(void *x, void *xs, void *y, void *ys) {
  isMax = 1;
  reduceRoot = 0;
  int root = rank == 0;
  AD(reduce, root ? MPI_IN_PLACE : x, y, 10, T, MPI_MAX, 0, MPI_COMM_WORLD,
     root ? NULL : xs, ys);
}
static void reduceMinBody(void *x, void *xs, void *y, void *ys) {
  isMax = 0;
  reduceRoot = 1 % size;
  AD(reduce, x, y, 10, T, MPI_MIN, reduceRoot, MPI_COMM_WORLD, xs, ys);
}
static double rootExtY(int r, int i, double before) {
  return r == reduceRoot ? tieX(winner(i), i) : before;
}
static double rootExtJv(int r, int i, Gen v) {
  return r == reduceRoot ? v(winner(i), i) : 0;
}
static double rootExtJtw(int r, int i, Gen w) {
  return winner(i) == r ? w(reduceRoot, i) : 0;
}

static void bcastBody(void *x, void *xs, void *y, void *ys) {
  (void)x, (void)xs;
  reduceRoot = size / 2;
  AD(bcast, y, 6, T, reduceRoot, MPI_COMM_WORLD, ys);
}
static double bcastY(int r, int i, double before) {
  return (void)r, (void)before, xOf(reduceRoot, i);
}
static double bcastJv(int r, int i, Gen v) { return (void)r, v(reduceRoot, i); }
static double bcastJtw(int r, int i, Gen w) {
  return r == reduceRoot ? sumOver(w, i) : 0;
}

static const Case cases[] = {
    {"sendrecv ring", 5, 5, plainX, never, never, ringBody, ringY, ringJv,
     ringJtw, consumed, 0},
    {"sendrecv ring, odd ranks' x without shadow", 5, 5, plainX, never, oddRank,
     ringBody, ringY, ringJv, ringJtw, consumed, 0},
    {"send/recv chain with MPI_PROC_NULL ends", 5, 7, plainX, never, never,
     chainBody, chainY, chainJv, chainJtw, chainYbar, 0},
    {"isend/irecv, waits in different orders", 6, 6, plainX, never, never,
     requestsBody, ringY, ringJv, ringJtw, consumed, 0},
    {"isend/irecv(ANY_SOURCE), waits in different orders", 6, 6, plainX, never,
     never, wildRequestsBody, ringY, ringJv, ringJtw, consumed, 0},
    {"recv(ANY_SOURCE, ANY_TAG) gather", 4, 128, plainX, never, never,
     gatherBody, gatherY, gatherJv, gatherJtw, gatherYbar, 1},
    {"allreduce sum", 4, 4, plainX, never, never, allreduceSumBody, sumY, sumJv,
     sumJtw, consumed, 0},
    {"allreduce sum in place", 4, 4, plainX, always, never,
     allreduceSumInPlaceBody, sumY, sumJv, sumJtw, consumed, 0},
    {"allreduce max with ties", 10, 10, tieX, never, never, allreduceMaxBody,
     extY, extJv, extJtw, consumed, 0},
    {"allreduce min in place with ties", 10, 10, tieX, always, never,
     allreduceMinInPlaceBody, extY, extJv, extJtw, consumed, 0},
    {"reduce sum to the last rank", 4, 4, plainX, never, never, reduceSumBody,
     rootSumY, rootSumJv, rootSumJtw, rootYbar, 0},
    {"reduce sum in place", 4, 4, plainX, isLastRank, never,
     reduceSumInPlaceBody, rootSumY, rootSumJv, rootSumJtw, rootYbar, 0},
    {"reduce max in place at rank 0 with ties", 10, 10, tieX, rankZero, never,
     reduceMaxInPlaceBody, rootExtY, rootExtJv, rootExtJtw, rootYbar, 0},
    {"reduce min to rank 1 with ties", 10, 10, tieX, never, never,
     reduceMinBody, rootExtY, rootExtJv, rootExtJtw, rootYbar, 0},
    {"bcast", 6, 6, plainX, always, never, bcastBody, bcastY, bcastJv, bcastJtw,
     consumed, 0},
    {"bcast, odd ranks without shadow", 6, 6, plainX, always, oddRank,
     bcastBody, bcastY, bcastJv, bcastJtw, consumed, 0},
};

/*===-- Data without derivatives ------------------------------------------===*/

/* Int data and MPI_PROD move values only: no record, shadows untouched. */
static void checkInactive(void) {
  caseName = "inactive data";
  T = MPI_DOUBLE;
  for (int m = 0; m < 2; ++m) {
    mode = m ? TANGENT : REVERSE;
    recordCount = 0;
    int out[3] = {rank, rank + 1, rank + 2}, in[3] = {-1, -1, -1};
    int shadowIn[3] = {42, 42, 42}, shadowOut[3] = {7, 7, 7};
    AD(sendrecv, out, 3, MPI_INT, right, 5, in, 3, MPI_INT, left, 5,
       MPI_COMM_WORLD, MPI_STATUS_IGNORE, shadowOut, shadowIn);
    checkTrue("int sendrecv value", in[0] == left && in[2] == left + 2);
    checkTrue("int sendrecv shadow untouched",
              shadowIn[1] == 42 && shadowOut[1] == 7);
    double p = rank + 2.0, prod = 0;
    AD(allreduce, &p, &prod, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD, NULL,
       NULL);
    double want = 1;
    for (int q = 0; q < size; ++q)
      want *= q + 2.0;
    check("MPI_PROD value", 0, prod, want);
    long sum = 0, one = 1;
    AD(allreduce, &one, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &one, &sum);
    checkTrue("long allreduce value", sum == size);
    checkTrue("no records for inactive data", recordCount == 0);
  }
}

/* Rank 1 finishes its reverse sweep (its adjoint to rank 0 is sent) before
   rank 2 sends the message that rank 0 waits for with MPI_ANY_SOURCE and
   MPI_ANY_TAG: the receive must take rank 2's message, and the adjoint
   must still reach rank 0's reverse. */
static void checkAdjointInFlight(void) {
  caseName = "MPI_ANY_TAG receive with an adjoint in flight";
  T = MPI_DOUBLE;
  MPI_Comm side;
  MPI_Comm_dup(MPI_COMM_WORLD, &side);
  recordCount = 0;
  mode = REVERSE;
  int go = 1;
  if (rank == 0) {
    double x = 2, xs = 0, y = -1, ys = 0;
    MPI_Status st;
    AD(send, &x, 1, T, 1, 1, MPI_COMM_WORLD, &xs);
    AD(recv, &y, 1, T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st, &ys);
    check("y", 0, y, 3);
    checkTrue("status source", st.MPI_SOURCE == 2 && st.MPI_TAG == 2);
    ys = 5;
    while (recordCount > 0)
      __ad_mpi_reverse(records[--recordCount]);
    check("x adjoint", 0, xs, 7);
    check("y adjoint after", 0, ys, 0);
  } else if (rank == 1) {
    double y = -1, ys = 0;
    AD(recv, &y, 1, T, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &ys);
    check("y", 0, y, 2);
    ys = 7;
    while (recordCount > 0)
      __ad_mpi_reverse(records[--recordCount]);
    check("y adjoint after", 0, ys, 0);
    MPI_Send(&go, 1, MPI_INT, 2, 0, side);
  } else if (rank == 2) {
    double x = 3, xs = 0;
    MPI_Recv(&go, 1, MPI_INT, 1, 0, side, MPI_STATUS_IGNORE);
    AD(send, &x, 1, T, 0, 2, MPI_COMM_WORLD, &xs);
    while (recordCount > 0)
      __ad_mpi_reverse(records[--recordCount]);
    check("x adjoint", 0, xs, 5);
  }
  MPI_Comm_free(&side);
}

/*===-- What must stop the program ----------------------------------------===*/

static int expectAbort(const char *what) {
  double d[2] = {1, 2}, ds[2] = {0, 0};
  long double ld[2] = {1, 2}, lds[2] = {0, 0};
  if (!strcmp(what, "abort-longdouble"))
    __ad_mpi_allreduce_tangent(ld, ld + 1, 1, MPI_LONG_DOUBLE, MPI_SUM,
                               MPI_COMM_WORLD, lds, lds + 1);
  else if (!strcmp(what, "abort-prod"))
    __ad_mpi_reverse(__ad_mpi_allreduce(d, d + 1, 1, MPI_DOUBLE, MPI_PROD,
                                        MPI_COMM_WORLD, ds, ds + 1));
  else if (!strcmp(what, "abort-tag"))
    __ad_mpi_reverse(__ad_mpi_sendrecv(
        d, 1, MPI_DOUBLE, right, 1 << 30, d + 1, 1, MPI_DOUBLE, left, 1 << 30,
        MPI_COMM_WORLD, MPI_STATUS_IGNORE, ds, ds + 1));
  else
    return 2;
  fprintf(stderr, "rank %d: %s did not stop the program\n", rank, what);
  return 0; /* A run that goes on exits with 0: the caller expects nonzero. */
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1) {
    int rc = expectAbort(argv[1]);
    MPI_Finalize();
    return rc;
  }
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_FLOAT};
  for (int t = 0; t < 2; ++t)
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
      runCase(&cases[k], types[t]);
  checkInactive();
  if (size >= 3)
    checkAdjointInFlight();
  int counts[2] = {passes, failures}, totals[2];
  MPI_Reduce(counts, totals, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&failures, &counts[1], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("np=%d: %d checks passed, %d failed (%zu cases x 2 types + "
           "inactive data)\n",
           size, totals[0], totals[1], sizeof cases / sizeof cases[0]);
  MPI_Finalize();
  return counts[1] ? 1 : 0;
}
