// Part of cxx_virtual_elsewhere.cpp: an override defined in another file.
#include "cxx_virtual_elsewhere.h"
#include <cmath>

namespace {
struct Quartic : Potential {
  double energy(double r) const override { return r * r * r * r; }
};
} // namespace

const Potential *make_quartic() {
  static const Quartic q;
  return &q;
}
