#!/usr/bin/env python3
"""Fuzz how derivatives move through memory: random C programs that build a
struct of mixed fields (doubles, floats, integers of every width, chars,
pointers to the differentiated arrays, a nested struct, a double array),
copy it from one allocation to the next in the ways C and the optimizer do
(struct assignment, memcpy, memmove, field by field, through helpers, by
value, byte by byte), optionally recursively as in issue 12's tile sum, and
read a scalar out of it. Each program is compiled with the plugin at each
level and run: its reverse gradient and forward tangents are compared with
central finite differences and with each other.

Classes per seed and level:
  OK      compiled, and every derivative matched
  DIAG    the plugin reported a clean error (a copy it cannot type, a byte
          copy of a double, ...): allowed
  WRONG   compiled, but a derivative is wrong or the program crashed
  CRASH   the compiler crashed or reported an internal error

The exit status is 1 when any seed is WRONG or CRASH.

  test/fuzz/memory_fuzz.py --seeds 0:200 --plugin build/ADPlugin.so -v
  test/fuzz/memory_fuzz.py --emit 17 > prog.c    # the program of seed 17
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter

FIELD_TYPES = ['double', 'float', 'int', 'long long', 'short', 'char',
               'dptr', 'fptr', 'inner', 'darr']
COPIES = ['assign', 'memcpy', 'memmove', 'field', 'helper_assign',
          'helper_memcpy', 'byval', 'bytes']
ALLOCS = ['stack', 'malloc', 'calloc']


def ctype(t):
    return {'dptr': 'double *', 'fptr': 'float *',
            'inner': 'struct In'}.get(t, t)


def generate(seed):
    R = random.Random(seed)
    fields = [R.choice(FIELD_TYPES) for _ in range(R.randint(2, 6))]
    if not any(t in ('double', 'float', 'dptr', 'fptr', 'inner', 'darr')
               for t in fields):
        fields.append(R.choice(['double', 'dptr']))
    decl, fill, use = [], [], []
    k = 0
    for i, t in enumerate(fields):
        decl.append(f'  double f{i}[2];' if t == 'darr'
                    else f'  {ctype(t)} f{i};')
        if t in ('double', 'float'):
            fill.append(f'  s->f{i} = ({t})(x[{k % 8}] * 1.5);')
            use.append(f'  r += (double)s->f{i} * (double)s->f{i} * '
                       f'{R.uniform(0.5, 2):.3f};')
            k += 1
        elif t in ('int', 'long long', 'short', 'char'):
            fill.append(f'  s->f{i} = {R.randint(1, 4)};')
            use.append(f'  r *= 1.0 + 0.1 * (double)s->f{i};')
        elif t == 'dptr':
            fill.append(f'  s->f{i} = x + {R.randint(0, 4)};')
            use.append(f'  r += s->f{i}[0] * s->f{i}[1] + sin(s->f{i}[2]);')
        elif t == 'fptr':
            fill.append(f'  s->f{i} = xf + {R.randint(0, 4)};')
            use.append(f'  r += (double)s->f{i}[0] * (double)s->f{i}[1] + '
                       f'sin((double)s->f{i}[2]);')
        elif t == 'inner':
            fill.append(f'  s->f{i}.a = x[{k % 8}] - 0.5; '
                        f's->f{i}.b = {R.randint(1, 3)};')
            use.append(f'  r += s->f{i}.a * s->f{i}.a * (double)s->f{i}.b;')
            k += 1
        else:  # darr
            fill.append(f'  s->f{i}[0] = x[{k % 8}]; '
                        f's->f{i}[1] = x[{(k + 1) % 8}] * x[{k % 8}];')
            use.append(f'  r += s->f{i}[0] * s->f{i}[1];')
            k += 2

    def copy(m, d, s):
        if m == 'assign':
            return f'  *{d} = *{s};'
        if m in ('memcpy', 'memmove'):
            return f'  {m}({d}, {s}, sizeof(S));'
        if m == 'field':
            return '\n'.join(
                f'  {d}->f{i}[0] = {s}->f{i}[0]; {d}->f{i}[1] = {s}->f{i}[1];'
                if t == 'darr' else f'  {d}->f{i} = {s}->f{i};'
                for i, t in enumerate(fields))
        return {'helper_assign': f'  copy_assign({d}, {s});',
                'helper_memcpy': f'  copy_memcpy({d}, {s});',
                'byval': f'  *{d} = pass_byval(*{s});',
                'bytes': f'  copy_bytes({d}, {s});'}[m]

    body = ['  S st0;', '  S *s0 = &st0;', '  fill(s0, x, xf);']
    frees, chain = [], []
    for c in range(1, R.randint(1, 3) + 1):
        a, m = R.choice(ALLOCS), R.choice(COPIES)
        chain.append((a, m))
        if a == 'stack':
            body.append(f'  S st{c}; S *s{c} = &st{c};')
        else:
            call = 'malloc(sizeof(S))' if a == 'malloc' else \
                'calloc(1, sizeof(S))'
            body.append(f'  S *s{c} = {call};')
            frees.append(f'  free(s{c});')
        body.append(copy(m, f's{c}', f's{c - 1}'))
    recursive = R.random() < 0.3
    last = f's{len(chain)}'
    body.append(f'  double r = rec({last}, 2);' if recursive
                else f'  double r = use({last});')
    body += frees + ['  return r;']
    ni = '__attribute__((noinline))' if R.random() < 0.7 else ''
    has_float = int(any(t in ('float', 'fptr') for t in fields))
    nl = '\n'
    return f'''// memory_fuzz.py seed {seed}: fields {fields}, copies {chain}, recursive {recursive}
#include <ad.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct In {{ double a; int b; }};
typedef struct {{
{nl.join(decl)}
}} S;
{ni} static void fill(S *s, double *x, float *xf) {{
{nl.join(fill)}
}}
{ni} static double use(const S *s) {{
  double r = 0;
{nl.join(use)}
  return r;
}}
{ni} static void copy_assign(S *d, const S *s) {{ *d = *s; }}
{ni} static void copy_memcpy(S *d, const S *s) {{ memcpy(d, s, sizeof(S)); }}
{ni} static void copy_bytes(S *d, const S *s) {{
  char *dc = (char *)d;
  const char *sc = (const char *)s;
  for (size_t i = 0; i < sizeof(S); i++) dc[i] = sc[i];
}}
{ni} static S pass_byval(S s) {{ return s; }}
{ni} static double rec(S *s, int depth) {{
  if (depth == 0) return use(s);
  S *a = malloc(sizeof(S)), *b = malloc(sizeof(S));
  *a = *s;
  memcpy(b, s, sizeof(S));
  double r = rec(a, depth - 1) + 0.5 * rec(b, depth - 1);
  free(a); free(b);
  return r;
}}
double f(double *x, float *xf) {{
{nl.join(body)}
}}
int main(void) {{
  double x[8], dx[8] = {{0}};
  float xf[8], dxf[8] = {{0}};
  for (int i = 0; i < 8; i++) x[i] = 0.3 + 0.17 * i;
  for (int i = 0; i < 8; i++) xf[i] = (float)(0.5 + 0.125 * i);
  __ad_autodiff((void *)f, x, dx, xf, dxf);
  int bad = 0;
  for (int i = 0; i < 16; i++) {{
    double fd, t[8] = {{0}};
    float tf[8] = {{0}};
    if (i < 8) {{
      double h = 1e-6, s = x[i];
      x[i] = s + h; double fp = f(x, xf);
      x[i] = s - h; double fm = f(x, xf);
      x[i] = s;
      fd = (fp - fm) / (2 * h);
      t[i] = 1;
    }} else {{
      float h = 1.0f / 1024, s = xf[i - 8];
      xf[i - 8] = s + h; double fp = f(x, xf);
      xf[i - 8] = s - h; double fm = f(x, xf);
      xf[i - 8] = s;
      fd = (fp - fm) / (2 * h);
      tf[i - 8] = 1;
    }}
    double tg = __ad_fwddiff((void *)f, x, t, xf, tf);
    double rv = i < 8 ? dx[i] : dxf[i - 8];
    double tol = {has_float} ? 2e-2 : 1e-5;
    if (fabs(rv - fd) > tol * (1 + fabs(fd))) {{ printf("reverse %d: %g, fd %g\\n", i, rv, fd); bad++; }}
    if (fabs(tg - fd) > tol * (1 + fabs(fd))) {{ printf("forward %d: %g, fd %g\\n", i, tg, fd); bad++; }}
    if (fabs(tg - rv) > 1e-4 * (1 + fabs(rv))) {{ printf("forward %d: %g, reverse %g\\n", i, tg, rv); bad++; }}
  }}
  return bad ? 1 : 0;
}}
'''


def classify(seed, level, args, work):
    src = os.path.join(work, f's{seed}.c')
    exe = os.path.join(work, f's{seed}.O{level}')
    with open(src, 'w') as f:
        f.write(generate(seed))
    cc = [args.cc, f'-O{level}', f'-fpass-plugin={args.plugin}',
          f'-I{args.include}', src, '-o', exe, '-lm']
    try:
        r = subprocess.run(cc, capture_output=True, text=True,
                           timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return 'CRASH', 'compiler timeout'
    if r.returncode:
        errs = [l.split('error:', 1)[1].strip() for l in r.stderr.splitlines()
                if 'error:' in l]
        if 'Stack dump' in r.stderr or 'internal error' in r.stderr or \
           not errs:
            return 'CRASH', r.stderr.strip().splitlines()[-1:] or ['?']
        return 'DIAG', errs[0]
    try:
        r = subprocess.run([exe], capture_output=True, text=True,
                           timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return 'WRONG', 'timeout'
    if r.returncode:
        return 'WRONG', f'exit {r.returncode}: ' + \
            ' | '.join(r.stdout.splitlines()[:3])
    return 'OK', ''


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--seeds', default='0:20', help='A:B (B exclusive)')
    p.add_argument('--levels', default='0,1,2,3')
    p.add_argument('--plugin', default=os.path.join(root, 'build',
                                                    'ADPlugin.so'))
    p.add_argument('--include', default=os.path.join(root, 'include'))
    p.add_argument('--cc', default='clang-22')
    p.add_argument('--timeout', type=int, default=120)
    p.add_argument('--emit', type=int, help='print the program of this seed')
    p.add_argument('--keep', help='keep sources and binaries in this folder')
    p.add_argument('-v', '--verbose', action='store_true',
                   help='one line per seed and level that is not OK')
    args = p.parse_args()
    if args.emit is not None:
        sys.stdout.write(generate(args.emit))
        return 0
    lo, hi = map(int, args.seeds.split(':'))
    levels = [int(l) for l in args.levels.split(',')]
    work = args.keep or tempfile.mkdtemp(prefix='memory_fuzz.')
    os.makedirs(work, exist_ok=True)
    tally, failed = Counter(), []
    for seed in range(lo, hi):
        for level in levels:
            kind, what = classify(seed, level, args, work)
            tally[kind] += 1
            if kind in ('WRONG', 'CRASH'):
                failed.append((seed, level, kind, what))
            if args.verbose and kind != 'OK':
                print(f'{seed} -O{level} {kind} {what}', flush=True)
    print(f'memory_fuzz: seeds {lo}:{hi}, levels {args.levels}: ' +
          ', '.join(f'{k} {tally[k]}' for k in ('OK', 'DIAG', 'WRONG',
                                                   'CRASH')))
    for seed, level, kind, what in failed:
        print(f'  {kind} seed {seed} -O{level}: {what}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
