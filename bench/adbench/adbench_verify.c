/* adbench_verify.c - the plugin's derivatives against the handwritten ones,
 * and the handwritten ones against central finite differences.
 *
 * Tolerances, on |a - b| / max(1, |b|) over every entry:
 *   AD against handwritten          1e-10 (both are exact up to rounding)
 *   finite differences (h = 1e-6 max(1, |t|))  1e-6
 *   handwritten objective value against the objective   1e-12
 * The GMM checks use gamma = 1.5, m = 2 rather than ADBench's 1 and 0, so
 * that every term of the prior has a derivative. The BA checks give
 * camera 0 a zero rotation, the branch Rodrigues' formula cannot take.
 */
#include "adbench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double kAdTol = 1e-10, kFdTol = 1e-6, kValueTol = 1e-12;

static double rel_diff(const double *a, const double *b, size_t n) {
  double worst = 0;
  for (size_t i = 0; i < n; i++) {
    double e = fabs(a[i] - b[i]) / fmax(1, fabs(b[i]));
    if (!(e <= worst)) /* NaN counts as the worst */
      worst = isnan(e) ? INFINITY : e;
  }
  return worst;
}

static int report(const char *what, const char *problem, double err, double tol,
                  int verbose) {
  int ok = err <= tol;
  if (verbose || !ok)
    printf("%s %s: max rel diff %.3g (tol %g)%s\n", what, problem, err, tol,
           ok ? "" : " FAILED");
  return !ok;
}

static double step(double t) { return 1e-6 * fmax(1, fabs(t)); }

/* ---- GMM ---- */

static double gmm_value(const GmmInput *g) {
  return gmm_objective(g->d, g->k, g->n, g->alphas, g->means, g->icf, g->x,
                       g->gamma, g->m);
}

/* The i-th parameter, in the gradient's order: alphas, means, icf. */
static double *gmm_param(GmmInput *g, size_t i) {
  size_t nm = (size_t)g->k * g->d;
  if (i < (size_t)g->k)
    return &g->alphas[i];
  if (i < g->k + nm)
    return &g->means[i - g->k];
  return &g->icf[i - g->k - nm];
}

int adbench_verify_gmm(int d, int k, int n, int fd, int verbose) {
  GmmInput g;
  gmm_input_make(&g, d, k, n, 1000 + 31 * d + k);
  g.gamma = 1.5, g.m = 2;
  size_t na = k, nm = (size_t)k * d, P = na + nm + (size_t)k * gmm_icf_size(d);
  double *man = malloc(sizeof(double) * P), *ad = malloc(sizeof(double) * P);
  double value =
      gmm_objective_grad_manual(d, k, n, g.alphas, g.means, g.icf, g.x, g.gamma,
                                g.m, man, man + na, man + na + nm);
  gmm_objective_grad_ad(d, k, n, g.alphas, g.means, g.icf, g.x, g.gamma, g.m,
                        ad, ad + na, ad + na + nm);
  char problem[64];
  snprintf(problem, sizeof problem, "gmm d=%d k=%d n=%d", d, k, n);
  double f = gmm_value(&g);
  int failures =
      report("value", problem, rel_diff(&value, &f, 1), kValueTol, verbose);
  failures += report("ad", problem, rel_diff(ad, man, P), kAdTol, verbose);
  if (fd) {
    double *num = malloc(sizeof(double) * P);
    for (size_t i = 0; i < P; i++) {
      double *t = gmm_param(&g, i), t0 = *t, h = step(t0);
      *t = t0 + h;
      double up = gmm_value(&g);
      *t = t0 - h;
      double down = gmm_value(&g);
      *t = t0;
      num[i] = (up - down) / (2 * h);
    }
    failures += report("fd", problem, rel_diff(man, num, P), kFdTol, verbose);
    free(num);
  }
  free(man), free(ad);
  gmm_input_free(&g);
  return failures;
}

/* ---- BA ---- */

/* Central differences of observation j's residuals by its 15 inputs. */
static void ba_fd_block(const BaInput *in, int j, double *block) {
  double v[BA_NCOLS];
  memcpy(v, &in->cams[in->obs[2 * j] * BA_NCAMPARAMS],
         sizeof(double) * BA_NCAMPARAMS);
  memcpy(v + BA_NCAMPARAMS, &in->X[in->obs[2 * j + 1] * 3], sizeof(double) * 3);
  v[BA_NCOLS - 1] = in->w[j];
  for (int c = 0; c < BA_NCOLS; c++) {
    double t0 = v[c], h = step(t0), up[2], down[2];
    v[c] = t0 + h;
    ba_reproj_err(v, v + BA_NCAMPARAMS, v + BA_NCOLS - 1, &in->feats[2 * j],
                  up);
    v[c] = t0 - h;
    ba_reproj_err(v, v + BA_NCAMPARAMS, v + BA_NCOLS - 1, &in->feats[2 * j],
                  down);
    v[c] = t0;
    for (int r = 0; r < 2; r++)
      block[r * BA_NCOLS + c] = (up[r] - down[r]) / (2 * h);
  }
}

typedef void (*BaJacobian)(const BaInput *, double *, double *, double *,
                           double *);

/* One Jacobian against the handwritten one (J, Jw) and the residuals. */
static int ba_check(const char *what, const char *problem, BaJacobian jac,
                    const BaInput *in, const double *err, const double *werr,
                    const double *J, const double *Jw, int verbose) {
  size_t p = in->p, nJ = p * 2 * BA_NCOLS;
  double *e = malloc(sizeof(double) * (3 * p + nJ + p));
  double *we = e + 2 * p, *Jx = we + p, *Jwx = Jx + nJ;
  jac(in, e, we, Jx, Jwx);
  double worst = fmax(rel_diff(e, err, 2 * p), rel_diff(we, werr, p));
  worst = fmax(worst, fmax(rel_diff(Jx, J, nJ), rel_diff(Jwx, Jw, p)));
  free(e);
  return report(what, problem, worst, kAdTol, verbose);
}

int adbench_verify_ba(int ncams, int npts, int nobs, int fd, int verbose) {
  BaInput in;
  ba_input_make(&in, ncams, npts, nobs, 2000 + ncams + npts + nobs);
  memset(&in.cams[BA_ROT], 0, 3 * sizeof(double));
  size_t p = nobs, nJ = p * 2 * BA_NCOLS;
  double *err = malloc(sizeof(double) * (3 * p + nJ + p + 3 * p));
  double *werr = err + 2 * p, *J = werr + p, *Jw = J + nJ;
  double *oerr = Jw + p, *owerr = oerr + 2 * p;
  ba_jacobian_manual(&in, err, werr, J, Jw);
  ba_objective(&in, oerr, owerr);
  char problem[64];
  snprintf(problem, sizeof problem, "ba n=%d m=%d p=%d", ncams, npts, nobs);
  double value_err = fmax(rel_diff(err, oerr, 2 * p), rel_diff(werr, owerr, p));
  int failures = report("value", problem, value_err, kValueTol, verbose);
  failures +=
      ba_check("ad", problem, ba_jacobian_ad, &in, oerr, owerr, J, Jw, verbose);
  failures += ba_check("ad-fwd", problem, ba_jacobian_ad_fwd, &in, oerr, owerr,
                       J, Jw, verbose);
  if (fd) {
    double *num = malloc(sizeof(double) * (nJ + p)), worst;
    for (int j = 0; j < nobs; j++) {
      ba_fd_block(&in, j, &num[2 * j * BA_NCOLS]);
      double w = in.w[j], h = step(w);
      num[nJ + j] = (ba_weight_err(w + h) - ba_weight_err(w - h)) / (2 * h);
    }
    worst = fmax(rel_diff(J, num, nJ), rel_diff(Jw, num + nJ, p));
    failures += report("fd", problem, worst, kFdTol, verbose);
    free(num);
  }
  free(err);
  ba_input_free(&in);
  return failures;
}
