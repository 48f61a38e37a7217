# Entry points for a fresh Debian 12 machine:
#   make demo    install what is missing, build the plugin, run examples/
#   make test    install what is missing, build the plugin, run the lit suite
# and: make deps | build | bench | bench-compile | test-sanitize | install | deb | clean

BUILD     ?= build
LLVM_BIN  := /usr/lib/llvm-22/bin
LIT       := $(LLVM_BIN)/lit
CMAKE_GEN := -G Ninja -DCMAKE_BUILD_TYPE=Release

# libomp-22-dev and libclang-rt-22-dev: OpenMP, and Archer with the
# ThreadSanitizer runtime for the OpenMP race check (test/OpenMP/race.test).
# flang-22: the Fortran tests and example (test/Fortran, examples/fortran);
# ccache: the check that the CMake package hashes the plugin
# (test/Package/ccache.test).
DEBIAN_PACKAGES := llvm-22-dev clang-22 llvm-22-tools libomp-22-dev libclang-rt-22-dev lld-22 \
                   libzstd-dev cmake ninja-build valgrind libbenchmark-dev \
                   libgtest-dev g++ make flang-22 ccache libopenmpi-dev openmpi-bin

# sudo only when not already root.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build test test-sanitize demo bench bench-compile install deb clean

all: build

# Installs only the packages that are missing; does nothing (and needs no
# network) when everything is there.
deps:
	@missing=""; \
	for p in $(DEBIAN_PACKAGES); do \
	  dpkg -s "$$p" 2>/dev/null | grep -q '^Status: install ok installed' \
	    || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing packages:$$missing"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_GEN)
	cmake --build $(BUILD)

test: build
	$(LIT) -sv $(BUILD)/test

demo: build
	AD_PLUGIN=$(CURDIR)/$(BUILD)/ADPlugin.so examples/run.sh

# The whole suite against a plugin built with AddressSanitizer and UBSan
# (in build-sanitize/; lit preloads the runtimes into clang and opt).
test-sanitize: deps
	cmake -S . -B build-sanitize $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAD_SANITIZE=ON
	cmake --build build-sanitize
	$(LIT) -sv build-sanitize/test

# BENCH_ARGS go to Google Benchmark, e.g. BENCH_ARGS=--benchmark_filter=ad;
# GPT2_ARGS to the GPT-2 benchmark too, e.g. GPT2_ARGS=--gpt2_124m
# (bench/gpt2/gpt2.h); ADBENCH_ARGS to the ADBench one, e.g.
# ADBENCH_ARGS=--adbench_all (bench/adbench/README.md); CHECKPOINT_ARGS to
# the checkpointing one, e.g. CHECKPOINT_ARGS=--burgers_steps=1000
# (bench/checkpoint/README.md). gpt2_bench_fast is
# the GPT-2 step compiled with llm.c's -Ofast on both paths. gpt2_bench_omp, the
# GPT-2 step with llm.c's OpenMP pragmas, runs with GPT2_OMP_THREADS threads
# when LLVM's libomp is installed (otherwise its target says it is skipped).
# gpt2_cuda_bench (bench/gpt2_cuda) is built where the CUDA toolkit is and
# run where nvidia-smi lists a GPU.
GPT2_OMP_THREADS ?= 2
bench: build
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DAD_BENCH=ON
	cmake --build $(BUILD) --target rosenbrock_bench gpt2_bench gpt2_bench_fast gpt2_bench_omp hydro_bench checkpoint_bench adbench_bench
	$(BUILD)/bench/rosenbrock_bench $(BENCH_ARGS)
	$(BUILD)/bench/gpt2/gpt2_bench $(GPT2_ARGS) $(BENCH_ARGS)
	$(BUILD)/bench/gpt2/gpt2_bench_fast $(GPT2_ARGS) $(BENCH_ARGS)
	@if [ -x $(BUILD)/bench/gpt2/gpt2_bench_omp ]; then \
	  echo "OMP_NUM_THREADS=$(GPT2_OMP_THREADS) $(BUILD)/bench/gpt2/gpt2_bench_omp $(GPT2_ARGS) $(BENCH_ARGS)"; \
	  OMP_NUM_THREADS=$(GPT2_OMP_THREADS) $(BUILD)/bench/gpt2/gpt2_bench_omp $(GPT2_ARGS) $(BENCH_ARGS); \
	fi
	$(BUILD)/bench/hydro/hydro_bench $(BENCH_ARGS)
	$(BUILD)/bench/checkpoint/checkpoint_bench $(CHECKPOINT_ARGS) $(BENCH_ARGS)
	$(BUILD)/bench/adbench/adbench_bench $(ADBENCH_ARGS) $(BENCH_ARGS)
	bench/mpi/run.sh $(BUILD) $(BENCH_ARGS)
	@if [ -f /usr/local/cuda/include/cuda.h ] || [ -n "$$CUDA_PATH" ]; then \
	  cmake --build $(BUILD) --target gpt2_cuda; \
	  if nvidia-smi -L 2>/dev/null | grep -q GPU; then \
	    $(BUILD)/bench/gpt2_cuda/gpt2_cuda_bench $(BENCH_ARGS); \
	  else \
	    echo "gpt2_cuda_bench: built ($(BUILD)/bench/gpt2_cuda); no GPU here to run it (bench/gpt2_cuda/README.md)"; \
	  fi; \
	else \
	  echo "gpt2_cuda_bench: skipped: no CUDA toolkit"; \
	fi

# Compile time against network depth (bench/compile_time/README.md);
# MEASURE_ARGS go to measure.py, e.g. MEASURE_ARGS="--repeats 5".
bench-compile: build
	python3 bench/compile_time/measure.py --plugin $(BUILD)/ADPlugin.so $(MEASURE_ARGS)

# The plugin, ad.h and the CMake package under PREFIX; the .deb in $(BUILD)/
# (docs/INSTALL.md).
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

deb: build
	cd $(BUILD) && cpack -G DEB

clean:
	rm -rf $(BUILD)
