/* heap_peak.c - counts heap bytes by replacing the malloc family.
 *
 * A program that defines malloc, free, calloc, realloc and the aligned
 * allocators replaces glibc's everywhere, including inside libc and the C++
 * runtime (glibc documents this as "Replacing malloc"). Each replacement
 * forwards to glibc's own allocator through its __libc_* entry points and
 * adjusts a live-byte count by malloc_usable_size of the block; a peak
 * follows the count. Both are atomics, so concurrent threads cannot lose an
 * update, though a peak reset races with allocations made meanwhile.
 */
#define _GNU_SOURCE
#include "heap_peak.h"

#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdint.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static _Atomic size_t live_bytes;
static _Atomic size_t peak_bytes;

static void raise_peak(size_t candidate) {
  size_t peak = atomic_load_explicit(&peak_bytes, memory_order_relaxed);
  while (candidate > peak && !atomic_compare_exchange_weak_explicit(
                                 &peak_bytes, &peak, candidate,
                                 memory_order_relaxed, memory_order_relaxed)) {
  }
}

static void *count_new(void *ptr) {
  if (ptr) {
    size_t size = malloc_usable_size(ptr);
    raise_peak(
        atomic_fetch_add_explicit(&live_bytes, size, memory_order_relaxed) +
        size);
  }
  return ptr;
}

static void count_gone(size_t size) {
  atomic_fetch_sub_explicit(&live_bytes, size, memory_order_relaxed);
}

size_t heap_live_bytes(void) {
  return atomic_load_explicit(&live_bytes, memory_order_relaxed);
}

size_t heap_peak_bytes(void) {
  return atomic_load_explicit(&peak_bytes, memory_order_relaxed);
}

void heap_reset_peak(void) {
  atomic_store_explicit(&peak_bytes, heap_live_bytes(), memory_order_relaxed);
}

void *malloc(size_t size) { return count_new(__libc_malloc(size)); }

void *calloc(size_t count, size_t size) {
  return count_new(__libc_calloc(count, size));
}

void free(void *ptr) {
  if (ptr)
    count_gone(malloc_usable_size(ptr));
  __libc_free(ptr);
}

/* A block that moves exists twice for a moment, so the new block counts
 * before the old one is taken off; one resized in place only changes size.
 * (glibc moves a block it got from mmap with mremap, without copying, so for
 * those the count overstates the resident peak.) realloc(ptr, 0) frees ptr
 * and returns NULL; a failed realloc leaves ptr as it was. */
void *realloc(void *ptr, size_t size) {
  size_t old_size = ptr ? malloc_usable_size(ptr) : 0;
  void *moved = __libc_realloc(ptr, size);
  if (moved == ptr && ptr) {
    size_t new_size = malloc_usable_size(moved);
    if (new_size >= old_size)
      raise_peak(atomic_fetch_add_explicit(&live_bytes, new_size - old_size,
                                           memory_order_relaxed) +
                 new_size - old_size);
    else
      count_gone(old_size - new_size);
  } else if (moved) {
    count_new(moved);
    count_gone(old_size);
  } else if (ptr && size == 0) {
    count_gone(old_size);
  }
  return moved;
}

void *reallocarray(void *ptr, size_t count, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    errno = ENOMEM;
    return NULL;
  }
  return realloc(ptr, bytes);
}

void *memalign(size_t alignment, size_t size) {
  return count_new(__libc_memalign(alignment, size));
}

void *aligned_alloc(size_t alignment, size_t size) {
  return memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0)
    return EINVAL;
  void *ptr = memalign(alignment, size);
  if (!ptr)
    return ENOMEM;
  *out = ptr;
  return 0;
}

void *valloc(size_t size) { return count_new(__libc_valloc(size)); }

void *pvalloc(size_t size) { return count_new(__libc_pvalloc(size)); }

/* The tape's run-time function that hands a thread's cached buffer to an
 * empty tape (plugin/runtime/TapeRuntime.cpp); weak: absent where no
 * gradient was linked in. */
struct heap_peak_tape {
  void *data;
  size_t size, capacity;
};
extern void __ad_tape_take(struct heap_peak_tape *) __attribute__((weak));

static void forget_own_tape_cache(void) {
  struct heap_peak_tape t = {0, 0, 0};
  __ad_tape_take(&t);
  free(t.data);
}

/* Built with -fopenmp (gpt2_bench_omp), every thread of the OpenMP team
 * keeps a cache of its own for the tapes it records inside parallel
 * regions, so each one empties its own; libomp reuses the team's threads
 * from one region to the next. */
void heap_forget_tape_cache(void) {
  if (!__ad_tape_take)
    return;
#ifdef _OPENMP
#pragma omp parallel
#endif
  forget_own_tape_cache();
}
