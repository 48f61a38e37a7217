/* checkpoint_ad.c - the gradients of the Burgers and heat runs by the
 * plugin (checkpoint.h).
 *
 * Compiled by clang-22 -O2 with -fpass-plugin=ADPlugin.so. It includes
 * burgers.c and heat2d.c with CKPT_API defined as `static`, so the runs
 * differentiated here are private copies of the same source text as the
 * plain burgers.o and heat2d.o that the primal timings call.
 *
 * The tape budget (AD_TAPE_BUDGET, read by the plugin's run-time when the
 * gradient runs) is the caller's business: checkpoint_main.cpp and
 * checkpoint_check.c set it.
 */
#define CKPT_API static
#include "burgers.c"
#include "heat2d.c"

#include <ad.h>

/* No __ad_out argument: the reverse call returns nothing. */
void __ad_autodiff_void(void *f, ...);

void burgers_grad_ad(const burgers_problem *p, double *u, double *du,
                     double *un, double *dun) {
  __ad_autodiff_void((void *)burgers, __ad_dup, u, du, __ad_dup, un, dun,
                     __ad_const, p->n, __ad_const, p->steps, __ad_const, p->dt,
                     __ad_const, p->dx, __ad_const, p->nu);
}

void heat2d_grad_ad(const heat2d_problem *p, double *u, double *du, double *un,
                    double *dun) {
  __ad_autodiff_void((void *)heat2d, __ad_dup, u, du, __ad_dup, un, dun,
                     __ad_const, p->nx, __ad_const, p->ny, __ad_const, p->steps,
                     __ad_const, p->dt, __ad_const, p->h, __ad_const, p->kappa,
                     __ad_const, p->rate);
}
