// A class template in the differentiated function: Matrix<T, R, C> with
// operator*, operator+, transpose and a static factory, instantiated for
// double and float, and a Polynomial<T, N> evaluated by Horner's rule; the
// loss is a quadratic form of a matrix built from the inputs. Checked
// against central differences and forward against reverse.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <array>
#include <cmath>

template <typename T, int R, int C> class Matrix {
public:
  static Matrix fromFunction(const T *x) {
    Matrix m;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++)
        m(i, j) = std::sin(x[(i * C + j) % (R + C)]) + T(i - j);
    return m;
  }
  T &operator()(int i, int j) { return a[i * C + j]; }
  T operator()(int i, int j) const { return a[i * C + j]; }
  template <int K> Matrix<T, R, K> operator*(const Matrix<T, C, K> &o) const {
    Matrix<T, R, K> r;
    for (int i = 0; i < R; i++)
      for (int k = 0; k < K; k++) {
        T s = 0;
        for (int j = 0; j < C; j++)
          s += (*this)(i, j) * o(j, k);
        r(i, k) = s;
      }
    return r;
  }
  Matrix operator+(const Matrix &o) const {
    Matrix r;
    for (int i = 0; i < R * C; i++)
      r.a[i] = a[i] + o.a[i];
    return r;
  }
  Matrix<T, C, R> transposed() const {
    Matrix<T, C, R> r;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++)
        r(j, i) = (*this)(i, j);
    return r;
  }
  T trace() const {
    T s = 0;
    for (int i = 0; i < (R < C ? R : C); i++)
      s += (*this)(i, i);
    return s;
  }

private:
  std::array<T, R * C> a{};
};

template <typename T, int N> struct Polynomial {
  std::array<T, N> c;
  T operator()(T x) const {
    T r = 0;
    for (int i = N - 1; i >= 0; i--)
      r = r * x + c[i];
    return r;
  }
};

/* trace((A^T A + A^T A) * p(x0)) with A 3x2 built from x */
template <typename T> T loss(const T *x) {
  auto A = Matrix<T, 3, 2>::fromFunction(x);
  auto G = A.transposed() * A;
  Polynomial<T, 3> p{{T(1), T(-2), T(0.5)}};
  return (G + G).trace() * p(x[0]);
}
double lossd(const double *x) { return loss(x); }
float lossf(const float *x) { return loss(x); }
static double lossd_fd(double *x, int) { return lossd(x); }

int main() {
  double x[5] = {0.3, -0.8, 1.1, 0.5, -0.2}, dx[5] = {0}, tx[5] = {0};
  __ad_autodiff((void *)lossd, x, dx);
  float xf[5], dxf[5] = {0};
  for (int i = 0; i < 5; i++)
    xf[i] = (float)x[i];
  __ad_autodiff((void *)lossf, xf, dxf);
  for (int i = 0; i < 5; i++) {
    CHECK_CLOSE(dx[i], ad_fd_array(lossd_fd, x, 5, i), 1e-7);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)lossd, x, tx), dx[i], 1e-13);
    tx[i] = 0;
    CHECK_CLOSE(dxf[i], dx[i], 1e-5);
  }
  return ad_test_finish();
}
