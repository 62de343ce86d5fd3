#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Time each drop-in call against the library it replaces, side by side in one process, on the same work.

    PYTHONPATH=build/python python3 bench/dropin_speed.py PEERS_DIR [--repeat N] [--case TEXT ...] [--markdown]

PEERS_DIR holds the peers' public sources, in any layout (searched as bench/peer_suites.py searches it; the
script fetches nothing): Google's dp_accounting (its package folder is put on sys.path) and Opacus (its
``opacus/accountants`` is imported without Opacus's ``__init__`` and with ``opacus.optimizers`` stubbed, so torch
is not needed: the accountants use NumPy and SciPy only). Each case runs the same calls through the drop-in
(``dpledger.dp_accounting``, ``dpledger.opacus.accountants``) and through the peer; every repetition uses a
different noise multiplier (1e-9 apart), so that no cache of either side answers from an earlier repetition.
Reported per side: the value, and the median over the repetitions of the wall and CPU time (user + system, all
threads) per call; a peer that is not found, or a call that raises, is reported as such.
"""

import argparse
import importlib
import importlib.machinery
import os
import statistics
import sys
import time
import types
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_suites  # noqa: E402  (find_roots: the same search of PEERS_DIR)
from text_table import print_table  # noqa: E402


def _cpu():
    return time.process_time()  # user + system, all threads of the process


class Side:
    """One side of the comparison: the modules a case calls (dp_accounting and opacus.accountants)."""

    def __init__(self, name, dp_accounting=None, opacus_accountants=None, missing=""):
        self.name = name
        self.dp_accounting = dp_accounting
        self.opacus = opacus_accountants
        self.missing = missing


def dropin_side():
    from dpledger import dp_accounting
    import dpledger.dp_accounting.pld  # noqa: F401
    import dpledger.dp_accounting.rdp  # noqa: F401
    from dpledger.opacus import accountants
    import dpledger.opacus.accountants.utils  # noqa: F401
    return Side("dpledger drop-in", dp_accounting, accountants)


def peer_side(peers_dir):
    roots = peer_suites.find_roots(peers_dir)
    notes = []
    dp_accounting = opacus_accountants = None
    if "dp_accounting" in roots:
        sys.path.insert(0, roots["dp_accounting"])
        dp_accounting = importlib.import_module("dp_accounting")
        importlib.import_module("dp_accounting.pld")
        importlib.import_module("dp_accounting.rdp")
    else:
        notes.append(f"dp_accounting not found in {peers_dir}")
    if "opacus" in roots:
        # The package without its __init__ (which imports torch); the accountants import DPOptimizer only for a
        # type annotation.
        package = types.ModuleType("opacus")
        package.__path__ = [os.path.join(roots["opacus"], "opacus")]
        package.__spec__ = importlib.machinery.ModuleSpec("opacus", None, is_package=True)
        sys.modules["opacus"] = package
        optimizers = types.ModuleType("opacus.optimizers")
        optimizers.DPOptimizer = object
        sys.modules["opacus.optimizers"] = optimizers
        opacus_accountants = importlib.import_module("opacus.accountants")
        importlib.import_module("opacus.accountants.utils")
    else:
        notes.append(f"opacus not found in {peers_dir}")
    return Side("peer", dp_accounting, opacus_accountants, "; ".join(notes))


# --- The cases: (name, library, call(side, i) -> value). i is the repetition (the noise moves by i * 1e-9). ---

def _dpsgd_event(de, sigma, q=0.01, steps=10_000):
    return de.SelfComposedDpEvent(de.PoissonSampledDpEvent(q, de.GaussianDpEvent(sigma)), steps)


def _opacus_epsilon_at_end(acc, i):
    """10^4 DP-SGD steps (q 0.01, noise 1.1) on an Opacus accountant, then one epsilon at delta 1e-5."""
    for _ in range(10_000):
        acc.step(noise_multiplier=1.1 + i * 1e-9, sample_rate=0.01)
    return acc.get_epsilon(delta=1e-5)


def opacus_rdp_epsilon_at_end(side, i):
    return _opacus_epsilon_at_end(side.opacus.RDPAccountant(), i)


def opacus_rdp_epsilon_every_step(side, i):
    acc = side.opacus.RDPAccountant()
    eps = None
    for _ in range(1_000):
        acc.step(noise_multiplier=1.1 + i * 1e-9, sample_rate=0.01)
        eps = acc.get_epsilon(delta=1e-5)
    return eps


def opacus_prv_epsilon(side, i):
    return _opacus_epsilon_at_end(side.opacus.PRVAccountant(), i)


def opacus_prv_two_noises(side, i):
    acc = side.opacus.PRVAccountant()
    acc.history = [(1.1 + i * 1e-9, 0.01, 5000), (0.9, 0.02, 100)]
    return acc.get_epsilon(delta=1e-5)


def opacus_gdp_epsilon(side, i):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the drop-in warns that the GDP accountant is not a bound
        acc = side.opacus.GaussianAccountant()
    acc.history = [(1.5 + i * 1e-9, 0.04, 2250)]
    return acc.get_epsilon(delta=1e-5)


def opacus_noise_rdp(side, i):
    return side.opacus.utils.get_noise_multiplier(target_epsilon=8 + i * 1e-9, target_delta=1e-5, sample_rate=0.04,
                                                  epochs=90, accountant="rdp")


def opacus_noise_prv(side, i):
    return side.opacus.utils.get_noise_multiplier(target_epsilon=8 + i * 1e-9, target_delta=1e-5, sample_rate=0.04,
                                                  steps=2000, accountant="prv")


def dpa_rdp_epsilon(side, i):
    dpa = side.dp_accounting
    acc = dpa.rdp.RdpAccountant()
    acc.compose(_dpsgd_event(dpa.dp_event, 1.1 + i * 1e-9))
    return acc.get_epsilon(1e-5)


def dpa_pld_epsilon(side, i):
    dpa = side.dp_accounting
    acc = dpa.pld.PLDAccountant()
    acc.compose(_dpsgd_event(dpa.dp_event, 1.1 + i * 1e-9))
    return acc.get_epsilon(1e-5)


def dpa_pld_true_positive_rate(side, i):
    dpa = side.dp_accounting
    acc = dpa.pld.PLDAccountant()
    acc.compose(dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.GaussianDpEvent(1.0 + i * 1e-9), 3))
    return float(acc.get_true_positive_rates(0.1))


def dpa_calibrate_rdp(side, i):
    dpa = side.dp_accounting
    return dpa.calibrate_dp_mechanism(dpa.rdp.RdpAccountant, lambda s: _dpsgd_event(dpa.dp_event, s),
                                      1.0 + i * 1e-9, 1e-5)


def dpa_gaussian_sigma(side, i):
    return side.dp_accounting.gaussian_mechanism.get_sigma_gaussian(1.0 + i * 1e-9, 1e-5)


CASES = [
    ("Opacus RDPAccountant: 10^4 steps, epsilon at the end (q 0.01, noise 1.1, delta 1e-5)", "opacus",
     opacus_rdp_epsilon_at_end),
    ("Opacus RDPAccountant: 1000 steps, epsilon after each", "opacus", opacus_rdp_epsilon_every_step),
    ("Opacus PRVAccountant: 10^4 steps, epsilon at the end", "opacus", opacus_prv_epsilon),
    ("Opacus PRVAccountant: two noise levels (5000 + 100 steps)", "opacus", opacus_prv_two_noises),
    ("Opacus GaussianAccountant: epsilon (q 0.04, noise 1.5, 2250 steps)", "opacus", opacus_gdp_epsilon),
    ("Opacus get_noise_multiplier, rdp (eps 8, q 0.04, 90 epochs)", "opacus", opacus_noise_rdp),
    ("Opacus get_noise_multiplier, prv (eps 8, q 0.04, 2000 steps)", "opacus", opacus_noise_prv),
    ("dp_accounting RdpAccountant: DP-SGD epsilon (q 0.01, noise 1.1, 10^4 steps)", "dp_accounting",
     dpa_rdp_epsilon),
    ("dp_accounting PLDAccountant: DP-SGD epsilon", "dp_accounting", dpa_pld_epsilon),
    ("dp_accounting PLDAccountant: true positive rate at FPR 0.1 (3 Gaussians)", "dp_accounting",
     dpa_pld_true_positive_rate),
    ("dp_accounting calibrate_dp_mechanism, RdpAccountant (DP-SGD noise for eps 1)", "dp_accounting",
     dpa_calibrate_rdp),
    ("dp_accounting gaussian_mechanism.get_sigma_gaussian (eps 1, delta 1e-5)", "dp_accounting",
     dpa_gaussian_sigma),
]


def time_case(call, side, repeat):
    """(value of the first repetition, median wall s, median CPU s) or (error text, None, None)."""
    walls, cpus, value = [], [], None
    for i in range(repeat):
        w0, c0 = time.perf_counter(), _cpu()
        try:
            v = call(side, i)
        except Exception as e:  # noqa: BLE001 - reported in the table
            return f"raises {type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''}", None, None
        walls.append(time.perf_counter() - w0)
        cpus.append(_cpu() - c0)
        if i == 0:
            value = v
    return value, statistics.median(walls), statistics.median(cpus)


def _ms(t):
    return "-" if t is None else f"{1000 * t:.1f}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("peers_dir", help="folder holding the peers' public sources (searched)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions per case and side (default 3)")
    parser.add_argument("--case", action="append", default=[], help="run only cases whose name contains this")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.peers_dir):
        parser.error(f"peers_dir: '{args.peers_dir}' is not a folder")
    if not 1 <= args.repeat <= 100:
        parser.error(f"--repeat {args.repeat}: out of range, allowed 1 to 100")
    dropin, peer = dropin_side(), peer_side(args.peers_dir)
    header = ("case", "drop-in value", "peer value", "drop-in wall ms", "peer wall ms", "drop-in CPU ms",
              "peer CPU ms", "CPU peer / drop-in")
    rows = []
    for name, library, call in CASES:
        if args.case and not any(c in name for c in args.case):
            continue
        d_value, d_wall, d_cpu = time_case(call, dropin, args.repeat)
        if getattr(peer, library if library == "dp_accounting" else "opacus") is None:
            p_value, p_wall, p_cpu = f"{library} not found", None, None
        else:
            p_value, p_wall, p_cpu = time_case(call, peer, args.repeat)
        ratio = "-" if not (d_cpu and p_cpu) else f"{p_cpu / d_cpu:.2g}"
        rows.append((name, repr(d_value) if not isinstance(d_value, str) else d_value,
                     repr(p_value) if not isinstance(p_value, str) else p_value,
                     _ms(d_wall), _ms(p_wall), _ms(d_cpu), _ms(p_cpu), ratio))
    print_table(header, rows, args.markdown, ["---"] * 3 + ["---:"] * 5)
    if peer.missing:
        print(f"note: {peer.missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
