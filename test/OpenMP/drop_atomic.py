#!/usr/bin/env python3
"""drop_atomic.py IN.ll OUT.ll [--function REGEX] [--count N]

Prepares the IR that clang and the plugin made of a program for a run under
ThreadSanitizer, and, with --function, breaks it on purpose: the first N
(default 1) `atomicrmw fadd` of the first function whose name matches REGEX
become a plain load, fadd and store, as a derivative that forgot an atomic
would have them. race_missing_atomic.test uses it to show that the race
check catches a missing atomic in a derivative.

Every attribute group gets `sanitize_thread`, so that clang's TSan pass
instruments the functions (the IR was made without -fsanitize=thread: TSan
would have instrumented the atomics before this script could drop them).
Exits 1 when --function matches no function with an atomic fadd.
"""
import argparse
import re
import sys

ATOMIC_FADD = re.compile(
    r"^(\s*)(%[\w.]+) = atomicrmw fadd ptr (%[\w.]+), (double|float) (\S+) "
    r"monotonic, align (\d+)(.*)$")
DEFINE = re.compile(r"^define .*@\"?([\w.$]+)\"?\(")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--function", help="regex of the function to break")
    parser.add_argument("--count", type=int, default=1)
    args = parser.parse_args()

    out, function, dropped, target = [], None, 0, None
    for line in open(args.input):
        line = line.rstrip("\n")
        defined = DEFINE.match(line)
        if defined:
            function = defined.group(1)
        line = re.sub(r"^(attributes #\d+ = \{)", r"\1 sanitize_thread ", line)
        fadd = ATOMIC_FADD.match(line)
        wanted = (args.function and fadd and dropped < args.count and
                  re.search(args.function, function) and
                  target in (None, function))
        if not wanted:
            out.append(line)
            continue
        target = function
        dropped += 1
        indent, result, ptr, ty, value, align, rest = fadd.groups()
        plain = "%dropped.atomic.{}".format(dropped)
        out.append("{}{} = load {}, ptr {}, align {}{}".format(
            indent, result, ty, ptr, align, rest))
        out.append("{}{} = fadd {} {}, {}".format(indent, plain, ty, result,
                                                  value))
        out.append("{}store {} {}, ptr {}, align {}{}".format(
            indent, ty, plain, ptr, align, rest))
    with open(args.output, "w") as output:
        output.write("\n".join(out) + "\n")
    if args.function:
        if not dropped:
            print("drop_atomic.py: no atomic fadd in a function matching "
                  + args.function, file=sys.stderr)
            return 1
        print("drop_atomic.py: dropped {} atomic fadd in {}".format(
            dropped, target), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
