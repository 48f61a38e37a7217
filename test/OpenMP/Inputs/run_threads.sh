#!/bin/sh
# run_threads.sh [--memcheck PREFIX] PROGRAM [ARGS...]
#
# Runs the program once for each thread count in $OMP_TEST_THREADS (default
# "1 2 4") with OMP_NUM_THREADS set to it, and then, when PREFIX (valgrind
# and its options, as lit's %run) is not empty, once more under it with
# $OMP_TEST_MEMCHECK_THREADS threads (default 4). Every run must exit 0; a
# failure names the thread count. Valgrind runs one thread at a time and
# makes every parallel region slow, so it runs once, not at each count.
memcheck=
if [ "$1" = --memcheck ]; then
  memcheck=$2
  shift 2
fi
for n in ${OMP_TEST_THREADS:-1 2 4}; do
  if ! OMP_NUM_THREADS=$n "$@"; then
    echo "run_threads.sh: failed with OMP_NUM_THREADS=$n: $*" >&2
    exit 1
  fi
done
if [ -n "$memcheck" ]; then
  n=${OMP_TEST_MEMCHECK_THREADS:-4}
  # PREFIX is split into words on purpose: it is a command and its options.
  # shellcheck disable=SC2086
  if ! OMP_NUM_THREADS=$n $memcheck "$@"; then
    echo "run_threads.sh: failed under $memcheck with OMP_NUM_THREADS=$n: $*" >&2
    exit 1
  fi
fi
