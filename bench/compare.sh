#!/usr/bin/env bash
# Side-by-side comparison with the Python accountants users already have: Google's dp_accounting, Microsoft's
# prv_accountant and Opacus. For every case it runs dpledger and each anchor that is importable, as whole
# processes (start-up included, as a user meets them), and prints the values and dpledger's time ratio.
# Anchors that are not importable are reported as such; dpledger's own timings are printed regardless.
# Usage: bench/compare.sh [build dir] [runs per case]   (PYTHON=python3 by default)
set -euo pipefail
BUILD=${1:-build}
RUNS=${2:-3}
PY=${PYTHON:-python3}
BIN="$BUILD/bin/dpledger"
[ -x "$BIN" ] || { echo "error: $BIN not found: build dpledger first (cmake --build $BUILD --target dpledger)" >&2; exit 2; }

have() { "$PY" -c "import $1" >/dev/null 2>&1; }
anchors=()
for mod in dp_accounting prv_accountant opacus; do
  if have "$mod"; then
    anchors+=("$mod")
    echo "anchor $mod: $("$PY" -c "import importlib.metadata as m; print(m.version('${mod/_/-}'))" 2>/dev/null || echo importable)"
  else
    echo "anchor $mod: not importable with $PY (install it to compare; dpledger's own timings follow)"
  fi
done
echo

# mean wall time in ms of RUNS runs of a command; its last stdout line in $LAST
LAST=""
time_cmd() {
  local start end i
  start=$(date +%s%N)
  for ((i = 0; i < RUNS; i++)); do LAST=$("$@" 2>/dev/null | tail -n 1) || LAST="failed"; done
  end=$(date +%s%N)
  echo $(((end - start) / RUNS / 1000000))
}
json_field() { sed -n "s/.*\"$1\":\([0-9.eE+-]*\).*/\1/p"; }

printf '%-44s %-14s %-22s %10s %8s\n' case tool value ms ratio
row() {  # case tool value ms dpledger_ms
  local ratio="-"
  [ "$4" -gt 0 ] && [ "$2" != dpledger ] && ratio=$(awk -v a="$4" -v b="$5" 'BEGIN { printf "%.1fx", a / (b > 0 ? b : 1) }')
  printf '%-44s %-14s %-22s %10s %8s\n' "$1" "$2" "$3" "$4" "$ratio"
}

py_case() {  # name module python-code (prints one number)
  local ms
  ms=$(time_cmd "$PY" -c "$3")
  row "$1" "$2" "$LAST" "$ms" "$DPL_MS"
}

HET=""
for i in $(seq 0 999); do HET="$HET -m gaussian:sigma=$(awk -v i="$i" 'BEGIN { printf "%.3f", 1 + i / 1000 }'),q=0.01"; done

run_case() {  # name, dpledger args..., then the anchors' code via globals
  local name=$1; shift
  DPL_MS=$(time_cmd "$BIN" --json "$@")
  local v
  v=$(echo "$LAST" | json_field "${FIELD:-epsilon}")
  row "$name" dpledger "${v:-$LAST}" "$DPL_MS" "$DPL_MS"
}

EV='from dp_accounting import dp_event as e
ev = e.SelfComposedDpEvent(e.PoissonSampledDpEvent(0.01, e.GaussianDpEvent(1.1)), 10000)'

run_case "DP-SGD eps, RDP (q .01, sigma 1.1, 1e4 steps)" compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp
for a in "${anchors[@]}"; do case $a in
  dp_accounting) py_case "" dp_accounting "$EV
from dp_accounting import rdp
a = rdp.RdpAccountant(); a.compose(ev); print(a.get_epsilon(1e-5))" ;;
  opacus) py_case "" opacus "from opacus.accountants import RDPAccountant
a = RDPAccountant(); a.history = [(1.1, 0.01, 10000)]; print(a.get_epsilon(1e-5))" ;;
esac; done

run_case "DP-SGD eps, tight (PLD / PRV)" compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant pld
for a in "${anchors[@]}"; do case $a in
  dp_accounting) py_case "" dp_accounting "$EV
from dp_accounting import pld
a = pld.PLDAccountant(value_discretization_interval=1e-4); a.compose(ev); print(a.get_epsilon(1e-5))" ;;
  prv_accountant) py_case "" prv_accountant "from prv_accountant import PRVAccountant, PoissonSubsampledGaussianMechanism
m = PoissonSubsampledGaussianMechanism(sampling_probability=0.01, noise_multiplier=1.1)
a = PRVAccountant(prvs=[m], max_self_compositions=[10000], eps_error=1e-3, delta_error=1e-10)
print(a.compute_epsilon(delta=1e-5, num_self_compositions=[10000])[2])" ;;
esac; done

# shellcheck disable=SC2086
run_case "1,000 distinct subsampled Gaussians, RDP" compose $HET --delta 1e-5 --accountant rdp
for a in "${anchors[@]}"; do case $a in
  dp_accounting) py_case "" dp_accounting "from dp_accounting import dp_event as e, rdp
a = rdp.RdpAccountant()
for i in range(1000): a.compose(e.PoissonSampledDpEvent(0.01, e.GaussianDpEvent(1 + i / 1000)))
print(a.get_epsilon(1e-5))" ;;
  opacus) py_case "" opacus "from opacus.accountants import RDPAccountant
a = RDPAccountant(); a.history = [(1 + i / 1000, 0.01, 1) for i in range(1000)]; print(a.get_epsilon(1e-5))" ;;
esac; done

FIELD=value run_case "sigma for eps 1 (q .01, 1e4 steps), RDP" calibrate -m 'gaussian:sigma=?,q=0.01,steps=10000' --epsilon 1 --delta 1e-5 --accountant rdp
for a in "${anchors[@]}"; do case $a in
  dp_accounting) py_case "" dp_accounting "import dp_accounting as d
from dp_accounting import dp_event as e, rdp
print(d.calibrate_dp_mechanism(rdp.RdpAccountant, lambda s: e.SelfComposedDpEvent(e.PoissonSampledDpEvent(0.01, e.GaussianDpEvent(s)), 10000), 1.0, 1e-5, d.LowerEndpointAndGuess(0.5, 3.0)))" ;;
esac; done

FIELD=value run_case "sigma for eps 1 (q .01, 1e4 steps), PLD" calibrate -m 'gaussian:sigma=?,q=0.01,steps=10000' --epsilon 1 --delta 1e-5 --accountant pld
for a in "${anchors[@]}"; do case $a in
  dp_accounting) py_case "" dp_accounting "import dp_accounting as d
from dp_accounting import dp_event as e, pld
print(d.calibrate_dp_mechanism(lambda: pld.PLDAccountant(value_discretization_interval=1e-4), lambda s: e.SelfComposedDpEvent(e.PoissonSampledDpEvent(0.01, e.GaussianDpEvent(s)), 10000), 1.0, 1e-5, d.LowerEndpointAndGuess(0.5, 3.0)))" ;;
esac; done

run_case "optimal composition, 100 x eps 0.1" compose -m pure:eps=0.1,steps=100 --delta 1e-5 --accountant optimal
for a in "${anchors[@]}"; do case $a in
  dp_accounting) py_case "" dp_accounting "from dp_accounting import dp_event as e, pld
a = pld.PLDAccountant(); a.compose(e.EpsilonDeltaDpEvent(0.1, 0.0), 100); print(a.get_epsilon(1e-5))" ;;
esac; done

echo
echo "ms: mean wall time of $RUNS whole-process runs on $(nproc) cores; ratio: the anchor's time / dpledger's."
