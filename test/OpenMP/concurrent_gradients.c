// Gradients of a function with a parallel region, computed by several
// threads at once: every thread of an outer parallel loop calls
// __ad_autodiff on its own data, and the differentiated function has a
// parallel for with reduction(+) (run by a team of 1 inside the outer
// region), or a critical section. The calls share nothing but the code.
// The reverse sweeps of reductions and critical sections wait for their
// turn in the order of tickets from a counter of their own team (before,
// a counter shared by all calls, where one call could take another's ticket
// and then wait forever: about half the processes hung). A watchdog ends a
// round after 60 seconds (a loaded machine runs a
// round in a few).
// RUN: %clang_omp -O0 %s -o %t.O0 -lm && env OMP_NUM_THREADS=4 %t.O0
// RUN: %clang_omp -O2 %s -o %t.O2 -lm && env OMP_NUM_THREADS=4 %t.O2
#include "omp_test.h"
#include <ad.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 24
#define JOBS 400
#define ROUNDS 20

static double reduce(double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += sin(x[i]) * x[i];
  return s;
}

static double critical(double *x, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t = sin(x[i]) * x[i];
#pragma omp critical
    s += t;
  }
  return s;
}

static void watchdog(int sig) {
  static const char msg[] = "concurrent_gradients: still running after 60 "
                            "seconds (a deadlock)\n";
  (void)sig;
  (void)!write(2, msg, sizeof msg - 1);
  _exit(2);
}

static double x[JOBS][N], dx[JOBS][N], dy[JOBS][N];

/* One round in a fresh process: JOBS calls of each derivative, spread over
 * the threads, then the checks. */
static int round_in_child(void) {
  signal(SIGALRM, watchdog);
  alarm(60);
#pragma omp parallel for schedule(dynamic)
  for (int j = 0; j < JOBS; j++) {
    __ad_autodiff_void((void *)reduce, x[j], dx[j], N);
    __ad_autodiff_void((void *)critical, x[j], dy[j], N);
  }
  for (int j = 0; j < JOBS; j++)
    for (int i = 0; i < N; i++) {
      double d = cos(x[j][i]) * x[j][i] + sin(x[j][i]);
      omp_check_close("reduction gradient", j * N + i, dx[j][i], d, 1e-12);
      omp_check_close("critical gradient", j * N + i, dy[j][i], d, 1e-12);
    }
  return ad_test_finish();
}

/* A hang shows mostly in a process's first concurrent calls, so each round
 * runs in a child of its own; the parent uses no OpenMP before it forks. */
int main(void) {
  for (int j = 0; j < JOBS; j++)
    omp_fill(x[j], N, -1, 1);
  for (int r = 0; r < ROUNDS; r++) {
    pid_t child = fork();
    if (child == 0)
      _exit(round_in_child());
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child ||
        !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "round %d failed\n", r);
      return 1;
    }
  }
  return 0;
}
