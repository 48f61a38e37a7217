/* gmm.c - the Gaussian mixture objective in ADBench's formulation.
 *
 * For points x_i and components k with weights alpha_k, means mu_k and
 * inverse covariance factors Q_k = exp(diag(q_k)) + L_k (L_k strictly lower
 * triangular):
 *
 *   sum_i logsumexp_k(alpha_k + sum(q_k) - 1/2 |Q_k (x_i - mu_k)|^2)
 *     - n logsumexp(alpha) - n d/2 log(2 pi) + log Wishart prior(gamma, m)
 *
 * written as ADBench's C++ reference writes it: helpers over raw arrays,
 * scratch buffers allocated per call, and Q_k (x_i - mu_k) computed by
 * walking the lower triangle with a running index (Qtimesx), the access
 * pattern whose taping the benchmark is meant to show.
 *
 * adbench_ad.c includes this file with ADB_API defined as `static`.
 */
#include "adbench.h"

#include <math.h>
#include <stdlib.h>

static double arr_max(int n, const double *x) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (m < x[i])
      m = x[i];
  return m;
}

static double sqnorm(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

static void subtract(int d, const double *x, const double *y, double *out) {
  for (int i = 0; i < d; i++)
    out[i] = x[i] - y[i];
}

static double logsumexp(int n, const double *x) {
  double mx = arr_max(n, x);
  double semx = 0;
  for (int i = 0; i < n; i++)
    semx += exp(x[i] - mx);
  return log(semx) + mx;
}

/* out = Q x for Q = diag(Qdiag) + L, L's entries in ltri column by column. */
static void Qtimesx(int d, const double *Qdiag, const double *ltri,
                    const double *x, double *out) {
  for (int i = 0; i < d; i++)
    out[i] = Qdiag[i] * x[i];
  int L = 0;
  for (int i = 0; i < d; i++)
    for (int j = i + 1; j < d; j++) {
      out[j] += ltri[L] * x[i];
      L++;
    }
}

/* The diagonals exp(q_k) and their log-determinants sum(q_k). */
static void preprocess_qs(int d, int k, const double *icf, double *sum_qs,
                          double *Qdiags) {
  int icf_sz = gmm_icf_size(d);
  for (int c = 0; c < k; c++) {
    sum_qs[c] = 0;
    for (int i = 0; i < d; i++) {
      double q = icf[c * icf_sz + i];
      sum_qs[c] += q;
      Qdiags[c * d + i] = exp(q);
    }
  }
}

/* log of the multivariate gamma function Gamma_p(a). */
static double log_gamma_distrib(double a, int p) {
  double out = 0.25 * p * (p - 1) * log(M_PI);
  for (int j = 1; j <= p; j++)
    out += lgamma(a + 0.5 * (1 - j));
  return out;
}

static double log_wishart_prior(int d, int k, double gamma, int m,
                                const double *sum_qs, const double *Qdiags,
                                const double *icf) {
  int n = d + m + 1;
  int icf_sz = gmm_icf_size(d);
  double C =
      n * d * (log(gamma) - 0.5 * log(2)) - log_gamma_distrib(0.5 * n, d);
  double out = 0;
  for (int c = 0; c < k; c++) {
    double frobenius =
        sqnorm(d, &Qdiags[c * d]) + sqnorm(icf_sz - d, &icf[c * icf_sz + d]);
    out += 0.5 * gamma * gamma * frobenius - m * sum_qs[c];
  }
  return out - k * C;
}

ADB_API double gmm_objective(int d, int k, int n, const double *alphas,
                             const double *means, const double *icf,
                             const double *x, double gamma, int m) {
  const double constant = -n * d * 0.5 * log(2 * M_PI);
  int icf_sz = gmm_icf_size(d);
  double *Qdiags = malloc(sizeof(double) * d * k);
  double *sum_qs = malloc(sizeof(double) * k);
  double *xcentered = malloc(sizeof(double) * d);
  double *Qxcentered = malloc(sizeof(double) * d);
  double *main_term = malloc(sizeof(double) * k);

  preprocess_qs(d, k, icf, sum_qs, Qdiags);
  double slse = 0;
  for (int i = 0; i < n; i++) {
    for (int c = 0; c < k; c++) {
      subtract(d, &x[i * d], &means[c * d], xcentered);
      Qtimesx(d, &Qdiags[c * d], &icf[c * icf_sz + d], xcentered, Qxcentered);
      main_term[c] = alphas[c] + sum_qs[c] - 0.5 * sqnorm(d, Qxcentered);
    }
    slse += logsumexp(k, main_term);
  }
  double err = constant + slse - n * logsumexp(k, alphas) +
               log_wishart_prior(d, k, gamma, m, sum_qs, Qdiags, icf);

  free(Qdiags), free(sum_qs), free(xcentered), free(Qxcentered);
  free(main_term);
  return err;
}
