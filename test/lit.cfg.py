# -*- Python -*-
# lit configuration of the ADPlugin test suite.
#
# Tests live in the source tree (test/IR, test/Integration, test/Diagnostics);
# lit runs them from the build tree, whose generated lit.site.cfg.py sets the
# paths used below. Substitutions a RUN line may use:
#
#   %clang_ad    clang-22 with the plugin and -I<src>/include
#   %clangxx_ad  clang++ (LLVM 22) with the plugin and -I<src>/include
#   %opt_ad      opt-22 with the plugin loaded (add -passes=ad yourself)
#   %run         valgrind (leak and memory errors fail the test), or nothing
#                when valgrind is missing or AD_NO_VALGRIND is set
#   %plugin      path of ADPlugin.so
#   %rustc_ad    rustc (edition 2021) linking through clang-22 and lld with
#                the plugin loaded into the link-time optimizer
#                (REQUIRES: rustc; add -C opt-level=N yourself)
#   %src         the source root
#   %flang_ad    flang-22 with the plugin (REQUIRES: flang); add -J <dir>
#                and %src/include/ad.f90 for the markers' module ad
#   %build       the build root (what cmake --install and cpack read)

import os
import re
import shutil
import subprocess

import lit.formats

config.name = "ADPlugin"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp", ".rs", ".f90"]
# Inputs/ holds files that tests use but that are not tests themselves.
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.test_source_root = os.path.join(config.ad_source_root, "test")
config.test_exec_root = os.path.join(config.ad_binary_root, "test")

# LLVM 22's tools (FileCheck, not, opt, clang) come before anything else.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")]
)


def tool(name):
    """The LLVM 22 tool `name`, as a full path."""
    path = os.path.join(config.llvm_tools_dir, name)
    if not os.path.exists(path):
        lit_config.fatal("missing LLVM 22 tool: " + path)
    return path


include_dir = os.path.join(config.ad_source_root, "include")
plugin_flags = "-fpass-plugin={} -I{}".format(config.ad_plugin, include_dir)

# A sanitized plugin (cmake -DAD_SANITIZE=ON) needs the ASan/UBSan runtimes
# preloaded into every process that loads it. Leak detection is off because
# clang and opt free nothing at exit on purpose; any invalid access or
# undefined behaviour in the plugin aborts the command and fails the test.
# valgrind cannot run a program with the ASan runtime preloaded, so the
# sanitizer run checks the plugin and leaves the programs to the plain run.
sanitized = bool(getattr(config, "ad_sanitizer_runtimes", ""))
if sanitized:
    config.environment["LD_PRELOAD"] = config.ad_sanitizer_runtimes
    # The programs run with the runtime preloaded too: an allocation a C
    # program may see fail (posix_memalign with an invalid alignment, tested
    # by lib_aligned_alloc.c) must return its error, as libc's does.
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=0:abort_on_error=1:allocator_may_return_null=1")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("sanitized-plugin")

valgrind = shutil.which("valgrind")
if valgrind and "AD_NO_VALGRIND" not in os.environ and not sanitized:
    run_prefix = (
        valgrind + " -q --error-exitcode=99 --leak-check=full"
        " --errors-for-leak-kinds=definite,indirect"
    )
    config.available_features.add("valgrind")
else:
    run_prefix = ""

# Order matters only where one name is a prefix of another; none of these is,
# and lit applies them before its own (%s, %p, %t), so %src and %plugin are safe.
config.substitutions.append(("%clang_ad", tool("clang-22") + " " + plugin_flags))
config.substitutions.append(("%clangxx_ad", tool("clang++") + " " + plugin_flags))
config.substitutions.append(
    ("%opt_ad", tool("opt") + " -load-pass-plugin=" + config.ad_plugin)
)
config.substitutions.append(("%run", run_prefix))
config.substitutions.append(("%plugin", config.ad_plugin))
if getattr(config, "ad_unittests", ""):
    config.substitutions.append(("%ad_unittests", config.ad_unittests))
    config.available_features.add("unittests")
config.substitutions.append(("%src", config.ad_source_root))
config.substitutions.append(("%build", config.ad_binary_root))

# Optional frontends, for tests of IR from other languages (REQUIRES: flang,
# REQUIRES: rustc).
for feature, program in [("flang", "flang-22")]:
    if shutil.which(program, path=config.environment["PATH"]):
        config.available_features.add(feature)
flang = shutil.which("flang-22", path=config.environment["PATH"])
if flang:
    config.substitutions.append(
        ("%flang_ad", flang + " -fpass-plugin=" + config.ad_plugin))


def find_rustc():
    """A rustc whose LLVM is 22 (its bitcode is read by lld's LTO of LLVM
    22), on PATH or where rustup puts it (CI's PATH may lack ~/.cargo/bin);
    None when there is none. Rust tests then report UNSUPPORTED."""
    cargo_home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    search = os.pathsep.join(
        [config.environment["PATH"], os.path.join(cargo_home, "bin")])
    rustc = shutil.which("rustc", path=search)
    if not rustc:
        return None
    try:
        version = subprocess.run([rustc, "-vV"], capture_output=True,
                                 text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    if not re.search(r"^LLVM version: 22\.", version, re.MULTILINE):
        lit_config.note("Rust tests skipped: {} is not built on LLVM 22"
                        .format(rustc))
        return None
    return rustc


rustc = find_rustc()
# rustc itself crashes with the sanitizer runtimes preloaded (a sanitized
# plugin's run): the Rust tests run in the plain run only.
if rustc and sanitized:
    lit_config.note("Rust tests unsupported: rustc cannot run with the "
                    "sanitizer runtimes preloaded")
    rustc = None
if rustc:
    config.available_features.add("rustc")
    # rustup's rustc is a proxy that finds the toolchain through these.
    for var in ("HOME", "RUSTUP_HOME", "CARGO_HOME", "RUSTUP_TOOLCHAIN"):
        if var in os.environ:
            config.environment[var] = os.environ[var]
    config.substitutions.append((
        "%rustc_ad",
        "{} --edition=2021 -C linker-plugin-lto -C linker={} "
        "-C link-arg=-fuse-ld=lld -C link-arg=-Wl,--load-pass-plugin={}"
        .format(rustc, tool("clang-22"), config.ad_plugin)))

# CUDA (test/CUDA): programs that cuda-host-run compiles with the plugin and
# runs on the CPU, REQUIRES: cuda (the toolkit's headers, and the runtime
# built against them). Substitutions:
#   %cuda_host_run   tools/cuda-host-run with this build
#   %clang_cuda_gpu  clang++ for a real GPU build (add --cuda-gpu-arch=sm_XX;
#                    clang runs the toolkit's ptxas), with the plugin
#   %opt_cudahost    opt-22 with CudaHostLower.so loaded
cuda_path = os.environ.get("CUDA_PATH", "/usr/local/cuda")
cuda_header = os.path.join(cuda_path, "include", "cuda.h")
if os.path.exists(cuda_header) and getattr(config, "ad_cudahost_runtime", ""):
    with open(cuda_header, errors="replace") as header:
        found = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", header.read())
    if found:
        number = int(found.group(1))
        cuda_version = "%d.%d" % (number // 1000, number % 1000 // 10)
        config.available_features.add("cuda")
        # The programs run under valgrind too, as %run runs the others.
        if run_prefix:
            config.environment["CUDA_HOST_RUN_WRAPPER"] = run_prefix
        config.substitutions.append((
            "%cuda_host_run",
            "{} --build={}".format(
                os.path.join(config.ad_source_root, "tools", "cuda-host-run"),
                config.ad_binary_root)))
        # clang 22 cannot read a CUDA 13 toolkit's version; name it.
        config.substitutions.append((
            "%clang_cuda_gpu",
            "{} -x cuda --cuda-path={} -Xclang -target-sdk-version={} "
            "-Wno-unknown-cuda-version {}".format(
                tool("clang++"), cuda_path, cuda_version, plugin_flags)))
config.substitutions.append((
    "%opt_cudahost",
    tool("opt") + " -load-pass-plugin=" + os.path.join(
        config.ad_binary_root, "cudahost", "CudaHostLower.so")))

# Host vector extensions, for tests that run code built with -march (the
# AVX2 and AVX-512 forms of masked loads, stores, gathers and scatters).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = set(next((l for l in cpuinfo if l.startswith("flags")), "").split())
except OSError:
    cpu_flags = set()
for flag in ("avx2", "avx512f"):
    if flag in cpu_flags:
        config.available_features.add("host-" + flag)

if not os.path.exists(config.ad_plugin):
    lit_config.warning("plugin not built yet: " + config.ad_plugin)
