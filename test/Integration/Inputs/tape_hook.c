// Counts the tape's reallocations, for tests linked with -Wl,--wrap=realloc:
// how many calls, and the largest size asked for (a reservation or a
// growth), since ad_hook_reset(). Thread-safe.
#include <stddef.h>

void *__real_realloc(void *p, size_t n);

static size_t ad_hook_calls, ad_hook_largest;

void *__wrap_realloc(void *p, size_t n) {
  __atomic_fetch_add(&ad_hook_calls, 1, __ATOMIC_RELAXED);
  size_t seen = __atomic_load_n(&ad_hook_largest, __ATOMIC_RELAXED);
  while (n > seen && !__atomic_compare_exchange_n(&ad_hook_largest, &seen, n, 1,
                                                  __ATOMIC_RELAXED,
                                                  __ATOMIC_RELAXED))
    ;
  return __real_realloc(p, n);
}

void ad_hook_reset(void) {
  __atomic_store_n(&ad_hook_calls, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&ad_hook_largest, 0, __ATOMIC_RELAXED);
}
size_t ad_hook_reallocs(void) { return __atomic_load_n(&ad_hook_calls, __ATOMIC_RELAXED); }
size_t ad_hook_largest_request(void) {
  return __atomic_load_n(&ad_hook_largest, __ATOMIC_RELAXED);
}
