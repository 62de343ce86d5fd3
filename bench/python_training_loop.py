# SPDX-License-Identifier: Apache-2.0
"""Timed: a training loop's accounting through dpledger's Python package. 10^4 optimiser steps of DP-SGD
(Poisson rate 0.01, noise 1.1), each followed by the accountant's epsilon at delta 1e-5, by
dpledger.opacus.RDPAccountant (the certified RDP odometer), and for comparison the first K steps with the
optimal-order RDP composition (dpledger.compose(..., accountant="rdp")) recomputed after each step.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_training_loop.py [STEPS] [K]
Opacus's own RDPAccountant is timed too when `opacus` (or, with OPACUS_ANALYSIS_LOADER, its torch-free RDP module;
see bench/README.md) imports.
"""

import os
import sys
import time

import dpledger
from dpledger.opacus import RDPAccountant

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
K = int(sys.argv[2]) if len(sys.argv) > 2 else 200
SIGMA, Q, DELTA = 1.1, 0.01, 1e-5


def cpu():
    t = os.times()
    return t.user + t.system


def loop(accountant, steps):
    w0, c0 = time.perf_counter(), cpu()
    eps = None
    for _ in range(steps):
        accountant.step(noise_multiplier=SIGMA, sample_rate=Q)
        eps = accountant.get_epsilon(DELTA)
    return time.perf_counter() - w0, cpu() - c0, eps


wall, cpu_s, eps = loop(RDPAccountant(), STEPS)
print(f"dpledger.opacus.RDPAccountant: {STEPS} steps, epsilon after each: {wall:.3f} s wall, {cpu_s:.3f} s CPU "
      f"({1e6 * wall / STEPS:.1f} us per step); final epsilon {eps!r}")

w0, c0 = time.perf_counter(), cpu()
for k in range(1, K + 1):
    exact = dpledger.compose(dpledger.Gaussian(sigma=SIGMA, q=Q, steps=k), delta=DELTA, accountant="rdp").epsilon
wall_exact, cpu_exact = time.perf_counter() - w0, cpu() - c0
print(f"dpledger.compose(..., accountant='rdp') after each of {K} steps: {wall_exact:.3f} s wall, {cpu_exact:.3f} s "
      f"CPU ({1e6 * wall_exact / K:.0f} us per step, {STEPS * wall_exact / K:.1f} s projected for {STEPS} steps)")
print(f"optimal-order epsilon at {STEPS} steps: "
      f"{dpledger.compose(dpledger.Gaussian(sigma=SIGMA, q=Q, steps=STEPS), delta=DELTA, accountant='rdp').epsilon!r}")

loader = os.environ.get("OPACUS_ANALYSIS_LOADER")
try:
    if loader:
        exec(compile(open(loader).read(), loader, "exec"), {"__name__": "opacus_loader"})
        from opacus.accountants.analysis import rdp as opacus_rdp

        class OpacusRDP:  # what opacus.accountants.RDPAccountant computes, without torch
            history = []
            step = dpledger.opacus.RDPAccountant.step
            DEFAULT_ALPHAS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))

            def get_epsilon(self, delta):
                rdp = sum(opacus_rdp.compute_rdp(q=q, noise_multiplier=s, steps=n, orders=self.DEFAULT_ALPHAS)
                          for s, q, n in self.history)
                return opacus_rdp.get_privacy_spent(orders=self.DEFAULT_ALPHAS, rdp=rdp, delta=delta)[0]
        opacus_accountant = OpacusRDP()
    else:
        from opacus.accountants import RDPAccountant as OpacusRDPAccountant
        opacus_accountant = OpacusRDPAccountant()
except Exception as e:  # noqa: BLE001 (any import failure: the anchor is absent)
    print(f"Opacus: not importable ({type(e).__name__}: {e})")
else:
    opacus_accountant.history = []
    wall_o, cpu_o, eps_o = loop(opacus_accountant, STEPS)
    print(f"Opacus RDPAccountant: {STEPS} steps, epsilon after each: {wall_o:.3f} s wall, {cpu_o:.3f} s CPU; "
          f"final epsilon {eps_o!r} (float64 estimate)")
