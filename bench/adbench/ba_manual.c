/* ba_manual.c - the bundle adjustment Jacobian by hand.
 *
 * With Xo = X - C, Y = R(rot) Xo, p = (Y0, Y1) / Y2, rsq = |p|^2,
 * dist = (1 + k1 rsq + k2 rsq^2) p and proj = f dist + x0, the residual
 * err = w (proj - feat) has
 *
 *   d err / d(rot, C, X) = w f (d dist / d p) (d p / d Y) (d Y / d(rot, Xo))
 *   d err / d f = w dist, d err / d x0 = w I,
 *   d err / d k1 = w f rsq p, d err / d k2 = w f rsq^2 p,
 *   d err / d w = proj - feat,
 *
 * where, for theta = |rot| and u = rot / theta (Rodrigues' formula
 * Y = Xo cos + (u x Xo) sin + u (u.Xo)(1 - cos)),
 *
 *   d Y / d Xo  = R = cos I + sin [u]x + (1 - cos) u u^T
 *   d Y / d rot = a u^T + (-sin [Xo]x + (1 - cos)((u.Xo) I + u Xo^T))
 *                 (I - u u^T) / theta,
 *   a = -sin Xo + cos (u x Xo) + sin (u.Xo) u,
 *
 * and at rot = 0 (Y = Xo + rot x Xo) R = I + [rot]x, d Y / d rot = -[Xo]x.
 */
#include "adbench.h"

#include <math.h>

/* [v]x, the matrix of v x (.). */
static void skew(const double *v, double S[3][3]) {
  S[0][0] = 0, S[0][1] = -v[2], S[0][2] = v[1];
  S[1][0] = v[2], S[1][1] = 0, S[1][2] = -v[0];
  S[2][0] = -v[1], S[2][1] = v[0], S[2][2] = 0;
}

/* Y = R(rot) Xo, with dY/dXo (R) and dY/drot (Jr). */
static void rotate_with_jacobian(const double *rot, const double *Xo, double *Y,
                                 double R[3][3], double Jr[3][3]) {
  double sqtheta = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  double Sx[3][3];
  skew(Xo, Sx);
  if (sqtheta == 0) {
    double Sr[3][3];
    skew(rot, Sr);
    for (int i = 0; i < 3; i++) {
      Y[i] = Xo[i];
      for (int j = 0; j < 3; j++) {
        R[i][j] = (i == j) + Sr[i][j];
        Jr[i][j] = -Sx[i][j];
        Y[i] += Sr[i][j] * Xo[j];
      }
    }
    return;
  }
  double theta = sqrt(sqtheta), c = cos(theta), s = sin(theta);
  double u[3] = {rot[0] / theta, rot[1] / theta, rot[2] / theta};
  double Su[3][3];
  skew(u, Su);
  double uXo = u[0] * Xo[0] + u[1] * Xo[1] + u[2] * Xo[2];
  double uxX[3] = {u[1] * Xo[2] - u[2] * Xo[1], u[2] * Xo[0] - u[0] * Xo[2],
                   u[0] * Xo[1] - u[1] * Xo[0]};
  double a[3], B[3][3], P[3][3];
  for (int i = 0; i < 3; i++) {
    Y[i] = Xo[i] * c + uxX[i] * s + u[i] * uXo * (1 - c);
    a[i] = -s * Xo[i] + c * uxX[i] + s * uXo * u[i];
    for (int j = 0; j < 3; j++) {
      R[i][j] = c * (i == j) + s * Su[i][j] + (1 - c) * u[i] * u[j];
      B[i][j] = -s * Sx[i][j] + (1 - c) * (uXo * (i == j) + u[i] * Xo[j]);
      P[i][j] = ((i == j) - u[i] * u[j]) / theta;
    }
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      Jr[i][j] = a[i] * u[j] + B[i][0] * P[0][j] + B[i][1] * P[1][j] +
                 B[i][2] * P[2][j];
}

/* One observation: err (2) and its 2 x BA_NCOLS block J. */
static void reproj_jacobian(const double *cam, const double *X, double w,
                            const double *feat, double *err, double *J) {
  double Xo[3] = {X[0] - cam[BA_C], X[1] - cam[BA_C + 1], X[2] - cam[BA_C + 2]};
  double Y[3], R[3][3], Jr[3][3];
  rotate_with_jacobian(&cam[BA_ROT], Xo, Y, R, Jr);
  double iz = 1 / Y[2];
  double p[2] = {Y[0] * iz, Y[1] * iz};
  double k1 = cam[BA_RAD], k2 = cam[BA_RAD + 1], f = cam[BA_F];
  double rsq = p[0] * p[0] + p[1] * p[1];
  double L = 1 + k1 * rsq + k2 * rsq * rsq, dL = 2 * (k1 + 2 * k2 * rsq);
  /* M = w f (d dist / d p) (d p / d Y), 2 x 3. */
  double Pj[2][3] = {{iz, 0, -p[0] * iz}, {0, iz, -p[1] * iz}};
  double M[2][3];
  for (int r = 0; r < 2; r++)
    for (int j = 0; j < 3; j++)
      M[r][j] =
          w * f *
          (L * Pj[r][j] + dL * p[r] * (p[0] * Pj[0][j] + p[1] * Pj[1][j]));
  for (int r = 0; r < 2; r++) {
    double *row = J + r * BA_NCOLS, dist = L * p[r];
    for (int j = 0; j < 3; j++) {
      double mr = 0, mj = 0;
      for (int i = 0; i < 3; i++)
        mr += M[r][i] * R[i][j], mj += M[r][i] * Jr[i][j];
      row[BA_ROT + j] = mj;
      row[BA_C + j] = -mr;
      row[BA_NCAMPARAMS + j] = mr;
    }
    row[BA_F] = w * dist;
    row[BA_X0] = w * (r == 0), row[BA_X0 + 1] = w * (r == 1);
    row[BA_RAD] = w * f * rsq * p[r];
    row[BA_RAD + 1] = w * f * rsq * rsq * p[r];
    double proj = f * dist + cam[BA_X0 + r];
    row[BA_NCOLS - 1] = proj - feat[r];
    err[r] = w * (proj - feat[r]);
  }
}

void ba_jacobian_manual(const BaInput *in, double *reproj_err, double *w_err,
                        double *J, double *Jw) {
  for (int j = 0; j < in->p; j++) {
    const double *cam = &in->cams[in->obs[2 * j] * BA_NCAMPARAMS];
    const double *X = &in->X[in->obs[2 * j + 1] * 3];
    reproj_jacobian(cam, X, in->w[j], &in->feats[2 * j], &reproj_err[2 * j],
                    &J[2 * j * BA_NCOLS]);
  }
  for (int j = 0; j < in->p; j++) {
    w_err[j] = 1 - in->w[j] * in->w[j];
    Jw[j] = -2 * in->w[j];
  }
}
