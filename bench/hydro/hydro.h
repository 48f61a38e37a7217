/* hydro.h - a Lagrangian shock-hydrodynamics run in the style of LULESH
 * (hydro.c), and its derivatives by the plugin (hydro_ad.c).
 *
 * The mesh is s x s x s hexahedral elements filling a cube of edge 1.125
 * whose faces x = 0, y = 0 and z = 0 are symmetry planes; a Sedov blast
 * starts from energy deposited in the element at the origin. The parameters
 * are, in order: the initial energy of that element, the ratio of specific
 * heats gamma, then the initial node coordinates x[0..n), y[0..n), z[0..n)
 * with n = (s + 1)^3 nodes (node (i, j, k) is i + (s+1) * (j + (s+1) * k)).
 */
#ifndef HYDRO_H
#define HYDRO_H

/* hydro_ad.c defines HYDRO_API as `static` and includes hydro.c, so that
 * the run it differentiates is its own copy (see bench/gpt2/gpt2.h). */
#ifndef HYDRO_API
#define HYDRO_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Number of parameters for an s x s x s mesh: 2 + 3 (s + 1)^3. */
int hydro_nparams(int s);

/* Fills params with LULESH's Sedov problem scaled to s (initial energy
 * 3.948746e7 (s/45)^3, gamma 5/3) on a uniform mesh whose interior node
 * coordinates are moved by a deterministic jitter of `jitter` element widths
 * (0 gives the uniform mesh; a little jitter breaks the symmetry that would
 * otherwise make the time-step minimum a tie between mirror elements). */
void hydro_init_params(double *params, int s, double jitter);

/* Runs `steps` Lagrangian steps and returns the final specific internal
 * energy (per unit reference volume) of the element at the origin. */
HYDRO_API double hydro_run(const double *params, int s, int steps);

/* hydro_ad.c, by the plugin: the gradient of hydro_run's result with
 * respect to params, added into dparams (reverse mode); and the derivative
 * of the result along the direction dparams (forward mode). */
void hydro_grad_ad(const double *params, double *dparams, int s, int steps);
double hydro_tangent_ad(const double *params, const double *dparams, int s,
                        int steps);

#ifdef __cplusplus
}
#endif

#endif /* HYDRO_H */
