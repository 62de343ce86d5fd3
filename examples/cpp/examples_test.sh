#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the worked C++ examples (cmake --build build --target examples) and compares them with the CLI: the composed
# epsilon and the calibrated sigma digit for digit, and the audit's two verdicts (pass at the claimed noise, a
# violation at half of it). Usage: examples_test.sh EXAMPLES_DIR DPLEDGER
set -eu
DIR=$1
BIN=$2
for e in compose_budget calibrate_noise audit_samples; do
  [ -x "$DIR/example_$e" ] || { echo "example_$e is not built: cmake --build build --target examples"; exit 1; }
done
number() { sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p"; }
out=$("$DIR/example_compose_budget"); echo "$out"
eps=$("$BIN" --json compose -m gaussian:sigma=1.1,q=0.01,steps=10000 -m gaussian:sigma=0.9,q=0.02,steps=2000 \
  --delta 1e-5 --accountant rdp | number epsilon)
[ "$out" = "epsilon $eps at delta 1e-5 (rdp)" ] || { echo "the CLI says epsilon $eps"; exit 1; }
out=$("$DIR/example_calibrate_noise"); echo "$out"
sigma=$("$BIN" --json calibrate -m gaussian:sigma=?,q=256/60000,epochs=30 --epsilon 3 --delta 1e-5 \
  --accountant rdp | number value)
case "$out" in "sigma $sigma (epsilon "*) ;; *) echo "the CLI says sigma $sigma"; exit 1 ;; esac
out=$("$DIR/example_audit_samples"); echo "$out"
echo "$out" | grep -q "^scale 1: pass," && echo "$out" | grep -q "^scale 0.5: violation,"
echo "the C++ examples print what the CLI prints"
