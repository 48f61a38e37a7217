/* FlangBodies.c - differentiable bodies of flang's array runtime.
 *
 * flang lowers whole-array assignment to an allocatable (and, at -O0, to
 * any array), and the SUM, PRODUCT, MAXVAL, MINVAL, NORM2, DOT_PRODUCT and
 * MATMUL intrinsics it does not inline, to calls of its runtime library
 * (_FortranAAssign, _FortranASumReal8, ...), which has no IR body. Each
 * function here, __ad_flang_NAME, does what _FortranANAME does for arrays of
 * the intrinsic real and integer types, in plain C over flang's array
 * descriptor. The plugin compiles this file to bitcode when it is built and
 * links a function into a module only where a function it differentiates
 * calls the runtime one; the call is redirected to the body and inlined
 * into the derivative's private copy of that function (the user's own code
 * keeps calling flang's runtime). What a body does not cover (derived types
 * with allocatable components, type conversion, character) it passes on to
 * the real runtime function, which stays an error where derivatives would
 * flow through it.
 *
 * Memory the bodies allocate comes from malloc, as flang's runtime does:
 * the code flang emits frees it with free.
 */
#include <stddef.h>

/* Helpers are inlined into the bodies, so that each body is one function
 * to inline into the code that calls it. */
#define AD_INLINE static inline __attribute__((always_inline))

/* The statements ... once for each dimension k of descriptor d, written out
 * (no loop): each access to dim[k] is at a constant offset, so that once
 * the rank is known (it usually is a constant the caller stored) the
 * descriptor's fields become plain values and the other copies fold away.
 */
#define ON_DIM(K, d, ...)                                                      \
  if ((d)->rank > K) {                                                         \
    const int k = K;                                                           \
    (void)k;                                                                   \
    __VA_ARGS__                                                                \
  }
#define FOR_DIMS(d, ...)                                                       \
  do {                                                                         \
    ON_DIM(0, d, __VA_ARGS__)                                                  \
    ON_DIM(1, d, __VA_ARGS__)                                                  \
    ON_DIM(2, d, __VA_ARGS__)                                                  \
    ON_DIM(3, d, __VA_ARGS__)                                                  \
    ON_DIM(4, d, __VA_ARGS__) ON_DIM(5, d, __VA_ARGS__)                        \
        ON_DIM(6, d, __VA_ARGS__) ON_DIM(7, d, __VA_ARGS__)                    \
            ON_DIM(8, d, __VA_ARGS__) ON_DIM(9, d, __VA_ARGS__)                \
                ON_DIM(10, d, __VA_ARGS__) ON_DIM(11, d, __VA_ARGS__)          \
                    ON_DIM(12, d, __VA_ARGS__) ON_DIM(13, d, __VA_ARGS__)      \
                        ON_DIM(14, d, __VA_ARGS__)                             \
  } while (0)

void *malloc(size_t);
void free(void *);

/* flang's descriptor, which is ISO_Fortran_binding.h's CFI_cdesc_t. */
typedef struct {
  long lower_bound;
  long extent;
  long sm; /* byte stride */
} ad_dim;

typedef struct {
  void *base_addr;
  size_t elem_len;
  int version;
  unsigned char rank;
  signed char type;
  unsigned char attribute;
  unsigned char extra;
  ad_dim dim[15];
} ad_desc;

enum {
  TypeFloat = 27,
  TypeDouble = 28,
  TypeFloatComplex = 34,
  TypeDoubleComplex = 35,
  TypeChar = 40,
  TypeStruct = 42,
  AttributeAllocatable = 2,
  TypeInteger1 = 7, /* flang's integer kinds 1, 2, 4 and 8: int8_t ... */
  TypeInteger8 = 10,
  AddendumFlag = 1,
  /* Bits 1-3 of extra: a non-default allocator (CUDA's pinned, managed or
   * device memory), which malloc and free must not stand in for. */
  AllocatorIndexMask = 14,
  DescriptorVersion = 20240719,
};

/* A copy of a descriptor for the real runtime: room for 15 dimensions and,
 * after the last one, the addendum. */
typedef struct {
  ad_desc desc;
  long addendum_room[2];
} ad_runtime_desc;

/* The real runtime, for what the bodies do not cover. It is given copies
 * of the descriptors, field by field, never their addresses: the caller's
 * descriptors then stay local values that fold once the body is inlined,
 * and the branch to the runtime with them. (An address passed on would
 * keep every field of the caller's descriptor in memory, so the checks
 * would not fold, and the call to the runtime, which stops the
 * differentiation, would stay in every derivative.) */
void _FortranAAssign(ad_desc *, const ad_desc *, const char *, int);
void _FortranASumDim(ad_desc *, const ad_desc *, int, const char *, int,
                     const ad_desc *);

/* The two words at dim[k] of \p from to those of \p to (the offset is a
 * constant in each copy of the statements FOR_DIMS writes out). */
AD_INLINE void copyWordsAt(ad_desc *to, const ad_desc *from, int k) {
  long at = (long)sizeof(ad_desc) - (15 - k) * (long)sizeof(ad_dim);
  const long *f = (const long *)((const char *)from + at);
  long *t = (long *)((char *)to + at);
  t[0] = f[0];
  t[1] = f[1];
}

/* Copies the fields of \p from that its rank says it has (a descriptor is
 * only as large as its rank), and its addendum. */
AD_INLINE void copyDescriptor(ad_runtime_desc *copy, const ad_desc *from) {
  ad_desc *to = &copy->desc;
  to->base_addr = from->base_addr;
  to->elem_len = from->elem_len;
  to->version = from->version;
  to->rank = from->rank;
  to->type = from->type;
  to->attribute = from->attribute;
  to->extra = from->extra;
  FOR_DIMS(from, to->dim[k] = from->dim[k];);
  /* The addendum of a descriptor whose extra has AddendumFlag follows its
   * last dimension, at dim[rank]: the derived type's description, which
   * the runtime needs for any derived-type assignment, then the length
   * parameters. flang always reserves one length parameter word (its
   * DescriptorAddendum::SizeInBytes), so two words are always there; flang
   * does not lower derived types with more length parameters to these
   * calls. The words at dim[k + 1] are copied for each k < rank, as the
   * dimensions are: only the last copy is the addendum, the others copy
   * dimensions again, and each access stays at a constant offset (one at
   * dim[rank] would be at a variable one, which keeps the caller's
   * descriptor in memory). */
  if (from->extra & AddendumFlag) {
    copyWordsAt(to, from, 0);
    FOR_DIMS(from, copyWordsAt(to, from, k + 1););
  }
}

/* What the runtime may have changed in a descriptor it was given: the
 * allocation, its shape, and a deferred character length. Never its type
 * or rank: those stay the constants the caller stored, so that the checks
 * of later bodies on the same descriptor still fold. */
AD_INLINE void copyAllocation(ad_desc *to, const ad_desc *from) {
  to->base_addr = from->base_addr;
  if (to->type == TypeChar)
    to->elem_len = from->elem_len;
  FOR_DIMS(to, to->dim[k] = from->dim[k];);
}

AD_INLINE long elements(const ad_desc *d) {
  long n = 1;
  FOR_DIMS(d, n *= d->dim[k].extent > 0 ? d->dim[k].extent : 0;);
  return n;
}

AD_INLINE int contiguous(const ad_desc *d) {
  long stride = (long)d->elem_len;
  FOR_DIMS(d, {
    if (d->dim[k].extent != 1 && d->dim[k].sm != stride)
      return 0;
    stride *= d->dim[k].extent;
  });
  return 1;
}

/* The byte offset of element \p i (column-major order) of \p d. */
AD_INLINE long offset(const ad_desc *d, long i) {
  long at = 0;
  FOR_DIMS(d, {
    long e = d->dim[k].extent;
    at += (i % e) * d->dim[k].sm;
    i /= e;
  });
  return at;
}

AD_INLINE char *element(const ad_desc *d, int dense, long i) {
  return (char *)d->base_addr + (dense ? i * (long)d->elem_len : offset(d, i));
}

/* A logical mask's element \p i: any kind (1, 2, 4 or 8 bytes); a scalar
 * mask (rank 0) applies to every element; no mask selects all. */
AD_INLINE int selected(const ad_desc *mask, long i) {
  if (!mask)
    return 1;
  const char *p =
      (const char *)mask->base_addr + (mask->rank ? offset(mask, i) : 0);
  switch (mask->elem_len) {
  case 1:
    return *(const signed char *)p != 0;
  case 2:
    return *(const short *)p != 0;
  case 8:
    return *(const long *)p != 0;
  default:
    return *(const int *)p != 0;
  }
}

/* ---- Reductions to a scalar -------------------------------------------- */

double _FortranADotProductReal8(const ad_desc *, const ad_desc *, const char *,
                                int);
float _FortranADotProductReal4(const ad_desc *, const ad_desc *, const char *,
                               int);

/* Whether numberAt reads \p d's elements: real(4), real(8) and the
 * integer kinds. */
AD_INLINE int numericCovers(const ad_desc *d) {
  return d->type == TypeDouble || d->type == TypeFloat ||
         (d->type >= TypeInteger1 && d->type <= TypeInteger8);
}

/* Element \p i of a real(4), real(8) or integer array, as a double. */
AD_INLINE double numberAt(const ad_desc *d, int dense, long i) {
  const char *p = element(d, dense, i);
  if (d->type == TypeDouble)
    return *(const double *)p;
  if (d->type == TypeFloat)
    return *(const float *)p;
  switch (d->elem_len) {
  case 1:
    return *(const signed char *)p;
  case 2:
    return *(const short *)p;
  case 8:
    return (double)*(const long *)p;
  default:
    return *(const int *)p;
  }
}

#define REDUCTIONS(T, SUFFIX, NORM2, HUGE)                                     \
  T __ad_flang_Sum##SUFFIX(const ad_desc *a, const char *source, int line,     \
                           int dim, const ad_desc *mask) {                     \
    long n = elements(a);                                                      \
    int dense = contiguous(a);                                                 \
    T s = 0;                                                                   \
    for (long i = 0; i < n; ++i)                                               \
      if (selected(mask, i))                                                   \
        s += *(const T *)element(a, dense, i);                                 \
    return s;                                                                  \
  }                                                                            \
  T __ad_flang_Product##SUFFIX(const ad_desc *a, const char *source, int line, \
                               int dim, const ad_desc *mask) {                 \
    long n = elements(a);                                                      \
    int dense = contiguous(a);                                                 \
    T p = 1;                                                                   \
    for (long i = 0; i < n; ++i)                                               \
      if (selected(mask, i))                                                   \
        p *= *(const T *)element(a, dense, i);                                 \
    return p;                                                                  \
  }                                                                            \
  /* As flang's runtime: MAXVAL and MINVAL of nothing are -HUGE and HUGE;      \
   * otherwise the first selected element starts, a NaN so far is replaced     \
   * by the next element, and a later element replaces the extreme only if     \
   * strictly beyond it. So -Inf elements give -Inf, NaNs count only when      \
   * all are NaN, and of equal extremes the first is the one chosen (its       \
   * element receives the derivative). */                                      \
  T __ad_flang_Maxval##SUFFIX(const ad_desc *a, const char *source, int line,  \
                              int dim, const ad_desc *mask) {                  \
    long n = elements(a);                                                      \
    int dense = contiguous(a), any = 0;                                        \
    T m = -HUGE;                                                               \
    for (long i = 0; i < n; ++i)                                               \
      if (selected(mask, i)) {                                                 \
        T v = *(const T *)element(a, dense, i);                                \
        if (!any || m != m || v > m)                                           \
          m = v;                                                               \
        any = 1;                                                               \
      }                                                                        \
    return m;                                                                  \
  }                                                                            \
  T __ad_flang_Minval##SUFFIX(const ad_desc *a, const char *source, int line,  \
                              int dim, const ad_desc *mask) {                  \
    long n = elements(a);                                                      \
    int dense = contiguous(a), any = 0;                                        \
    T m = HUGE;                                                                \
    for (long i = 0; i < n; ++i)                                               \
      if (selected(mask, i)) {                                                 \
        T v = *(const T *)element(a, dense, i);                                \
        if (!any || m != m || v < m)                                           \
          m = v;                                                               \
        any = 1;                                                               \
      }                                                                        \
    return m;                                                                  \
  }                                                                            \
  /* As flang's runtime computes it, in double for both kinds: the largest     \
   * magnitude so far, big, times sqrt(1 + the sum of the squares of the       \
   * others over big), the sum rescaled whenever big grows, so that the        \
   * squares neither overflow nor underflow. Of a zero array it is 0, and      \
   * so is its derivative (the subgradient at the kink the plugin picks,       \
   * where the differentiated formula would divide by zero). */                \
  T __ad_flang_Norm2_##NORM2(const ad_desc *a, const char *source, int line,   \
                             int dim) {                                        \
    long n = elements(a);                                                      \
    int dense = contiguous(a);                                                 \
    double big = 0, sum = 0;                                                   \
    for (long i = 0; i < n; ++i) {                                             \
      double v = __builtin_fabs((double)*(const T *)element(a, dense, i));     \
      if (big == 0) {                                                          \
        big = v;                                                               \
      } else if (v > big) {                                                    \
        double t = big / v;                                                    \
        sum = sum * (t * t) + t * t;                                           \
        big = v;                                                               \
      } else {                                                                 \
        double t = v / big;                                                    \
        sum += t * t;                                                          \
      }                                                                        \
    }                                                                          \
    if (big == 0)                                                              \
      return 0;                                                                \
    return (T)(big * __builtin_sqrt(1 + sum));                                 \
  }                                                                            \
  /* Either operand may be of another kind, or an integer (flang names the     \
   * function after the result's type): each element is converted, and the     \
   * products added in double, as flang's runtime does. */                     \
  T __ad_flang_DotProduct##SUFFIX(const ad_desc *x, const ad_desc *y,          \
                                  const char *source, int line) {              \
    if (!numericCovers(x) || !numericCovers(y)) {                              \
      ad_runtime_desc left, right;                                             \
      copyDescriptor(&left, x);                                                \
      copyDescriptor(&right, y);                                               \
      return _FortranADotProduct##SUFFIX(&left.desc, &right.desc, source,      \
                                         line);                                \
    }                                                                          \
    long n = elements(x);                                                      \
    int xdense = contiguous(x), ydense = contiguous(y);                        \
    double s = 0;                                                              \
    for (long i = 0; i < n; ++i)                                               \
      s += numberAt(x, xdense, i) * numberAt(y, ydense, i);                    \
    return (T)s;                                                               \
  }

REDUCTIONS(double, Real8, 8, 1.7976931348623157e308)
REDUCTIONS(float, Real4, 4, 3.40282347e38f)

/* ---- Results in a descriptor ------------------------------------------- */

/* Gives an unallocated allocatable result \p r of rank \p rank, whose
 * extents the caller has set, lower bounds 1, contiguous strides and
 * memory from malloc. An allocated one is used as it is. */
AD_INLINE void allocateResult(ad_desc *r, int rank, size_t elem_len,
                              signed char type) {
  if (r->base_addr)
    return;
  long n = 1;
  r->elem_len = elem_len;
  r->version = DescriptorVersion;
  r->rank = (unsigned char)rank;
  r->type = type;
  FOR_DIMS(r, {
    r->dim[k].lower_bound = 1;
    r->dim[k].sm = n * (long)elem_len;
    n *= r->dim[k].extent > 0 ? r->dim[k].extent : 0;
  });
  r->base_addr = malloc(n > 0 ? (size_t)n * elem_len : 1);
}

/* MATMUL(x, y): matrix times matrix, vector times matrix or matrix times
 * vector. The result is allocated here, as the runtime does. */
#define MATMUL(T, SUFFIX, TYPE)                                                \
  void __ad_flang_Matmul##SUFFIX(ad_desc *r, const ad_desc *x,                 \
                                 const ad_desc *y, const char *source,         \
                                 int line) {                                   \
    long rows = x->rank == 2 ? x->dim[0].extent : 1;                           \
    long inner = x->dim[x->rank - 1].extent;                                   \
    long cols = y->rank == 2 ? y->dim[1].extent : 1;                           \
    int rank = (x->rank == 2) + (y->rank == 2);                                \
    /* A rank-1 result's descriptor has no dim[1]. */                          \
    if (!r->base_addr) {                                                       \
      r->dim[0].extent = x->rank == 2 ? rows : cols;                           \
      if (rank == 2)                                                           \
        r->dim[1].extent = cols;                                               \
    }                                                                          \
    allocateResult(r, rank, sizeof(T), TYPE);                                  \
    /* Strides in elements of the result and the two operands. */              \
    long rs0 = r->dim[0].sm / (long)sizeof(T);                                 \
    long rs1 = rank == 2 ? r->dim[1].sm / (long)sizeof(T) : 0;                 \
    if (x->rank == 1)                                                          \
      rs1 = rs0;                                                               \
    long xs0 = x->rank == 2 ? x->dim[0].sm : 0;                                \
    long xs1 = x->dim[x->rank - 1].sm;                                         \
    long ys0 = y->dim[0].sm;                                                   \
    long ys1 = y->rank == 2 ? y->dim[1].sm : 0;                                \
    T *out = (T *)r->base_addr;                                                \
    const char *xb = (const char *)x->base_addr;                               \
    const char *yb = (const char *)y->base_addr;                               \
    for (long j = 0; j < cols; ++j)                                            \
      for (long i = 0; i < rows; ++i) {                                        \
        T s = 0;                                                               \
        for (long k = 0; k < inner; ++k)                                       \
          s += *(const T *)(xb + i * xs0 + k * xs1) *                          \
               *(const T *)(yb + k * ys0 + j * ys1);                           \
        out[i * rs0 + j * rs1] = s;                                            \
      }                                                                        \
  }

MATMUL(double, Real8Real8, TypeDouble)
MATMUL(float, Real4Real4, TypeFloat)

/* SUM(array, DIM=dim) of a real array: the result has the array's rank
 * less one. Other types go to the runtime. */
#define SUM_DIM(T)                                                             \
  AD_INLINE void sumDim_##T(ad_desc *r, const ad_desc *a, int dim,             \
                            const ad_desc *mask) {                             \
    /* Element i of the array adds into the result element whose index         \
     * leaves out the dim-th subscript: i = low + below * (j + along * high)   \
     * goes to low + below * high. */                                          \
    long below = 1, along = 1;                                                 \
    FOR_DIMS(a, {                                                              \
      if (k < dim - 1) {                                                       \
        below *= a->dim[k].extent;                                             \
        if (!r->base_addr)                                                     \
          r->dim[k].extent = a->dim[k].extent;                                 \
      } else if (k == dim - 1) {                                               \
        along = a->dim[k].extent;                                              \
      } else if (!r->base_addr) {                                              \
        r->dim[k - 1].extent = a->dim[k].extent;                               \
      }                                                                        \
    });                                                                        \
    allocateResult(r, a->rank - 1, sizeof(T), a->type);                        \
    long n = elements(r);                                                      \
    for (long i = 0; i < n; ++i)                                               \
      *(T *)((char *)r->base_addr + offset(r, i)) = 0;                         \
    long m = elements(a);                                                      \
    for (long i = 0; i < m; ++i)                                               \
      if (selected(mask, i)) {                                                 \
        long j = i % below + i / (below * along) * below;                      \
        *(T *)((char *)r->base_addr + offset(r, j)) +=                         \
            *(const T *)((const char *)a->base_addr + offset(a, i));           \
      }                                                                        \
  }

SUM_DIM(double)
SUM_DIM(float)

void __ad_flang_SumDim(ad_desc *r, const ad_desc *a, int dim,
                       const char *source, int line, const ad_desc *mask) {
  if (a->type == TypeDouble)
    sumDim_double(r, a, dim, mask);
  else if (a->type == TypeFloat)
    sumDim_float(r, a, dim, mask);
  else {
    ad_runtime_desc result, array;
    copyDescriptor(&result, r);
    copyDescriptor(&array, a);
    _FortranASumDim(&result.desc, &array.desc, dim, source, line, mask);
    copyAllocation(r, &result.desc);
  }
}

/* ---- Assignment ---------------------------------------------------------- */

AD_INLINE int sameShape(const ad_desc *a, const ad_desc *b) {
  if (a->rank != b->rank)
    return 0;
  FOR_DIMS(a, {
    if (a->dim[k].extent != b->dim[k].extent)
      return 0;
  });
  return 1;
}

/* Element i of one is element i of the other: copying reads each element
 * before writing it. */
AD_INLINE int sameLayout(const ad_desc *a, const ad_desc *b) {
  if (a->base_addr != b->base_addr)
    return 0;
  FOR_DIMS(a, {
    if (a->dim[k].sm != b->dim[k].sm)
      return 0;
  });
  return 1;
}

/* The bytes an array spans, as [*lo, *hi). */
AD_INLINE void span(const ad_desc *d, const char **lo, const char **hi) {
  const char *b = (const char *)d->base_addr;
  long first = 0, last = 0;
  FOR_DIMS(d, {
    long reach = (d->dim[k].extent - 1) * d->dim[k].sm;
    if (reach < 0)
      first += reach;
    else
      last += reach;
  });
  *lo = b + first;
  *hi = b + last + (long)d->elem_len;
}

#define COPY(T)                                                                \
  AD_INLINE void copy_##T(const ad_desc *to, const ad_desc *from, long n) {    \
    int tdense = contiguous(to), fdense = contiguous(from);                    \
    for (long i = 0; i < n; ++i)                                               \
      *(T *)element(to, tdense, i) = *(const T *)element(from, fdense, i);     \
  }
COPY(double)
COPY(float)

/* Any other intrinsic type: its bytes, one element at a time. */
AD_INLINE void copyBytes(const ad_desc *to, const ad_desc *from, long n) {
  int tdense = contiguous(to), fdense = contiguous(from);
  size_t len = from->elem_len;
  for (long i = 0; i < n; ++i)
    __builtin_memcpy(element(to, tdense, i), element(from, fdense, i), len);
}

/* A complex element is its real part, then its imaginary part: each is
 * copied as a real (so that derivatives follow), an element at a time
 * (copying 2n reals would take a strided array's elements for its
 * parts). */
#define COPY_COMPLEX(T)                                                        \
  AD_INLINE void copyComplex_##T(const ad_desc *to, const ad_desc *from,       \
                                 long n) {                                     \
    int tdense = contiguous(to), fdense = contiguous(from);                    \
    for (long i = 0; i < n; ++i) {                                             \
      T *t = (T *)element(to, tdense, i);                                      \
      const T *f = (const T *)element(from, fdense, i);                        \
      t[0] = f[0];                                                             \
      t[1] = f[1];                                                             \
    }                                                                          \
  }
COPY_COMPLEX(double)
COPY_COMPLEX(float)

AD_INLINE void copyElements(const ad_desc *to, const ad_desc *from, long n) {
  if (from->type == TypeDouble)
    copy_double(to, from, n);
  else if (from->type == TypeFloat)
    copy_float(to, from, n);
  else if (from->type == TypeDoubleComplex)
    copyComplex_double(to, from, n);
  else if (from->type == TypeFloatComplex)
    copyComplex_float(to, from, n);
  else
    copyBytes(to, from, n);
}

AD_INLINE int assignCovers(const ad_desc *to, const ad_desc *from) {
  if (to->type != from->type || to->elem_len != from->elem_len)
    return 0; /* conversions, character lengths */
  if (from->type == TypeStruct || from->type == TypeChar || from->type < 0)
    return 0; /* components, finalization, polymorphism */
  if ((to->extra | from->extra) & AllocatorIndexMask)
    return 0; /* memory that malloc and free do not manage */
  if (to->attribute == AttributeAllocatable && !to->base_addr)
    return to->rank == from->rank; /* else the runtime's error message */
  return to->rank == from->rank || from->rank == 0;
}

/* to's elements = from's (or from, a scalar, in each): through a
 * temporary where the two overlap and an element could be read after it
 * was written. */
AD_INLINE void assignElements(const ad_desc *to, const ad_desc *from) {
  long n = elements(to);
  if (from->rank == 0) { /* a scalar broadcast to every element */
    ad_runtime_desc one;
    copyDescriptor(&one, to);
    for (long i = 0; i < n; ++i) {
      one.desc.base_addr = (char *)to->base_addr + offset(to, i);
      one.desc.rank = 0;
      copyElements(&one.desc, from, 1);
    }
    return;
  }
  const char *tlo, *thi, *flo, *fhi;
  span(to, &tlo, &thi);
  span(from, &flo, &fhi);
  if (n > 0 && tlo < fhi && flo < thi && !sameLayout(to, from)) {
    ad_runtime_desc temp;
    copyDescriptor(&temp, from);
    long bytes = n * (long)from->elem_len;
    long stride = (long)from->elem_len;
    temp.desc.base_addr = malloc((size_t)bytes);
    FOR_DIMS(from, {
      temp.desc.dim[k].sm = stride;
      stride *= from->dim[k].extent;
    });
    copyElements(&temp.desc, from, n);
    copyElements(to, &temp.desc, n);
    free(temp.desc.base_addr);
    return;
  }
  copyElements(to, from, n);
}

/* to = from, with Fortran's rules: an allocatable left side is
 * (re)allocated to the right side's shape, and an overlap of the two goes
 * through a temporary. */
void __ad_flang_Assign(ad_desc *to, const ad_desc *from, const char *source,
                       int line) {
  if (!assignCovers(to, from)) {
    ad_runtime_desc left, right;
    copyDescriptor(&left, to);
    copyDescriptor(&right, from);
    _FortranAAssign(&left.desc, &right.desc, source, line);
    copyAllocation(to, &left.desc);
    return;
  }
  /* The block a reallocated left side had: the right side may be part of
   * it (a = a(2:n)), so it is freed only after the copy. */
  void *stale = 0;
  if (to->attribute == AttributeAllocatable && from->rank == to->rank) {
    if (to->base_addr && !sameShape(to, from)) {
      stale = to->base_addr;
      to->base_addr = 0;
    }
    if (!to->base_addr) {
      long n = 1;
      FOR_DIMS(to, {
        to->dim[k].lower_bound = from->dim[k].lower_bound;
        to->dim[k].extent = from->dim[k].extent;
        to->dim[k].sm = n * (long)to->elem_len;
        n *= from->dim[k].extent > 0 ? from->dim[k].extent : 0;
      });
      to->base_addr = malloc(n > 0 ? (size_t)n * to->elem_len : 1);
    }
  }
  assignElements(to, from);
  if (stale)
    free(stale);
}

void __ad_flang_AssignTemporary(ad_desc *to, const ad_desc *from,
                                const char *source, int line) {
  __ad_flang_Assign(to, from, source, line);
}

/* ---- Reshaping --------------------------------------------------------- */

void _FortranAReshape(ad_desc *, const ad_desc *, const ad_desc *,
                      const ad_desc *, const ad_desc *, const char *, int);
void _FortranATranspose(ad_desc *, const ad_desc *, const char *, int);

/* Element k of an integer vector of any kind. */
AD_INLINE long integerAt(const ad_desc *v, long k) {
  const char *p = (const char *)v->base_addr + k * v->dim[0].sm;
  switch (v->elem_len) {
  case 1:
    return *(const signed char *)p;
  case 2:
    return *(const short *)p;
  case 8:
    return *(const long *)p;
  default:
    return *(const int *)p;
  }
}

AD_INLINE int copyCovers(const ad_desc *a) {
  return a->type != TypeStruct && a->type != TypeChar && a->type >= 0 &&
         !(a->extra & AllocatorIndexMask);
}

/* RESHAPE(source, shape) without PAD and ORDER: the result's elements are
 * the source's, in array element order. */
void __ad_flang_Reshape(ad_desc *r, const ad_desc *source, const ad_desc *shape,
                        const ad_desc *pad, const ad_desc *order,
                        const char *file, int line) {
  if (pad || order || !copyCovers(source)) {
    ad_runtime_desc result, array;
    copyDescriptor(&result, r);
    copyDescriptor(&array, source);
    _FortranAReshape(&result.desc, &array.desc, shape, pad, order, file, line);
    copyAllocation(r, &result.desc);
    return;
  }
  if (!r->base_addr)
    FOR_DIMS(r, r->dim[k].extent = integerAt(shape, k););
  allocateResult(r, r->rank, source->elem_len, source->type);
  copyElements(r, source, elements(r));
}

/* TRANSPOSE(matrix): a copy of the matrix seen with its dimensions
 * swapped. */
void __ad_flang_Transpose(ad_desc *r, const ad_desc *matrix, const char *file,
                          int line) {
  if (!copyCovers(matrix)) {
    ad_runtime_desc result, array;
    copyDescriptor(&result, r);
    copyDescriptor(&array, matrix);
    _FortranATranspose(&result.desc, &array.desc, file, line);
    copyAllocation(r, &result.desc);
    return;
  }
  ad_runtime_desc swapped;
  copyDescriptor(&swapped, matrix);
  swapped.desc.dim[0] = matrix->dim[1];
  swapped.desc.dim[1] = matrix->dim[0];
  if (!r->base_addr) {
    r->dim[0].extent = swapped.desc.dim[0].extent;
    r->dim[1].extent = swapped.desc.dim[1].extent;
  }
  allocateResult(r, 2, matrix->elem_len, matrix->type);
  copyElements(r, &swapped.desc, elements(r));
}
