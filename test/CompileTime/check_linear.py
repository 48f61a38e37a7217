#!/usr/bin/env python3
"""Deterministic proxies of linear compile time (test/CompileTime/linear.test).

Wall time on a loaded machine is too noisy for a test, so this checks what
compile time follows instead, on the MLP programs of
bench/compile_time/gen_mlp.py compiled by `clang-22 -O2 -S -emit-llvm`:

  - derivative functions synthesized (the -Rpass=ad module summary):
    the same at every depth when every layer calls one shared function, and
    growing by the same number per layer when each layer is its own
    function (a derivative is built once per function, never per call);
  - size of the optimized IR with the plugin (instructions in function
    bodies): doubling the depth at most (about) doubles it, and it stays
    within a fixed factor of the IR of the program without the gradient.

Exits 1 with the table and the broken property on failure.
"""
import argparse
import os
import re
import subprocess
import sys

SUMMARY = re.compile(r"(\d+) differentiation call\(s\): (\d+) derivative "
                     r"function\(s\) synthesized, (\d+) request\(s\) reused")
DEPTHS = [0, 1, 2, 4, 8, 16, 32]
# Doubling the depth may cost a little more than double: the fixed part
# (main, loss, the tape runtime) is small but not zero.
MAX_DOUBLING = 2.2
# IR of the gradient program / IR of the loss alone. Reverse mode keeps the
# primal and adds an augmented forward sweep and an adjoint per function;
# measured about 4 (shared: the generic dense loop is vectorized with run-time
# alias checks) and 5 (distinct: the 16x16 layers are fully unrolled).
MAX_AD_OVER_BASELINE = 8.0


def instructions(ir):
    """Instructions in the function bodies of textual IR."""
    count, inside = 0, False
    for line in ir.splitlines():
        if line.startswith("define "):
            inside = True
        elif line.startswith("}"):
            inside = False
        elif inside and line.startswith("  ") and not line.lstrip().startswith(";"):
            count += 1
    return count


def compile_ir(args, source, plugin):
    cmd = [args.clang, "-O2", "-S", "-emit-llvm", "-I" + args.include,
           "-x", "c", "-", "-o", "-"]
    if plugin:
        cmd += ["-fpass-plugin=" + args.plugin, "-Rpass=ad"]
    run = subprocess.run(cmd, input=source, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("compile failed: %s\n%s" % (" ".join(cmd), run.stderr))
    return run.stdout, run.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--gen", required=True, help="path of gen_mlp.py")
    parser.add_argument("--include", required=True)
    parser.add_argument("--clang", default="clang-22")
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(args.gen)))
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    import gen_mlp

    failures = []
    print("%-8s %5s %11s %8s %9s %8s %9s" % ("variant", "depth", "synthesized",
                                             "ir(AD)", "ir(base)", "AD/base",
                                             "ir(2d)/ir(d)"))
    for variant in ("shared", "distinct"):
        synthesized, ir_ad = {}, {}
        for depth in DEPTHS:
            ad_ir, remarks = compile_ir(
                args, gen_mlp.generate(depth, variant, "ad"), True)
            base_ir, _ = compile_ir(
                args, gen_mlp.generate(depth, variant, "baseline"), False)
            match = SUMMARY.search(remarks)
            if not match:
                sys.exit("no -Rpass=ad summary at depth %d:\n%s"
                         % (depth, remarks))
            synthesized[depth] = int(match.group(2))
            ir_ad[depth] = instructions(ad_ir)
            ratio = ir_ad[depth] / instructions(base_ir)
            doubling = (ir_ad[depth] / ir_ad[depth // 2]
                        if depth >= 2 else None)
            print("%-8s %5d %11d %8d %9d %8.2f %9s"
                  % (variant, depth, synthesized[depth], ir_ad[depth],
                     instructions(base_ir), ratio,
                     "%.2f" % doubling if doubling else ""))
            if ratio > MAX_AD_OVER_BASELINE:
                failures.append("%s depth %d: IR with AD is %.2fx the "
                                "baseline's (> %.1f)"
                                % (variant, depth, ratio, MAX_AD_OVER_BASELINE))
            if doubling and doubling > MAX_DOUBLING:
                failures.append("%s depth %d: IR grew %.2fx from depth %d "
                                "(> %.1f)" % (variant, depth, doubling,
                                              depth // 2, MAX_DOUBLING))
        # Derivatives synthesized: S(d) = S(0) + k d, with k = 0 when the
        # layers share one function and k > 0 when each has its own.
        per_layer = synthesized[1] - synthesized[0]
        if variant == "shared" and per_layer != 0:
            failures.append("shared: more derivatives at depth 1 than 0")
        if variant == "distinct" and per_layer <= 0:
            failures.append("distinct: no new derivative for a new layer")
        for depth in DEPTHS:
            if synthesized[depth] != synthesized[0] + per_layer * depth:
                failures.append("%s depth %d: %d derivative functions, not "
                                "%d + %d x depth" % (variant, depth,
                                                     synthesized[depth],
                                                     synthesized[0],
                                                     per_layer))
    for failure in failures:
        print("FAIL: " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
