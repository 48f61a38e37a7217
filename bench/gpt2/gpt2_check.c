/* gpt2_check.c - checks the GPT-2 gradients (see gpt2_verify.c) at sizes
 * given on the command line as NAME=VALUE, for instance
 *
 *   gpt2_check C=32 NH=4 L=1 T=5 B=3
 *
 * NAME is one of L NH C maxT V Vp B T, or fd (0 skips the finite-difference
 * checks). Prints one line per buffer compared; exits 1 if any check fails.
 */
#include "gpt2_verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_size(const char *arg, const char *name, int *value) {
  size_t len = strlen(name);
  if (strncmp(arg, name, len) != 0 || arg[len] != '=')
    return 0;
  char *end;
  long v = strtol(arg + len + 1, &end, 10);
  if (*end != '\0' || v < 0 || v > 1 << 30) {
    fprintf(stderr, "gpt2_check: bad value in '%s'\n", arg);
    exit(2);
  }
  *value = (int)v;
  return 1;
}

int main(int argc, char **argv) {
  GPT2Config cfg = {.maxT = 8, .V = 30, .Vp = 32, .L = 2, .NH = 2, .C = 16};
  int B = 2, T = 8, fd = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!(parse_size(a, "L", &cfg.L) || parse_size(a, "NH", &cfg.NH) ||
          parse_size(a, "C", &cfg.C) || parse_size(a, "maxT", &cfg.maxT) ||
          parse_size(a, "V", &cfg.V) || parse_size(a, "Vp", &cfg.Vp) ||
          parse_size(a, "B", &B) || parse_size(a, "T", &T) ||
          parse_size(a, "fd", &fd))) {
      fprintf(stderr,
              "usage: gpt2_check [L= NH= C= maxT= V= Vp= B= T= fd=0|1]\n");
      return 2;
    }
  }
  if (cfg.L < 1 || cfg.NH < 1 || cfg.C < 1 || cfg.C % cfg.NH != 0 ||
      cfg.V < 1 || cfg.Vp < cfg.V || B < 1 || T < 1 || T > cfg.maxT) {
    fprintf(stderr, "gpt2_check: need NH | C, V <= Vp, 1 <= T <= maxT\n");
    return 2;
  }
  printf("L=%d NH=%d C=%d maxT=%d V=%d Vp=%d B=%d T=%d\n", cfg.L, cfg.NH, cfg.C,
         cfg.maxT, cfg.V, cfg.Vp, B, T);
  int failures = gpt2_verify(&cfg, B, T, fd, 1);
  if (failures)
    printf("%d check(s) failed\n", failures);
  else
    printf("all checks passed\n");
  return failures ? 1 : 0;
}
