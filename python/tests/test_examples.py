# SPDX-License-Identifier: Apache-2.0
"""The examples in examples/python run and do their job."""

import os
import re
import subprocess
import sys

from dpledger.opacus import RDPAccountant
from conftest import SOURCE_DIR

EXAMPLES = os.path.join(SOURCE_DIR, "examples", "python")


def run(name):
    p = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_dp_sgd_training_loop_learns_within_its_budget():
    out = run("dp_sgd_opacus.py")
    before = float(re.search(r"accuracy before training ([0-9.]+)", out).group(1))
    after = float(re.search(r"accuracy after training ([0-9.]+)", out).group(1))
    assert after > before + 0.2, out  # the private model is better than where it started
    sigma = float(re.search(r"noise multiplier ([0-9.]+)", out).group(1))
    final = float(re.search(r"final epsilon ([0-9.e+-]+)", out).group(1))
    assert final <= 2.0 and out.count("epoch ") == 5
    acc = RDPAccountant()
    acc.history = [(float(re.search(r"history \[\(([0-9.]+),", out).group(1)), 0.01, 500)]
    assert abs(acc.history[0][0] - sigma) < 1e-6 and acc.get_epsilon(1e-5) == final


def test_dp_accounting_ledger_example():
    out = run("dp_accounting_ledger.py")
    pld = float(re.search(r"PLD: epsilon ([0-9.e+-]+)", out).group(1))
    rdp = float(re.search(r"RDP: epsilon ([0-9.e+-]+)", out).group(1))
    best = float(re.search(r"auto: epsilon ([0-9.e+-]+)", out).group(1))
    assert best <= min(pld, rdp) and pld < rdp
    assert "noise multiplier for epsilon 1 over the training" in out


def test_audit_of_a_dp_sgd_step_passes_and_its_unclipped_twin_is_caught():
    out = run("audit_dp_sgd_step.py")
    correct = re.search(r"dp_sgd_step +(\w+) +mu_lower ([0-9.]+)", out)
    buggy = re.search(r"forgot_to_clip +(\w+) +mu_lower ([0-9.]+)", out)
    assert correct.group(1) == "pass" and float(correct.group(2)) <= 1.0, out
    assert buggy.group(1) == "violation" and float(buggy.group(2)) > 2.0, out
