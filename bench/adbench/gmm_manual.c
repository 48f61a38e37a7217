/* gmm_manual.c - the GMM objective's gradient by hand, as ADBench's
 * "Manual" derives it.
 *
 * With xc = x_i - mu_k, y = Q_k xc and main_k = alpha_k + sum(q_k) -
 * |y|^2 / 2, the point's term logsumexp_k(main_k) has derivative p_k =
 * softmax(main)_k by main_k, and
 *
 *   d main_k / d alpha_k   = 1
 *   d main_k / d mu_k      = Q_k^T y
 *   d main_k / d q_kj      = 1 - y_j xc_j exp(q_kj)
 *   d main_k / d L_k[j][i] = -y_j xc_i            (i < j)
 *
 * One pass per point computes every component's xc, y and main_k, then
 * accumulates p_k times these. The term -n logsumexp(alpha) adds
 * -n softmax(alpha), and the prior 1/2 gamma^2 (|exp(q_k)|^2 + |L_k|^2) -
 * m sum(q_k) adds gamma^2 exp(2 q_kj) - m and gamma^2 L_k.
 */
#include "adbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double lse_max(int n, const double *x) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (m < x[i])
      m = x[i];
  return m;
}

static double logsumexp(int n, const double *x) {
  double mx = lse_max(n, x), s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - mx);
  return log(s) + mx;
}

/* y = Q xc, Q = diag(Qdiag) + L (ltri column by column). */
static void q_times(int d, const double *Qdiag, const double *ltri,
                    const double *xc, double *y) {
  for (int i = 0; i < d; i++)
    y[i] = Qdiag[i] * xc[i];
  int L = 0;
  for (int i = 0; i < d; i++)
    for (int j = i + 1; j < d; j++)
      y[j] += ltri[L++] * xc[i];
}

/* Adds p times main_k's derivatives by mu_k and icf_k; tmp has d doubles. */
static void accumulate_component(int d, double p, const double *Qdiag,
                                 const double *ltri, const double *xc,
                                 const double *y, double *dmean, double *dicf,
                                 double *tmp) {
  for (int j = 0; j < d; j++) {
    dicf[j] += p * (1 - Qdiag[j] * xc[j] * y[j]);
    tmp[j] = Qdiag[j] * y[j];
  }
  /* One walk of the triangle gives L's derivative and Q^T y. */
  double *dltri = dicf + d;
  int L = 0;
  for (int i = 0; i < d; i++) {
    double pxc = p * xc[i], qty = tmp[i];
    for (int j = i + 1; j < d; j++, L++) {
      dltri[L] -= pxc * y[j];
      qty += ltri[L] * y[j];
    }
    dmean[i] += p * qty;
  }
}

/* The prior's value and its gradient, added to dicf. */
static double wishart_prior_grad(int d, int k, double gamma, int m,
                                 const double *icf, const double *Qdiags,
                                 const double *sum_qs, double *dicf) {
  int icf_sz = gmm_icf_size(d), n = d + m + 1;
  double g2 = gamma * gamma, out = 0;
  for (int c = 0; c < k; c++) {
    const double *Qdiag = Qdiags + c * d, *ltri = icf + c * icf_sz + d;
    double *dq = dicf + c * icf_sz, frobenius = 0;
    for (int j = 0; j < d; j++) {
      frobenius += Qdiag[j] * Qdiag[j];
      dq[j] += g2 * Qdiag[j] * Qdiag[j] - m;
    }
    for (int L = 0; L < icf_sz - d; L++) {
      frobenius += ltri[L] * ltri[L];
      dq[d + L] += g2 * ltri[L];
    }
    out += 0.5 * g2 * frobenius - m * sum_qs[c];
  }
  double lgd = 0.25 * d * (d - 1) * log(M_PI);
  for (int j = 1; j <= d; j++)
    lgd += lgamma(0.5 * n + 0.5 * (1 - j));
  double C = n * d * (log(gamma) - 0.5 * log(2)) - lgd;
  return out - k * C;
}

double gmm_objective_grad_manual(int d, int k, int n, const double *alphas,
                                 const double *means, const double *icf,
                                 const double *x, double gamma, int m,
                                 double *dalphas, double *dmeans,
                                 double *dicf) {
  int icf_sz = gmm_icf_size(d);
  double *Qdiags = malloc(sizeof(double) * d * k);
  double *sum_qs = malloc(sizeof(double) * k);
  double *xcs = malloc(sizeof(double) * d * k);
  double *ys = malloc(sizeof(double) * d * k);
  double *main_term = malloc(sizeof(double) * k);
  double *tmp = malloc(sizeof(double) * d);
  memset(dalphas, 0, sizeof(double) * k);
  memset(dmeans, 0, sizeof(double) * k * d);
  memset(dicf, 0, sizeof(double) * k * icf_sz);
  for (int c = 0; c < k; c++) {
    sum_qs[c] = 0;
    for (int j = 0; j < d; j++) {
      sum_qs[c] += icf[c * icf_sz + j];
      Qdiags[c * d + j] = exp(icf[c * icf_sz + j]);
    }
  }

  double slse = 0;
  for (int i = 0; i < n; i++) {
    for (int c = 0; c < k; c++) {
      double *xc = xcs + c * d, *y = ys + c * d, sq = 0;
      for (int j = 0; j < d; j++)
        xc[j] = x[i * d + j] - means[c * d + j];
      q_times(d, Qdiags + c * d, icf + c * icf_sz + d, xc, y);
      for (int j = 0; j < d; j++)
        sq += y[j] * y[j];
      main_term[c] = alphas[c] + sum_qs[c] - 0.5 * sq;
    }
    double lse = logsumexp(k, main_term);
    slse += lse;
    for (int c = 0; c < k; c++) {
      double p = exp(main_term[c] - lse);
      dalphas[c] += p;
      accumulate_component(d, p, Qdiags + c * d, icf + c * icf_sz + d,
                           xcs + c * d, ys + c * d, dmeans + c * d,
                           dicf + c * icf_sz, tmp);
    }
  }

  double lse_alphas = logsumexp(k, alphas);
  for (int c = 0; c < k; c++)
    dalphas[c] -= n * exp(alphas[c] - lse_alphas);
  double err = -n * d * 0.5 * log(2 * M_PI) + slse - n * lse_alphas +
               wishart_prior_grad(d, k, gamma, m, icf, Qdiags, sum_qs, dicf);
  free(Qdiags), free(sum_qs), free(xcs), free(ys), free(main_term), free(tmp);
  return err;
}
