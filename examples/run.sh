#!/usr/bin/env bash
# run.sh - builds and runs every example with the plugin (make demo).
#
#   examples/*.c, *.cpp  clang-22 / clang++ -O2 with the plugin, then run
#   examples/*.ll        opt-22 -passes=ad with the plugin, then clang-22 -O2;
#                        run when the module defines main
#   examples/fortran/*.f90  flang-22 -O2 with the plugin and include/ad.f90
#                        (module ad), then run; skipped with a message when
#                        flang-22 is missing
#   examples/mpi/*.c     mpicc (Open MPI) around clang-22 -O2 with the
#                        plugin, run with mpirun -np 2; skipped with a
#                        message when mpicc or mpirun is missing
#   examples/rust/       a cargo crate: cargo run --offline with the plugin
#                        in the link-time optimizer (its .cargo/config.toml's
#                        flags, with this plugin's path, through RUSTFLAGS);
#                        skipped with a message when cargo is missing
#   examples/*.cu        with a GPU (nvidia-smi lists one): clang++ for sm_80
#                        and sm_90 with the plugin and static cudart, run on
#                        it; without one: tools/cuda-host-run, on the CPU;
#                        skipped with a message when the CUDA toolkit is
#                        missing
#
# Stops at the first example that fails to build or run.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
llvm_bin=/usr/lib/llvm-22/bin
plugin=${AD_PLUGIN:-$root/build/ADPlugin.so}
out=${AD_EXAMPLES_OUT:-$root/build/examples}

if [[ ! -f $plugin ]]; then
  echo "run.sh: $plugin not found; run 'make build' first" >&2
  exit 1
fi
mkdir -p "$out"
shopt -s nullglob

cflags=(-O2 "-fpass-plugin=$plugin" "-I$root/include")
ran=0

banner() { printf '\n=== %s ===\n' "$1"; }

for src in "$root"/examples/*.c "$root"/examples/*.cpp; do
  name=$(basename "${src%.*}")
  banner "$(basename "$src")"
  compiler=$llvm_bin/clang-22
  [[ $src == *.cpp ]] && compiler=$llvm_bin/clang++
  "$compiler" "${cflags[@]}" "$src" -o "$out/$name" -lm
  "$out/$name"
  ran=$((ran + 1))
done

for ir in "$root"/examples/*.ll; do
  name=$(basename "${ir%.ll}")
  banner "$(basename "$ir")"
  "$llvm_bin/opt" "-load-pass-plugin=$plugin" -passes=ad "$ir" -S \
    -o "$out/$name.ad.ll"
  echo "differentiated IR: $out/$name.ad.ll"
  if grep -Eq '^define .*@main\(' "$out/$name.ad.ll"; then
    # IR written without a target triple gets the host's, silently.
    "$llvm_bin/clang-22" -O2 -Wno-override-module "$out/$name.ad.ll" \
      -o "$out/$name" -lm
    "$out/$name"
  fi
  ran=$((ran + 1))
done

flang=$(command -v flang-22 || true)
for f90 in "$root"/examples/fortran/*.f90; do
  name=$(basename "${f90%.f90}")
  banner "fortran/$(basename "$f90")"
  if [[ -z $flang ]]; then
    echo "skipped: flang-22 not found (make deps installs it)"
    continue
  fi
  # The module ad (markers) is compiled first; its .mod goes to -J's folder.
  mkdir -p "$out/fortran"
  "$flang" -O2 "-fpass-plugin=$plugin" -J "$out/fortran" \
    "$root/include/ad.f90" "$f90" -o "$out/fortran/$name"
  "$out/fortran/$name"
  ran=$((ran + 1))
done

mpicc=$(command -v mpicc || true)
mpirun=$(command -v mpirun || true)
for mpi in "$root"/examples/mpi/*.c; do
  name=$(basename "${mpi%.c}")
  banner "mpi/$(basename "$mpi") (mpirun -np 2)"
  if [[ -z $mpicc || -z $mpirun ]]; then
    echo "skipped: mpicc or mpirun not found (make deps installs Open MPI)"
    continue
  fi
  mkdir -p "$out/mpi"
  OMPI_CC=$llvm_bin/clang-22 "$mpicc" "${cflags[@]}" "$mpi" \
    -o "$out/mpi/$name" -lm
  # Loopback and shared memory only; as root, mpirun wants to be told.
  OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_ALLOW_RUN_AS_ROOT=1 \
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$mpirun" --oversubscribe -np 2 \
    "$out/mpi/$name"
  ran=$((ran + 1))
done
if [[ -f $root/examples/rust/Cargo.toml ]]; then
  banner "rust/ (cargo)"
  # rustup installs into ~/.cargo/bin, which PATH may lack.
  cargo=$(command -v cargo || true)
  [[ -z $cargo && -x ${CARGO_HOME:-$HOME/.cargo}/bin/cargo ]] &&
    cargo=${CARGO_HOME:-$HOME/.cargo}/bin/cargo
  if [[ -z $cargo ]]; then
    echo "skipped: cargo not found (install Rust 1.95 with rustup)"
  else
    # RUSTFLAGS replaces the crate's config flags: the same, with this
    # plugin's absolute path. The target directory stays in the build tree.
    (cd "$root/examples/rust" &&
      RUSTFLAGS="-C linker-plugin-lto -C linker=$llvm_bin/clang-22 \
-C link-arg=-fuse-ld=lld -C link-arg=-Wl,--load-pass-plugin=$plugin" \
        CARGO_TARGET_DIR=$out/rust-target "$cargo" run --offline --quiet)
    ran=$((ran + 1))
  fi
fi

cuda=${CUDA_PATH:-/usr/local/cuda}
for cu in "$root"/examples/*.cu; do
  name=$(basename "${cu%.cu}")
  banner "$(basename "$cu")"
  if [[ ! -f $cuda/include/cuda.h ]]; then
    echo "skipped: no CUDA toolkit at $cuda (set CUDA_PATH)"
    continue
  fi
  if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
    version=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\)$/\1/p' \
      "$cuda/include/cuda.h")
    # clang 22 cannot read a CUDA 13 toolkit's version (docs/CUDA.md).
    "$llvm_bin/clang++" -x cuda --cuda-path="$cuda" \
      --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 \
      -Xclang -target-sdk-version=$((version / 1000)).$((version % 1000 / 10)) \
      -Wno-unknown-cuda-version "${cflags[@]}" "$cu" -o "$out/$name" \
      -L"$cuda/lib64" -lcudart_static -ldl -lrt -pthread
    echo "(on the GPU)"
    "$out/$name"
  else
    echo "(no GPU: on the CPU, with tools/cuda-host-run)"
    status=0
    "$root/tools/cuda-host-run" "--build=$(dirname "$plugin")" \
      "--plugin=$plugin" "$cu" -O2 || status=$?
    if ((status == 77)); then
      continue
    elif ((status != 0)); then
      exit "$status"
    fi
  fi
  ran=$((ran + 1))
done

if ((ran == 0)); then
  echo "no examples in $root/examples"
else
  printf '\n%d example(s) ran\n' "$ran"
fi
