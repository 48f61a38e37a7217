"""Random, well-defined floating-point programs for ad_fuzz.py.

llvm-stress (the other generator) writes code full of undefined behaviour and
with no calls, loops over data or math functions, so its derivatives cannot be
checked numerically. This generator writes

    double @g(ptr %x, ptr %y, i64 %n, double %a, float %b)

from a seed: straight-line arithmetic, math functions (as LLVM intrinsics and
as libm calls) on arguments kept inside their domains, selects, if/else
diamonds, counted loops `for i < n` (n <= 8) with phi accumulators, loads and
stores of x[k], y[k], a local array and a malloc'd one (constant or loop
indices, through pointers chosen by selects), switches, memcpy, float round
trips, <2 x double> vectors and calls to generated helper functions. Every value stays finite for inputs near the harness's, so the
derivatives can be compared with finite differences:

    J(a, x) = g(x, y, n, a, b) + sum_k w[k] * y[k]   (y as g leaves it)

numeric_harness() appends a @main that prints, depending on argc,
  1: J at a +- h and x[k] +- h (two steps), then y after a plain call
  2: the reverse-mode adjoints (__ad_autodiff with y's shadow seeded with w):
     dJ/da, dJ/dx[k], then y after the derivative call
  3: the forward-mode tangents dJ/da and dJ/dx[k] (__ad_fwddiff, one call
     each), each as the returned tangent plus sum_k w[k] * dy[k]
"""

import math
import random
import struct

NX = 8            # elements of x, y and the local array
SIG = "double @g(ptr %x, ptr %y, i64 %n, double %a, float %b)"

# name: (arity, intrinsic or None, libm name or None)
MATH = {
    "sin": (1, "llvm.sin.f64", "sin"), "cos": (1, "llvm.cos.f64", "cos"),
    "tanh": (1, "llvm.tanh.f64", "tanh"), "atan": (1, "llvm.atan.f64", "atan"),
    "exp": (1, "llvm.exp.f64", "exp"), "log": (1, "llvm.log.f64", "log"),
    "sqrt": (1, "llvm.sqrt.f64", "sqrt"), "fabs": (1, "llvm.fabs.f64", "fabs"),
    "erf": (1, None, "erf"), "expm1": (1, None, "expm1"), "log1p": (1, None, "log1p"),
    "cbrt": (1, None, "cbrt"), "asin": (1, "llvm.asin.f64", "asin"),
    "sinh": (1, "llvm.sinh.f64", "sinh"), "exp2": (1, "llvm.exp2.f64", "exp2"),
    "log2": (1, "llvm.log2.f64", "log2"),
    "pow": (2, "llvm.pow.f64", "pow"), "atan2": (2, "llvm.atan2.f64", "atan2"),
    "hypot": (2, None, "hypot"), "fmin": (2, "llvm.minnum.f64", "fmin"),
    "fmax": (2, "llvm.maxnum.f64", "fmax"), "copysign": (2, "llvm.copysign.f64", "copysign"),
    "fma": (3, "llvm.fma.f64", "fma"), "fmuladd": (3, "llvm.fmuladd.f64", None),
}


class Builder:
    """Text of one function under construction, with its value pool."""

    def __init__(self, rng, decls, name):
        self.rng = rng
        self.decls = decls          # shared by all functions of the module
        self.lines = []
        self.count = 0
        self.name = name
        self.block = "%entry"
        self.float_param = "%b" if name == "g" else "5.000000e-01"
        self.pool = []              # doubles usable at the current point

    def fresh(self, base="v"):
        self.count += 1
        return "%%%s%d" % (base, self.count)

    def emit(self, text):
        self.lines.append("  " + text)

    def start_block(self, label):
        self.lines.append("%s:" % label[1:])
        self.block = label

    def op(self, text, base="v"):
        v = self.fresh(base)
        self.emit("%s = %s" % (v, text))
        return v

    def pick(self):
        # Recent values more often: deeper dependency chains.
        k = len(self.pool)
        i = k - 1 - min(int(self.rng.expovariate(0.35)), k - 1)
        return self.pool[i]

    def const(self):
        return repr(self.rng.choice([0.5, 1.5, -0.75, 2.0, 0.25, 3.0, -1.25]))

    def call(self, fn, args):
        arity, intr, libm = MATH[fn]
        use_libm = libm and (not intr or self.rng.random() < 0.4)
        callee = libm if use_libm else intr
        self.decls.add("declare double @%s(%s)" % (callee, ", ".join(["double"] * arity)))
        return self.op("call double @%s(%s)" % (callee, ", ".join("double " + a for a in args)))

    # -- values in a function's domain
    def square_plus(self, v, c="1.0"):
        sq = self.op("fmul double %s, %s" % (v, v))
        return self.op("fadd double %s, %s" % (sq, c))

    def bounded(self, v):
        return self.call(self.rng.choice(["sin", "tanh", "atan", "cos"]), [v])


def gen_math(b):
    """One call of a math function, its arguments inside its domain."""
    fn = b.rng.choice(list(MATH))
    arity = MATH[fn][0]
    args = [b.pick() for _ in range(arity)]
    if fn in ("log", "sqrt", "log2"):
        args = [b.square_plus(args[0], "0.5")]
    elif fn in ("exp", "sinh", "exp2", "expm1"):
        args = [b.bounded(args[0])]
    elif fn == "log1p":
        args = [b.op("fmul double %s, %s" % (args[0], args[0]))]
    elif fn == "asin":
        t = b.call("tanh", [args[0]])
        args = [b.op("fmul double %s, 0.75" % t)]
    elif fn == "cbrt":
        args = [b.square_plus(args[0])]            # away from the kink at 0
    elif fn == "pow":
        args = [b.square_plus(args[0]), b.bounded(args[1])]
    elif fn == "atan2":
        args = [args[0], b.square_plus(args[1])]
    elif fn == "hypot":
        args = [args[0], b.square_plus(args[1], "0.5")]
    return b.call(fn, args)


def gen_arith(b):
    x, y = b.pick(), b.pick()
    kind = b.rng.choice(["fadd", "fsub", "fmul", "fdiv", "fneg", "const"])
    if kind == "fdiv":
        return b.op("fdiv double %s, %s" % (x, b.square_plus(y)))
    if kind == "fneg":
        return b.op("fneg double %s" % x)
    if kind == "const":
        return b.op("fmul double %s, %s" % (x, b.const()))
    v = b.op("%s double %s, %s" % (kind, x, y))
    # Products can grow without bound along a chain; keep them in range.
    return b.bounded(v) if kind == "fmul" and b.rng.random() < 0.5 else v


def gen_select(b):
    x, y, u, v = b.pick(), b.pick(), b.pick(), b.pick()
    pred = b.rng.choice(["olt", "ogt", "ole", "oge"])
    c = b.op("fcmp %s double %s, %s" % (pred, x, y), "c")
    return b.op("select i1 %s, double %s, double %s" % (c, u, v))


def gen_float(b):
    t = b.op("fptrunc double %s to float" % b.pick(), "f")
    kind = b.rng.choice(["fmul", "fadd", "fsub"])
    t2 = b.op("%s float %s, %s" % (kind, t, b.float_param), "f")
    return b.op("fpext float %s to double" % t2)


def gen_vector(b):
    x, y, z = b.pick(), b.pick(), b.pick()
    v0 = b.op("insertelement <2 x double> poison, double %s, i32 0" % x, "w")
    v1 = b.op("insertelement <2 x double> %s, double %s, i32 1" % (v0, y), "w")
    s = b.op("insertelement <2 x double> poison, double %s, i32 0" % z, "w")
    s = b.op("shufflevector <2 x double> %s, <2 x double> poison, <2 x i32> zeroinitializer" % s, "w")
    kind = b.rng.choice(["fmul", "fadd", "fsub"])
    p = b.op("%s <2 x double> %s, %s" % (kind, v1, s), "w")
    if b.rng.random() < 0.3:
        p = b.op("shufflevector <2 x double> %s, <2 x double> %s, <2 x i32> <i32 1, i32 2>" % (p, v1), "w")
    e0 = b.op("extractelement <2 x double> %s, i32 0" % p)
    e1 = b.op("extractelement <2 x double> %s, i32 1" % p)
    return b.op("fsub double %s, %s" % (e0, e1))


def element(b, base, index):
    """Pointer to base[index]; index is a constant or an i64 value."""
    return b.op("getelementptr inbounds double, ptr %s, i64 %s" % (base, index), "p")


def gen_memory(b, ctx):
    """A load from x, y or the local array, after an optional store."""
    idx = ctx.index(b)
    if b.rng.random() < 0.5:
        dst = b.rng.choice(ctx.writable)
        b.emit("store double %s, ptr %s" % (b.pick(), element(b, dst, idx)))
    src = b.rng.choice(ctx.readable)
    return b.op("load double, ptr %s" % element(b, src, ctx.index(b)))


def gen_memcpy(b, ctx):
    """memcpy of 1..4 doubles between the local array and the arguments."""
    if not ctx.local:
        return None
    src, dst = b.rng.choice([(ctx.local, ctx.writable[-1]), (ctx.readable[0], ctx.local)])
    k = b.rng.randint(1, NX // 2)
    b.decls.add("declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)")
    off = b.rng.randint(0, NX - k)
    s = element(b, src, off)
    d = element(b, dst, b.rng.randint(0, NX - k))
    b.emit("call void @llvm.memcpy.p0.p0.i64(ptr %s, ptr %s, i64 %d, i1 false)" % (d, s, 8 * k))
    return b.op("load double, ptr %s" % d)


def gen_ptr_select(b, ctx):
    """Memory reached through a pointer chosen at run time."""
    x, y = b.pick(), b.pick()
    c = b.op("fcmp ogt double %s, %s" % (x, y), "c")
    if b.rng.random() < 0.5 and len(ctx.writable) > 1:
        p, q = b.rng.sample(ctx.writable, 2)
        pp = b.op("select i1 %s, ptr %s, ptr %s" % (c, p, q), "p")
        b.emit("store double %s, ptr %s" % (b.pick(), element(b, pp, ctx.index(b))))
    p, q = b.rng.sample(ctx.readable, 2) if len(ctx.readable) > 1 else ctx.readable * 2
    pp = b.op("select i1 %s, ptr %s, ptr %s" % (c, p, q), "p")
    return b.op("load double, ptr %s" % element(b, pp, ctx.index(b)))


def gen_helper_call(b, ctx):
    if not ctx.helpers:
        return None
    h = b.rng.choice(ctx.helpers)
    r = b.rng.choice(ctx.readable)
    w = b.rng.choice(ctx.writable)
    return b.op("call double @%s(ptr %s, ptr %s, i64 %%n, double %s)" % (h, r, w, b.pick()))


def gen_int(b, ctx):
    i = ctx.loop_index[-1] if ctx.loop_index else "%n"
    f = b.op("sitofp i64 %s to double" % i)
    return b.op("fmul double %s, %s" % (f, b.pick()))


class Context:
    """What the statements of one function may use."""

    def __init__(self, readable, writable, local, helpers, depth_limit, exact, typed):
        self.exact = exact
        self.typed = typed
        self.heap = None            # a malloc'd array of NX doubles
        self.readable = readable
        self.writable = writable
        self.local = local
        self.helpers = helpers
        self.loop_index = []
        self.depth_limit = depth_limit
        self.labels = 0

    def label(self, base):
        self.labels += 1
        return "%%%s%d" % (base, self.labels)

    def index(self, b):
        if self.loop_index and b.rng.random() < 0.6:
            return self.loop_index[-1]
        return str(b.rng.randint(0, NX - 1))


def gen_if(b, ctx, budget, depth):
    x, y = b.pick(), b.pick()
    c = b.op("fcmp olt double %s, %s" % (x, y), "c")
    then, other, join = ctx.label("then"), ctx.label("else"), ctx.label("join")
    b.emit("br i1 %s, label %s, label %s" % (c, then, other))
    saved = list(b.pool)
    ends = []
    for label in (then, other):
        b.start_block(label)
        b.pool = list(saved)
        gen_stmts(b, ctx, budget // 2, depth + 1)
        ends.append((b.pool[-1], b.block))
        b.emit("br label %s" % join)
    b.start_block(join)
    b.pool = saved
    return b.op("phi double [ %s, %s ], [ %s, %s ]" % (ends[0] + ends[1]))


def gen_loop(b, ctx, budget, depth):
    pre = b.block
    head, body, done = ctx.label("head"), ctx.label("body"), ctx.label("done")
    init = b.pick()
    b.emit("br label %s" % head)
    b.start_block(head)
    i = b.fresh("i")
    acc = b.fresh("acc")
    inext, accnext = b.fresh("inext"), b.fresh("accnext")
    b.lines.append(None)            # the phis, once the latch is known
    phi_at = len(b.lines) - 1
    c = b.op("icmp slt i64 %s, %%n" % i, "c")
    b.emit("br i1 %s, label %s, label %s" % (c, body, done))
    b.start_block(body)
    saved = list(b.pool)
    b.pool.append(acc)
    ctx.loop_index.append(i)
    gen_stmts(b, ctx, budget, depth + 1)
    ctx.loop_index.pop()
    # Damped update: accumulators stay bounded over any number of iterations.
    half = b.op("fmul double %s, 0.5" % acc)
    b.emit("%s = fadd double %s, %s" % (accnext, half, b.bounded(b.pool[-1])))
    b.emit("%s = add nsw i64 %s, 1" % (inext, i))
    latch = b.block
    b.emit("br label %s" % head)
    b.lines[phi_at] = ("  %s = phi i64 [ 0, %s ], [ %s, %s ]\n  %s = phi double [ %s, %s ], [ %s, %s ]"
                       % (i, pre, inext, latch, acc, init, pre, accnext, latch))
    b.start_block(done)
    b.pool = saved
    return acc


def gen_extreme(b, ctx):
    """A running maximum or minimum of x, y or the local array over i < n (at
    least one iteration), kept by compare and select."""
    pre = b.block
    head, done = ctx.label("xhead"), ctx.label("xdone")
    init, src = b.pick(), b.rng.choice(ctx.readable)
    pred = b.rng.choice(["ogt", "olt", "oge", "ole"])
    b.emit("br label %s" % head)
    b.start_block(head)
    i, m, inext, mnext = b.fresh("xi"), b.fresh("xm"), b.fresh("xinext"), b.fresh("xmnext")
    b.emit("%s = phi i64 [ 0, %s ], [ %s, %s ]" % (i, pre, inext, head))
    b.emit("%s = phi double [ %s, %s ], [ %s, %s ]" % (m, init, pre, mnext, head))
    v = b.op("load double, ptr %s" % element(b, src, i))
    c = b.op("fcmp %s double %s, %s" % (pred, v, m), "c")
    if b.rng.random() < 0.5:
        b.emit("%s = select i1 %s, double %s, double %s" % (mnext, c, v, m))
    else:  # the comparison the other way round: keep m when it holds
        b.emit("%s = select i1 %s, double %s, double %s" % (mnext, c, m, v))
    b.emit("%s = add nsw i64 %s, 1" % (inext, i))
    more = b.op("icmp slt i64 %s, %%n" % inext, "c")
    b.emit("br i1 %s, label %s, label %s" % (more, head, done))
    b.start_block(done)
    return mnext


def gen_switch(b, ctx, budget, depth):
    on = ctx.loop_index[-1] if ctx.loop_index else "%n"
    cases = sorted(b.rng.sample(range(NX), b.rng.randint(1, 3)))
    labels = [ctx.label("case") for _ in cases]
    default, join = ctx.label("default"), ctx.label("sjoin")
    b.emit("switch i64 %s, label %s [ %s ]" % (on, default, " ".join(
        "i64 %d, label %s" % (k, l) for k, l in zip(cases, labels))))
    saved = list(b.pool)
    ends = []
    for label in labels + [default]:
        b.start_block(label)
        b.pool = list(saved)
        gen_stmts(b, ctx, max(1, budget // (len(labels) + 1)), depth + 1)
        ends.append("[ %s, %s ]" % (b.pool[-1], b.block))
        b.emit("br label %s" % join)
    b.start_block(join)
    b.pool = saved
    return b.op("phi double %s" % ", ".join(ends))


def gen_stmts(b, ctx, budget, depth):
    # Float round trips make J a step function at float resolution, too
    # coarse for finite differences; the numerical check goes without them.
    gens = [(gen_arith, 6), (gen_math, 5), (gen_select, 1), (gen_float, 0 if ctx.exact else 1),
            (gen_vector, 1), (gen_memory, 3), (gen_memcpy, 0 if ctx.typed else 1),
            (gen_helper_call, 1), (gen_int, 1), (gen_ptr_select, 1), (gen_extreme, 1)]
    while budget > 0:
        r = b.rng.random()
        if depth < ctx.depth_limit and budget >= 6 and r < 0.12:
            v = gen_loop(b, ctx, budget // 2, depth)
            budget -= budget // 2
        elif depth < ctx.depth_limit and budget >= 6 and r < 0.22:
            v = gen_if(b, ctx, budget // 2, depth)
            budget -= budget // 2
        elif depth < ctx.depth_limit and budget >= 6 and r < 0.25:
            v = gen_switch(b, ctx, budget // 2, depth)
            budget -= budget // 2
        else:
            fn = b.rng.choices([g for g, _ in gens], [w for _, w in gens])[0]
            v = fn(b) if fn in (gen_arith, gen_math, gen_select, gen_float, gen_vector) else fn(b, ctx)
            budget -= 1
        if v is not None:
            b.pool.append(v)


def gen_function(rng, decls, name, params, pool, ctx, size):
    b = Builder(rng, decls, name)
    b.pool = list(pool)
    lines = ["define %s double @%s(%s) {" % ("internal" if name != "g" else "", name, params),
             "entry:"]
    if ctx.local:
        b.emit("%s = alloca [%d x double], align 16" % (ctx.local, NX))
        if ctx.typed:
            for k in range(NX):
                b.emit("store double 0.0, ptr %s" % element(b, ctx.local, k))
        else:
            b.decls.add("declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)")
            b.emit("call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 %d, i1 false)"
                   % (ctx.local, 8 * NX))
    if ctx.heap:
        b.decls.add("declare ptr @malloc(i64)")
        b.decls.add("declare void @free(ptr)")
        b.emit("%s = call ptr @malloc(i64 %d)" % (ctx.heap, 8 * NX))
        for k in range(NX):
            b.emit("store double 0.0, ptr %s" % element(b, ctx.heap, k))
    x0 = b.op("load double, ptr %s" % element(b, ctx.readable[0], 0))
    b.pool.append(x0)
    gen_stmts(b, ctx, size, 0)
    if ctx.heap:
        b.emit("call void @free(ptr %s)" % ctx.heap)
    # A few values end up in memory the caller sees, the rest in the result.
    for _ in range(rng.randint(1, 3)):
        b.emit("store double %s, ptr %s" % (b.pick(), element(b, ctx.writable[-1], rng.randint(0, NX - 1))))
    r = b.op("fadd double %s, %s" % (b.pool[-1], b.pick()))
    b.emit("ret double %s" % r)
    return "\n".join(lines + [l for l in b.lines if l is not None] + ["}"])


def generate(seed, size, exact=False, typed=False):
    """The module text: @g and its helpers. exact: no float arithmetic (for
    the numerical check); typed: no memcpy/memset, so that even after O2
    every access to memory is a typed double access."""
    rng = random.Random(seed * 31337 + 1)
    decls = set()
    funcs, helpers = [], []
    for k in range(rng.choice([0, 0, 1, 2])):
        name = "h%d" % k
        # readable[0] and writable[-1] are the caller's memory.
        local = "%hl" if rng.random() < 0.5 else None
        ctx = Context(["%r"] + ([local] if local else []), ([local] if local else []) + ["%w"],
                      local, list(helpers), 1, exact, typed)
        funcs.append(gen_function(rng, decls, name, "ptr %r, ptr %w, i64 %n, double %u", ["%u"],
                                  ctx, max(3, size // 4)))
        helpers.append(name)
    ctx = Context(["%x", "%y", "%loc"], ["%loc", "%y"], "%loc", helpers, 2, exact, typed)
    if rng.random() < 0.3:
        ctx.heap = "%heap"
        ctx.readable.append(ctx.heap)
        ctx.writable.insert(0, ctx.heap)
    if rng.random() < 0.3:
        ctx.writable.insert(0, "%x")
    main = gen_function(rng, decls, "g", "ptr %x, ptr %y, i64 %n, double %a, float %b",
                        ["%a", "%bd"], ctx, size)
    main = main.replace("entry:\n", "entry:\n  %bd = fpext float %b to double\n", 1)
    return "; synth.py seed=%d size=%d\n%s\n\n%s\n" % (
        seed, size, "\n".join(sorted(decls)), "\n\n".join(funcs + [main]))


# ------------------------------------------------------------ numeric check

STEP = 1e-3


def harness(seed):
    """Constants of the run: x, w, a, b, n."""
    rng = random.Random(seed * 7 + 3)
    x = [round(rng.uniform(-1.5, 1.5), 3) for _ in range(NX)]
    w = [round(rng.uniform(-1.0, 1.0), 3) for _ in range(NX)]
    return x, w, round(rng.uniform(-1.5, 1.5), 3), 0.625, rng.randint(1, NX)


def dbl(v):
    """A double as IR's exact hexadecimal constant."""
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]


def numeric_harness(seed, module):
    """Text to append to `module` (the output of generate)."""
    x, w, a, bval, n = harness(seed)
    arr = lambda vals: "[%d x double] [%s]" % (NX, ", ".join("double " + dbl(v) for v in vals))
    L = []
    L += ["", "; ---- numerical harness (synth.py)",
          "@__ad_dup = external global i32", "@__ad_const = external global i32",
          "declare { double, float } @__ad_autodiff(ptr, ...)",
          "declare double @__ad_fwddiff(ptr, ...)", "declare i32 @printf(ptr, ...)"]
    L += [d for d in ("declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)",
                      "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)") if d not in module]
    L += ["@hx = private constant %s" % arr(x), "@hw = private constant %s" % arr(w),
          '@fmt = private constant [7 x i8] c"%.17g\\0A\\00"', ""]
    # J(a, k, dx): x = init with x[k] += dx (k < 0: none), y = 0.
    L += ["define internal double @J(double %a, i64 %k, double %dx, ptr %yout) {",
          "  %x = alloca [8 x double], align 16", "  %y = alloca [8 x double], align 16",
          "  call void @llvm.memcpy.p0.p0.i64(ptr %x, ptr @hx, i64 64, i1 false)",
          "  call void @llvm.memset.p0.i64(ptr %y, i8 0, i64 64, i1 false)",
          "  %neg = icmp slt i64 %k, 0", "  br i1 %neg, label %run, label %bump",
          "bump:", "  %px = getelementptr double, ptr %x, i64 %k", "  %ox = load double, ptr %px",
          "  %nx = fadd double %ox, %dx", "  store double %nx, ptr %px", "  br label %run",
          "run:",
          "  %%r = call double @g(ptr %%x, ptr %%y, i64 %d, double %%a, float %s)" % (n, dbl(bval)),
          "  call void @llvm.memcpy.p0.p0.i64(ptr %yout, ptr %y, i64 64, i1 false)",
          "  %s = call double @wsum(ptr %y, double %r)", "  ret double %s", "}", "",
          "define internal double @wsum(ptr %y, double %acc0) {"]
    acc = "%acc0"
    for k in range(NX):
        L += ["  %%py%d = getelementptr double, ptr %%y, i64 %d" % (k, k),
              "  %%pw%d = getelementptr double, ptr @hw, i64 %d" % (k, k),
              "  %%vy%d = load double, ptr %%py%d" % (k, k), "  %%vw%d = load double, ptr %%pw%d" % (k, k),
              "  %%m%d = fmul double %%vy%d, %%vw%d" % (k, k, k), "  %%s%d = fadd double %s, %%m%d" % (k, acc, k)]
        acc = "%%s%d" % k
    L += ["  ret double %s" % acc, "}", "",
          "define internal void @print(double %v) {",
          "  call i32 (ptr, ...) @printf(ptr @fmt, double %v)", "  ret void", "}", "",
          "define internal void @printarr(ptr %p) {"]
    for k in range(NX):
        L += ["  %%q%d = getelementptr double, ptr %%p, i64 %d" % (k, k),
              "  %%e%d = load double, ptr %%q%d" % (k, k), "  call void @print(double %%e%d)" % k]
    L += ["  ret void", "}", "",
          "define i32 @main(i32 %argc, ptr %argv) {",
          "  %yb = alloca [8 x double], align 16",
          "  %m.dup = load i32, ptr @__ad_dup", "  %m.const = load i32, ptr @__ad_const",
          "  switch i32 %argc, label %fd [ i32 2, label %rev", "    i32 3, label %fwd ]", "fd:"]
    cnt = [0]

    def J(av, k, dx):
        cnt[0] += 1
        L.append("  %%j%d = call double @J(double %s, i64 %d, double %s, ptr %%yb)" % (cnt[0], dbl(av), k, dbl(dx)))
        L.append("  call void @print(double %%j%d)" % cnt[0])
    for h in (STEP, STEP / 2):
        J(a + h, -1, 0.0)
        J(a - h, -1, 0.0)
        for k in range(NX):
            J(a, k, h)
            J(a, k, -h)
    J(a, -1, 0.0)
    L += ["  call void @printarr(ptr %yb)", "  ret i32 0", "rev:"]
    L += ["  %rx = alloca [8 x double], align 16", "  %rdx = alloca [8 x double], align 16",
          "  %ry = alloca [8 x double], align 16", "  %rdy = alloca [8 x double], align 16",
          "  call void @llvm.memcpy.p0.p0.i64(ptr %rx, ptr @hx, i64 64, i1 false)",
          "  call void @llvm.memset.p0.i64(ptr %rdx, i8 0, i64 64, i1 false)",
          "  call void @llvm.memset.p0.i64(ptr %ry, i8 0, i64 64, i1 false)",
          "  call void @llvm.memcpy.p0.p0.i64(ptr %rdy, ptr @hw, i64 64, i1 false)",
          "  %%g = call { double, float } (ptr, ...) @__ad_autodiff(ptr @g, i32 %%m.dup, ptr %%rx, ptr %%rdx, "
          "i32 %%m.dup, ptr %%ry, ptr %%rdy, i32 %%m.const, i64 %d, double %s, float %s)" % (n, dbl(a), dbl(bval)),
          "  %ga = extractvalue { double, float } %g, 0", "  call void @print(double %ga)",
          "  call void @printarr(ptr %rdx)", "  call void @printarr(ptr %ry)", "  ret i32 0", "fwd:"]
    L += ["  %fx = alloca [8 x double], align 16", "  %fdx = alloca [8 x double], align 16",
          "  %fy = alloca [8 x double], align 16", "  %fdy = alloca [8 x double], align 16"]
    for k in range(-1, NX):
        L += ["  call void @llvm.memcpy.p0.p0.i64(ptr %fx, ptr @hx, i64 64, i1 false)",
              "  call void @llvm.memset.p0.i64(ptr %fdx, i8 0, i64 64, i1 false)",
              "  call void @llvm.memset.p0.i64(ptr %fy, i8 0, i64 64, i1 false)",
              "  call void @llvm.memset.p0.i64(ptr %fdy, i8 0, i64 64, i1 false)"]
        if k >= 0:
            L += ["  %%fp%d = getelementptr double, ptr %%fdx, i64 %d" % (k, k),
                  "  store double 1.0, ptr %%fp%d" % k]
        L += ["  %%t%d = call double (ptr, ...) @__ad_fwddiff(ptr @g, i32 %%m.dup, ptr %%fx, ptr %%fdx, "
              "i32 %%m.dup, ptr %%fy, ptr %%fdy, i32 %%m.const, i64 %d, double %s, double %s, float %s, float 0.0)"
              % (k + 1, n, dbl(a), "1.0" if k < 0 else "0.0", dbl(bval)),
              "  %%tj%d = call double @wsum(ptr %%fdy, double %%t%d)" % (k + 1, k + 1),
              "  call void @print(double %%tj%d)" % (k + 1)]
    L += ["  ret i32 0", "}", ""]
    return "\n".join(L)


def compare(fd_out, rev_out, fwd_out):
    """Returns (bad, detail): bad is a list of problems, detail a summary."""
    np = NX + 1
    h = [STEP, STEP / 2]
    vals = fd_out[:4 * np]
    base = fd_out[4 * np]
    yplain = fd_out[4 * np + 1:]
    d = [[0.0] * np for _ in h]
    for s in range(2):
        blk = vals[s * 2 * np:(s + 1) * 2 * np]
        for p in range(np):
            d[s][p] = (blk[2 * p] - blk[2 * p + 1]) / (2 * h[s])
    rev = rev_out[:np]
    yrev = rev_out[np:]
    fwd = fwd_out
    bad, checked, skipped = [], 0, 0
    names = ["a"] + ["x[%d]" % k for k in range(NX)]
    for p in range(np):
        d1, d2 = d[0][p], d[1][p]
        if not all(math.isfinite(v) for v in (d1, d2, rev[p], fwd[p])):
            skipped += 1
            continue
        scale = max(abs(d1), abs(d2), 1.0)
        if abs(d1 - d2) > 1e-2 * scale:
            skipped += 1                    # not smooth at this point
            continue
        best = (4 * d2 - d1) / 3
        tol = 1e-6 * max(abs(best), 1.0) + 20 * abs(d1 - d2) + 1e-9 * max(abs(base), 1.0) / STEP
        checked += 1
        for mode, g in (("reverse", rev[p]), ("forward", fwd[p])):
            if abs(g - best) > tol:
                bad.append("%s d/d%s = %.12g, finite differences %.12g" % (mode, names[p], g, best))
        if abs(rev[p] - fwd[p]) > 1e-9 * max(abs(rev[p]), abs(fwd[p]), 1.0):
            bad.append("reverse d/d%s = %.17g but forward %.17g" % (names[p], rev[p], fwd[p]))
    for k in range(NX):
        if yrev[k] == yplain[k] or (math.isnan(yrev[k]) and math.isnan(yplain[k])):
            continue                        # equal infinities included
        if not abs(yrev[k] - yplain[k]) <= 1e-12 * max(abs(yplain[k]), 1.0):
            bad.append("primal y[%d] after __ad_autodiff = %.17g, after a plain call %.17g"
                       % (k, yrev[k], yplain[k]))
    return bad, "%d of %d partials checked, %d skipped" % (checked, np, skipped)
