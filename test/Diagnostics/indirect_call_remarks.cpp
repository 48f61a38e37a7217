// An indirect call the plugin differentiates by dispatching between the
// functions this file knows is announced at compile time: -Rpass-analysis=ad
// lists the candidates of every dispatched call; -Rpass-missed=ad names the
// calls whose derivative stops the program at run time when the pointer is
// a function defined in another file (the virtual call here: another file
// may derive from Shape). A choice between two known functions (the select
// in `chosen`) is closed: it has no run-time stop and no missed remark.
// RUN: %clangxx_ad -O0 -g -Rpass-missed=ad -Rpass-analysis=ad -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="indirect call in 'chosen{{.*}}stops the program" --implicit-check-not=error:
// RUN: %clangxx_ad -O2 -g -Rpass-missed=ad -Rpass-analysis=ad -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="indirect call in 'chosen{{.*}}stops the program" --implicit-check-not=error:
// Without the flags, nothing is said.
// RUN: %clangxx_ad -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: remark
#include <ad.h>
#include <cmath>

struct Shape {
  virtual ~Shape() = default;
  virtual double area(double s) const = 0;
};
struct Square : Shape {
  double area(double s) const override { return s * s; }
};
struct Disc : Shape {
  double area(double s) const override { return 3.14159 * s * s; }
};

double total(double s, const Shape *p) {
  // CHECK-DAG: indirect_call_remarks.cpp:[[@LINE+2]]:{{[0-9]+}}: remark: indirect call in 'total(double, Shape const*)' at line [[@LINE+2]]: differentiated as a choice between 2 function(s) this file knows: '{{Square|Disc}}::area(double) const', '{{Square|Disc}}::area(double) const'; any other target stops the derivative [-Rpass-analysis=ad]
  // CHECK-DAG: indirect_call_remarks.cpp:[[@LINE+1]]:{{[0-9]+}}: remark: indirect call in 'total(double, Shape const*)' at line [[@LINE+1]]: the derivative stops the program at run time if it reaches the call with a pointer to a function other than {{.*}} (one defined in another file) [-Rpass-missed=ad]
  return 2 * p->area(s);
}

double chosen(double x, int k) {
  double (*f)(double) = k ? (double (*)(double))std::tanh : (double (*)(double))std::sin;
  // CHECK-DAG: indirect_call_remarks.cpp:[[@LINE+1]]:{{[0-9]+}}: remark: indirect call in 'chosen(double, int)' at line [[@LINE+1]]: differentiated as a choice between 2 function(s) this file knows: '{{tanh|sin}}', '{{tanh|sin}}' (the pointer can be no other) [-Rpass-analysis=ad]
  return f(x) * x;
}

double g(double s, int k) {
  static const Square square;
  static const Disc disc;
  const Shape *p = k ? (const Shape *)&square : &disc;
  return __ad_autodiff((void *)total, s, __ad_const, p);
}
double h(double x, int k) {
  return __ad_autodiff((void *)chosen, x, __ad_const, k);
}
