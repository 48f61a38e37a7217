// Counts the tape's reallocations, for tests linked with -Wl,--wrap=realloc:
// how many calls, and the largest size asked for (a reservation or a
// growth), since ad_hook_reset(). Thread-safe. And, single-threaded, how
// many bytes a gradient records: ad_hook_fill fills the buffer realloc last
// returned at its largest (the tape's, kept between calls) with a pattern,
// but for its first 8 bytes, where the cache keeps its capacity, and after a
// gradient reused it, ad_hook_high_water finds the last byte that is not the
// pattern.
#include <stddef.h>
#include <string.h>

void *__real_realloc(void *p, size_t n);

static size_t ad_hook_calls, ad_hook_largest;
static unsigned char *ad_hook_buffer;
static size_t ad_hook_buffer_size;

void *__wrap_realloc(void *p, size_t n) {
  __atomic_fetch_add(&ad_hook_calls, 1, __ATOMIC_RELAXED);
  size_t seen = __atomic_load_n(&ad_hook_largest, __ATOMIC_RELAXED);
  while (n > seen && !__atomic_compare_exchange_n(&ad_hook_largest, &seen, n, 1,
                                                  __ATOMIC_RELAXED,
                                                  __ATOMIC_RELAXED))
    ;
  void *r = __real_realloc(p, n);
  if (r && n >= ad_hook_buffer_size)
    ad_hook_buffer = r, ad_hook_buffer_size = n;
  return r;
}

void ad_hook_fill(unsigned char pattern) {
  if (ad_hook_buffer_size > 8)
    memset(ad_hook_buffer + 8, pattern, ad_hook_buffer_size - 8);
}
size_t ad_hook_high_water(unsigned char pattern) {
  size_t n = ad_hook_buffer_size;
  while (n && ad_hook_buffer[n - 1] == pattern)
    n--;
  return n;
}

/* The tape's run-time function that hands a thread's cached buffer to an
 * empty tape (plugin/runtime/TapeRuntime.cpp): taking the buffer and
 * freeing it leaves nothing cached, so the next gradient allocates anew. */
struct ad_hook_tape {
  void *data;
  size_t size, capacity;
};
extern void __ad_tape_take(struct ad_hook_tape *) __attribute__((weak));
void free(void *);

void ad_hook_forget_cache(void) {
  if (__ad_tape_take) {
    struct ad_hook_tape t = {0, 0, 0};
    __ad_tape_take(&t);
    free(t.data);
  }
  ad_hook_buffer = 0;
  ad_hook_buffer_size = 0;
}

void ad_hook_reset(void) {
  __atomic_store_n(&ad_hook_calls, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&ad_hook_largest, 0, __ATOMIC_RELAXED);
}
size_t ad_hook_reallocs(void) { return __atomic_load_n(&ad_hook_calls, __ATOMIC_RELAXED); }
size_t ad_hook_largest_request(void) {
  return __atomic_load_n(&ad_hook_largest, __ATOMIC_RELAXED);
}
