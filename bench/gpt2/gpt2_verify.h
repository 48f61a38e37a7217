/* gpt2_verify.h - checks the GPT-2 gradients (gpt2_verify.c); shared by the
 * gpt2_check program and the benchmark driver, which times nothing unless
 * they pass. */
#ifndef GPT2_VERIFY_H
#define GPT2_VERIFY_H

#include "gpt2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs every check at the given sizes: for each layer and for the whole
 * model, the plugin's gradient against the handwritten one (and, when
 * finite_differences is set, the handwritten one against central finite
 * differences). With verbose, prints one line per buffer compared; failures
 * are printed either way. Returns the number of failed checks. */
int gpt2_verify(const GPT2Config *cfg, int B, int T, int finite_differences,
                int verbose);

#ifdef __cplusplus
}
#endif

#endif /* GPT2_VERIFY_H */
