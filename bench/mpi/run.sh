#!/bin/sh
# run.sh BUILD [ARGS...]: builds mpi_bench in the build tree BUILD (configured
# with -DAD_BENCH=ON) and runs it with `mpirun --oversubscribe -np N` for N
# in $MPI_BENCH_RANKS (default "1 2 4"), ARGS going to Google Benchmark.
# Without mpicc or mpirun it says so and succeeds (`make bench` calls it).
build=${1:?usage: run.sh BUILD [ARGS...]}
shift
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
  echo "mpi_bench: skipped: no mpicc or mpirun (make deps installs Open MPI)"
  exit 0
fi
cmake --build "$build" --target mpi_bench || exit 1
# Root may run mpirun here; loopback and shared memory only (as test/MPI).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
for n in ${MPI_BENCH_RANKS:-1 2 4}; do
  echo "mpirun --oversubscribe -np $n $build/bench/mpi/mpi_bench $*"
  mpirun --oversubscribe -np "$n" "$build/bench/mpi/mpi_bench" "$@" || exit 1
done
