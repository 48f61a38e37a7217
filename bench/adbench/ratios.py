#!/usr/bin/env python3
"""Tables of AD / handwritten ratios from adbench_bench's JSON output.

    adbench_bench --benchmark_out=adbench.json --benchmark_out_format=json
    python3 bench/adbench/ratios.py adbench.json

Prints, per GMM size and for BA, the times (ms, CPU), the derivative /
objective and AD / handwritten ratios, and peak_bytes in MiB.
"""
import json
import sys


def load(path):
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        runs[b["name"]] = (b["cpu_time"], b.get("peak_bytes", 0) / 2**20)
    return data.get("context", {}), runs


def row(cells):
    print("| " + " | ".join(cells) + " |")


def main():
    context, runs = load(sys.argv[1])
    print(f"load average: {context.get('load_avg')}\n")
    row(["d", "K", "objective ms", "hand ms", "AD ms", "hand/obj", "AD/obj",
         "AD/hand", "obj MiB", "hand MiB", "AD MiB"])
    row(["---"] * 11)
    for name in runs:
        if not name.startswith("BM_gmm_objective/"):
            continue
        size = name[len("BM_gmm_objective/"):]
        obj, hand, ad = (runs.get(f"BM_gmm_{k}/{size}")
                         for k in ("objective", "handwritten", "ad"))
        if not (hand and ad):
            continue
        d, k = size.split("/")
        row([d, k, f"{obj[0]:.3f}", f"{hand[0]:.3f}", f"{ad[0]:.3f}",
             f"{hand[0] / obj[0]:.2f}", f"{ad[0] / obj[0]:.2f}",
             f"{ad[0] / hand[0]:.2f}", f"{obj[1]:.2f}", f"{hand[1]:.2f}",
             f"{ad[1]:.2f}"])
    if "BM_ba_handwritten" in runs:
        print()
        row(["BA", "ms", "/objective", "/handwritten", "peak MiB"])
        row(["---"] * 5)
        obj, hand = runs["BM_ba_objective"], runs["BM_ba_handwritten"]
        for kind in ("objective", "handwritten", "ad", "ad_fwd"):
            t = runs.get(f"BM_ba_{kind}")
            if t:
                row([kind, f"{t[0]:.3f}", f"{t[0] / obj[0]:.2f}",
                     f"{t[0] / hand[0]:.2f}", f"{t[1]:.2f}"])


if __name__ == "__main__":
    main()
