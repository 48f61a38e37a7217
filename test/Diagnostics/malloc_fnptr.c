// malloc called through a function pointer the module does not fix: a
// parameter (an __ad_const argument), a global with external linkage that
// another file may change, a select between malloc and an allocator another
// file defines (arena_alloc, whose address this file takes: the pointer may
// be code the plugin cannot see). The memory the call returns has no
// shadow, so storing a differentiated value there is an error that names
// the indirect call, not a silent zero. (Pointers fixed at compile time
// work: test/Integration/lib_malloc_fnptr.c; pointers that can only be
// malloc or functions this file defines are dispatched between them:
// test/Integration/lib_fnptr_callees.c.)
// RUN: not %clang_ad -O0 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %clang_ad -O2 -g -fno-crash-diagnostics -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
#include <ad.h>
#include <stdlib.h>

typedef void *(*alloc_fn)(size_t);
alloc_fn g_alloc = malloc; /* external: may change */
void *arena_alloc(size_t n); /* defined in another file */
alloc_fn g_arena = arena_alloc;
__attribute__((noinline)) static double first(const double *t) { return t[0]; }

double viaparam(double x, alloc_fn a) {
  double *t = a(sizeof(double));
  // CHECK-DAG: {{.*}}malloc_fnptr.c:[[@LINE+1]]:8: error: cannot differentiate 'viaparam': a differentiated value is stored to memory returned by an indirect call, which cannot be resolved to an allocation function, so the memory has no shadow; hint: call the allocator directly, or through a pointer fixed at compile time (a const or never-written static)
  t[0] = x * x;
  double r = first(t);
  free(t);
  return r;
}
double viaglobal(double x) {
  double *t = g_alloc(sizeof(double));
  // CHECK-DAG: {{.*}}malloc_fnptr.c:[[@LINE+1]]:8: error: cannot differentiate 'viaglobal': a differentiated value is stored to memory returned by an indirect call, {{.*}}
  t[0] = x * x;
  double r = first(t);
  free(t);
  return r;
}
double viaselect(double x, int k) {
  alloc_fn a = k ? malloc : arena_alloc;
  double *t = a(sizeof(double));
  // CHECK-DAG: {{.*}}malloc_fnptr.c:[[@LINE+1]]:8: error: cannot differentiate 'viaselect': a differentiated value is stored to memory returned by an indirect call, {{.*}}
  t[0] = x * x;
  double r = first(t);
  free(t);
  return r;
}

double g1(double x) { return __ad_autodiff((void *)viaparam, x, __ad_const, malloc); }
double g2(double x) { return __ad_autodiff((void *)viaglobal, x); }
double g3(double x) { return __ad_autodiff((void *)viaselect, x, __ad_const, 1); }
// CHECK: 3 errors generated.
