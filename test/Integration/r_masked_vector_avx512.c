// r_masked_vector.c built for AVX-512 (x86-64-v4), where the vectorizer
// uses 8-lane masked stores and gathers. Valgrind does not decode AVX-512, so
// the program runs bare; r_masked_vector.c runs the AVX2 forms under valgrind.
// REQUIRES: host-avx512f
// RUN: %clang_ad -O2 -march=x86-64-v4 %S/r_masked_vector.c -o %t.v4 -lm && %t.v4
// RUN: %clang_ad -O3 -march=x86-64-v4 %S/r_masked_vector.c -o %t.v4O3 -lm && %t.v4O3
