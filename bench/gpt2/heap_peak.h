/* heap_peak.h - live and peak heap bytes of this process (heap_peak.c).
 *
 * Linking heap_peak.c into a program replaces its malloc family, so every
 * allocation counts: the program's own, the C++ runtime's, and the tape the
 * plugin's generated code allocates at run time. */
#ifndef HEAP_PEAK_H
#define HEAP_PEAK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes allocated and not yet freed (usable sizes, as malloc_usable_size). */
size_t heap_live_bytes(void);
/* The largest heap_live_bytes() since the last heap_reset_peak(). */
size_t heap_peak_bytes(void);
/* Starts a new peak at the current live size. */
void heap_reset_peak(void);
/* Frees the tape buffer the plugin's run-time keeps for this thread's next
 * gradient (docs/OPTIONS.md, "What the tape keeps between calls"), so that a
 * measurement that starts here counts the tape its gradients hold. */
void heap_forget_tape_cache(void);

#ifdef __cplusplus
}
#endif

#endif /* HEAP_PEAK_H */
