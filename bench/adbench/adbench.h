/* adbench.h - GMM and bundle adjustment in ADBench's formulation (Srajer,
 * Fitzgibbon, Sanderson 2018), each with a handwritten derivative and the
 * plugin's.
 *
 * gmm.c and ba.c are the objectives. They are compiled twice from the same
 * text: plainly (gmm.o, ba.o: the objective the benchmark times and the
 * handwritten code calls nothing from it) and inside adbench_ad.c, which the
 * plugin differentiates. gmm_manual.c and ba_manual.c are the handwritten
 * derivatives, compiled plainly with the same clang-22 -O2.
 */
#ifndef ADBENCH_H
#define ADBENCH_H

#include <stddef.h>
#include <stdint.h>

/* The objectives are declared with ADB_API: adbench_ad.c defines it as
 * `static` and #includes gmm.c and ba.c, so that the plugin sees their
 * bodies while the one external definition stays in gmm.o and ba.o. */
#ifndef ADB_API
#define ADB_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- GMM ----
 * n points x (n x d, row-major), k components: weights alphas (k), means
 * (k x d) and icf (k x d(d+1)/2): per component d log-diagonal entries of
 * the inverse covariance factor Q, then its strictly lower triangle column
 * by column. The Wishart prior has parameters gamma and m. */
typedef struct {
  int d, k, n;
  double *alphas, *means, *icf, *x;
  double gamma;
  int m;
} GmmInput;

static inline int gmm_icf_size(int d) { return d * (d + 1) / 2; }

/* The log-likelihood plus the log Wishart prior (gmm.c). */
ADB_API double gmm_objective(int d, int k, int n, const double *alphas,
                             const double *means, const double *icf,
                             const double *x, double gamma, int m);
/* The same objective, returned, and its gradient, written (not added) to
 * dalphas (k), dmeans (k x d), dicf (k x icf size) (gmm_manual.c). */
double gmm_objective_grad_manual(int d, int k, int n, const double *alphas,
                                 const double *means, const double *icf,
                                 const double *x, double gamma, int m,
                                 double *dalphas, double *dmeans, double *dicf);
/* The plugin's gradient of gmm_objective, written as above (adbench_ad.c). */
void gmm_objective_grad_ad(int d, int k, int n, const double *alphas,
                           const double *means, const double *icf,
                           const double *x, double gamma, int m,
                           double *dalphas, double *dmeans, double *dicf);

/* ---- Bundle adjustment ----
 * n cameras of BA_NCAMPARAMS (rotation as a Rodrigues vector, center, focal
 * length, principal point, two radial distortion coefficients), m points of
 * 3, p observations: obs[2j] the camera, obs[2j+1] the point, feats[2j..]
 * the measured projection, w[j] its weight. */
enum {
  BA_ROT = 0,
  BA_C = 3,
  BA_F = 6,
  BA_X0 = 7,
  BA_RAD = 9,
  BA_NCAMPARAMS = 11,
  /* Columns of one observation's Jacobian block: the camera, the point, w. */
  BA_NCOLS = BA_NCAMPARAMS + 3 + 1,
};

typedef struct {
  int n, m, p;
  double *cams, *X, *w, *feats;
  int *obs;
} BaInput;

/* err = w * (projection of X by cam - feat), two residuals (ba.c). */
ADB_API void ba_reproj_err(const double *cam, const double *X, const double *w,
                           const double *feat, double *err);
/* 1 - w^2, the weight's residual (ba.c). */
ADB_API double ba_weight_err(double w);
/* Every residual: reproj_err (p x 2), w_err (p) (ba.c). */
ADB_API void ba_objective(const BaInput *in, double *reproj_err, double *w_err);

/* The residuals and their Jacobian: J (p x 2 x BA_NCOLS, row-major: the
 * observation's two rows, columns camera, point, weight) and Jw (p), the
 * derivative of w_err[j] by w[j]. Handwritten (ba_manual.c), by the
 * plugin's reverse mode, one sweep per residual row, and by its forward
 * mode, one sweep per column (adbench_ad.c). */
void ba_jacobian_manual(const BaInput *in, double *reproj_err, double *w_err,
                        double *J, double *Jw);
void ba_jacobian_ad(const BaInput *in, double *reproj_err, double *w_err,
                    double *J, double *Jw);
void ba_jacobian_ad_fwd(const BaInput *in, double *reproj_err, double *w_err,
                        double *J, double *Jw);

/* ---- Inputs (adbench_data.c): deterministic from the seed ---- */
void gmm_input_make(GmmInput *in, int d, int k, int n, uint64_t seed);
void gmm_input_free(GmmInput *in);
void ba_input_make(BaInput *in, int n, int m, int p, uint64_t seed);
void ba_input_free(BaInput *in);

/* ---- Checks (adbench_verify.c): the number of failures ---- */
/* The plugin's gradient against the handwritten one, and (fd != 0) both
 * against central finite differences of the objective. */
int adbench_verify_gmm(int d, int k, int n, int fd, int verbose);
int adbench_verify_ba(int ncams, int npts, int nobs, int fd, int verbose);

#ifdef __cplusplus
}
#endif

#endif /* ADBENCH_H */
