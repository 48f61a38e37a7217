/* adbench_check.c - the ADBench gradient checks alone (test/ADBench runs
 * this): GMM at d=2 K=3 n=10 and d=5 K=4 n=12, BA with 3 cameras, 5 points
 * and 12 observations, the plugin's derivatives against the handwritten
 * ones and those against finite differences (adbench_verify.c).
 *
 * Usage: adbench_check [fd=0]   (fd=0 skips the finite differences)
 */
#include "adbench.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int fd = !(argc > 1 && strcmp(argv[1], "fd=0") == 0);
  int failures = adbench_verify_gmm(2, 3, 10, fd, 1);
  failures += adbench_verify_gmm(5, 4, 12, fd, 1);
  failures += adbench_verify_ba(3, 5, 12, fd, 1);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("all checks passed\n");
  return 0;
}
