/* ba.c - bundle adjustment residuals in ADBench's formulation.
 *
 * An observation of point X by a camera: X moved to the camera's frame
 * (subtract the center, rotate by the Rodrigues vector), projected onto
 * the plane z = 1, distorted radially (1 + k1 r^2 + k2 r^4), scaled by the
 * focal length and shifted by the principal point; the residual is the
 * observation's weight times the difference from the measured feature. Each
 * weight also has the residual 1 - w^2.
 *
 * adbench_ad.c includes this file with ADB_API defined as `static`.
 */
#include "adbench.h"

#include <math.h>

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Rotates X by the angle |rot| about rot (Rodrigues' formula); a zero
 * vector takes the first-order form, exact there. */
static void rodrigues_rotate_point(const double *rot, const double *X,
                                   double *out) {
  double sqtheta = dot3(rot, rot);
  if (sqtheta != 0) {
    double theta = sqrt(sqtheta), costheta = cos(theta), sintheta = sin(theta),
           theta_inverse = 1.0 / theta;
    double w[3] = {rot[0] * theta_inverse, rot[1] * theta_inverse,
                   rot[2] * theta_inverse};
    double w_cross_X[3];
    cross3(w, X, w_cross_X);
    double tmp = dot3(w, X) * (1 - costheta);
    for (int i = 0; i < 3; i++)
      out[i] = X[i] * costheta + w_cross_X[i] * sintheta + w[i] * tmp;
  } else {
    double rot_cross_X[3];
    cross3(rot, X, rot_cross_X);
    for (int i = 0; i < 3; i++)
      out[i] = X[i] + rot_cross_X[i];
  }
}

static void radial_distort(const double *rad_params, double *proj) {
  double rsq = proj[0] * proj[0] + proj[1] * proj[1];
  double L = 1 + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
  proj[0] *= L;
  proj[1] *= L;
}

static void project(const double *cam, const double *X, double *proj) {
  double Xo[3], Xcam[3];
  for (int i = 0; i < 3; i++)
    Xo[i] = X[i] - cam[BA_C + i];
  rodrigues_rotate_point(&cam[BA_ROT], Xo, Xcam);
  proj[0] = Xcam[0] / Xcam[2];
  proj[1] = Xcam[1] / Xcam[2];
  radial_distort(&cam[BA_RAD], proj);
  proj[0] = proj[0] * cam[BA_F] + cam[BA_X0];
  proj[1] = proj[1] * cam[BA_F] + cam[BA_X0 + 1];
}

ADB_API void ba_reproj_err(const double *cam, const double *X, const double *w,
                           const double *feat, double *err) {
  double proj[2];
  project(cam, X, proj);
  err[0] = w[0] * (proj[0] - feat[0]);
  err[1] = w[0] * (proj[1] - feat[1]);
}

ADB_API double ba_weight_err(double w) { return 1 - w * w; }

/* Not differentiated; adbench_ad.c's copy goes unused. */
ADB_API __attribute__((unused)) void
ba_objective(const BaInput *in, double *reproj_err, double *w_err) {
  for (int j = 0; j < in->p; j++) {
    const double *cam = &in->cams[in->obs[2 * j] * BA_NCAMPARAMS];
    const double *X = &in->X[in->obs[2 * j + 1] * 3];
    ba_reproj_err(cam, X, &in->w[j], &in->feats[2 * j], &reproj_err[2 * j]);
  }
  for (int j = 0; j < in->p; j++)
    w_err[j] = ba_weight_err(in->w[j]);
}
