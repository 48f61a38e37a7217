#!/usr/bin/env python3
"""Fuzz the AD plugin with random programs.

Two generators: llvm-stress (`llvm-stress -seed=N -size=S` writes
`void @autogen_SD<N>(ptr, ptr, ptr, i32, i64, i8)`, random and full of
undefined behaviour; stress.py) and synth.py (a well-defined floating-point
program `double @g(ptr %x, ptr %y, i64 %n, double %a, float %b)` with math
calls, loops, branches, memory and helper calls). For each seed the script
appends a caller that differentiates the function (markers chosen from the
signature read off the IR: pointers __ad_dup with a shadow, integers
__ad_const, floating-point values active) and runs

    opt -load-pass-plugin=ADPlugin.so -passes=ad in.ll -S -o out.ll
    opt -passes=verify out.ll -disable-output

Each seed is tried in several variants (--variants; see VARIANT_TABLE), each
in its own module so that a diagnostic in one does not hide a bug in another:
reverse (__ad_autodiff) and forward (__ad_fwddiff) mode; the llvm-stress
function as it is, rewritten to take double/float parameters and return a
double (fp*), or generated with scalable vectors (sv*); synth.py programs
(s*), the snum* ones run with lli and their derivatives compared with finite
differences; every pointer __ad_dup or activities drawn from the seed
(__ad_dup, __ad_dupnoneed, __ad_const, default markers); the passes ad,
ad<O1..3> or default<O2>,ad<O2>.

Every variant is classified as

  OK       the plugin succeeded and its output verifies (and no reference to
           an entry point or marker is left)
  DIAG     the plugin reported a clean error diagnostic (exit 1, `error:`)
  CRASH    a signal, a stack dump, `LLVM ERROR`, or an exit without a
           diagnostic
  INVALID  the output fails the verifier, opt's own verifier rejected the
           module, the plugin reported that a derivative it built is invalid
           IR ("internal error ... is invalid IR"), or markers/entry points
           are left in the output
  INTERNAL another "internal error" diagnostic of the plugin
  TIMEOUT  opt ran longer than --timeout seconds (20)
  MISMATCH (snum*) a derivative differs from finite differences, reverse
           from forward mode, or the primal memory after __ad_autodiff from
           a plain call's
  RUNFAIL  (snum*) the compiled harness crashed or hung

and a seed takes the worst class of its variants.  passed = OK + DIAG.  The
exit status is 1 when any seed failed (a class other than OK and DIAG).

--numeric adds, for each seed whose fp variants were OK, a run of the code
(lli) that compares the reverse adjoint and the forward tangent of x with
central finite differences: MISMATCH (they differ where the function is
smooth) and RUNFAIL (a derivative crashes or hangs where the primal ran) then
count as failures too.  llvm-stress code is full of undefined behaviour
(poison indices, branches on poison, out-of-bounds stores), so these are
suspects to triage by hand, not proven bugs; the check is off by default.

--check FILE.ll... classifies given modules the same way (the lit tests in
regressions/ use it): exit 0 when each is OK or DIAG (--expect pass), or only
OK / only DIAG (--expect ok / diag).

Examples:
  test/fuzz/ad_fuzz.py --seeds 0:5000 --jobs 2 --keep /tmp/fuzzfail
  test/fuzz/ad_fuzz.py --seeds 17,203 --variants rev,sv -v
  test/fuzz/ad_fuzz.py --seeds 17 --emit sv       # print the input module
  test/fuzz/ad_fuzz.py --check test/fuzz/regressions/seed_8.ll

Only the Python standard library is used.
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True    # no __pycache__ in the source tree
import stress  # noqa: E402  (test/fuzz/stress.py)
import synth  # noqa: E402  (test/fuzz/synth.py)
ROOT = os.path.dirname(os.path.dirname(HERE))
LLVM_BIN = "/usr/lib/llvm-22/bin"

CLASSES = ["OK", "DIAG", "CRASH", "INVALID", "INTERNAL", "TIMEOUT", "MISMATCH", "RUNFAIL"]
FAILING = {"CRASH", "INVALID", "INTERNAL", "TIMEOUT", "MISMATCH", "RUNFAIL"}
# The class a seed gets when its variants disagree is the most severe one.
# The numerical check's NUMOK and NUMSKIP leave a seed's class alone.
SEVERITY = {"RUNFAIL": 3, "TIMEOUT": 6, "CRASH": 5, "INVALID": 4, "MISMATCH": 3, "INTERNAL": 2,
            "DIAG": 1, "OK": 0, "NUMOK": 0, "NUMSKIP": 0, "GENFAIL": 0}
# name: (input, mode, activities, passes)
#   input       plain: the llvm-stress function as it is; fp: with double/float
#               parameters and a double result (add_fp_inputs); fpsafe: fp with
#               constant vector indices in range (defuse_indices), so that O2
#               turns less of it into `unreachable`; sv: llvm-stress run with
#               --enable-scalable-vectors; synth: a well-defined program from
#               synth.py (math functions, loops, phis, calls, memcpy, vectors);
#               synth-typed: the same without memcpy/memset, so that O2 leaves
#               no integer copies of doubles
#   mode        rev, fwd, or num: synth.py's numerical harness (both modes,
#               derivatives compared with finite differences: MISMATCH/RUNFAIL)
#   activities  dup: every pointer __ad_dup, integers __ad_const, fp active;
#               mixed: drawn from the seed (pointers dup/dupnoneed/const,
#               integers with or without a marker, some fp __ad_const)
VARIANT_TABLE = collections.OrderedDict([
    ("rev",     ("plain", "rev", "dup",   "ad")),
    ("fwd",     ("plain", "fwd", "dup",   "ad")),
    ("mixed",   ("plain", "rev", "mixed", "ad<O2>")),
    ("fprev",   ("fp",    "rev", "dup",   "ad")),
    ("fpfwd",   ("fp",    "fwd", "dup",   "ad")),
    ("fpo2",    ("fpsafe", "rev", "mixed", "default<O2>,ad<O2>")),
    ("fpo2fwd", ("fpsafe", "fwd", "mixed", "default<O2>,ad<O3>")),
    ("sv",      ("sv",    "rev", "dup",   "ad")),
    ("svfwd",   ("sv",    "fwd", "dup",   "ad<O1>")),
    ("srev",    ("synth", "rev", "dup",   "ad")),
    ("sfwd",    ("synth", "fwd", "dup",   "ad")),
    ("smixed",  ("synth", "rev", "mixed", "ad<O1>")),
    ("snum",    ("synth", "num", None,    "ad")),
    ("snumo2",  ("synth", "num", None,    "default<O2>,ad<O2>")),
    ("snumo2t", ("synth-typed", "num", None, "default<O2>,ad<O2>")),
])
VARIANTS = list(VARIANT_TABLE)


def find_tool(names):
    for name in names:
        if os.path.isabs(name):
            if os.access(name, os.X_OK):
                return name
            continue
        path = shutil.which(name)
        if path:
            return path
    return None


# ---------------------------------------------------------------- generation

FP_SCALARS = {"half", "bfloat", "float", "double", "x86_fp80", "fp128", "ppc_fp128"}
INT_RE = re.compile(r"^i\d+$")
VEC_RE = re.compile(r"^<\s*(vscale\s+x\s+)?\d+\s+x\s+(.+?)\s*>$")


def split_params(text):
    """Split a parameter list at top-level commas."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def param_type(param):
    """The type of one parameter declaration such as `ptr noundef %0`."""
    param = param.strip()
    if param.startswith("<"):
        depth = 0
        for i, ch in enumerate(param):
            depth += ch == "<"
            depth -= ch == ">"
            if depth == 0:
                return param[: i + 1]
    return param.split()[0]


def kind_of(ty):
    """'ptr', 'fp', 'int' or 'other' for a parameter type."""
    if ty == "ptr" or ty.startswith("ptr addrspace"):
        return "ptr"
    if ty in FP_SCALARS:
        return "fp"
    if INT_RE.match(ty):
        return "int"
    m = VEC_RE.match(ty)
    if m:
        elem = m.group(2).strip()
        if elem in FP_SCALARS:
            return "fp"
        if INT_RE.match(elem):
            return "int"
        if elem == "ptr":
            return "ptr"
    return "other"


def signature(ir, name):
    m = re.search(r"^define\s+(?:[\w]+\s+)*?(\S+|<[^>]*>)\s+@" + re.escape(name) + r"\((.*)\)",
                  ir, re.M)
    if not m:
        raise ValueError("no definition of @" + name)
    ret = m.group(1)
    params = [param_type(p) for p in split_params(m.group(2))]
    return ret, params


def wrapper(fname, ret, params, variant, seed):
    """A function that differentiates @fname, as IR text."""
    rng = random.Random(seed * 7919 + 13)
    _, mode, acts, _ = VARIANT_TABLE[variant]
    mixed = acts == "mixed"
    entry = "__ad_fwddiff" if mode == "fwd" else "__ad_autodiff"
    wparams, args, outs = [], [], []
    body = ["  %m.dup = load i32, ptr @__ad_dup",
            "  %m.dupnoneed = load i32, ptr @__ad_dupnoneed",
            "  %m.const = load i32, ptr @__ad_const"]
    for i, ty in enumerate(params):
        k = kind_of(ty)
        v = "%%a%d" % i
        d = "%%d%d" % i
        if k == "ptr":
            act = "dup"
            if mixed:
                act = rng.choice(["dup", "dup", "dupnoneed", "const"])
            if act == "const":
                wparams.append("%s %s" % (ty, v))
                args += ["i32 %m.const", "%s %s" % (ty, v)]
            else:
                wparams += ["%s %s" % (ty, v), "%s %s" % (ty, d)]
                args += ["i32 %%m.%s" % act, "%s %s" % (ty, v), "%s %s" % (ty, d)]
        elif k == "fp":
            if mixed and rng.random() < 0.3:
                wparams.append("%s %s" % (ty, v))
                args += ["i32 %m.const", "%s %s" % (ty, v)]
            elif mode == "fwd":
                wparams += ["%s %s" % (ty, v), "%s %s" % (ty, d)]
                if mixed and rng.random() < 0.3:
                    args.append("i32 %m.dup")          # explicit, same as the default
                args += ["%s %s" % (ty, v), "%s %s" % (ty, d)]
            else:
                wparams.append("%s %s" % (ty, v))
                args.append("%s %s" % (ty, v))
                outs.append(ty)
        else:
            wparams.append("%s %s" % (ty, v))
            if mixed and k == "int" and rng.random() < 0.5:
                args.append("%s %s" % (ty, v))          # default: constant
            else:
                args += ["i32 %m.const", "%s %s" % (ty, v)]
    if mode == "fwd":
        rty = ret if kind_of(ret) == "fp" else "void"
    elif len(outs) == 0:
        rty = "void"
    elif len(outs) == 1:
        rty = outs[0]
    else:
        rty = "{ %s }" % ", ".join(outs)
    call = "call %s (ptr, ...) @%s(ptr @%s%s)" % (
        rty, entry, fname, "".join(", " + a for a in args))
    if rty == "void":
        body += ["  " + call, "  ret void"]
        wret = "void"
    else:
        body += ["  %r = " + call, "  ret %s %%r" % rty]
        wret = rty
    lines = [
        "",
        "; ---- appended by ad_fuzz.py (variant %s)" % variant,
        "@__ad_dup = external global i32",
        "@__ad_dupnoneed = external global i32",
        "@__ad_const = external global i32",
        "declare %s @%s(ptr, ...)" % (rty, entry),
        "",
        "define %s @fuzz_main(%s) {" % (wret, ", ".join(wparams)),
    ] + body + ["}", ""]
    return "\n".join(lines)


def size_for(seed, spec):
    lo, _, hi = spec.partition(":")
    lo = int(lo)
    hi = int(hi) if hi else lo
    return lo + seed % (hi - lo + 1)


def generate(seed, variant, cfg):
    size = size_for(seed, cfg.size)
    inp, mode = VARIANT_TABLE[variant][:2]
    if inp.startswith("synth"):
        ir = synth.generate(seed, size, exact=(mode == "num"), typed=(inp == "synth-typed"))
        if mode == "num":
            return ir + synth.numeric_harness(seed, ir)
        ret, params = signature(ir, "g")
        return ir + wrapper("g", ret, params, variant, seed)
    ir = stress.run_llvm_stress(seed, size, cfg, scalable=(inp == "sv"))
    fname = "autogen_SD%d" % seed
    if inp in ("fp", "fpsafe"):
        ir = stress.add_fp_inputs(ir, fname, seed)
        if ir is None:
            raise RuntimeError("cannot rewrite @%s for fp inputs" % fname)
        if inp == "fpsafe":
            ir = stress.defuse_indices(ir)
    ret, params = signature(ir, fname)
    header = "; ad_fuzz.py seed=%d size=%d variant=%s\n" % (seed, size, variant)
    return header + ir + wrapper(fname, ret, params, variant, seed)


# ------------------------------------------------------------ classification

FRAME_RE = re.compile(r"^\s*#(\d+)\s+0x[0-9a-f]+\s+(.*)$")
SKIP_FRAMES = ("llvm::sys::PrintStackTrace", "llvm::sys::RunSignalHandlers",
               "SignalHandler", "__restore_rt", "libc.so", "__pthread_kill",
               "raise", "abort", "__GI_", "llvm::report_fatal_error",
               "llvm::llvm_unreachable_internal", "__assert_fail", "libpthread",
               "PrintStackTrace", "CrashRecoveryContext")


def short_frame(text):
    # "llvm::Foo::bar(llvm::X*) (/path/ADPlugin.so+0x1234)" -> "llvm::Foo::bar"
    m = re.match(r"(.*?)\s*\((/[^)]*)\)\s*$", text)
    sym, where = (m.group(1), m.group(2)) if m else (text, "")
    depth, out = 0, []
    for ch in sym:                      # drop argument lists and templates
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    sym = "".join(out).strip()
    if sym.startswith("0x"):
        sym = ""
    lib = os.path.basename(where.split("+")[0]) if where else ""
    return sym, lib


def crash_signature(stderr):
    frames = []
    for line in stderr.splitlines():
        m = FRAME_RE.match(line)
        if not m:
            continue
        sym, lib = short_frame(m.group(2))
        if any(s in sym or s in lib for s in SKIP_FRAMES):
            continue
        if not sym:
            continue                    # no symbol (stripped libLLVM): noise
        frames.append(sym)
    head = ""
    for line in stderr.splitlines():
        if line.startswith("LLVM ERROR:") or "Assertion" in line:
            head = normalize(line)
            break
    top = " <- ".join(frames[:4]) if frames else "no stack"
    return (head + " | " if head else "") + top


def normalize(msg):
    msg = re.sub(r"autogen_SD\d+", "autogen_SDN", msg)
    msg = re.sub(r"%[\w.]+", "%V", msg)
    msg = re.sub(r"'[^']*'", "'X'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    msg = re.sub(r"0x[0-9a-fA-F]+", "0xN", msg)
    return msg.strip()


def first_error(stderr):
    """The text of the first error diagnostic, without its location."""
    for line in stderr.splitlines():
        i = line.find("error:")
        if i >= 0:
            msg = line[i + 6:].strip()
            for key in ("invalid differentiation call", "cannot differentiate", "internal error"):
                j = msg.find(key)
                if j >= 0:
                    return msg[j:]
            return msg
    return ""


def verifier_signature(text):
    lines = [l for l in text.splitlines()
             if l.strip() and not l.startswith(" ") and not l.startswith("\t")
             and "Stack dump" not in l and not l.startswith("PLEASE")
             and not FRAME_RE.match(l)]
    for l in lines:
        if "error:" in l:
            l = l[l.find("error:") + 6:]
        l = l.strip()
        if l and not l.startswith("LLVM ERROR") and "Broken module" not in l:
            return normalize(l)[:160]
    return normalize(lines[0])[:160] if lines else "unknown verifier failure"


def run_one(seed, variant, cfg):
    """Returns (class, signature, files) where files maps name -> text."""
    try:
        ir = generate(seed, variant, cfg)
    except Exception as e:  # generation problems are not the plugin's
        return "GENFAIL", str(e)[:200], {}
    cls, sig, files = classify(ir, VARIANT_TABLE[variant][3], cfg)
    if cls == "OK" and VARIANT_TABLE[variant][1] == "num":
        return run_synth_numeric(files, cfg)
    return cls, sig, files


SYNTH_RUN_TIMEOUT = 12   # seconds per lli run of synth.py's harness


def run_synth_numeric(files, cfg):
    """Runs the three stages of synth.py's harness on the plugin's output and
    compares: OK, MISMATCH (wrong derivative or primal) or RUNFAIL."""
    tmp = tempfile.mkdtemp(prefix="adfuzz.synth.")
    try:
        path = os.path.join(tmp, "out.ll")
        with open(path, "w") as f:
            f.write(files["out.ll"])
        outs = []
        for stage, nvals in (("primal", 4 * (synth.NX + 1) + 1 + synth.NX),
                             ("reverse", 1 + 2 * synth.NX), ("forward", synth.NX + 1)):
            args = [cfg.lli, path] + ["x"] * len(outs)
            try:
                r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   timeout=SYNTH_RUN_TIMEOUT, start_new_session=True)
            except subprocess.TimeoutExpired:
                return "RUNFAIL", "%s stage: timeout" % stage, files
            text = r.stdout.decode(errors="replace").split()
            files["lli.%s.out" % stage] = "exit %d\n%s\n%s" % (
                r.returncode, "\n".join(text), r.stderr.decode(errors="replace")[-3000:])
            if r.returncode != 0 or len(text) != nvals:
                how = ("signal %d" % -r.returncode) if r.returncode < 0 else "exit %d" % r.returncode
                return "RUNFAIL", "%s stage: %s, %d values" % (stage, how, len(text)), files
            outs.append([float(t) for t in text])
        bad, detail = synth.compare(*outs)
        files["numeric.txt"] = detail + "\n" + "\n".join(bad) + "\n"
        if bad:
            kinds = sorted(set(re.sub(r"\[\d+\]", "[k]", b.split(" =")[0]) for b in bad))
            return "MISMATCH", "; ".join(kinds), files
        return "OK", "", files
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def classify(ir, passes, cfg):
    """Run the plugin on the module `ir` and classify what happened:
    (class, signature, files) where files maps name -> text."""
    tmp = tempfile.mkdtemp(prefix="adfuzz.")
    try:
        src = os.path.join(tmp, "in.ll")
        out = os.path.join(tmp, "out.ll")
        with open(src, "w") as f:
            f.write(ir)
        cmd = [cfg.opt, "-load-pass-plugin=" + cfg.plugin, "-passes=" + passes,
               src, "-S", "-o", out]
        files = {"in.ll": ir}
        t0 = time.time()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=cfg.timeout, start_new_session=True,
                               env=cfg.env)
        except subprocess.TimeoutExpired:
            return "TIMEOUT", "opt ran longer than %ss" % cfg.timeout, files
        elapsed = time.time() - t0
        err = p.stderr.decode(errors="replace")
        files["opt.stderr"] = "$ %s\n# exit %d, %.2fs\n%s" % (" ".join(cmd), p.returncode, elapsed, err)
        broken = ("Broken module found" in err or "input module is broken" in err
                  or "Broken function found" in err)
        crashed = (p.returncode < 0 or "Stack dump" in err
                   or "PLEASE submit a bug report" in err or "LLVM ERROR" in err)
        if broken:
            return "INVALID", "opt verifier: " + verifier_signature(err), files
        if crashed:
            sig = crash_signature(err)
            if p.returncode < 0:
                try:
                    sig = signal.Signals(-p.returncode).name + ": " + sig
                except ValueError:
                    sig = "signal %d: %s" % (-p.returncode, sig)
            return "CRASH", sig, files
        if p.returncode != 0:
            msg = first_error(err)
            if not msg:
                return "CRASH", "exit %d without a diagnostic: %s" % (
                    p.returncode, normalize(err.strip().splitlines()[-1] if err.strip() else "")), files
            if "internal error" in msg:
                if "is invalid IR" in msg:
                    detail = msg.split("is invalid IR:", 1)[-1].strip()
                    return "INVALID", "plugin self-check: " + verifier_signature(detail), files
                return "INTERNAL", normalize(msg)[:200], files
            return "DIAG", normalize(msg)[:200], files
        # Success: verify the output separately and look for leftovers.
        try:
            with open(out) as f:
                outtext = f.read()
        except OSError:
            return "CRASH", "exit 0 but no output file", files
        files["out.ll"] = outtext
        try:
            v = subprocess.run([cfg.opt, "-passes=verify", out, "-disable-output"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=cfg.timeout, start_new_session=True)
        except subprocess.TimeoutExpired:
            return "TIMEOUT", "verifier ran longer than %ss" % cfg.timeout, files
        verr = v.stderr.decode(errors="replace")
        if v.returncode != 0:
            files["verify.stderr"] = verr
            if v.returncode < 0 or "Stack dump" in verr:
                return "INVALID", "verifier crashed: " + crash_signature(verr), files
            return "INVALID", "verify: " + verifier_signature(verr), files
        left = re.findall(r"@(__ad_(?:autodiff|fwddiff|dup|dupnoneed|const|out)\w*)\b", outtext)
        if left:
            return "INVALID", "leftover reference to @%s" % sorted(set(left))[0], files
        return "OK", "", files
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_seed(seed, cfg):
    results = []
    for variant in cfg.variants:
        cls, sig, files = run_one(seed, variant, cfg)
        results.append((variant, cls, sig, files))
    if cfg.numeric:
        ok = {v: c for v, c, _, _ in results}
        if ok.get("fprev", "OK") == "OK" and ok.get("fpfwd", "OK") == "OK":
            cls, sig, files = stress.run_numeric(seed, size_for(seed, cfg.size), cfg)
        else:
            cls, sig, files = "NUMSKIP", "fp variants not OK", {}
        results.append(("num", cls, sig, files))
    return seed, results


# ----------------------------------------------------------------------- main

def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if ":" in part:
            a, b = part.split(":", 1)
            seeds.extend(range(int(a), int(b)))
        else:
            seeds.append(int(part))
    return seeds


def check_files(cfg):
    allowed = {"ok": {"OK"}, "diag": {"DIAG"}, "pass": {"OK", "DIAG"}}[cfg.expect]
    status = 0
    for path in cfg.check:
        with open(path) as f:
            ir = f.read()
        cls, sig, files = classify(ir, cfg.passes, cfg)
        good = cls in allowed
        print("%s: %s%s (expected %s)" % (path, cls, (" " + sig) if sig else "",
                                          " or ".join(sorted(allowed))))
        if not good:
            status = 1
            err = files.get("opt.stderr", "") + files.get("verify.stderr", "")
            sys.stdout.write("\n".join(err.splitlines()[:40]) + "\n")
    return status


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--seeds", default="0:100",
                    help="A:B (A inclusive, B exclusive), N, or a comma list of both")
    ap.add_argument("--seed-file", help="file with one seed per line (added to --seeds)")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--size", default="30:80",
                    help="program size (llvm-stress -size, synth.py statements): N, or "
                         "LO:HI for LO + seed %% (HI-LO+1)")
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help="comma list of %s (default: all)" % ", ".join(VARIANTS))
    ap.add_argument("--numeric", action="store_true",
                    help="also compare the fp variants' derivatives with finite "
                         "differences (runs the code with lli; noisy, see stress.py)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per opt run")
    ap.add_argument("--keep", metavar="DIR", help="save every failing case under DIR")
    ap.add_argument("--keep-diag", action="store_true", help="with --keep, save DIAG cases too")
    ap.add_argument("--plugin", default=os.environ.get("AD_PLUGIN",
                                                       os.path.join(ROOT, "build", "ADPlugin.so")))
    ap.add_argument("--opt", default=None, help="opt of LLVM 22 (default: opt-22)")
    ap.add_argument("--llvm-stress", default=None, help="llvm-stress of LLVM 22")
    ap.add_argument("--lli", default=None, help="lli of LLVM 22 (default: lli-22)")
    ap.add_argument("--emit", metavar="VARIANT",
                    help="print the input module of the (first) seed for VARIANT and exit")
    ap.add_argument("--check", nargs="+", metavar="FILE.ll",
                    help="classify these modules instead of fuzzing (for lit tests "
                         "of the reduced reproducers); exit 0 when each one's class "
                         "is in --expect")
    ap.add_argument("--passes", default="ad", help="with --check: the passes to run")
    ap.add_argument("--expect", default="pass", choices=["ok", "diag", "pass"],
                    help="with --check: ok, diag, or pass (= ok or diag)")
    ap.add_argument("--verbose", "-v", action="store_true", help="one line per failing variant")
    ap.add_argument("--diag-summary", action="store_true",
                    help="also list the distinct diagnostics (DIAG)")
    cfg = ap.parse_args(argv)

    cfg.opt = cfg.opt or find_tool(["opt-22", LLVM_BIN + "/opt"])
    cfg.stress = cfg.llvm_stress or find_tool(["llvm-stress-22", LLVM_BIN + "/llvm-stress"])
    cfg.lli = cfg.lli or find_tool(["lli-22", LLVM_BIN + "/lli"])
    if not cfg.lli:
        ap.error("cannot find lli-22 (use --lli)")
    if not cfg.opt or not cfg.stress:
        ap.error("cannot find opt-22 / llvm-stress-22 (use --opt / --llvm-stress)")
    cfg.variants = [v.strip() for v in cfg.variants.split(",") if v.strip()]
    for v in cfg.variants:
        if v not in VARIANTS:
            ap.error("unknown variant " + v)
    cfg.seed_list = parse_seeds(cfg.seeds)
    if cfg.seed_file:
        with open(cfg.seed_file) as f:
            cfg.seed_list += [int(l.split()[0]) for l in f
                              if l.strip() and not l.startswith("#")]
    if not cfg.emit and not os.path.exists(cfg.plugin):
        ap.error("plugin not found: " + cfg.plugin)
    cfg.env = dict(os.environ)
    # Symbolized stack traces make the crash signatures readable.
    sym = find_tool(["llvm-symbolizer-22", LLVM_BIN + "/llvm-symbolizer", "llvm-symbolizer"])
    if sym:
        cfg.env.setdefault("LLVM_SYMBOLIZER_PATH", sym)
    return cfg


class Tally:
    """Results as they come in: classes per seed and per variant, the
    distinct problems, and the saved cases (--keep)."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.seed_class = {}
        self.variant_counts = collections.Counter()
        self.distinct = collections.OrderedDict()   # (class, signature) -> ["seed/variant"]

    def record(self, seed, results):
        cfg = self.cfg
        worst = "OK"
        for variant, cls, sig, files in results:
            self.variant_counts[(variant, cls)] += 1
            if SEVERITY[cls] > SEVERITY[worst]:
                worst = cls
            if cls in FAILING or cls == "GENFAIL" or (cls == "DIAG" and cfg.diag_summary):
                self.distinct.setdefault((cls, sig), []).append("%d/%s" % (seed, variant))
            if cfg.keep and (cls in FAILING or (cls == "DIAG" and cfg.keep_diag)):
                self.save(seed, variant, cls, sig, files)
            if cfg.verbose and cls in FAILING:
                print("seed %d %s: %s %s" % (seed, variant, cls, sig), flush=True)
        self.seed_class[seed] = worst

    def save(self, seed, variant, cls, sig, files):
        d = os.path.join(self.cfg.keep, "seed_%d_%s_%s" % (seed, variant, cls))
        os.makedirs(d, exist_ok=True)
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        with open(os.path.join(d, "signature.txt"), "w") as f:
            f.write("%s\n%s\n" % (cls, sig))

    def summary(self, elapsed):
        """Prints the summary; returns the number of failed seeds."""
        cfg, counts = self.cfg, collections.Counter(self.seed_class.values())
        print("ad_fuzz: %d seeds (%s), variants %s, size %s, %.1fs" % (
            len(self.seed_class), cfg.seeds if not cfg.seed_file else "list",
            ",".join(cfg.variants), cfg.size, elapsed))
        print("per seed (worst variant): " + ", ".join(
            "%s %d" % (c, counts[c]) for c in CLASSES if c in CLASSES[:6] or counts[c]))
        for v in cfg.variants:
            print("  %-8s " % v + ", ".join(
                "%s %d" % (c, self.variant_counts[(v, c)]) for c in CLASSES + ["GENFAIL"]
                if self.variant_counts[(v, c)] or c in CLASSES[:6]))
        if cfg.numeric:
            print("  %-8s " % "numeric" + ", ".join(
                "%s %d" % (c, self.variant_counts[("num", c)])
                for c in ("NUMOK", "NUMSKIP", "MISMATCH", "RUNFAIL")))
        if self.distinct:
            print("distinct problems:")
            for (cls, sig), where in sorted(self.distinct.items(),
                                            key=lambda kv: (kv[0][0], -len(kv[1]))):
                where = sorted(where, key=lambda w: int(w.split("/")[0]))
                print("  %-8s x%-4d %s\n           e.g. %s" % (cls, len(where), sig,
                                                            " ".join(where[:6])))
        passed = counts["OK"] + counts["DIAG"]
        failed = len(self.seed_class) - passed
        print("%d passed, %d failed" % (passed, failed))
        return failed


def main(argv):
    cfg = parse_args(argv)
    if cfg.emit:
        sys.stdout.write(generate(cfg.seed_list[0], cfg.emit, cfg))
        return 0
    if cfg.check:
        return check_files(cfg)
    t0 = time.time()
    tally = Tally(cfg)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, cfg.jobs)) as ex:
        futs = [ex.submit(run_seed, s, cfg) for s in cfg.seed_list]
        for fut in concurrent.futures.as_completed(futs):
            tally.record(*fut.result())     # only this thread records
    return 1 if tally.summary(time.time() - t0) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
