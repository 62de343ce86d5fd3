#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Side by side with the Python accountants users already have: Google's dp_accounting, Microsoft's prv_accountant
# and Opacus. Every case runs in dpledger and in each anchor that is importable, as whole processes (start-up
# included, as a user meets them), RUNS times; the script prints one markdown table (values, mean wall and CPU
# time per run, the anchor's time over dpledger's) followed by the anchors' versions and the machine, ready to
# paste into the README. Anchors that are not importable are reported as such and dpledger's own rows are still
# printed. Progress goes to stderr.
#
# Usage: bench/compare.sh [build dir] [runs per case]            (defaults: build, 3)
# Environment:
#   PYTHON                  interpreter for the anchors; by default the first of python3 and /usr/bin/python3 under
#                           which at least one anchor imports (Debian's python3-* packages live in the latter)
#   OPACUS_ANALYSIS_LOADER  a Python file run before Opacus's RDP analysis module is imported, for machines where
#                           Opacus itself cannot be imported (it needs torch) but its torch-free module
#                           opacus/accountants/analysis/rdp.py can be loaded directly; see bench/README.md
set -euo pipefail
BUILD=${1:-build}
RUNS=${2:-3}
BIN="$BUILD/bin/dpledger"
[ -x "$BIN" ] || { echo "error: $BIN not found: build dpledger first (cmake --build $BUILD --target dpledger)" >&2; exit 2; }
case $RUNS in '' | *[!0-9]* | 0) echo "error: runs per case must be a positive integer, got '$RUNS'" >&2; exit 2 ;; esac

IMPORT_dp_accounting='import dp_accounting, dp_accounting.rdp, dp_accounting.pld'
IMPORT_prv_accountant='import prv_accountant'
IMPORT_opacus='import opacus.accountants'
LOAD_OPACUS_ANALYSIS='import os, runpy; runpy.run_path(os.environ["OPACUS_ANALYSIS_LOADER"])
from opacus.accountants.analysis import rdp as opacus_rdp'
imports() { "$1" -c "$2" >/dev/null 2>&1; }
any_anchor() {
  local py=$1
  command -v "$py" >/dev/null 2>&1 || return 1
  imports "$py" "$IMPORT_dp_accounting" || imports "$py" "$IMPORT_prv_accountant" || imports "$py" "$IMPORT_opacus" ||
    { [ -n "${OPACUS_ANALYSIS_LOADER:-}" ] && imports "$py" "$LOAD_OPACUS_ANALYSIS"; }
}
if [ -n "${PYTHON:-}" ]; then
  PY=$PYTHON
else
  PY=python3
  for cand in python3 /usr/bin/python3; do if any_anchor "$cand"; then PY=$cand; break; fi; done
fi

# Which anchors run, and their versions (distribution metadata, else the module's __version__).
version_of() {  # distribution module
  "$PY" -c "
import importlib, importlib.metadata as md
try: print(md.version('$1'))
except Exception: print(getattr(importlib.import_module('$2'), '__version__', 'version not recorded'))" 2>/dev/null ||
    echo "version not recorded"
}
HAVE_DPA=0 HAVE_PRV=0 OPACUS_MODE=none
ANCHOR_NOTES=()
if imports "$PY" "$IMPORT_dp_accounting"; then
  HAVE_DPA=1
  ANCHOR_NOTES+=("dp_accounting $(version_of dp-accounting dp_accounting)")
else
  ANCHOR_NOTES+=("dp_accounting: not importable with $PY")
fi
if imports "$PY" "$IMPORT_prv_accountant"; then
  HAVE_PRV=1
  ANCHOR_NOTES+=("prv_accountant $(version_of prv-accountant prv_accountant)")
else
  ANCHOR_NOTES+=("prv_accountant: not importable with $PY")
fi
if imports "$PY" "$IMPORT_opacus"; then
  OPACUS_MODE=package
  ANCHOR_NOTES+=("Opacus $(version_of opacus opacus)")
elif [ -n "${OPACUS_ANALYSIS_LOADER:-}" ] && imports "$PY" "$LOAD_OPACUS_ANALYSIS"; then
  OPACUS_MODE=analysis
  ANCHOR_NOTES+=("Opacus $("$PY" -c "$LOAD_OPACUS_ANALYSIS
import opacus; print(getattr(opacus, '__version__', 'version not recorded'))" 2>/dev/null || echo "version not recorded"):\
 only opacus/accountants/analysis/rdp.py, loaded without torch by $(basename "$OPACUS_ANALYSIS_LOADER")")
else
  ANCHOR_NOTES+=("Opacus: not importable with $PY (it needs torch)")
fi
for note in "${ANCHOR_NOTES[@]}"; do echo "anchor $note" >&2; done

# One timed case: RUNS whole-process runs of a command. Sets WALL_MS and CPU_MS (means per run; CPU = user +
# system time of the process and all its threads) and LAST (the last line of the last run's stdout, or
# "failed: <last stderr line>"). A small Python runner measures with getrusage (microseconds); without any
# Python the shell's reaped-children counters are used (clock ticks, usually 10 ms).
TIMER_PY=$(command -v python3 || command -v /usr/bin/python3 || true)
TIMER='import resource, subprocess, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
for _ in range(runs):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
out = p.stdout.decode(errors="replace").strip().splitlines()
err = p.stderr.decode(errors="replace").strip().splitlines()
ms = lambda x: str(round(x)) if x >= 100 else "%.1f" % x
last = out[-1] if p.returncode == 0 and out else "failed: " + (err[-1] if err else "exit %d" % p.returncode)
print(ms((t1 - t0) * 1000 / runs), ms(cpu * 1000 / runs), last)'
ERR=$(mktemp)
trap 'rm -f "$ERR"' EXIT
time_cmd() {
  local line start end cpu0 cpu1 i out status
  if [ -n "$TIMER_PY" ]; then
    line=$("$TIMER_PY" -c "$TIMER" "$RUNS" "$@")
    WALL_MS=${line%% *} line=${line#* }
    CPU_MS=${line%% *} LAST=${line#* }
    return
  fi
  start=$(date +%s%N)
  cpu0=$(awk '{ print $16 + $17 }' "/proc/$$/stat")
  for ((i = 0; i < RUNS; i++)); do
    status=0
    out=$("$@" 2>"$ERR") || status=$?
  done
  end=$(date +%s%N)
  cpu1=$(awk '{ print $16 + $17 }' "/proc/$$/stat")
  WALL_MS=$(((end - start) / RUNS / 1000000))
  CPU_MS=$(((cpu1 - cpu0) * 1000 / $(getconf CLK_TCK) / RUNS))
  if [ "$status" -eq 0 ]; then LAST=$(printf '%s\n' "$out" | tail -n 1); else LAST="failed: $(tail -n 1 "$ERR")"; fi
}
json_number() { sed -n "s/.*\"$1\":\([0-9.eE+-]*\).*/\1/p" | head -n 1; }

ROWS=()
CASE="" DPL_VALUE="" DPL_WALL=0 DPL_CPU=0
ratio() {  # a / b with two significant digits at least
  awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) { printf "-"; exit } r = a / b
    if (r >= 10) printf "%.0f", r; else if (r >= 1) printf "%.1f", r; else printf "%.2f", r }'
}
dpledger_case() {  # name json-field dpledger-args...
  CASE=$1
  local field=$2
  shift 2
  echo "running: $CASE / dpledger" >&2
  time_cmd "$BIN" --json "$@"
  DPL_WALL=$WALL_MS DPL_CPU=$CPU_MS
  DPL_VALUE=$(printf '%s\n' "$LAST" | json_number "$field")
  [ -n "$DPL_VALUE" ] || DPL_VALUE="failed: $LAST"
  ROWS+=("| $CASE | dpledger (certified) | $DPL_VALUE | $DPL_VALUE | $DPL_WALL | $DPL_CPU | 1 | 1 |")
}
anchor_case() {  # tool python-code (prints one line: the value)
  echo "running: $CASE / $1" >&2
  time_cmd "$PY" -c "$2"
  ROWS+=("| $CASE | $1 | $LAST | $DPL_VALUE | $WALL_MS | $CPU_MS | $(ratio "$WALL_MS" "$DPL_WALL") | $(ratio "$CPU_MS" "$DPL_CPU") |")
}

ORDERS='[1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))'  # Opacus RDPAccountant.DEFAULT_ALPHAS
DPSGD_EVENT='from dp_accounting import dp_event as e
event = e.SelfComposedDpEvent(e.PoissonSampledDpEvent(0.01, e.GaussianDpEvent(1.1)), 10000)'
# n distinct entries as in bench/rdp_process_time.sh: sigma in [0.8, 2.8), sensitivity 1.3, q in [0.005, 0.025),
# 100 steps each; as dpledger arguments and as a Python list of (noise multiplier sigma/1.3, q).
distinct_args() {
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
    printf " -m gaussian:sigma=%.6f,sens=1.3,q=%.6f,steps=100", 0.8 + 2.0 * i / n, 0.005 + 0.02 * ((i * 7) % n) / n }'
}
distinct_py() {
  awk -v n="$1" 'BEGIN { printf "["; for (i = 0; i < n; i++)
    printf "(%.6f / 1.3, %.6f),", 0.8 + 2.0 * i / n, 0.005 + 0.02 * ((i * 7) % n) / n; printf "]" }'
}

dpledger_case "DP-SGD eps by RDP (q 0.01, sigma 1.1, 10^4 steps, delta 1e-5)" epsilon \
  compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant rdp
[ $HAVE_DPA = 1 ] && anchor_case "dp_accounting RdpAccountant" "$DPSGD_EVENT
from dp_accounting import rdp
print(rdp.RdpAccountant().compose(event).get_epsilon(1e-5))"
[ $OPACUS_MODE = package ] && anchor_case "Opacus RDPAccountant" "from opacus.accountants import RDPAccountant
a = RDPAccountant()
for _ in range(10000): a.step(noise_multiplier=1.1, sample_rate=0.01)
print(a.get_epsilon(1e-5))"
[ $OPACUS_MODE = analysis ] && anchor_case "Opacus analysis.rdp (no torch)" "$LOAD_OPACUS_ANALYSIS
A = $ORDERS
print(opacus_rdp.get_privacy_spent(orders=A, rdp=opacus_rdp.compute_rdp(q=0.01, noise_multiplier=1.1, steps=10000, orders=A), delta=1e-5)[0])"

dpledger_case "DP-SGD eps, tight (PLD / PRV)" epsilon \
  compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant pld
[ $HAVE_DPA = 1 ] && anchor_case "dp_accounting PLDAccountant, grid 1e-4" "$DPSGD_EVENT
from dp_accounting import pld
print(pld.PLDAccountant(value_discretization_interval=1e-4).compose(event).get_epsilon(1e-5))"
[ $HAVE_PRV = 1 ] && anchor_case "prv_accountant, eps_error 1e-3: estimate [lower, upper]" "from prv_accountant import PRVAccountant, PoissonSubsampledGaussianMechanism
prv = PoissonSubsampledGaussianMechanism(sampling_probability=0.01, noise_multiplier=1.1)
a = PRVAccountant(prvs=[prv], max_self_compositions=[10000], eps_error=1e-3, delta_error=1e-10)
lo, est, up = a.compute_epsilon(delta=1e-5, num_self_compositions=[10000])
print(f'{est} [{lo}, {up}]')"

dpledger_case "DP-SGD eps at delta 1e-30, tight (PLD)" epsilon \
  compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-30 --accountant pld
[ $HAVE_DPA = 1 ] && anchor_case "dp_accounting PLDAccountant, grid 1e-4" "$DPSGD_EVENT
from dp_accounting import pld
print(pld.PLDAccountant(value_discretization_interval=1e-4).compose(event).get_epsilon(1e-30))"

for n in 100 1000; do
  # shellcheck disable=SC2046
  dpledger_case "$n distinct subsampled Gaussians x 100 steps (sigma 0.8..2.8, sens 1.3, q 0.005..0.025), RDP" epsilon \
    compose $(distinct_args "$n") --delta 1e-5 --accountant rdp
  [ $HAVE_DPA = 1 ] && anchor_case "dp_accounting RdpAccountant" "from dp_accounting import dp_event as e, rdp
a = rdp.RdpAccountant()
for z, q in $(distinct_py "$n"): a.compose(e.PoissonSampledDpEvent(q, e.GaussianDpEvent(z)), 100)
print(a.get_epsilon(1e-5))"
  [ $OPACUS_MODE = package ] && anchor_case "Opacus RDPAccountant" "from opacus.accountants import RDPAccountant
a = RDPAccountant()
for z, q in $(distinct_py "$n"):
    for _ in range(100): a.step(noise_multiplier=z, sample_rate=q)
print(a.get_epsilon(1e-5))"
  [ $OPACUS_MODE = analysis ] && anchor_case "Opacus analysis.rdp (no torch)" "$LOAD_OPACUS_ANALYSIS
A = $ORDERS
r = sum(opacus_rdp.compute_rdp(q=q, noise_multiplier=z, steps=100, orders=A) for z, q in $(distinct_py "$n"))
print(opacus_rdp.get_privacy_spent(orders=A, rdp=r, delta=1e-5)[0])"
done

CALIBRATE='import dp_accounting as d
from dp_accounting import dp_event as e, pld, rdp
def event(sigma): return e.SelfComposedDpEvent(e.PoissonSampledDpEvent(0.01, e.GaussianDpEvent(sigma)), 10000)'
dpledger_case "sigma for eps 1 (q 0.01, 10^4 steps, delta 1e-5), RDP" value \
  calibrate -m 'gaussian:sigma=?,q=0.01,steps=10000' --epsilon 1 --delta 1e-5 --accountant rdp
[ $HAVE_DPA = 1 ] && anchor_case "dp_accounting calibrate_dp_mechanism, RdpAccountant" "$CALIBRATE
print(d.calibrate_dp_mechanism(rdp.RdpAccountant, event, 1.0, 1e-5, d.LowerEndpointAndGuess(0.5, 3.0)))"

dpledger_case "sigma for eps 1 (q 0.01, 10^4 steps, delta 1e-5), tight (PLD)" value \
  calibrate -m 'gaussian:sigma=?,q=0.01,steps=10000' --epsilon 1 --delta 1e-5 --accountant pld
[ $HAVE_DPA = 1 ] && anchor_case "dp_accounting calibrate_dp_mechanism, PLDAccountant grid 1e-4" "$CALIBRATE
print(d.calibrate_dp_mechanism(lambda: pld.PLDAccountant(value_discretization_interval=1e-4), event, 1.0, 1e-5,
                               d.LowerEndpointAndGuess(0.5, 3.0)))"

dpledger_case "optimal composition of 100 pure eps 0.1 steps (delta 1e-5)" epsilon \
  compose -m pure:eps=0.1,steps=100 --delta 1e-5 --accountant optimal
[ $HAVE_DPA = 1 ] && anchor_case "dp_accounting PLD from_privacy_parameters, grid 1e-4" "from dp_accounting.pld import common, privacy_loss_distribution as p
pure = p.from_privacy_parameters(common.DifferentialPrivacyParameters(0.1, 0.0), value_discretization_interval=1e-4)
print(pure.self_compose(100).get_epsilon_for_delta(1e-5))"
[ $HAVE_PRV = 1 ] && anchor_case "prv_accountant PureDPMechanism, eps_error 1e-3: estimate [lower, upper]" "from prv_accountant import PRVAccountant, PureDPMechanism
a = PRVAccountant(prvs=[PureDPMechanism(0.1)], max_self_compositions=[100], eps_error=1e-3, delta_error=1e-10)
lo, est, up = a.compute_epsilon(delta=1e-5, num_self_compositions=[100])
print(f'{est} [{lo}, {up}]')"

# Heterogeneous RDP at the optimal fractional order: 100 entries, sigma_i = 0.8 + 0.02 i, q_i = 0.005 + 0.0002 i,
# sens 1.3, 100 steps each (dp_accounting evaluates its grid of orders; dpledger certifies the optimal order).
hetero_args() { awk 'BEGIN { for (i = 0; i < 100; i++) printf " -m gaussian:sigma=%.4f,sens=1.3,q=%.4f,steps=100", 0.8 + 0.02 * i, 0.005 + 0.0002 * i }'; }
hetero_py() { awk 'BEGIN { printf "["; for (i = 0; i < 100; i++) printf "(%.4f / 1.3, %.4f),", 0.8 + 0.02 * i, 0.005 + 0.0002 * i; printf "]" }'; }
# shellcheck disable=SC2046
dpledger_case "100 subsampled Gaussians (sigma 0.8+0.02i, q 0.005+0.0002i, sens 1.3, 100 steps each), RDP" epsilon \
  compose $(hetero_args) --delta 1e-5 --accountant rdp
[ $HAVE_DPA = 1 ] && anchor_case "dp_accounting RdpAccountant" "from dp_accounting import dp_event as e, rdp
a = rdp.RdpAccountant()
for z, q in $(hetero_py): a.compose(e.PoissonSampledDpEvent(q, e.GaussianDpEvent(z)), 100)
print(a.get_epsilon(1e-5))"

# The PLD's certified lower bound for DP-SGD (the sandwich of the tight row above).
dpledger_case "DP-SGD certified lower bound (PLD; the upper bound is the tight row)" epsilon_lower \
  compose -m gaussian:sigma=1.1,q=0.01,steps=10000 --delta 1e-5 --accountant pld

# 10^4 distinct entries by PLD (sigma_i = 0.8 + 0.0002 i, q 0.01, 100 steps each) and by RDP. dp_accounting needs
# minutes for 10^4 distinct events (its RDP took 63 s for 1,000): not run here.
LEDGER_10K=$(mktemp)
trap 'rm -f "$ERR" "$LEDGER_10K"' EXIT
awk 'BEGIN { for (i = 0; i < 10000; i++) printf "gaussian:sigma=%.4f,q=0.01,steps=100\n", 0.8 + 0.0002 * i }' > "$LEDGER_10K"
dpledger_case "10^4 subsampled Gaussians (sigma 0.8+0.0002i, q 0.01, 100 steps each), PLD" epsilon \
  compose --ledger "$LEDGER_10K" --delta 1e-5 --accountant pld
dpledger_case "10^4 subsampled Gaussians (sigma 0.8+0.0002i, q 0.01, 100 steps each), RDP" epsilon \
  compose --ledger "$LEDGER_10K" --delta 1e-5 --accountant rdp

# Sampling without replacement never hurts (auto takes the unsampled bound where it is smaller).
dpledger_case "500 wor-sampled Gaussian steps (sigma 128, sens 2, q 0.1, delta 1e-6), auto" epsilon \
  compose -m gaussian:sigma=128,sens=2,q=0.1,sampling=wor,steps=500 --delta 1e-6
[ $HAVE_DPA = 1 ] && anchor_case "dp_accounting RdpAccountant, replace-one (WBK 2019 Thm 27)" "from dp_accounting import dp_event as e, rdp
from dp_accounting.rdp.rdp_privacy_accountant import NeighborRel
a = rdp.RdpAccountant(neighboring_relation=NeighborRel.REPLACE_ONE)
a.compose(e.SampledWithoutReplacementDpEvent(1000, 100, e.GaussianDpEvent(64.0)), 500)
print(a.get_epsilon(1e-6))"

# No accountant above the trivial bound: 5 Laplace steps with b = 0.01 (pure epsilon 100 each) by PLD.
dpledger_case "5 Laplace steps, b 0.01 (sum of pure epsilons 500), delta 1e-12, PLD" epsilon \
  compose -m laplace:b=0.01,steps=5 --delta 1e-12 --accountant pld
[ $HAVE_DPA = 1 ] && anchor_case "dp_accounting PLDAccountant, grid 1e-4" "from dp_accounting import dp_event as e, pld
p = pld.PLDAccountant(value_discretization_interval=1e-4)
p.compose(e.LaplaceDpEvent(0.01), 5)
print(p.get_epsilon(1e-12))"

# dp_accounting 0.6's other events (docs/mechanisms.md): the same event in each tool, delta 1e-5.
EV='from dp_accounting import dp_event as e, privacy_accountant as pa
from dp_accounting.rdp import rdp_privacy_accountant as r
from dp_accounting.pld import pld_privacy_accountant as p
S, NR = e.SelfComposedDpEvent, pa.NeighboringRelation
def rdp(ev, rel=NR.ADD_OR_REMOVE_ONE): a = r.RdpAccountant(neighboring_relation=rel); a.compose(ev); return a.get_epsilon(1e-5)
def pld(ev, rel=NR.ADD_OR_REMOVE_ONE): a = p.PLDAccountant(neighboring_relation=rel); a.compose(ev); return a.get_epsilon(1e-5)'
mechanism_row() {  # name, dpledger accountant, dpledger spec, anchor label, anchor expression (Python, after $EV)
  dpledger_case "$1" epsilon compose -m "$3" --delta 1e-5 --accountant "$2"
  [ $HAVE_DPA = 1 ] && [ -n "$4" ] && anchor_case "$4" "$EV
print($5)"
  return 0
}
mechanism_row "DiscreteGaussianDpEvent(2, 1) x 10, RDP" rdp discrete_gaussian:sigma=2,steps=10 \
  "dp_accounting RdpAccountant" "rdp(S(e.DiscreteGaussianDpEvent(2.0, 1.0), 10))"
mechanism_row "DiscreteGaussianDpEvent(2, 1, dimension 1) x 10, tight (PLD; dp_accounting has none)" pld \
  discrete_gaussian:sigma=2,dim=1,steps=10 "" ""
mechanism_row "DiscreteLaplaceDpEvent(0.5, 2) x 10, PLD" pld discrete_laplace:a=0.5,sens=2,steps=10 \
  "dp_accounting PLDAccountant, grid 1e-4" "pld(S(e.DiscreteLaplaceDpEvent(0.5, 2), 10))"
mechanism_row "RandomizedResponseDpEvent(0.3, 4) x 20, RDP (replace-one)" rdp rr:p=0.3,k=4,steps=20 \
  "dp_accounting RdpAccountant REPLACE_ONE" "rdp(S(e.RandomizedResponseDpEvent(0.3, 4), 20), NR.REPLACE_ONE)"
mechanism_row "RandomizedResponseDpEvent(0.3, 4) x 20, PLD (replace-one)" pld rr:p=0.3,k=4,steps=20 \
  "dp_accounting PLDAccountant REPLACE_ONE (composes one step: count ignored)" \
  "pld(S(e.RandomizedResponseDpEvent(0.3, 4), 20), NR.REPLACE_ONE)"
mechanism_row "ZCDpEvent(0.05) x 10, RDP" rdp zcdp:rho=0.05,steps=10 \
  "dp_accounting RdpAccountant" "rdp(S(e.ZCDpEvent(0.05), 10))"
mechanism_row "ExponentialMechanismDpEvent(0.5) x 20, RDP" rdp exponential:eps=0.5,steps=20 \
  "dp_accounting RdpAccountant (20 events composed: it ignores a count)" \
  "rdp(e.ComposedDpEvent([e.ExponentialMechanismDpEvent(0.5)] * 20))"
mechanism_row "PermuteAndFlipDpEvent(0.5) x 20, tight" auto permute_and_flip:eps=0.5,steps=20 \
  "dp_accounting PLDAccountant (as Laplace(1/eps): not a proven bound)" "pld(S(e.PermuteAndFlipDpEvent(0.5), 20))"
mechanism_row "SingleEpochTreeAggregationDpEvent(5, 1000) x 3, tight" auto tree:sigma=5,leaves=1000,steps=3 \
  "dp_accounting RdpAccountant REPLACE_SPECIAL" "rdp(S(e.SingleEpochTreeAggregationDpEvent(5.0, 1000), 3), NR.REPLACE_SPECIAL)"
mechanism_row "MixtureOfGaussiansDpEvent(1, [0, 1, 2], [0.81, 0.18, 0.01]) x 100, PLD" pld \
  "mixture:sigma=1,sens=[0,1,2],probs=[0.81,0.18,0.01],steps=100" "dp_accounting PLDAccountant, grid 1e-4" \
  "pld(S(e.MixtureOfGaussiansDpEvent(1.0, [0.0, 1.0, 2.0], [0.81, 0.18, 0.01]), 100))"
mechanism_row "TruncatedSubsampledGaussianDpEvent(60000, 0.01, 650, 1.1) x 1000, PLD" pld \
  truncated_gaussian:sigma=1.1,q=0.01,batch_size=650,dataset_size=60000,steps=1000 "dp_accounting PLDAccountant, grid 1e-4" \
  "pld(S(e.TruncatedSubsampledGaussianDpEvent(60000, 0.01, 650, 1.1), 1000))"
mechanism_row "RepeatAndSelectDpEvent(Gaussian(2) x 10, mean 10, geometric), RDP" rdp \
  "select:mean=10,shape=1,run=[gaussian:sigma=2,steps=10]" "dp_accounting RdpAccountant" \
  "rdp(e.RepeatAndSelectDpEvent(S(e.GaussianDpEvent(2.0), 10), 10, 1))"
mechanism_row "RepeatAndSelectDpEvent(DP-SGD q 0.01 sigma 2 x 1000, mean 10, Poisson), RDP" rdp \
  "select:mean=10,shape=inf,run=[gaussian:sigma=2,q=0.01,steps=1000]" "dp_accounting RdpAccountant" \
  "rdp(e.RepeatAndSelectDpEvent(S(e.PoissonSampledDpEvent(0.01, e.GaussianDpEvent(2.0)), 1000), 10, float('inf')))"

# The table, then where it was measured.
echo "| case | tool | value | dpledger's value | wall ms | CPU ms | wall / dpledger | CPU / dpledger |"
echo "|---|---|---|---|---:|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
echo
MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "Times: mean of $RUNS whole-process runs per row, start-up included; CPU = user + system time of the process and"
echo "all its threads. dpledger: $("$BIN" --version 2>/dev/null | head -n 1). Python: $("$PY" --version 2>&1) ($(command -v "$PY"))."
NOTES=$(IFS=';'; echo "${ANCHOR_NOTES[*]}")
echo "Anchors: ${NOTES//;/; }."
echo "Machine: $(nproc) cores, ${MODEL:-unknown CPU}; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end;" \
  "$(date -u '+%Y-%m-%d %H:%M UTC')."
