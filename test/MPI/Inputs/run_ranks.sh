#!/bin/sh
# run_ranks.sh [--memcheck PREFIX] PROGRAM [ARGS...]
#
# Runs the program with `mpirun --oversubscribe -np N` for each rank count N
# in $MPI_TEST_RANKS (default "1 2 4"), and then, when PREFIX (valgrind and
# its options) is not empty, once more with $MPI_TEST_MEMCHECK_RANKS ranks
# (default 2), every rank under PREFIX. Every run must exit 0; a failure
# names N. Each run is limited to $MPI_TEST_TIMEOUT seconds (default 120;
# four times that under valgrind), so that a derivative whose messages do not
# match fails as a timeout instead of hanging the suite.
memcheck=
if [ "$1" = --memcheck ]; then
  memcheck=$2
  shift 2
fi
limit=${MPI_TEST_TIMEOUT:-120}

run() {
  # $1: rank count, $2: time limit, the rest: the command each rank runs.
  n=$1
  t=$2
  shift 2
  timeout -k 10 "$t" mpirun --oversubscribe -np "$n" "$@"
  rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "run_ranks.sh: timed out after ${t}s (a deadlock?) with -np $n: $*" >&2
  fi
  return "$rc"
}

for n in ${MPI_TEST_RANKS:-1 2 4}; do
  if ! run "$n" "$limit" "$@"; then
    echo "run_ranks.sh: failed with mpirun -np $n: $*" >&2
    exit 1
  fi
done
if [ -n "$memcheck" ]; then
  n=${MPI_TEST_MEMCHECK_RANKS:-2}
  # PREFIX is split into words on purpose: it is a command and its options.
  # shellcheck disable=SC2086
  if ! run "$n" "$((limit * 4))" $memcheck "$@"; then
    echo "run_ranks.sh: failed under $memcheck with mpirun -np $n: $*" >&2
    exit 1
  fi
fi
