/* hydro_ad.c - derivatives of the hydro run by the plugin.
 *
 * Compiled by clang-22 with -fpass-plugin=ADPlugin.so. It includes hydro.c
 * with HYDRO_API defined as `static`, so the run differentiated here is a
 * private copy from the same source text as the plain hydro.o that the
 * primal timings and the finite differences call.
 */
#define HYDRO_API static
#include "hydro.c"

#include <ad.h>

/* No __ad_out argument: the reverse call returns nothing. */
void __ad_autodiff_void(void *f, ...);

void hydro_grad_ad(const double *params, double *dparams, int s, int steps) {
  __ad_autodiff_void((void *)hydro_run, __ad_dup, params, dparams, __ad_const,
                     s, __ad_const, steps);
}

double hydro_tangent_ad(const double *params, const double *dparams, int s,
                        int steps) {
  return __ad_fwddiff((void *)hydro_run, __ad_dup, params, dparams, __ad_const,
                      s, __ad_const, steps);
}
