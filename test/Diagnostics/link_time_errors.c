// Errors at the link (the plugin loaded by lld, no clang to map a function to
// its declaration): without -g they name the function and suggest -g; with
// -g they carry the line. Under ThinLTO a function defined in another file
// cannot be differentiated (each file is differentiated on its own); the
// hint names full LTO, which then differentiates it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: clang -O2 -flto=thin -I%src/include -c %s -o %t/main.o
// RUN: clang -O2 -flto=thin -I%src/include -DOTHER -c %s -o %t/other.o
// RUN: not clang -O2 -flto=thin -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t/main.o %t/other.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=NODEBUG
// NODEBUG-DAG: error: <unknown>:0:0: in function main {{.*}}: invalid differentiation call in 'main': 'cube' has no body in this module; hint: {{.*}}-flto=full differentiates at the link with every file at hand, ThinLTO one file at a time (compile with -g to see the source line)
// NODEBUG-DAG: error: <unknown>:0:0: {{.*}}cannot differentiate 'uses_unknown': call to 'unknown', which has no body and no derivative rule; {{.*}} (compile with -g to see the source line)
//
// RUN: clang -g -O2 -flto=thin -I%src/include -c %s -o %t/main.o
// RUN: clang -g -O2 -flto=thin -I%src/include -DOTHER -c %s -o %t/other.o
// RUN: not clang -O2 -flto=thin -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t/main.o %t/other.o -o %t/a.out 2>&1 | FileCheck %s --check-prefix=DEBUG --implicit-check-not="compile with -g"
// (The DEBUG lines are beside the code they point at.)
//
// Full LTO sees both files: the same objects link and run.
// RUN: clang -O2 -flto=full -I%src/include -c %s -o %t/main.o
// RUN: clang -O2 -flto=full -I%src/include -DOTHER -c %s -o %t/other.o
// RUN: clang -O2 -flto=full -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t/main.o %t/other.o -o %t/a.out
// RUN: %run %t/a.out | FileCheck %s --check-prefix=OUT
// OUT: 12
#include <ad.h>
#include <stdio.h>

#ifdef OTHER
double cube(double x) { return x * x * x; }
double unknown(double x);
__attribute__((noinline)) double uses_unknown(double x) {
  return unknown(x) * x;
  // DEBUG-DAG: error: {{.*}}link_time_errors.c:[[@LINE-1]]:{{[0-9]+}}: {{.*}}cannot differentiate 'uses_unknown': call to 'unknown'
}
double gradient_of_unknown(double x) {
  return __ad_autodiff((void *)uses_unknown, x);
}
#else
__attribute__((noinline)) double unknown(double x) { return x; }
double cube(double x);
double gradient_of_unknown(double x);
int main(int argc, char **argv) {
  printf("%g\n", __ad_autodiff((void *)cube, 2.0));
  // DEBUG-DAG: error: {{.*}}link_time_errors.c:[[@LINE-1]]:{{[0-9]+}}: in function main {{.*}}: invalid differentiation call in 'main': 'cube' has no body in this module
  if (argc > 5)
    printf("%g\n", gradient_of_unknown(1.0));
  return 0;
}
#endif
