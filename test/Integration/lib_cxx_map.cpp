// std::map<int, double> in the differentiated function: 60 keys inserted in
// a scrambled order (the red-black tree rotates and recolours), values
// updated in place, some keys erased (rebalancing from the successor),
// lookups with find() and lower_bound(), and iteration forward and backward
// (std::_Rb_tree_increment/decrement). libstdc++ compiles these tree
// functions into the library: they only relink nodes, so they are repeated on
// the shadow nodes, after the colours they read are copied to them (see
// rules/MirrorCalls.h): a caller's tangent map with the primal's keys but
// another insertion history (same shape, other colours) grows in step with
// the primal. A std::map<int, double> passed in with a shadow map of the
// same keys is read and written too. (A copy of a map, grown, is
// lib_cxx_map_copy.cpp.) Checked against closed forms and
// forward against reverse. At -O0 operator[] forwards its key as a
// std::tuple<const int&> kept in memory: the local int it points to gets a
// shadow of its own.
// RUN: %clangxx_ad -O0 %s -o %t.O0 -lm && %run %t.O0
// RUN: %clangxx_ad -O1 %s -o %t.O1 -lm && %run %t.O1
// RUN: %clangxx_ad -O2 %s -o %t.O2 -lm && %run %t.O2
// RUN: %clangxx_ad -O3 %s -o %t.O3 -lm && %run %t.O3
#include <ad.h>
#include "ad_test.h"
#include <cmath>
#include <map>
#include <string>
#include <vector>

constexpr int N = 5;
constexpr int Keys = 60;

static int scrambled(int k) { return (k * 37) % Keys; } /* a permutation */

/* m[key] = x[key % N] * (key + 1), doubled on multiples of 3, keys 10..19
   erased; result: sum over keys of m^2 / (rank + 1) walking backward, plus
   the value at lower_bound(25) and find(7). */
double tree(const double *x, int n) {
  std::map<int, double> m;
  for (int k = 0; k < Keys; k++) {
    int key = scrambled(k);
    m[key] = x[key % n] * (key + 1);
  }
  for (auto &kv : m)
    if (kv.first % 3 == 0)
      kv.second *= 2.0;
  for (int key = 10; key < 20; key++)
    m.erase(key);
  double s = m.lower_bound(25)->second + 3 * m.find(7)->second;
  int rank = 0;
  for (auto it = m.rbegin(); it != m.rend(); ++it)
    s += it->second * it->second / (++rank);
  return s;
}
/* Forward mode on a caller's map whose tangent map has the same keys and
   shape but another insertion history, so other colours: new keys go into
   both, and the tangent nodes must land where the primal ones do. Returns
   sum over all keys of m[key] * key. */
double grow(std::map<int, double> &m, double x, int seed) {
  unsigned r = seed * 2654435761u + 1;
  for (int k = 0; k < 40; k++) {
    r = r * 1103515245u + 12345u;
    int key = (int)((r >> 8) % 200) - 100;
    m[key] = x * key;
  }
  double s = 0;
  for (auto &kv : m)
    s += kv.second * kv.first;
  return s;
}
using Node = std::_Rb_tree_node_base;
static Node *root(const std::map<int, double> &m) {
  return m.end()._M_node->_M_parent;
}
/* The tree's shape and colours, in preorder. */
static std::string shape(const Node *n) {
  return n ? "(" + shape(n->_M_left) + shape(n->_M_right) + ")" : ".";
}
static std::string colours(const Node *n) {
  return n ? (n->_M_color == std::_S_red ? "r" : "b") + colours(n->_M_left) +
                 colours(n->_M_right)
           : ".";
}
static unsigned next(unsigned &r) { return (r = r * 1103515245u + 12345u) >> 8; }

/* A caller's map: every value squared in place, the sum returned. */
double square_values(std::map<int, double> &m) {
  double s = 0;
  for (auto &kv : m) {
    kv.second = kv.second * kv.second;
    s += kv.second;
  }
  return s;
}

int main() {
  double x[N], dx[N] = {0}, tx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.3 * i - 0.4;
  __ad_autodiff((void *)tree, x, dx, N);
  double want[N] = {0};
  int rank = 0;
  for (int key = Keys - 1; key >= 0; key--) {
    double c = (key + 1) * (key % 3 == 0 ? 2.0 : 1.0); /* m = c x_i */
    int i = key % N;
    if (key == 25)
      want[i] += c;
    if (key == 7)
      want[i] += 3 * c;
    if (key >= 10 && key < 20)
      continue;
    want[i] += 2 * c * c * x[i] / (++rank);
  }
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], want[i], 1e-12);
    tx[i] = 1;
    CHECK_CLOSE(__ad_fwddiff((void *)tree, x, tx, N), dx[i], 1e-12);
    tx[i] = 0;
  }
  /* Nine keys inserted in one order, then shuffled until another order
     gives the same shape with other colours. The maps outlive main: the
     tangent map's new nodes come from the derivative's allocator. */
  static auto *kept = new std::vector<std::map<int, double> *>;
  int pairs = 0;
  for (unsigned seed = 0; pairs < 8 && seed < 400; seed++) {
    unsigned r = seed * 97 + 5;
    std::vector<int> keys;
    for (int i = 0; i < 9; i++)
      keys.push_back(next(r) % 300 + 200);
    std::map<int, double> probe;
    for (int k : keys)
      probe[k] = 1.0;
    bool found = false;
    for (int t = 0; t < 100 && !found; t++) {
      for (size_t i = keys.size() - 1; i > 0; i--)
        std::swap(keys[i], keys[next(r) % (i + 1)]);
      std::map<int, double> other;
      for (int k : keys)
        other[k] = 0.0;
      found = shape(root(other)) == shape(root(probe)) &&
              colours(root(other)) != colours(root(probe));
    }
    if (!found)
      continue;
    pairs++;
    auto *m = new std::map<int, double>(probe), *tm = new std::map<int, double>;
    for (int k : keys)
      (*tm)[k] = 0.0;
    kept->push_back(m);
    kept->push_back(tm);
    double want = 0;
    std::map<int, double> fresh;
    for (auto &kv : probe)
      fresh[kv.first] = 0.0;
    grow(fresh, 1.0, seed); /* the keys grow adds: tangent key per key */
    for (auto &kv : fresh)
      if (!probe.count(kv.first))
        want += (double)kv.first * kv.first;
    CHECK_CLOSE(__ad_fwddiff((void *)grow, m, tm, 2.0, 1.0, seed), want, 1e-14);
    /* The tangent tree mirrors the primal one, node by node in order (its
       keys and node count are integers, which tangents do not keep). */
    CHECK_TRUE(shape(root(*m)) == shape(root(*tm)));
    auto t = tm->begin();
    for (auto &kv : *m) {
      CHECK_CLOSE(t->second, probe.count(kv.first) ? 0.0 : kv.first, 1e-14);
      ++t;
    }
  }
  CHECK_TRUE(pairs == 8);
  std::map<int, double> m, dm, tm;
  for (int k = 0; k < 20; k++) {
    m[scrambled(k)] = 0.1 * k - 0.5;
    dm[scrambled(k)] = 1.0; /* seeds the values written back */
    tm[scrambled(k)] = k == 4 ? 1.0 : 0.0;
  }
  std::map<int, double> m0 = m, m1 = m;
  __ad_autodiff((void *)square_values, &m, &dm);
  for (auto &kv : m0) {
    CHECK_CLOSE(m[kv.first], kv.second * kv.second, 1e-14);
    /* d/dv of (v^2 returned + v^2 written back, seed 1) = 4 v */
    CHECK_CLOSE(dm[kv.first], 4 * kv.second, 1e-14);
  }
  double v4 = m0[scrambled(4)];
  CHECK_CLOSE(__ad_fwddiff((void *)square_values, &m1, &tm), 2 * v4, 1e-14);
  CHECK_CLOSE(tm[scrambled(4)], 2 * v4, 1e-14);
  return ad_test_finish();
}
