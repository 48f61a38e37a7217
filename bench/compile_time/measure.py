#!/usr/bin/env python3
"""Compile time and code size of ADPlugin against depth: bench/compile_time.

For each variant of gen_mlp.py (shared / distinct layer functions) and each
depth, compiles with `clang-22 -O2 -c`
  - baseline: the program without the gradient, no plugin;
  - handwritten: the program with a handwritten gradient (gen_mlp.py
    --handwritten: forward pass keeping the activations, one backward
    function per layer), no plugin;
  - with AD: the program with the __ad_autodiff call, with the plugin;
each --repeats times, keeping the minimum CPU time (user + system of the
clang process tree, which other work on the machine disturbs less than wall
time), and the .text size of the object (the sizes of the sections whose
name starts with .text, from llvm-size -A). It prints, per row, AD /
handwritten for time and for text, and t(2d) / t(d) for the AD compile.

Then it prints whether the targets hold: at depths 4..32, AD / handwritten
<= 1.2 in compile time and <= 1.3 in text, with the largest ratios (this
does not change the exit status: timings are noisy). Last, at a small depth
(--check-depth), it builds and runs the finite-difference check of the AD
and of the handwritten gradient of both variants and compares their
gradient norms (relative difference <= 1e-10); it exits 1 if one is off.

  measure.py [--plugin build/ADPlugin.so] [--depths 0,1,2,4,8,16,32]
             [--variants shared,distinct] [--repeats 3] [--check-depth 2]
"""
import argparse
import os
import re
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

# The targets: AD / handwritten at depths TARGET_DEPTHS.
TARGET_DEPTHS = range(4, 33)
MAX_TIME_RATIO = 1.2
MAX_TEXT_RATIO = 1.3
NORM = re.compile(r"gradient norm (\S+)")


def llvm_tool(name):
    return (shutil.which(name + "-22") or
            os.path.join("/usr/lib/llvm-22/bin", name))


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


def text_size(size_tool, obj):
    """Bytes in the sections of `obj` whose name starts with .text."""
    out = subprocess.run([size_tool, "-A", obj], check=True,
                         capture_output=True, text=True).stdout
    total = 0
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0].startswith(".text"):
            total += int(fields[1])
    return total


def check_gradient(clang, plugin, work, depth):
    """Builds and runs the finite-difference check of the AD and the
    handwritten gradient of both variants at `depth`; their norms agree."""
    ok = True
    include = "-I" + os.path.join(ROOT, "include")
    for variant in ("shared", "distinct"):
        norms = {}
        for mode in ("check", "handwritten-check"):
            name = "%s_%s" % (mode, variant)
            src = os.path.join(work, name + ".c")
            exe = os.path.join(work, name)
            with open(src, "w") as f:
                f.write(gen_mlp.generate(depth, variant, mode))
            plugin_flag = (["-fpass-plugin=" + plugin] if mode == "check"
                           else [])
            subprocess.run([clang, "-O2"] + plugin_flag +
                           [include, src, "-o", exe, "-lm"], check=True)
            run = subprocess.run([exe], capture_output=True, text=True)
            last = run.stdout.strip().splitlines()[-1] if run.stdout else ""
            print("gradient check, depth %d, %s, %s: %s"
                  % (depth, variant,
                     "AD" if mode == "check" else "handwritten", last))
            ok &= run.returncode == 0
            match = NORM.search(run.stdout)
            norms[mode] = float(match.group(1)) if match else None
        ad, hand = norms["check"], norms["handwritten-check"]
        if ad is None or hand is None:
            print("gradient check, depth %d, %s: no gradient norm printed"
                  % (depth, variant))
            ok = False
            continue
        rel = abs(ad - hand) / max(abs(ad), 1e-300)
        agree = rel <= 1e-10
        print("gradient check, depth %d, %s: AD and handwritten gradient "
              "norms %s (relative difference %.1e)"
              % (depth, variant, "agree" if agree else "DIFFER", rel))
        ok &= agree
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plugin", default=os.path.join(ROOT, "build",
                                                         "ADPlugin.so"))
    parser.add_argument("--clang", default=shutil.which("clang-22") or
                        "/usr/lib/llvm-22/bin/clang")
    parser.add_argument("--size", default=llvm_tool("llvm-size"),
                        help="llvm-size (for the .text sizes)")
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

    work = tempfile.mkdtemp(prefix="ad-compile-time-")
    try:
        # A private copy: a rebuild of the plugin during the run (other work
        # in the same tree) must not change or break what is measured.
        plugin = shutil.copy(plugin, os.path.join(work, "ADPlugin.so"))
        print("clang -O2 -c: CPU seconds (user+sys), best of %d; .text "
              "bytes of the object" % args.repeats)
        header = ("%5s  %-8s | %8s  %8s  %8s  %6s | %7s  %7s  %7s  %6s | %10s"
                  % ("depth", "variant", "baseline", "hand", "AD", "AD/hw",
                     "base", "hand", "AD", "AD/hw", "t(2d)/t(d)"))
        print((" " * 18 + "%-36s   %s") % ("compile time (s)",
                                            ".text (bytes)"))
        print(header)
        print("-" * len(header))
        rows = []
        for variant in args.variants.split(","):
            ad_times = {}
            for depth in depths:
                result = {}
                for mode in ("baseline", "handwritten", "ad"):
                    name = os.path.join(work, "mlp_%s_%d_%s"
                                        % (variant, depth, mode))
                    with open(name + ".c", "w") as f:
                        f.write(gen_mlp.generate(depth, variant, mode))
                    cmd = [args.clang, "-O2", "-c", include, name + ".c",
                           "-o", name + ".o"]
                    if mode == "ad":
                        cmd.append("-fpass-plugin=" + plugin)
                    cpu, _ = best_of(cmd, args.repeats)
                    result[mode] = (cpu, text_size(args.size, name + ".o"))
                (base_t, base_s), (hand_t, hand_s), (ad_t, ad_s) = (
                    result["baseline"], result["handwritten"], result["ad"])
                ad_times[depth] = ad_t
                half = depth // 2
                doubling = ("%.2f" % (ad_t / ad_times[half])
                            if depth > 0 and depth % 2 == 0
                            and half in ad_times and half > 0 else "")
                time_ratio, text_ratio = ad_t / hand_t, ad_s / hand_s
                rows.append((variant, depth, time_ratio, text_ratio))
                print(("%5d  %-8s | %8.3f  %8.3f  %8.3f  %6.2f | %7d  %7d  "
                       "%7d  %6.2f | %10s"
                       % (depth, variant, base_t, hand_t, ad_t, time_ratio,
                          base_s, hand_s, ad_s, text_ratio,
                          doubling)).rstrip(), flush=True)

        targeted = [r for r in rows if r[1] in TARGET_DEPTHS]
        if targeted:
            misses = []
            for variant, depth, time_ratio, text_ratio in targeted:
                if time_ratio > MAX_TIME_RATIO:
                    misses.append("%s depth %d: time AD/hw %.2f > %.1f"
                                  % (variant, depth, time_ratio,
                                     MAX_TIME_RATIO))
                if text_ratio > MAX_TEXT_RATIO:
                    misses.append("%s depth %d: text AD/hw %.2f > %.1f"
                                  % (variant, depth, text_ratio,
                                     MAX_TEXT_RATIO))
            worst_time = max(targeted, key=lambda r: r[2])
            worst_text = max(targeted, key=lambda r: r[3])
            print("targets at depths %d..%d (AD/handwritten: time <= %.1f, "
                  "text <= %.1f): %s"
                  % (TARGET_DEPTHS[0], TARGET_DEPTHS[-1], MAX_TIME_RATIO,
                     MAX_TEXT_RATIO, "met" if not misses else
                     "NOT met (%d misses)" % len(misses)))
            for miss in misses:
                print("  miss: " + miss)
            print("max AD/handwritten: time %.2f (%s depth %d), text %.2f "
                  "(%s depth %d)"
                  % (worst_time[2], worst_time[0], worst_time[1],
                     worst_text[3], worst_text[0], worst_text[1]))
        ok = True
        if args.check_depth >= 0:
            ok = check_gradient(args.clang, plugin, work, args.check_depth)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
