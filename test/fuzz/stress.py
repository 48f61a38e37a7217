"""llvm-stress input for ad_fuzz.py, and the optional numerical check of it.

run_llvm_stress() writes the random function; add_fp_inputs() gives it
floating-point parameters and a floating-point result; defuse_indices() takes
its constant vector indices in range.

run_numeric() (ad_fuzz.py --numeric) runs such a function and its
derivatives with lli and compares them with finite differences. llvm-stress
code is full of undefined behaviour (poison indices, branches on poison,
stores wider than their allocas), which the primal and its derivative need
not resolve the same way: defuse_allocas() and defuse_indices() remove the
worst of it, but a MISMATCH or RUNFAIL here is a suspect to triage by hand,
not a proven bug. synth.py's well-defined programs are the reliable check.
"""

import math
import os
import random
import re
import shutil
import subprocess
import tempfile


def run_llvm_stress(seed, size, cfg, scalable=False):
    """The module llvm-stress writes for this seed, as text."""
    extra = ["--enable-scalable-vectors"] if scalable else []
    p = subprocess.run([cfg.stress, "-seed=%d" % seed, "-size=%d" % size, "-o", "-"] + extra,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if p.returncode != 0:
        raise RuntimeError("llvm-stress failed for seed %d: %s" % (seed, p.stderr.decode()))
    return p.stdout.decode()


FP_CONST_RE = re.compile(r"\b(double|float) (0x[0-9A-Fa-f]+|[-+]?[0-9]+\.[0-9]+e[-+][0-9]+)")


def add_fp_inputs(ir, fname, seed):
    """Make @fname take `double %fx, float %fy` and return a double.

    About half of the scalar double/float constant operands (outside vector
    literals) become %fx/%fy, so the random arithmetic depends on them; every
    `ret void` becomes a return of the sum of the doubles that %0, %1 and %2
    point to at exit, so the function has a floating-point result that
    depends on memory.
    """
    rng = random.Random(seed * 104729 + 7)
    head, sep, rest = ir.partition("define void @%s(" % fname)
    if not sep:
        return None
    end = rest.index(") {")
    params = rest[:end]
    body = rest[end:]
    # Only the function body: it ends at the first line that is "}".
    fend = body.index("\n}\n")
    text, tail = body[:fend], body[fend:]
    out_lines = []
    uses = 0
    for line in text.split("\n"):
        pieces, last = [], 0
        for m in FP_CONST_RE.finditer(line):
            prefix = line[:m.start()]
            if prefix.count("<") != prefix.count(">"):
                continue                        # inside a vector literal
            if rng.random() < 0.5:
                continue
            pieces.append(line[last:m.start()])
            pieces.append("%s %s" % (m.group(1), "%fx" if m.group(1) == "double" else "%fy"))
            last = m.end()
            uses += 1
        pieces.append(line[last:])
        line = "".join(pieces)
        if line.strip() == "ret void":
            indent = line[: len(line) - len(line.lstrip())]
            line = (indent + "%fuzz.r0 = load double, ptr %0, align 8\n"
                    + indent + "%fuzz.r1 = load double, ptr %1, align 8\n"
                    + indent + "%fuzz.r2 = load double, ptr %2, align 8\n"
                    + indent + "%fuzz.s = fadd double %fuzz.r0, %fuzz.r1\n"
                    + indent + "%fuzz.ret = fadd double %fuzz.s, %fuzz.r2\n"
                    + indent + "ret double %fuzz.ret")
        out_lines.append(line)
    return (head + "define double @%s(%s, double %%fx, float %%fy" % (fname, params)
            + "\n".join(out_lines) + tail)


# ------------------------------------------------------- numerical check

NUM_BUF = 64          # doubles per buffer (512 bytes: more than any access)
NUM_X, NUM_Y = 0.7, 0.375    # 0.375 is exact as a float, as IR wants
NUM_STEPS = (1e-4, 1e-6)
NUM_RUN_TIMEOUT = 3   # seconds per lli run; random code often loops forever


def numeric_module(seed, size, cfg):
    """f(x) = @autogen_SD<seed> with its fp inputs, plus a @main that prints
    f(x0 +- h) for two steps, the reverse-mode adjoint of x and the
    forward-mode tangent for x (all with fresh copies of the same memory)."""
    fname = "autogen_SD%d" % seed
    ir = defuse_indices(add_fp_inputs(run_llvm_stress(seed, size, cfg), fname, seed))
    rng = random.Random(seed)
    init = []
    for k in range(3):
        vals = ["double %s" % repr(rng.uniform(-2.0, 2.0)) for _ in range(NUM_BUF)]
        init.append("[%d x double] [%s]" % (NUM_BUF, ", ".join(vals)))
    ints = "i32 %d, i64 %d, i8 %d" % (rng.randint(1, 9), rng.randint(1, 9), rng.randint(1, 9))
    ci = "i32 %%m.const, i32 %d, i32 %%m.const, i64 %d, i32 %%m.const, i8 %d" % tuple(
        int(v.split()[1]) for v in ints.split(", "))
    n = NUM_BUF * 8
    lines = [
        "",
        "; ---- numerical check appended by ad_fuzz.py",
        "@__ad_dup = external global i32",
        "@__ad_const = external global i32",
        "declare { double, float } @__ad_autodiff(ptr, ...)",
        "declare double @__ad_fwddiff(ptr, ...)",
        "declare i32 @printf(ptr, ...)",
        "@num.init = private constant [3 x [%d x double]] [%s]" % (NUM_BUF, ", ".join(init)),
        '@num.fmt = private constant [31 x i8] c"%.17g %.17g %.17g %.17g %.17g\\0A\\00"',
        '@num.fmt1 = private constant [7 x i8] c"%.17g\\0A\\00"',
        "",
        "define internal void @num.fill(ptr %a, ptr %b, ptr %c) {",
        "  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %%a, ptr @num.init, i64 %d, i1 false)" % n,
        "  %%ib = getelementptr i8, ptr @num.init, i64 %d" % n,
        "  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %%b, ptr %%ib, i64 %d, i1 false)" % n,
        "  %%ic = getelementptr i8, ptr @num.init, i64 %d" % (2 * n),
        "  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %%c, ptr %%ic, i64 %d, i1 false)" % n,
        "  ret void",
        "}",
        "",
        "define internal double @num.eval(double %x) {",
        "  %%a = alloca [%d x double], align 128" % NUM_BUF,
        "  %%b = alloca [%d x double], align 128" % NUM_BUF,
        "  %%c = alloca [%d x double], align 128" % NUM_BUF,
        "  call void @num.fill(ptr %a, ptr %b, ptr %c)",
        "  %%r = call double @%s(ptr %%a, ptr %%b, ptr %%c, %s, double %%x, float %r)" % (fname, ints, NUM_Y),
        "  ret double %r",
        "}",
        "",
        "define i32 @main(i32 %argc, ptr %argv) {",
        "  %m.dup = load i32, ptr @__ad_dup",
        "  %m.const = load i32, ptr @__ad_const",
    ]
    vals = []
    lines += ["  switch i32 %argc, label %primal [i32 2, label %rev", "    i32 3, label %fwd]",
              "primal:"]
    for i, h in enumerate(NUM_STEPS):
        for sgn, tag in ((1, "p"), (-1, "m")):
            lines.append("  %%f%s%d = call double @num.eval(double %r)" % (tag, i, NUM_X + sgn * h))
            vals.append("%%f%s%d" % (tag, i))
    lines.append("  call i32 (ptr, ...) @printf(ptr @num.fmt, %s, double 0.0)" %
                 ", ".join("double " + v for v in vals))
    lines += ["  ret i32 0", "rev:"]
    for b in "abc":
        lines.append("  %%rev.%s = alloca [%d x double], align 128" % (b, NUM_BUF))
        lines.append("  %%rev.d%s = alloca [%d x double], align 128" % (b, NUM_BUF))
        lines.append("  call void @llvm.memset.p0.i64(ptr align 16 %%rev.d%s, i8 0, i64 %d, i1 false)" % (b, n))
    lines.append("  call void @num.fill(ptr %rev.a, ptr %rev.b, ptr %rev.c)")
    dup = lambda mode: ", ".join("i32 %%m.dup, ptr %%%s.%s, ptr %%%s.d%s" % (mode, b, mode, b) for b in "abc")
    lines += [
        "  %%g = call { double, float } (ptr, ...) @__ad_autodiff(ptr @%s, %s, %s, double %r, float %r)"
        % (fname, dup("rev"), ci, NUM_X, NUM_Y),
        "  %gx = extractvalue { double, float } %g, 0",
        "  call i32 (ptr, ...) @printf(ptr @num.fmt1, double %gx)",
        "  ret i32 0",
        "fwd:",
    ]
    for b in "abc":
        lines.append("  %%fwd.%s = alloca [%d x double], align 128" % (b, NUM_BUF))
        lines.append("  %%fwd.d%s = alloca [%d x double], align 128" % (b, NUM_BUF))
        lines.append("  call void @llvm.memset.p0.i64(ptr align 16 %%fwd.d%s, i8 0, i64 %d, i1 false)" % (b, n))
    lines += [
        "  call void @num.fill(ptr %fwd.a, ptr %fwd.b, ptr %fwd.c)",
        "  %%t = call double (ptr, ...) @__ad_fwddiff(ptr @%s, %s, %s, double %r, double 1.0, float %r, float 0.0)"
        % (fname, dup("fwd"), ci, NUM_X, NUM_Y),
        "  call i32 (ptr, ...) @printf(ptr @num.fmt1, double %t)",
        "  ret i32 0",
        "}",
        "",
    ]
    return ir + "\n".join(lines)


USER_ALLOCA_RE = re.compile(r"^(\s*)(%A\d*(?:\.[\w.]*)?) = alloca (?:<[^>]*>|\[[^\]]*\]|\w+), align \d+\s*$")


def defuse_allocas(ir):
    """llvm-stress stores wider values than its allocas hold (a float into
    an `alloca <8 x i1>`) and loads from them uninitialized: undefined
    behaviour that makes the primal and its derivative behave differently.
    Before running, every alloca of the random function (named %A, %A<n>,
    and their shadows) becomes a zeroed 1 KiB block, in all functions."""
    out = []
    for line in ir.split("\n"):
        m = USER_ALLOCA_RE.match(line)
        if m:
            out.append("%s%s = alloca [1024 x i8], align 128" % (m.group(1), m.group(2)))
            out.append("%scall void @llvm.memset.p0.i64(ptr align 128 %s, i8 0, i64 1024, i1 false)"
                       % (m.group(1), m.group(2)))
        else:
            out.append(line)
    return "\n".join(out)


ELT_RE = re.compile(r"(= (?:extractelement <(\d+) x [^>]*> [^,]+|insertelement <(\d+) x [^>]*> [^,]+, [^,]+), i32 )(-?\d+)\b")


def defuse_indices(ir):
    """Constant out-of-range vector indices give poison, and llvm-stress
    branches on it; for the numerical check they are taken modulo the
    vector length (indices held in registers stay as they are)."""
    def fix(m):
        n = int(m.group(2) or m.group(3))
        return m.group(1) + str(int(m.group(4)) % n)
    return ELT_RE.sub(fix, ir)


def fd_close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-3)


def run_numeric(seed, size, cfg):
    """('NUMOK' | 'NUMSKIP' | 'MISMATCH' | 'RUNFAIL', detail, files)."""
    try:
        ir = numeric_module(seed, size, cfg)
    except Exception as e:
        return "NUMSKIP", "generation: %s" % e, {}
    files = {"num.ll": ir}
    tmp = tempfile.mkdtemp(prefix="adfuzz.num.")
    try:
        src = os.path.join(tmp, "num.ll")
        out = os.path.join(tmp, "num.out.ll")
        with open(src, "w") as f:
            f.write(ir)
        try:
            p = subprocess.run([cfg.opt, "-load-pass-plugin=" + cfg.plugin, "-passes=ad",
                                src, "-S", "-o", out], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=cfg.timeout,
                               start_new_session=True)
        except subprocess.TimeoutExpired:
            return "NUMSKIP", "opt timeout", files
        if p.returncode != 0:
            return "NUMSKIP", "opt failed", files
        with open(out) as f:
            runnable = defuse_allocas(f.read())
        with open(out, "w") as f:
            f.write(runnable)
        files["num.out.ll"] = runnable
        v = []
        for stage, nvals in (("primal", 5), ("reverse", 1), ("forward", 1)):
            args = [cfg.lli, out] + ["x"] * ["primal", "reverse", "forward"].index(stage)
            try:
                r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   timeout=NUM_RUN_TIMEOUT, start_new_session=True)
            except subprocess.TimeoutExpired:
                if stage == "primal":
                    return "NUMSKIP", "primal run timeout", files
                return "RUNFAIL", "%s derivative: run timeout (primal took < %ss)" % (
                    stage, NUM_RUN_TIMEOUT), files
            text = r.stdout.decode(errors="replace").split()
            files["lli.%s.out" % stage] = "exit %d\n%s\n%s" % (
                r.returncode, " ".join(text), r.stderr.decode(errors="replace"))
            if r.returncode != 0 or len(text) != nvals:
                if stage == "primal":
                    return "NUMSKIP", "primal run failed", files
                how = ("signal %d" % -r.returncode) if r.returncode < 0 else "exit %d" % r.returncode
                return "RUNFAIL", "%s derivative: run failed (%s) where the primal ran" % (
                    stage, how), files
            try:
                v += [float(t) for t in text]
            except ValueError:
                return "NUMSKIP", "unparsable output", files
        if not all(math.isfinite(t) for t in v):
            return "NUMSKIP", "non-finite", files
        fd = [(v[2 * i] - v[2 * i + 1]) / (2 * h) for i, h in enumerate(NUM_STEPS)]
        rev, fwd = v[5], v[6]     # v[4] is a placeholder
        if not fd_close(fd[0], fd[1], 1e-4):
            return "NUMSKIP", "not smooth at x0", files
        detail = "fd %.10g (h=%g) %.10g (h=%g), reverse %.10g, forward %.10g" % (
            fd[0], NUM_STEPS[0], fd[1], NUM_STEPS[1], rev, fwd)
        files["numeric.txt"] = detail + "\n"
        bad = [n for n, g in (("reverse", rev), ("forward", fwd)) if not fd_close(g, fd[0], 1e-3)]
        if bad:
            return "MISMATCH", "%s derivative differs from finite differences: %s" % (
                "+".join(bad), detail), files
        return "NUMOK", detail, files
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
