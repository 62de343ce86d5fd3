#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Whole-process time of the RDP cases (wall and CPU, mean of N runs): DP-SGD by RDP, and 100 / 1,000
# distinct subsampled-Gaussian entries. On a loaded machine compare the CPU column.
# Usage: bench/rdp_process_time.sh [build dir] [runs]
set -eu
BUILD=${1:-build}
RUNS=${2:-10}
BIN="$BUILD/bin/dpledger"
distinct() {  # n distinct entries: sigma in [0.8, 2.8), sens 1.3, q in [0.005, 0.025), 100 steps each
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf " -m gaussian:sigma=%.6f,sens=1.3,q=%.6f,steps=100", 0.8 + 2.0 * i / n, 0.005 + 0.02 * ((i * 7) % n) / n }'
}
time_it() {
  label=$1; shift
  start=$(date +%s%N)
  cpu0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  i=0
  while [ $i -lt "$RUNS" ]; do "$BIN" "$@" >/dev/null; i=$((i + 1)); done
  end=$(date +%s%N)
  cpu1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  tck=$(getconf CLK_TCK)
  echo "$(( (end - start) / RUNS / 1000000 )) ms wall, $(( (cpu1 - cpu0) * 1000 / tck / RUNS )) ms CPU  $label"
}
time_it "DP-SGD: compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp" \
  compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp
# shellcheck disable=SC2046
time_it "100 distinct subsampled-Gaussian entries, --accountant rdp" compose $(distinct 100) --delta 1e-5 --accountant rdp
# shellcheck disable=SC2046
time_it "1000 distinct subsampled-Gaussian entries, --accountant rdp" compose $(distinct 1000) --delta 1e-5 --accountant rdp
