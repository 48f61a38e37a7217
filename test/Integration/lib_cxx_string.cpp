// std::string in and around the differentiated function: literals (short
// and beyond the small-string buffer), +=, substr, comparisons, characters
// written by index, std::to_string of a differentiated value, a const
// std::string& parameter passed __ad_const, and a struct holding a name
// beside a differentiated value. Strings hold characters only: their
// members are inactive rows, and a std::string object needs no shadow. The
// derivatives are closed forms; forward and reverse agree.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <string>

/* x * 5 */
double hello(double x) {
  std::string s = "hello";
  return x * s.size();
}
/* a long string, grown and cut: x * (40 + 4) + 0 */
double edit(double x) {
  std::string s = "a long string beyond the small buffer";
  s += " more";
  std::string t = s.substr(2, 4);
  t[0] = 'L';
  for (size_t i = 1; i < t.size(); i++)
    t[i] = (char)std::toupper(t[i]);
  return x * (s.size() + t.size()) + (t == "LONG" ? 0.0 : 1.0);
}
/* The value is printed into a string; the text carries no derivative. */
double label(double x) {
  std::string text = "x=" + std::to_string(x * x);
  return std::sin(x) * (double)text.size();
}
/* A name read by index decides the weight: sum over characters. */
double weigh(double x, const std::string &name) {
  double s = 0;
  for (char c : name)
    s += (c == 'a' ? 2.0 : 1.0) * x * x;
  return s;
}
struct Named {
  std::string name;
  double value;
};
/* value^2 * len(name) + value */
double named(const double *x) {
  Named n{"value of x", x[0]};
  n.name += "!";
  n.value = n.value * n.value * n.name.size() + x[0];
  return n.value;
}

int main() {
  CHECK_CLOSE(__ad_autodiff((void *)hello, 3.0), 5.0, 1e-14);
  CHECK_CLOSE(__ad_fwddiff((void *)hello, 3.0, 1.0), 5.0, 1e-14);
  CHECK_CLOSE(__ad_autodiff((void *)edit, 3.0), 46.0, 1e-14);
  CHECK_CLOSE(__ad_fwddiff((void *)edit, 3.0, 1.0), 46.0, 1e-14);
  double x = 0.75;
  double len = (double)("x=" + std::to_string(x * x)).size();
  CHECK_CLOSE(__ad_autodiff((void *)label, x), std::cos(x) * len, 1e-14);
  CHECK_CLOSE(__ad_fwddiff((void *)label, x, 1.0), std::cos(x) * len, 1e-14);
  std::string name = "banana";
  /* 3 a's of weight 2 and 3 others: 9 x^2 */
  CHECK_CLOSE(__ad_autodiff((void *)weigh, x, __ad_const, &name), 18 * x,
              1e-14);
  CHECK_CLOSE(__ad_fwddiff((void *)weigh, x, 1.0, __ad_const, &name), 18 * x,
              1e-14);
  double v[1] = {1.5}, dv[1] = {0}, tv[1] = {1};
  __ad_autodiff((void *)named, v, dv);
  CHECK_CLOSE(dv[0], 2 * 1.5 * 11 + 1, 1e-14);
  CHECK_CLOSE(__ad_fwddiff((void *)named, v, tv), 2 * 1.5 * 11 + 1, 1e-14);
  return ad_test_finish();
}
