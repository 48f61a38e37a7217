#!/usr/bin/env python3
"""AD / handwritten ratios of gpt2_bench_omp at several thread counts.

    python3 bench/gpt2/omp_ratios.py build/bench/gpt2/gpt2_bench_omp
    python3 bench/gpt2/omp_ratios.py BENCH --threads 1,2 --repetitions 5 \\
        -- --gpt2_sizes=L=2

runs the benchmark once per thread count (OMP_NUM_THREADS), each run with
Google Benchmark's repetitions in random order, so that a layer's AD and
handwritten steps alternate within the run and share whatever else the
machine is doing; arguments after -- go to the benchmark. It then prints,
per layer and for the whole step, the median wall time of each path, their
ratio and the ratio of peak_bytes at each thread count, and each path's
speed-up from the first thread count to the others. Wall time, not CPU
time: Google Benchmark's CPU time is the main thread's alone.

--json FILE... tabulates earlier runs instead (one file per thread count,
written with --benchmark_out=FILE --benchmark_out_format=json).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

LAYERS = ["encoder", "layernorm", "matmul", "attention", "gelu", "residual",
          "crossentropy", "gpt2_step"]


def load_run(path):
    """threads, {(layer, path): (median wall ms, peak bytes)}, load average."""
    with open(path) as f:
        data = json.load(f)
    medians, singles = {}, {}
    for b in data["benchmarks"]:
        name = b.get("run_name", b["name"])
        if not name.startswith("BM_"):
            continue
        layer, _, kind = name[3:].rpartition("_")
        value = (b["real_time"], b.get("peak_bytes", 0.0))
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[(layer, kind)] = value
        else:
            singles.setdefault((layer, kind), value)
    context = data.get("context", {})
    threads = int(context.get("omp_threads", 0))
    return threads, {**singles, **medians}, context.get("load_avg")


def run(bench, threads, repetitions, extra):
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    cmd = [bench, f"--benchmark_repetitions={repetitions}",
           "--benchmark_enable_random_interleaving=true",
           f"--benchmark_out={out}", "--benchmark_out_format=json", *extra]
    print(f"OMP_NUM_THREADS={threads} " + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    return out


def ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def table(runs):
    """runs: [(threads, results, load average)], the first the baseline."""
    for threads, _, load in runs:
        print(f"OMP_NUM_THREADS={threads}: load average {load}")
    head = ["layer"]
    for threads, _, _ in runs:
        head += [f"hand ms ({threads}t)", f"AD ms ({threads}t)",
                 f"AD/hand ({threads}t)", f"peak AD/hand ({threads}t)"]
    base_threads = runs[0][0]
    for threads, _, _ in runs[1:]:
        head += [f"hand {base_threads}->{threads}t", f"AD {base_threads}->{threads}t"]
    print("\n| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    base = runs[0][1]
    for layer in LAYERS:
        cells = [layer]
        for _, res, _ in runs:
            hand, ad = res.get((layer, "handwritten")), res.get((layer, "ad"))
            cells += [f"{hand[0]:.3f}" if hand else "-",
                      f"{ad[0]:.3f}" if ad else "-",
                      ratio(ad and ad[0], hand and hand[0]),
                      ratio(ad and ad[1], hand and hand[1])]
        for _, res, _ in runs[1:]:
            for kind in ("handwritten", "ad"):
                one, many = base.get((layer, kind)), res.get((layer, kind))
                cells.append(ratio(one and one[0], many and many[0]))
        print("| " + " | ".join(cells) + " |")


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("bench", nargs="?", help="the gpt2_bench_omp binary")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--json", nargs="+", help="tabulate these runs instead")
    args = p.parse_args(argv)
    if args.json:
        files = args.json
    elif args.bench:
        files = [run(args.bench, int(t), args.repetitions, extra)
                 for t in args.threads.split(",")]
    else:
        p.error("give the benchmark binary or --json")
    table([load_run(path) for path in files])


if __name__ == "__main__":
    main()
