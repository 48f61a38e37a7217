/* checkpoint.h - long explicit time loops whose reverse-mode gradients need
 * either the whole history of the state or checkpointing (bench/checkpoint).
 *
 *   burgers.c   1-D viscous Burgers, periodic, n cells
 *   heat2d.c    2-D heat equation with a logistic source, periodic, nx x ny
 *
 * Each run steps an explicit scheme `steps` times between two buffers that
 * swap by pointer (u holds the initial state, un is a work buffer; both are
 * overwritten, and the final state is in u or un by the parity of steps) and
 * returns the sum of squares of the final state. The gradients are with
 * respect to the initial state u:
 *
 *   *_grad_ad      by the plugin (checkpoint_ad.c, which includes burgers.c
 *                  and heat2d.c as static code): __ad_autodiff with u and un
 *                  both __ad_dup (the loop writes both)
 *   *_grad_manual  handwritten (checkpoint_manual.c): the forward stores the
 *                  state before every step (steps x state bytes), the reverse
 *                  applies each step's transposed Jacobian
 *
 * Both add the gradient into du (+=) and leave u and un as the primal run
 * leaves them; the AD ones also add into dun, whose content on entry is the
 * adjoint of un's final content (zero for the loss alone).
 */
#ifndef CHECKPOINT_H
#define CHECKPOINT_H

#include <stddef.h>

/* checkpoint_ad.c defines CKPT_API as `static` and includes the primal
 * sources, so that what it differentiates is its own copy of the same text
 * as the plain burgers.o and heat2d.o (see bench/hydro/hydro.h). */
#ifndef CKPT_API
#define CKPT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* u_t + u u_x = nu u_xx on [0, 1) with n cells of width dx, forward Euler
 * with central differences:
 *   b[i] = a[i] - dt a[i] (a[i+1] - a[i-1]) / (2 dx)
 *               + nu dt (a[i+1] - 2 a[i] + a[i-1]) / dx^2.
 * n >= 3. Returns sum over i of u_final[i]^2. */
CKPT_API double burgers(double *u, double *un, int n, int steps, double dt,
                        double dx, double nu);

/* u_t = kappa lap(u) + rate u (1 - u) on an nx x ny periodic grid of
 * spacing h (cell (i, j) at u[i + nx j]), forward Euler with the 5-point
 * Laplacian. nx, ny >= 3. Returns sum of u_final^2. */
CKPT_API double heat2d(double *u, double *un, int nx, int ny, int steps,
                       double dt, double h, double kappa, double rate);

/* Problem parameters (checkpoint_params.c), stable for every size: */
typedef struct {
  int n, steps;
  double dt, dx, nu;
} burgers_problem;
typedef struct {
  int nx, ny, steps;
  double dt, h, kappa, rate;
} heat2d_problem;

/* dx = 1/n, nu = dx (cell Reynolds number |u| dx / nu <= 1 for |u| < 1),
 * dt = 0.2 dx^2 / nu (diffusion number 0.2, Courant number 0.2 |u|). */
burgers_problem burgers_make(int n, int steps);
/* u0(x) = 0.5 + 0.25 sin(2 pi x) + 0.1 sin(6 pi x + 1), in (0.15, 0.85). */
void burgers_init(const burgers_problem *p, double *u);
/* h = 1/nx, kappa = 1, dt = 0.2 h^2 / kappa (diffusion number 0.2), rate
 * with rate dt = 1e-4. */
heat2d_problem heat2d_make(int nx, int ny, int steps);
/* u0 = 0.5 + 0.3 sin(2 pi x) cos(2 pi y) + 0.1 sin(6 pi (x + y)). */
void heat2d_init(const heat2d_problem *p, double *u);

/* The primal of a problem: runs it on u (initial state) and un (work). */
double burgers_run(const burgers_problem *p, double *u, double *un);
double heat2d_run(const heat2d_problem *p, double *u, double *un);

/* checkpoint_ad.c: the plugin's gradients (see above). */
void burgers_grad_ad(const burgers_problem *p, double *u, double *du,
                     double *un, double *dun);
void heat2d_grad_ad(const heat2d_problem *p, double *u, double *du, double *un,
                    double *dun);

/* checkpoint_manual.c: the handwritten adjoints; return the loss. */
double burgers_grad_manual(const burgers_problem *p, double *u, double *du,
                           double *un);
double heat2d_grad_manual(const heat2d_problem *p, double *u, double *du,
                          double *un);

#ifdef __cplusplus
}
#endif

#endif /* CHECKPOINT_H */
