// A virtual call whose target may be defined in another file. The
// differentiated function calls energy() on a `const Potential *` it is
// given; this file defines one override (Harmonic), the other file another
// (Quartic, compiled separately). The call becomes a choice between the
// overrides this module defines: with a Harmonic the derivative is exact;
// with a Quartic the derivative cannot be known here, and the program stops
// with a message naming the call (never a silent zero). The primal itself
// calls either. (-gdwarf-4: the message names the line from debug info, and
// valgrind reads DWARF 4.)
// RUN: %clangxx_ad -O0 -gdwarf-4 -c %S/Inputs/cxx_virtual_elsewhere_impl.cpp -I%S/Inputs -o %t.impl.O0.o
// RUN: %clangxx_ad -O0 -gdwarf-4 -I%S/Inputs %s %t.impl.O0.o -o %t.O0 -lm
// RUN: %run %t.O0
// RUN: not --crash %t.O0 elsewhere 2>&1 | FileCheck %s
// RUN: %clangxx_ad -O2 -gdwarf-4 -c %S/Inputs/cxx_virtual_elsewhere_impl.cpp -I%S/Inputs -o %t.impl.O2.o
// RUN: %clangxx_ad -O2 -gdwarf-4 -I%S/Inputs %s %t.impl.O2.o -o %t.O2 -lm
// RUN: %run %t.O2
// RUN: not --crash %t.O2 elsewhere 2>&1 | FileCheck %s
// CHECK: ADPlugin: the derivative reached an indirect call at {{.*}}cxx_virtual_elsewhere.cpp:[[# @LINE + 14]] whose target is not defined in the module that differentiated it
#include <ad.h>
#include "ad_test.h"
#include "cxx_virtual_elsewhere.h"
#include <cstdio>
#include <cstring>

struct Harmonic : Potential {
  double k;
  explicit Harmonic(double k) : k(k) {}
  double energy(double r) const override { return 0.5 * k * r * r; }
};

double scaled_energy(double r, const Potential *p) {
  return 2 * p->energy(r) + r;
}

int main(int argc, char **argv) {
  static const Harmonic h(3.0);
  const Potential *quartic = make_quartic();
  /* The primal reaches both overrides. */
  CHECK_CLOSE(scaled_energy(2.0, quartic), 34.0, 0);
  for (double r = -1; r < 1.5; r += 0.5) {
    CHECK_CLOSE(__ad_autodiff((void *)scaled_energy, r, __ad_const, &h),
                2 * 3.0 * r + 1, 1e-13);
    CHECK_CLOSE(__ad_fwddiff((void *)scaled_energy, r, 1.0, __ad_const, &h),
                2 * 3.0 * r + 1, 1e-13);
  }
  if (argc > 1 && !std::strcmp(argv[1], "elsewhere"))
    std::printf("%g\n",
                __ad_autodiff((void *)scaled_energy, 1.0, __ad_const, quartic));
  return ad_test_finish();
}
