# SPDX-License-Identifier: Apache-2.0
"""bench/dropin_speed.py on stand-in peers written here (no peer source needed): a stand-in dp_accounting and
opacus.accountants that are the drop-ins themselves, so both columns must show the same values (the same work is
done on both sides); a stand-in whose call raises is reported as such, a missing library as not found. No timing
is asserted."""

import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dropin_speed.py")


def write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def run(*args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, SCRIPT, *args, "--markdown"], capture_output=True, text=True, env=env,
                          timeout=600)
    rows = {}
    for line in proc.stdout.splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) == 8 and cells[0] not in ("case", "---"):
            rows[cells[0]] = cells[1:]
    return proc, rows


@pytest.fixture
def peers(tmp_path):
    root = tmp_path / "peers"
    # dp_accounting as the peer: the drop-in under the peer's name (its marker file is dp_accounting/dp_event.py)
    write(root, "dp/dp_accounting/__init__.py", """
        from dpledger.dp_accounting import *  # noqa: F401,F403
        from dpledger.dp_accounting import dp_event, pld, rdp, calibrate_dp_mechanism  # noqa: F401
        import importlib
        gaussian_mechanism = importlib.import_module(__name__ + ".gaussian_mechanism")  # this folder's, not the star's
        """)
    write(root, "dp/dp_accounting/dp_event.py", "from dpledger.dp_accounting.dp_event import *  # noqa: F401,F403\n")
    write(root, "dp/dp_accounting/pld/__init__.py", "from dpledger.dp_accounting.pld import *  # noqa: F401,F403\n")
    write(root, "dp/dp_accounting/rdp/__init__.py", "from dpledger.dp_accounting.rdp import *  # noqa: F401,F403\n")
    # a peer call that raises
    write(root, "dp/dp_accounting/gaussian_mechanism.py", """
        def get_sigma_gaussian(epsilon, delta):
            raise RuntimeError("stand-in failure")
        """)
    # opacus.accountants as the peer: imported without opacus/__init__ (which would import torch)
    write(root, "opacus/opacus/__init__.py", "raise ImportError('the package __init__ must be skipped')\n")
    write(root, "opacus/opacus/accountants/__init__.py", """
        from dpledger.opacus.accountants import *  # noqa: F401,F403
        from opacus.optimizers import DPOptimizer  # noqa: F401  (stubbed by the script)
        """)
    write(root, "opacus/opacus/accountants/utils.py",
          "from dpledger.opacus.accountants.utils import *  # noqa: F401,F403\n")
    return root


def test_both_sides_do_the_same_work(peers):
    proc, rows = run(str(peers), "--repeat", "2", "--case", "RdpAccountant: DP-SGD", "--case", "RDPAccountant: 10^4",
                     "--case", "get_sigma_gaussian")
    assert proc.returncode == 0, proc.stderr
    rdp = rows["dp_accounting RdpAccountant: DP-SGD epsilon (q 0.01, noise 1.1, 10^4 steps)"]
    assert rdp[0] == rdp[1] and float(rdp[0]) > 5  # the same value on both sides
    assert all(float(t) >= 0 for t in rdp[2:6])
    opacus = rows["Opacus RDPAccountant: 10^4 steps, epsilon at the end (q 0.01, noise 1.1, delta 1e-5)"]
    assert opacus[0] == opacus[1]
    sigma = rows["dp_accounting gaussian_mechanism.get_sigma_gaussian (eps 1, delta 1e-5)"]
    assert float(sigma[0]) > 3 and sigma[1] == "raises RuntimeError: stand-in failure"
    assert sigma[3] == sigma[5] == sigma[6] == "-"


def test_a_missing_peer_is_reported(tmp_path):
    proc, rows = run(str(tmp_path), "--repeat", "1", "--case", "GaussianAccountant")
    assert proc.returncode == 0, proc.stderr
    gdp = rows["Opacus GaussianAccountant: epsilon (q 0.04, noise 1.5, 2250 steps)"]
    assert float(gdp[0]) > 6 and gdp[1] == "opacus not found"
    assert f"opacus not found in {tmp_path}" in proc.stdout


def test_bad_arguments(tmp_path):
    proc, _ = run(str(tmp_path / "missing"))
    assert proc.returncode == 2 and "is not a folder" in proc.stderr
    proc, _ = run(str(tmp_path), "--repeat", "0")
    assert proc.returncode == 2 and "--repeat 0: out of range" in proc.stderr
