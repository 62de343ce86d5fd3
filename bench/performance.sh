#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Regenerates the measured tables of docs/performance.md: whole-process time of the common commands (mean of N
# runs, wall and CPU of all threads, with the value printed), and how a `compose` grows with the work
# (bench/scaling.sh). Prints Markdown on stdout, headed by the date, the machine, its load and the build measured.
# Usage: bench/performance.sh [build dir] [runs] > measured.md
set -eu
BUILD=${1:-build}
RUNS=${2:-10}
BIN="$BUILD/bin/dpledger"
HERE=$(dirname "$0")
TIME=/usr/bin/time
[ -x "$BIN" ] || { echo "bench/performance.sh: no executable at $BIN (build the dpledger target first)" >&2; exit 2; }
[ -x "$TIME" ] || { echo "bench/performance.sh needs GNU time at /usr/bin/time" >&2; exit 2; }
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.txt"' EXIT

distinct() {  # n distinct subsampled-Gaussian entries: sigma in [0.8, 2.8), sens 1.3, q in [0.005, 0.025), 100 steps each
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf " -m gaussian:sigma=%.6f,sens=1.3,q=%.6f,steps=100", 0.8 + 2.0 * i / n, 0.005 + 0.02 * ((i * 7) % n) / n }'
}

# row <label> <dpledger arguments...>: mean wall and CPU seconds over RUNS runs, peak memory, the first number printed
row() {
  label=$1; shift
  wall=0; cpu=0; peak=0; i=0
  while [ $i -lt "$RUNS" ]; do
    "$TIME" -f '%e %U %S %M' -o "$OUT" "$BIN" "$@" >"$OUT.txt" 2>/dev/null || true
    read -r w u s m <"$OUT"
    wall=$(awk -v a="$wall" -v b="$w" 'BEGIN { print a + b }')
    cpu=$(awk -v a="$cpu" -v b="$u" -v c="$s" 'BEGIN { print a + b + c }')
    [ "$m" -gt "$peak" ] && peak=$m
    i=$((i + 1))
  done
  value=$(awk 'NR == 1 { if ($2 ~ /^[0-9.e+-]+$/) print $2; else print "-"; exit }' "$OUT.txt")
  awk -v l="$label" -v w="$wall" -v c="$cpu" -v n="$RUNS" -v p="$peak" -v v="$value" \
    'BEGIN { printf "| %s | %.3f | %.3f | %.0f | %s |\n", l, w / n, c / n, p / 1024, v }'
}

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by \`bench/performance.sh $BUILD $RUNS\` on $(nproc) cores"
echo "($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), load average $(cut -d ' ' -f 1-3 /proc/loadavg) at the start;"
echo "\`$($BIN --version | head -n 1)\`."
echo
echo "### Common commands (whole process, mean of $RUNS runs; GNU time, 10 ms resolution)"
echo
echo "| command | wall s | CPU s | peak MB | printed |"
echo "|---|---:|---:|---:|---|"
row "\`compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5\` (auto: PLD wins)" \
  compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5
row "the same, \`--accountant rdp\`" compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp
row "the same, \`--accountant pld --delta 1e-30\`" compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-30 --accountant pld
row "\`compose -m pure:eps=0.1,steps=100 --delta 1e-5 --accountant optimal\`" \
  compose -m pure:eps=0.1,steps=100 --delta 1e-5 --accountant optimal
row "\`compose -m pure:eps=0.01,steps=1000000 --delta 1e-5 --accountant optimal\`" \
  compose -m pure:eps=0.01,steps=1000000 --delta 1e-5 --accountant optimal
# shellcheck disable=SC2046
row "100 distinct subsampled Gaussians x 100 steps, \`--accountant rdp\`" compose $(distinct 100) --delta 1e-5 --accountant rdp
# shellcheck disable=SC2046
row "1,000 distinct subsampled Gaussians x 100 steps, \`--accountant rdp\`" compose $(distinct 1000) --delta 1e-5 --accountant rdp
row "\`calibrate -m gaussian:sigma=?,steps=100 --epsilon 1 --delta 1e-5\`" \
  calibrate -m gaussian:sigma=?,steps=100 --epsilon 1 --delta 1e-5
row "\`calibrate -m gaussian:sigma=?,q=0.01,steps=10000 --epsilon 1 --delta 1e-5 --accountant pld\`" \
  calibrate -m gaussian:sigma=?,q=0.01,steps=10000 --epsilon 1 --delta 1e-5 --accountant pld
row "\`calibrate -m gaussian:sigma=1.1,q=?,steps=10000 --epsilon 1 --delta 1e-5\`" \
  calibrate -m gaussian:sigma=1.1,q=?,steps=10000 --epsilon 1 --delta 1e-5
row "\`calibrate -m gaussian:sigma=1.1,q=0.01,steps=? --epsilon 3 --delta 1e-5\`" \
  calibrate -m gaussian:sigma=1.1,q=0.01,steps=? --epsilon 3 --delta 1e-5
row "\`calibrate -m pure:eps=?,steps=100000 --epsilon 1 --delta 1e-5\`" calibrate -m pure:eps=?,steps=100000 --epsilon 1 --delta 1e-5
row "\`gamma --omega 0.1:1:10 --beta 2:10:9 --shift 0.001\` (90-point grid)" gamma --omega 0.1:1:10 --beta 2:10:9 --shift 0.001
row "\`--help\` (start-up)" --help
echo
echo "### How \`compose\` grows with the work (one run per row; CPU from getrusage, 10 ms resolution)"
echo
sh "$HERE/scaling.sh" "$BUILD" 60
