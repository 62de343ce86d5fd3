#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The running budget of a long ledger against the final budget alone (issue: "the running budget at each entry
# costs about what one final budget costs for RDP"). Writes a 10,000-entry JSON-lines ledger of distinct
# Poisson-subsampled Gaussians (a noise schedule) and times, as whole processes:
#   compose --accountant rdp (final budget), the same with --running (every entry), and the PLD's running budget.
# Usage: bench/ledger_running.sh [build dir] [entries]
set -eu
BUILD=${1:-build}
N=${2:-10000}
BIN="$BUILD/bin/dpledger"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++) printf "{\"mechanism\":\"gaussian\",\"sigma\":%.6f,\"q\":0.01,\"steps\":1}\n", 1 + i / n }' >"$T/ledger.jsonl"
# Wall-clock milliseconds, and the process's user CPU seconds (steadier on a shared machine) when GNU time is there.
time_it() {
  start=$(date +%s%N)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%U" -o "$T/user" "$BIN" "$@" >/dev/null
    user=" ($(cat "$T/user") s user)"
  else
    "$BIN" "$@" >/dev/null
    user=""
  fi
  end=$(date +%s%N)
  echo "$(( (end - start) / 1000000 )) ms$user  dpledger $*" | sed "s|$T/||"
}
time_it compose --ledger "$T/ledger.jsonl" --delta 1e-5 --accountant rdp
time_it compose --ledger "$T/ledger.jsonl" --delta 1e-5 --accountant rdp --running
time_it compose --ledger "$T/ledger.jsonl" --delta 1e-5 --accountant pld
time_it compose --ledger "$T/ledger.jsonl" --delta 1e-5 --accountant pld --running
