// Checks shared by the CUDA tests: each failed check prints one line with
// "MISMATCH" (the word runner_faults.cu looks for) and counts; a program
// returns its number of failures, so 0 means every check held.
#ifndef CUDA_TEST_CHECK_H
#define CUDA_TEST_CHECK_H

#include <cmath>
#include <cstdio>
#include <cstdlib>

static int failures = 0;

// |got - want| <= tol * (1 + |want|), for results a host loop computes.
static bool check_close(const char *what, int index, double got, double want,
                        double tol) {
  if (std::fabs(got - want) <= tol * (1 + std::fabs(want)))
    return true;
  if (++failures <= 10)
    printf("MISMATCH %s[%d]: got %.17g, want %.17g\n", what, index, got, want);
  return false;
}

static void check_equal(const char *what, int index, long long got,
                        long long want) {
  if (got != want && ++failures <= 10)
    printf("MISMATCH %s[%d]: got %lld, want %lld\n", what, index, got, want);
}

// A CUDA runtime call that must succeed.
#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      printf("MISMATCH %s: %s\n", #call, cudaGetErrorString(e));               \
      exit(100);                                                               \
    }                                                                          \
  } while (0)

// A launch just made must have succeeded.
#define LAUNCH_OK() CUDA_OK(cudaGetLastError())

static int report(const char *name) {
  printf("%s: %d failures\n", name, failures);
  return failures;
}

#endif
