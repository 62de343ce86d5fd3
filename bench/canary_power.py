#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How many canaries does a one-run audit need to catch an under-noised DP-SGD run?

For each canary count m, each audit method and each noise factor F (F = 1: the run draws the noise it accounts;
F = 0.5: half of it, the claim unchanged), the script trains `dpledger run dp-sgd --set canaries=m` on seeds
1..S, audits each run's canary scores with `dpledger audit --canary-scores --epsilon E --delta D` and prints a
Markdown table: the median epsilon lower bound and how many runs the audit flags as a violation (exit 3).

At F = 1 every violation is a false alarm (each audit errs with probability at most 1 - C = 0.05 under its
assumptions; the gdp method assumes the Gaussian shape); at F = 0.5 the count is the audit's power.

Usage: bench/canary_power.py BUILD [--canaries 1000,10000,100000] [--seeds 10] [--methods one-run,one-run-fdp,gdp]
                                   [--factors 1,0.5] [--set key=value ...]
The claim (--epsilon) is the run's own accounted epsilon and --delta its delta, read from the run's JSON.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def dpledger(build, *args, check=True):
    binary = os.path.join(build, "bin", "dpledger")
    p = subprocess.run([binary, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError(f"dpledger {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--canaries", default="1000,10000,100000")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--methods", default="one-run,one-run-fdp,gdp")
    ap.add_argument("--factors", default="1,0.5")
    ap.add_argument("--set", action="append", default=[], help="extra dp-sgd key=value (e.g. K=500)")
    a = ap.parse_args(argv)
    counts = [int(x) for x in a.canaries.split(",")]
    methods = a.methods.split(",")
    factors = a.factors.split(",")
    sets = [s for kv in a.set for s in ("--set", kv)]

    claim = json.loads(dpledger(a.build, "--json", "run", "dp-sgd", *sets).stdout)["privacy"]["accounted"]
    epsilon, delta = str(claim["epsilon"]), str(claim["delta"])
    print(f"dp-sgd {' '.join(a.set) or '(defaults)'}: accounted epsilon {epsilon} at delta {delta}; "
          f"{a.seeds} seeds per row", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        scores = os.path.join(tmp, "scores.csv")
        for m in counts:
            for f in factors:
                results = {meth: [] for meth in methods}
                for seed in range(1, a.seeds + 1):
                    dpledger(a.build, "--quiet", "run", "dp-sgd", "--seed", str(seed), *sets, "--set", f"canaries={m}",
                             "--set", f"actual_noise_factor={f}", "--canary-scores", scores)
                    for meth in methods:
                        p = dpledger(a.build, "--json", "audit", "--canary-scores", scores, "--method", meth,
                                     "--epsilon", epsilon, "--delta", delta, check=False)
                        if p.returncode not in (0, 3, 4):
                            raise RuntimeError(f"audit exited {p.returncode}: {p.stderr.strip()}")
                        results[meth].append((float(json.loads(p.stdout)["epsilon_lower"]), p.returncode == 3))
                    print(f"  m={m} F={f} seed {seed} done", file=sys.stderr)
                for meth in methods:
                    lows = [x for x, _ in results[meth]]
                    flagged = sum(v for _, v in results[meth])
                    rows.append((m, meth, f, statistics.median(lows), flagged, a.seeds))
    print(f"| canaries | method | noise factor | median epsilon_lower | violations (claim {epsilon}) |")
    print("|---|---|---|---|---|")
    for m, meth, f, med, flagged, n in rows:
        print(f"| {m} | {meth} | {f} | {med:.3g} | {flagged}/{n} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
