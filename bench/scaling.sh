#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# How the cost of a whole `dpledger compose` process grows with the work, for the RDP and PLD accountants:
# against the number of steps (10 to 10^7), the number of distinct entries (1 to 10^4) and the target delta
# (1e-5 to 1e-30). Prints a Markdown table: wall and CPU seconds (one run each; on a shared machine compare
# CPU) and peak resident memory (getrusage ru_maxrss via GNU time), or "timeout" after LIMIT seconds.
# Usage: bench/scaling.sh [build dir] [limit seconds]
set -eu
BUILD=${1:-build}
LIMIT=${2:-120}
BIN="$BUILD/bin/dpledger"
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench/scaling.sh needs GNU time at /usr/bin/time" >&2; exit 2; }
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT

distinct() {  # n distinct subsampled-Gaussian entries: sigma in [0.8, 2.8), q in [0.005, 0.025), 100 steps each
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf " -m gaussian:sigma=%.6f,sens=1.3,q=%.6f,steps=100", 0.8 + 2.0 * i / n, 0.005 + 0.02 * ((i * 7) % n) / n }'
}

# row <label> <accountant> <compose arguments...>
row() {
  label=$1; acc=$2; shift 2
  status=0
  timeout "$LIMIT" "$TIME" -f '%e %U %S %M' -o "$OUT" "$BIN" --json compose "$@" --accountant "$acc" >"$OUT.json" 2>/dev/null ||
    status=$?
  if [ "$status" = 0 ]; then
    eps=$(sed -n 's/.*"epsilon": *\([^,}]*\).*/\1/p' "$OUT.json" | head -n 1)
    awk -v l="$label" -v a="$acc" -v e="$eps" '{ printf "| %s | %s | %.3f | %.3f | %.0f | %s |\n", l, a, $1, $2 + $3, $4 / 1024, e }' "$OUT"
  elif [ "$status" = 124 ]; then
    echo "| $label | $acc | timeout (> $LIMIT s) | | | |"
  else  # GNU time still wrote its line (the last line of $OUT) for a process that exited non-zero
    tail -n 1 "$OUT" | awk -v l="$label" -v a="$acc" -v s="$status" \
      '{ printf "| %s | %s | %.3f | %.3f | %.0f | refused (exit %s) |\n", l, a, $1, $2 + $3, $4 / 1024, s }'
  fi
  rm -f "$OUT.json"
}

echo "| case | accountant | wall s | CPU s | peak MB | epsilon |"
echo "|---|---|---|---|---|---|"
for steps in 10 1000 100000 10000000; do
  for acc in rdp pld; do
    row "steps $steps (gaussian sigma 1.1, q 0.01, delta 1e-5)" $acc -m gaussian:sigma=1.1,q=0.01,steps=$steps --delta 1e-5
  done
done
for n in 1 10 100 1000 10000; do
  for acc in rdp pld; do
    # shellcheck disable=SC2046
    row "$n distinct entries (100 steps each, delta 1e-5)" $acc $(distinct "$n") --delta 1e-5
  done
done
for delta in 1e-5 1e-10 1e-20 1e-30; do
  for acc in rdp pld; do
    row "delta $delta (DP-SGD: sigma 1.1, q 0.01, 10^4 steps)" $acc -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta $delta
  done
done
