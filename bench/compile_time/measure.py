#!/usr/bin/env python3
"""Compile time of ADPlugin against depth: the table of bench/compile_time.

For each variant of gen_mlp.py (shared / distinct layer functions) and each
depth, compiles with `clang-22 -O2 -c`
  - baseline: the program without the gradient call, no plugin;
  - plugin-on-baseline: the same source with the plugin loaded (what loading
    and running the pass costs when there is nothing to differentiate);
  - with AD: the program with the gradient call, with the plugin;
each --repeats times, keeping the minimum CPU time (user + system of the
clang process tree, which other work on the machine disturbs less than wall
time). It prints, per row, AD / baseline and t(2d) / t(d) for the AD
compile, then checks the gradient against finite differences at a small
depth (compiled, linked and run), and exits 1 if that check fails.

  measure.py --plugin build/ADPlugin.so [--depths 0,1,2,4,8,16,32] [--repeats 3]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import gen_mlp  # noqa: E402


def compile_time(cmd):
    """(CPU seconds, wall seconds) of one compile; raises if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode()
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError("failed: %s\n%s" % (" ".join(cmd), err))
    return usage.ru_utime + usage.ru_stime, wall


def best_of(cmd, repeats):
    times = [compile_time(cmd) for _ in range(repeats)]
    return min(t[0] for t in times), min(t[1] for t in times)


def check_gradient(clang, plugin, work, depth):
    """Builds and runs the --check program of both variants at `depth`."""
    ok = True
    for variant in ("shared", "distinct"):
        src = os.path.join(work, "check_%s.c" % variant)
        exe = os.path.join(work, "check_%s" % variant)
        with open(src, "w") as f:
            f.write(gen_mlp.generate(depth, variant, "check"))
        subprocess.run([clang, "-O2", "-fpass-plugin=" + plugin,
                        "-I" + os.path.join(ROOT, "include"), src, "-o", exe,
                        "-lm"], check=True)
        run = subprocess.run([exe], capture_output=True, text=True)
        last = run.stdout.strip().splitlines()[-1] if run.stdout else ""
        print("gradient check, depth %d, %s: %s" % (depth, variant, last))
        ok &= run.returncode == 0
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plugin", default=os.path.join(ROOT, "build",
                                                         "ADPlugin.so"))
    parser.add_argument("--clang", default=shutil.which("clang-22") or
                        "/usr/lib/llvm-22/bin/clang")
    parser.add_argument("--depths", default="0,1,2,4,8,16,32")
    parser.add_argument("--variants", default="shared,distinct")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--check-depth", type=int, default=2,
                        help="depth of the finite-difference check (-1: none)")
    args = parser.parse_args()
    plugin = os.path.abspath(args.plugin)
    if not os.path.exists(plugin):
        sys.exit("no plugin at %s (cmake --build build)" % plugin)
    depths = [int(d) for d in args.depths.split(",")]
    include = "-I" + os.path.join(ROOT, "include")
    base_cmd = [args.clang, "-O2", "-c", include, "-o", os.devnull]

    work = tempfile.mkdtemp(prefix="ad-compile-time-")
    try:
        # A private copy: a rebuild of the plugin during the run (other work
        # in the same tree) must not change or break what is measured.
        plugin = shutil.copy(plugin, os.path.join(work, "ADPlugin.so"))
        with_plugin = base_cmd + ["-fpass-plugin=" + plugin]
        print("clang -O2 -c, CPU seconds (user+sys), best of %d; wall in "
              "the last column" % args.repeats)
        header = ("%5s  %-8s  %9s  %9s  %9s  %6s  %10s  %10s"
                  % ("depth", "variant", "baseline", "plugin-on", "with-AD",
                     "ratio", "t(2d)/t(d)", "AD wall"))
        print(header)
        print("-" * len(header))
        for variant in args.variants.split(","):
            ad_times = {}
            for depth in depths:
                srcs = {}
                for mode in ("baseline", "ad"):
                    srcs[mode] = os.path.join(
                        work, "mlp_%s_%d_%s.c" % (variant, depth, mode))
                    with open(srcs[mode], "w") as f:
                        f.write(gen_mlp.generate(depth, variant, mode))
                base, _ = best_of(base_cmd + [srcs["baseline"]], args.repeats)
                plugin_on, _ = best_of(with_plugin + [srcs["baseline"]],
                                       args.repeats)
                ad, ad_wall = best_of(with_plugin + [srcs["ad"]],
                                      args.repeats)
                ad_times[depth] = ad
                half = depth // 2
                doubling = ("%.2f" % (ad / ad_times[half])
                            if depth > 0 and depth % 2 == 0
                            and half in ad_times and half > 0 else "")
                print("%5d  %-8s  %9.3f  %9.3f  %9.3f  %6.2f  %10s  %10.3f"
                      % (depth, variant, base, plugin_on, ad, ad / base,
                         doubling, ad_wall), flush=True)
        ok = True
        if args.check_depth >= 0:
            ok = check_gradient(args.clang, plugin, work, args.check_depth)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
