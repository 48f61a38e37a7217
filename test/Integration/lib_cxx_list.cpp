// std::list<double> in the differentiated function: push_back and
// push_front, reverse, splice, pop_front and erase, then iteration. The list
// links its nodes in libstdc++'s compiled node functions (_M_hook,
// _M_unhook, _M_reverse, _M_transfer): rows that repeat each on the shadow
// nodes, so the shadow list stays the primal's mirror. Checked against the
// closed form and forward against reverse.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
#include <ad.h>
#include "ad_test.h"
#include <list>

/* Elements x*i (odd i, at the back) and x^2 i (even i, at the front),
   reversed, the first dropped, a second list spliced in the middle, one
   element erased; result: sum of element * position. */
double linked(double x, double y) {
  std::list<double> l, m;
  for (int i = 0; i < 6; i++) {
    if (i % 2)
      l.push_back(x * i);
    else
      l.push_front(x * x * i);
  }
  l.reverse();
  l.pop_front();
  m.push_back(y);
  m.push_back(y * x);
  auto mid = l.begin();
  ++mid;
  ++mid;
  l.splice(mid, m);
  l.erase(--l.end());
  double s = 0;
  int k = 1;
  for (double e : l)
    s += e * (k++);
  return s;
}
/* The same list, built and listed in plain arrays. */
static double linked_closed(double x, double y) {
  /* after push: 4x^2 2x^2 0 x 3x 5x; reversed: 5x 3x x 0 2x^2 4x^2; pop: 3x x 0
     2x^2 4x^2; splice before the 3rd: 3x x y yx 0 2x^2 4x^2; erase last. */
  double v[6] = {3 * x, x, y, y * x, 0, 2 * x * x};
  double s = 0;
  for (int k = 0; k < 6; k++)
    s += v[k] * (k + 1);
  return s;
}

struct d2 {
  double dx, dy;
};
extern "C" d2 __ad_autodiff_d2(void *, ...);

int main() {
  double x = 0.7, y = -1.2;
  CHECK_CLOSE(linked(x, y), linked_closed(x, y), 1e-14);
  d2 g = __ad_autodiff_d2((void *)linked, x, y);
  /* d/dx: 3 + 2 + 4y + 12 * 2x; d/dy: 3 + 4x */
  CHECK_CLOSE(g.dx, 3 + 2 + 4 * y + 24 * x, 1e-13);
  CHECK_CLOSE(g.dy, 3 + 4 * x, 1e-13);
  CHECK_CLOSE(__ad_fwddiff((void *)linked, x, 1.0, y, 0.0), g.dx, 1e-13);
  CHECK_CLOSE(__ad_fwddiff((void *)linked, x, 0.0, y, 1.0), g.dy, 1e-13);
  return ad_test_finish();
}
