// Templated kernels, as a C++ user writes them for several precisions: a
// small fixed-size vector class Vec<T, D> with operators, a pair-potential
// energy of N particles in D dimensions templated on the scalar type, the
// dimension and the potential (a policy class with a static member
// template), and a two-layer perceptron Mlp<T, In, Hidden, Act> whose
// activation is a policy too; instantiated for float and double, D = 2 and
// 3, tanh and softplus. Checked against central differences, forward
// against reverse (<J v, w> = <v, J^T w>) and, for the loss, the closed form
// of its last layer.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>

template <typename T, int D> struct Vec {
  T v[D];
  Vec operator-(const Vec &o) const {
    Vec r;
    for (int i = 0; i < D; i++)
      r.v[i] = v[i] - o.v[i];
    return r;
  }
  T norm2() const {
    T s = 0;
    for (int i = 0; i < D; i++)
      s += v[i] * v[i];
    return s;
  }
};

struct SoftSphere {
  template <typename T> static T energy(T r2) {
    T s2 = T(1) / r2;
    return s2 * s2 * s2; // (sigma / r)^6 with sigma = 1
  }
};
struct Gaussian {
  template <typename T> static T energy(T r2) { return std::exp(-T(2) * r2); }
};

template <typename T, int D, typename Pot>
T pair_energy(const Vec<T, D> *x, int n) {
  T e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      e += Pot::template energy<T>((x[i] - x[j]).norm2());
  return e;
}

struct Tanh {
  template <typename T> static T apply(T z) { return std::tanh(z); }
};
struct Softplus {
  template <typename T> static T apply(T z) { return std::log1p(std::exp(z)); }
};

template <typename T, int In, int Hidden, typename Act> struct Mlp {
  T w1[Hidden][In], b1[Hidden], w2[Hidden], b2;
  T operator()(const T *x) const {
    T y = b2;
    for (int h = 0; h < Hidden; h++) {
      T z = b1[h];
      for (int i = 0; i < In; i++)
        z += w1[h][i] * x[i];
      y += w2[h] * Act::template apply<T>(z);
    }
    return y;
  }
};
/* Mean squared error of the network over a batch. */
template <typename T, int In, int Hidden, typename Act>
T mse(const Mlp<T, In, Hidden, Act> *net, const T *xs, const T *ys, int n) {
  T s = 0;
  for (int k = 0; k < n; k++) {
    T r = (*net)(xs + k * In) - ys[k];
    s += r * r;
  }
  return s / T(n);
}

template <typename T, int D, typename Pot> void check_pairs(double tol) {
  const int n = 5;
  Vec<T, D> x[n], g[n] = {}, v[n];
  for (int i = 0; i < n; i++)
    for (int d = 0; d < D; d++) {
      x[i].v[d] = T(1.3 * i + 0.4 * d + 0.1 * ((i * 7 + d * 3) % 5));
      v[i].v[d] = T(ad_test_uniform(-1, 1));
    }
  __ad_autodiff((void *)pair_energy<T, D, Pot>, x, g, __ad_const, n);
  double dot = 0;
  for (int i = 0; i < n; i++)
    for (int d = 0; d < D; d++) {
      T saved = x[i].v[d];
      double h = 1e-3 * (sizeof(T) == 4 ? 10 : 0.01);
      x[i].v[d] = T(saved + h);
      double ep = pair_energy<T, D, Pot>(x, n);
      x[i].v[d] = T(saved - h);
      double em = pair_energy<T, D, Pot>(x, n);
      x[i].v[d] = saved;
      CHECK_CLOSE(g[i].v[d], (ep - em) / (2 * h), tol);
      dot += double(g[i].v[d]) * v[i].v[d];
    }
  T t = T(__ad_fwddiff((void *)pair_energy<T, D, Pot>, x, v, __ad_const, n));
  CHECK_CLOSE(t, dot, sizeof(T) == 4 ? 1e-4 : 1e-12);
}

template <typename T, typename Act> void check_mlp(double tol) {
  const int In = 3, H = 4, n = 6;
  using Net = Mlp<T, In, H, Act>;
  Net net, dnet, vnet;
  T *p = &net.w1[0][0], *dp = &dnet.w1[0][0], *vp = &vnet.w1[0][0];
  const int np = sizeof(Net) / sizeof(T);
  for (int i = 0; i < np; i++) {
    p[i] = T(ad_test_uniform(-0.8, 0.8));
    dp[i] = 0;
    vp[i] = T(ad_test_uniform(-1, 1));
  }
  T xs[n * In], ys[n];
  for (int i = 0; i < n * In; i++)
    xs[i] = T(ad_test_uniform(-1, 1));
  for (int k = 0; k < n; k++)
    ys[k] = T(ad_test_uniform(-1, 1));
  __ad_autodiff((void *)mse<T, In, H, Act>, &net, &dnet, __ad_const, xs,
                __ad_const, ys, __ad_const, n);
  /* The output bias: d/db2 = 2/n sum of residuals. */
  double res = 0;
  for (int k = 0; k < n; k++)
    res += double(net(xs + k * In)) - ys[k];
  CHECK_CLOSE(dnet.b2, 2 * res / n, tol);
  double dot = 0;
  for (int i = 0; i < np; i++) {
    T saved = p[i];
    double h = sizeof(T) == 4 ? 1e-2 : 1e-6;
    p[i] = T(saved + h);
    double fp = mse(&net, xs, ys, n);
    p[i] = T(saved - h);
    double fm = mse(&net, xs, ys, n);
    p[i] = saved;
    CHECK_CLOSE(dp[i], (fp - fm) / (2 * h), sizeof(T) == 4 ? 1e-2 : 1e-6);
    dot += double(dp[i]) * vp[i];
  }
  T t = T(__ad_fwddiff((void *)mse<T, In, H, Act>, &net, &vnet, __ad_const, xs,
                       __ad_const, ys, __ad_const, n));
  CHECK_CLOSE(t, dot, tol);
}

int main() {
  check_pairs<double, 2, SoftSphere>(1e-6);
  check_pairs<double, 3, Gaussian>(1e-6);
  check_pairs<float, 3, SoftSphere>(2e-2);
  check_mlp<double, Tanh>(1e-12);
  check_mlp<double, Softplus>(1e-12);
  check_mlp<float, Tanh>(1e-4);
  return ad_test_finish();
}
