#!/usr/bin/env python3
"""Writes the C source of an MLP whose loss gradient ADPlugin computes.

The network of depth d maps one input to one output through d hidden layers
of width 16 with ReLU: 1 -> 16 -> ... -> 16 -> 1, that is d + 1 dense layers
(the last one linear). Depth 0 is a single linear 1 -> 1 layer (y = w x + b).
The loss is the mean squared error over 128 fixed points, and `main` asks
for its gradient with respect to every weight and bias, all kept in one flat
array `params` passed to `__ad_autodiff` as a duplicated pointer.

Two variants:
  shared    every layer calls one function, dense(w, b, x, y, nin, nout, relu)
  distinct  layer k is its own function layer_k(p, x, y), with its sizes as
            constants (what a generator of per-layer code would write)
The layer functions are noinline so that the program keeps that shape
whatever the inliner decides at -O2.

  --baseline     the same program without the gradient call: loss only
  --handwritten  the gradient comes from loss_grad(p, xs, ys, dp), written by
                 hand as an expert would, instead of __ad_autodiff: per point,
                 a forward pass through the same layer functions that keeps
                 every layer's output, then one backward function per layer
                 (shared: dense_backward(w, x, dy, dw, db, dx, y, nin, nout,
                 relu), the ReLU mask taken from the stored output y;
                 distinct: layer_k_backward with its sizes as constants,
                 mirroring layer_k). It accumulates into dp; no plugin needed
  --check        main also compares the gradient (the plugin's, or
                 loss_grad's with --handwritten) with central finite
                 differences for a few weights and exits 1 on a mismatch

--baseline excludes the other two; --handwritten --check checks loss_grad.
Both gradient programs print the same line, "loss L gradient norm N".

Usage: gen_mlp.py DEPTH {shared,distinct} [--baseline | [--handwritten]
                  [--check]] [-o FILE]

generate(depth, variant, mode) returns the text; mode is one of MODES.
"""
import argparse
import sys

WIDTH = 16
POINTS = 128
# baseline: loss only; ad: __ad_autodiff; handwritten: loss_grad; the
# -check ones add the finite-difference comparison to main.
MODES = ("baseline", "ad", "check", "handwritten", "handwritten-check")


def layer_dims(depth):
    """(inputs, outputs, relu) of each dense layer, input to output."""
    if depth == 0:
        return [(1, 1, False)]
    dims = [(1, WIDTH, True)]
    dims += [(WIDTH, WIDTH, True)] * (depth - 1)
    dims.append((WIDTH, 1, False))
    return dims


def offsets(dims):
    """Offset in `params` of each layer's weights (nout x nin, row-major),
    followed by its nout biases; and the total count."""
    result, at = [], 0
    for nin, nout, _ in dims:
        result.append(at)
        at += nin * nout + nout
    return result, at


SHARED_LAYER = """\
/* y = W x + b, then max(y, 0) if relu; W is nout x nin, row-major. */
__attribute__((noinline)) void dense(const double *w, const double *b,
                                     const double *x, double *y, int nin,
                                     int nout, int relu) {
  for (int o = 0; o < nout; ++o) {
    double s = b[o];
    for (int i = 0; i < nin; ++i)
      s += w[o * nin + i] * x[i];
    y[o] = relu && s < 0.0 ? 0.0 : s;
  }
}
"""

DISTINCT_LAYER = """\
/* Layer {k}: {nin} -> {nout}{act}. */
__attribute__((noinline)) void layer_{k}(const double *p, const double *x,
                                        double *y) {{
  for (int o = 0; o < {nout}; ++o) {{
    double s = p[{nweights} + o];
    for (int i = 0; i < {nin}; ++i)
      s += p[o * {nin} + i] * x[i];
    y[o] = {result};
  }}
}}
"""


SHARED_BACKWARD = """\
/* Backward of dense: given dy = dL/dy and the stored output y, adds dL/dW
 * to dw and dL/db to db, and sets dx = dL/dx (unless dx is null: the first
 * layer's input is data). ReLU passes dy where y > 0. */
__attribute__((noinline)) void dense_backward(const double *w, const double *x,
                                              const double *dy, double *dw,
                                              double *db, double *dx,
                                              const double *y, int nin,
                                              int nout, int relu) {
  if (dx)
    for (int i = 0; i < nin; ++i)
      dx[i] = 0.0;
  for (int o = 0; o < nout; ++o) {
    double g = relu && y[o] <= 0.0 ? 0.0 : dy[o];
    db[o] += g;
    for (int i = 0; i < nin; ++i)
      dw[o * nin + i] += g * x[i];
    if (dx)
      for (int i = 0; i < nin; ++i)
        dx[i] += w[o * nin + i] * g;
  }
}
"""

DISTINCT_BACKWARD = """\
/* Backward of layer {k}: adds dL/dp of its weights and biases to dp (same
 * offsets as p), {dx_doc}. */
__attribute__((noinline)) void layer_{k}_backward(const double *p,
                                                 const double *x,
                                                 const double *dy, double *dp,
                                                 double *dx, const double *y) {{
{dx_init}  for (int o = 0; o < {nout}; ++o) {{
    double g = {grad};
    dp[{nweights} + o] += g;
    for (int i = 0; i < {nin}; ++i)
      dp[o * {nin} + i] += g * x[i];
{dx_loop}  }}
}}
"""


def handwritten_gradient(dims, offs, variant):
    """loss_grad: per point, the forward pass keeping every layer's output,
    then the layers' backward functions from the last to the first."""
    out = []
    if variant == "shared":
        out.append(SHARED_BACKWARD)
    else:
        for k, (nin, nout, relu) in enumerate(dims):
            first = k == 0
            out.append(DISTINCT_BACKWARD.format(
                k=k, nin=nin, nout=nout, nweights=nin * nout,
                grad="y[o] > 0.0 ? dy[o] : 0.0" if relu else "dy[o]",
                dx_doc=("dx unused: the input is data" if first else
                        "sets dx = dL/dx"),
                dx_init="" if first else
                "  for (int i = 0; i < %d; ++i)\n    dx[i] = 0.0;\n" % nin,
                dx_loop="" if first else
                "    for (int i = 0; i < %d; ++i)\n"
                "      dx[i] += p[o * %d + i] * g;\n" % (nin, nin)))
    layers = len(dims)
    forward, backward = [], []
    for k, ((nin, nout, relu), off) in enumerate(zip(dims, offs)):
        if variant == "shared":
            forward.append("    dense(p + %d, p + %d, act[%d], act[%d], %d, "
                           "%d, %d);" % (off, off + nin * nout, k, k + 1,
                                         nin, nout, int(relu)))
        else:
            forward.append("    layer_%d(p + %d, act[%d], act[%d]);"
                           % (k, off, k, k + 1))
    # The output's gradient is in g0; layer k reads dy from one buffer and
    # writes dx into the other.
    for k in reversed(range(layers)):
        nin, nout, relu = dims[k]
        off = offs[k]
        dy = "g%d" % ((layers - 1 - k) % 2)
        dx = "0" if k == 0 else "g%d" % ((layers - k) % 2)
        if variant == "shared":
            backward.append(
                "    dense_backward(p + %d, act[%d], %s, dp + %d, dp + %d, %s, "
                "act[%d], %d, %d, %d);" % (off, k, dy, off, off + nin * nout,
                                           dx, k + 1, nin, nout, int(relu)))
        else:
            backward.append("    layer_%d_backward(p + %d, act[%d], %s, "
                            "dp + %d, %s, act[%d]);"
                            % (k, off, k, dy, off, dx, k + 1))
    out.append("""\
/* Gradient of loss with respect to p, added to dp. */
void loss_grad(const double *p, const double *xs, const double *ys,
               double *dp) {
  for (int k = 0; k < POINTS; ++k) {
    double act[%d][WIDTH]; /* act[j]: input of layer j; act[%d]: the output */
    double g0[WIDTH], g1[WIDTH];
    act[0][0] = xs[k];
%s
    g0[0] = 2.0 * (act[%d][0] - ys[k]) / POINTS;
%s
  }
}
""" % (layers + 1, layers, "\n".join(forward), layers, "\n".join(backward)))
    return out


def generate(depth, variant, mode):
    dims = layer_dims(depth)
    offs, nparams = offsets(dims)
    if mode not in MODES:
        raise ValueError("mode %r is not one of %s" % (mode, ", ".join(MODES)))
    handwritten = mode.startswith("handwritten")
    check = mode.endswith("check")
    out = []
    out.append("/* Generated by bench/compile_time/gen_mlp.py: depth %d, %s "
               "layers%s. */" % (depth, variant,
                                 ", no gradient" if mode == "baseline" else
                                 ", handwritten gradient" if handwritten
                                 else ""))
    out.append("#include <ad.h>\n#include <math.h>\n#include <stdio.h>\n")
    out.append("#define POINTS %d\n#define WIDTH %d\n#define NPARAMS %d\n"
               % (POINTS, WIDTH, nparams))
    if variant == "shared":
        out.append(SHARED_LAYER)
    else:
        for k, (nin, nout, relu) in enumerate(dims):
            out.append(DISTINCT_LAYER.format(
                k=k, nin=nin, nout=nout, nweights=nin * nout,
                act=", ReLU" if relu else "",
                result="s < 0.0 ? 0.0 : s" if relu else "s"))

    # The loss: the activations go back and forth between two buffers.
    body = []
    for k, ((nin, nout, relu), off) in enumerate(zip(dims, offs)):
        src, dst = ("a", "b") if k % 2 == 0 else ("b", "a")
        if variant == "shared":
            body.append("    dense(p + %d, p + %d, %s, %s, %d, %d, %d);"
                        % (off, off + nin * nout, src, dst, nin, nout,
                           int(relu)))
        else:
            body.append("    layer_%d(p + %d, %s, %s);" % (k, off, src, dst))
    result = "b" if len(dims) % 2 == 1 else "a"
    out.append("""\
/* Mean squared error of the network with parameters p over the points. */
double loss(const double *p, const double *xs, const double *ys) {
  double total = 0.0;
  for (int k = 0; k < POINTS; ++k) {
    double a[WIDTH], b[WIDTH];
    a[0] = xs[k];
%s
    double e = %s[0] - ys[k];
    total += e * e;
  }
  return total / POINTS;
}
""" % ("\n".join(body), result))

    if handwritten:
        out.extend(handwritten_gradient(dims, offs, variant))

    out.append("""\
static double params[NPARAMS], dparams[NPARAMS], xs[POINTS], ys[POINTS];

/* Deterministic weights in [-0.5, 0.5) and points on y = sin(3x). */
static void init(void) {
  unsigned state = 12345u;
  for (int i = 0; i < NPARAMS; ++i) {
    state = state * 1103515245u + 12345u;
    params[i] = (double)(state >> 8) / (double)(1u << 24) - 0.5;
  }
  for (int k = 0; k < POINTS; ++k) {
    xs[k] = -1.0 + 2.0 * k / (POINTS - 1);
    ys[k] = sin(3.0 * xs[k]);
  }
}
""")
    main = ["int main(void) {", "  init();",
            "  double l = loss(params, xs, ys);"]
    if handwritten:
        main.append("  loss_grad(params, xs, ys, dparams);")
    elif mode != "baseline":
        main.append("  __ad_autodiff((void *)loss, params, dparams, "
                    "__ad_const, xs, __ad_const, ys);")
    if mode != "baseline":
        main.append("  double norm = 0.0;")
        main.append("  for (int i = 0; i < NPARAMS; ++i)")
        main.append("    norm += dparams[i] * dparams[i];")
        main.append('  printf("loss %.17g gradient norm %.17g\\n", l, '
                    'sqrt(norm));')
    else:
        main.append('  printf("loss %.17g\\n", l);')
    if check:
        main.append("""\
  /* Central differences for a spread of weights of every layer. */
  int bad = 0;
  for (int i = 0; i < NPARAMS; i += NPARAMS / 23 + 1) {
    double keep = params[i], h = 1e-6;
    params[i] = keep + h;
    double up = loss(params, xs, ys);
    params[i] = keep - h;
    double down = loss(params, xs, ys);
    params[i] = keep;
    double fd = (up - down) / (2 * h);
    double err = fabs(fd - dparams[i]);
    if (err > 1e-6 + 1e-5 * fabs(fd)) {
      printf("MISMATCH d/dp[%%d]: %s %%.10g FD %%.10g\\n", i, dparams[i], fd);
      bad = 1;
    }
  }
  printf(bad ? "gradient WRONG\\n" : "gradient matches finite differences\\n");
  return bad;""" % ("handwritten" if handwritten else "AD"))
    else:
        main.append("  return 0;")
    main.append("}")
    out.append("\n".join(main))
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("depth", type=int)
    parser.add_argument("variant", choices=["shared", "distinct"])
    parser.add_argument("--baseline", action="store_true",
                        help="no gradient call: the forward loss only")
    parser.add_argument("--handwritten", action="store_true",
                        help="gradient by a handwritten loss_grad, not AD")
    parser.add_argument("--check", action="store_true",
                        help="compare with finite differences, exit 1 if off")
    parser.add_argument("-o", "--output", help="file to write (default: stdout)")
    args = parser.parse_args()
    if args.depth < 0:
        parser.error("depth must be >= 0")
    if args.baseline and (args.handwritten or args.check):
        parser.error("--baseline has no gradient: not with --handwritten "
                     "or --check")
    mode = ("baseline" if args.baseline else
            ("handwritten" if args.handwritten else "ad") if not args.check
            else "handwritten-check" if args.handwritten else "check")
    text = generate(args.depth, args.variant, mode)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
