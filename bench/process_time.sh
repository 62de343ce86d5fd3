#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Whole-process wall time of the README's timed commands (mean of N runs), for the speed claims of the README.
# Usage: bench/process_time.sh [build dir] [runs]
set -eu
BUILD=${1:-build}
RUNS=${2:-20}
BIN="$BUILD/bin/dpledger"
time_it() {
  start=$(date +%s%N)
  i=0
  while [ $i -lt "$RUNS" ]; do "$BIN" "$@" >/dev/null; i=$((i + 1)); done
  end=$(date +%s%N)
  echo "$(( (end - start) / RUNS / 1000000 )) ms  dpledger $*"
}
time_it compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp
time_it compose -m pure:eps=0.1,steps=100 --delta 1e-5 --accountant optimal
time_it compose -m gaussian:sigma=1 --delta 1e-5
time_it calibrate -m gaussian:sigma=?,steps=100 --epsilon 1 --delta 1e-5
time_it compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant pld
time_it gamma --omega 0.1:1:10 --beta 2:10:9 --shift 0.001
time_it run admm-random-aggregation
time_it run dgd-secret-sharing
time_it run dsgd-random-aggregation
time_it run dsgd-random-aggregation-minmax
time_it run wang-nedic
