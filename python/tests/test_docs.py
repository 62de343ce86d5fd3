# SPDX-License-Identifier: Apache-2.0
"""docs/python.md and the README's Python section work as written and state the values the package gives."""

import os
import re
import subprocess
import sys

import dpledger
from dpledger.opacus import RDPAccountant, get_noise_multiplier
from conftest import SOURCE_DIR, cli_text

DOC = open(os.path.join(SOURCE_DIR, "docs", "python.md")).read()
README = open(os.path.join(SOURCE_DIR, "README.md")).read()
DP_SGD = "gaussian:sigma=1.1,q=0.01,steps=10000"


def test_every_python_block_of_the_guide_runs():
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.S)
    assert len(blocks) >= 3
    for block in blocks:
        exec(compile(block, "docs/python.md", "exec"), {})


def test_the_readme_command_prints_the_clis_output():
    command = re.search(r'^PYTHONPATH=build/python python3 -c "(.*)"$', README, re.M).group(1)
    out = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True, check=True).stdout
    assert out == cli_text("compose", "-m", DP_SGD, "--delta", "1e-5")


def test_the_guides_numbers():
    acc = RDPAccountant()
    acc.history = [(1.1, 0.01, 10000)]
    odometer = repr(acc.get_epsilon(1e-5))
    exact_rdp = repr(dpledger.compose(DP_SGD, delta=1e-5, accountant="rdp").epsilon)
    pld = dpledger.compose(DP_SGD, delta=1e-5)
    sigma = get_noise_multiplier(target_epsilon=2.0, target_delta=1e-5, sample_rate=0.01, epochs=5)
    for value in (odometer, exact_rdp, repr(pld.epsilon), repr(pld.lower), f"{sigma:.6f}"):
        assert value in DOC, value
