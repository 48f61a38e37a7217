/* adbench_ad.c - the GMM gradient and the BA Jacobian by the plugin.
 *
 * Compiled by clang-22 -O2 with -fpass-plugin=ADPlugin.so. The plugin needs
 * the bodies of the functions it differentiates, so this file includes
 * gmm.c and ba.c with ADB_API defined as `static`: the copies here are
 * private to this object, and the external definitions the benchmark's
 * objective runs stay in the plainly compiled gmm.o and ba.o. Each wrapper
 * is what a user of the plugin would write: zero the shadows, make one
 * call per gradient (GMM) or per Jacobian row or column (BA).
 */
#define ADB_API static
#include "ba.c"
#include "gmm.c"

#include <ad.h>
#include <string.h>

/* Entry points without an __ad_out argument return nothing. */
void __ad_autodiff_void(void *f, ...);
void __ad_fwddiff_void(void *f, ...);

void gmm_objective_grad_ad(int d, int k, int n, const double *alphas,
                           const double *means, const double *icf,
                           const double *x, double gamma, int m,
                           double *dalphas, double *dmeans, double *dicf) {
  memset(dalphas, 0, sizeof(double) * k);
  memset(dmeans, 0, sizeof(double) * k * d);
  memset(dicf, 0, sizeof(double) * k * gmm_icf_size(d));
  __ad_autodiff_void((void *)gmm_objective, __ad_const, d, __ad_const, k,
                     __ad_const, n, __ad_dup, alphas, dalphas, __ad_dup, means,
                     dmeans, __ad_dup, icf, dicf, __ad_const, x, __ad_const,
                     gamma, __ad_const, m);
}

/* Reverse mode: one sweep per residual, seeded with that residual's unit
 * adjoint; the adjoints of camera, point and weight are the row. */
void ba_jacobian_ad(const BaInput *in, double *reproj_err, double *w_err,
                    double *J, double *Jw) {
  for (int j = 0; j < in->p; j++) {
    const double *cam = &in->cams[in->obs[2 * j] * BA_NCAMPARAMS];
    const double *X = &in->X[in->obs[2 * j + 1] * 3];
    for (int r = 0; r < 2; r++) {
      double *row = &J[(2 * j + r) * BA_NCOLS];
      double derr[2] = {r == 0, r == 1};
      memset(row, 0, sizeof(double) * BA_NCOLS);
      __ad_autodiff_void((void *)ba_reproj_err, __ad_dup, cam, row, __ad_dup, X,
                         row + BA_NCAMPARAMS, __ad_dup, &in->w[j],
                         row + BA_NCOLS - 1, __ad_const, &in->feats[2 * j],
                         __ad_dup, &reproj_err[2 * j], derr);
    }
  }
  for (int j = 0; j < in->p; j++) {
    w_err[j] = ba_weight_err(in->w[j]);
    Jw[j] = __ad_autodiff((void *)ba_weight_err, in->w[j]);
  }
}

/* Forward mode: one sweep per column, seeded with that input's unit
 * tangent; the tangents of the two residuals are the column. */
void ba_jacobian_ad_fwd(const BaInput *in, double *reproj_err, double *w_err,
                        double *J, double *Jw) {
  for (int j = 0; j < in->p; j++) {
    const double *cam = &in->cams[in->obs[2 * j] * BA_NCAMPARAMS];
    const double *X = &in->X[in->obs[2 * j + 1] * 3];
    double *block = &J[2 * j * BA_NCOLS];
    for (int c = 0; c < BA_NCOLS; c++) {
      double seed[BA_NCOLS] = {0}, derr[2];
      seed[c] = 1;
      __ad_fwddiff_void((void *)ba_reproj_err, cam, seed, X,
                        seed + BA_NCAMPARAMS, &in->w[j], seed + BA_NCOLS - 1,
                        __ad_const, &in->feats[2 * j], &reproj_err[2 * j],
                        derr);
      block[c] = derr[0];
      block[BA_NCOLS + c] = derr[1];
    }
  }
  for (int j = 0; j < in->p; j++) {
    w_err[j] = ba_weight_err(in->w[j]);
    Jw[j] = __ad_fwddiff((void *)ba_weight_err, in->w[j], 1.0);
  }
}
