/* forward.c - forward mode: directional derivatives of a damped pendulum
 * simulation, checked against central finite differences.
 *
 * The pendulum  theta'' = -(g/L) sin(theta) - c theta'  is integrated with
 * semi-implicit Euler steps until time t_end. The loop's trip count is only
 * known at run time; forward mode carries tangents through it step by step.
 *
 * Build and run (make demo does this):
 *   clang-22 -O2 -fpass-plugin=build/ADPlugin.so -Iinclude \
 *     examples/forward.c -lm && ./a.out
 */
#include <ad.h>
#include <math.h>
#include <stdio.h>

/* The angle at time t_end, given the stiffness g/L, the damping c and the
 * initial angle and angular velocity. */
static double pendulum(double gl, double c, double theta, double omega,
                       double t_end) {
  const double dt = 1e-3;
  for (double t = 0.0; t < t_end; t += dt) {
    omega += dt * (-gl * sin(theta) - c * omega);
    theta += dt * omega;
  }
  return theta;
}

/* The inputs we differentiate, as a vector p = (g/L, c, theta0, omega0). */
static const double P[4] = {9.81, 0.3, 0.8, -0.5};
static const double T_END = 2.5; /* held constant */

static double at(const double *d, double h) { /* pendulum(P + h d) */
  return pendulum(P[0] + h * d[0], P[1] + h * d[1], P[2] + h * d[2],
                  P[3] + h * d[3], T_END);
}

int main(void) {
  /* Directions d along which we want d/dh pendulum(P + h d) at h = 0. */
  static const double D[][4] = {
      {1, 0, 0, 0}, /* d/d(g/L)   */
      {0, 1, 0, 0}, /* d/dc       */
      {0, 0, 1, 0}, /* d/dtheta0  */
      {0, 0, 0, 1}, /* d/domega0  */
      {0.5, -1, 0.25, 2}, /* a mixed direction: one call, one tangent */
  };
  const int n = sizeof D / sizeof D[0];
  int failures = 0;

  printf("theta(t_end) = %.10g\n", pendulum(P[0], P[1], P[2], P[3], T_END));
  printf("%-26s %16s %16s %12s\n", "direction", "AD tangent", "finite diff",
         "difference");
  for (int k = 0; k < n; ++k) {
    const double *d = D[k];
    /* Forward mode: each double is followed by its tangent (the default
     * marker for a double is __ad_dup); t_end is marked constant. The call
     * returns the tangent of the result. */
    double tangent = __ad_fwddiff((void *)pendulum, P[0], d[0], P[1], d[1],
                                  P[2], d[2], P[3], d[3], __ad_const, T_END);
    double h = 1e-6;
    double fd = (at(d, h) - at(d, -h)) / (2 * h);
    double diff = tangent - fd;
    int bad = fabs(diff) > 1e-5 * fmax(1.0, fabs(fd));
    failures += bad;
    printf("(%5.2f,%5.2f,%5.2f,%5.2f)  %16.10f %16.10f %12.2e%s\n", d[0], d[1],
           d[2], d[3], tangent, fd, diff, bad ? "  MISMATCH" : "");
  }
  printf(failures ? "FAILED: %d mismatches\n" : "all %d directions match\n",
         failures ? failures : n);
  return failures != 0;
}
