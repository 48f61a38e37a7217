// Part of cxx_virtual_elsewhere.cpp: the interface both files share.
struct Potential {
  virtual ~Potential() = default;
  virtual double energy(double r) const = 0;
};
const Potential *make_quartic(); // defined in cxx_virtual_elsewhere_impl.cpp
