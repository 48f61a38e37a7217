#!/usr/bin/env python3
"""The OpenMP race check: the derivative programs built with ThreadSanitizer
and run under LLVM's Archer.

Every program of test/OpenMP that lit runs with %omp_run (the derivative
programs) is compiled with the plugin, -fopenmp and -fsanitize=thread at each
optimisation level of --opt, and run with OMP_NUM_THREADS set to each count
of --threads, with Archer loaded as libomp's OMPT tool (it tells TSan about
OpenMP's synchronization: barriers, reductions, critical sections, task
dependences) and TSan ignoring the uninstrumented libomp, as Archer's
documentation says. A run passes when it exits 0: TSan exits 66 when it
reports a race, and the program exits 1 when a derivative check fails.

Programs marked XFAIL (a known bug lit expects to fail) are skipped. Prints
one line per failure (program, level, threads) with the start of its
report, and a summary; exits 1 if anything failed. One program by hand:
  test/OpenMP/race_check.py --cc "clang-22 -fpass-plugin=build/ADPlugin.so
    -Iinclude -fopenmp -Itest/OpenMP/Inputs -Itest/Integration"
    --archer /usr/lib/llvm-22/lib/libarcher.so --keep /tmp/race matvec.c
"""
import argparse
import concurrent.futures
import glob
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def derivative_programs():
    """The programs of this folder that lit runs with %omp_run, and those of
    them that lit expects to fail (XFAIL: a known bug), which are skipped."""
    found, expected_to_fail = [], []
    for path in sorted(glob.glob(os.path.join(HERE, "*.c"))):
        with open(path) as source:
            lines = source.readlines()
        if not any("RUN:" in line and "%omp_run" in line for line in lines):
            continue
        if any("XFAIL:" in line for line in lines):
            expected_to_fail.append(path)
        else:
            found.append(path)
    return found, expected_to_fail


def build_and_run(args, program, level, workdir):
    """Builds one program at one level and runs it at every thread count;
    returns a list of failure descriptions."""
    name = os.path.basename(program)
    exe = os.path.join(workdir, "{}.{}.tsan".format(name, level.lstrip("-")))
    command = shlex.split(args.cc) + [
        "-fsanitize=thread", "-g", level, program, "-o", exe, "-lm"]
    built = subprocess.run(command, capture_output=True, text=True)
    if built.returncode != 0:
        return ["{} {}: build failed\n{}".format(name, level,
                                                   built.stderr[-2000:])]
    failures = []
    for threads in args.threads.split():
        env = dict(os.environ, OMP_NUM_THREADS=threads,
                   OMP_TOOL_LIBRARIES=args.archer,
                   TSAN_OPTIONS="ignore_noninstrumented_modules=1")
        try:
            ran = subprocess.run([exe], env=env, capture_output=True,
                                 text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            failures.append("{} {} threads={}: timed out after {} s".format(
                name, level, threads, args.timeout))
            continue
        if ran.returncode != 0:
            what = ("data race" if "ThreadSanitizer" in ran.stderr
                    else "exit status {}".format(ran.returncode))
            failures.append("{} {} threads={}: {}\n{}".format(
                name, level, threads, what,
                "\n".join(ran.stderr.splitlines()[:args.lines])))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cc", required=True,
                        help="the compiler command (lit's %%clang_omp)")
    parser.add_argument("--archer", required=True, help="libarcher.so")
    parser.add_argument("--opt", default="-O0 -O2",
                        help="optimisation levels (default: -O0 -O2)")
    parser.add_argument("--threads", default="2 4",
                        help="thread counts (default: 2 4)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=120,
                        help="seconds per run")
    parser.add_argument("--lines", type=int, default=30,
                        help="lines of each failing report to print")
    parser.add_argument("--keep", help="build here and keep the binaries")
    parser.add_argument("programs", nargs="*",
                        help="programs (default: every derivative program "
                        "of test/OpenMP)")
    args = parser.parse_args()

    skipped = []
    if args.programs:
        programs = [p if os.path.isabs(p) else os.path.join(HERE, p)
                    for p in args.programs]
    else:
        programs, skipped = derivative_programs()
    for path in skipped:
        print("skipped (XFAIL in lit): " + os.path.basename(path))
    if not programs:
        print("race_check.py: no programs found")
        return 1
    workdir = args.keep or tempfile.mkdtemp(prefix="race_check.")
    os.makedirs(workdir, exist_ok=True)
    jobs = [(p, level) for p in programs for level in args.opt.split()]
    failures = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for result in pool.map(lambda job: build_and_run(args, *job, workdir),
                               jobs):
            failures += result
    for failure in failures:
        print("FAIL: " + failure)
    runs = len(jobs) * len(args.threads.split())
    print("race check: {} programs, {} builds, {} runs, {} failures".format(
        len(programs), len(jobs), runs, len(failures)))
    if not args.keep:
        subprocess.run(["rm", "-rf", workdir])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
