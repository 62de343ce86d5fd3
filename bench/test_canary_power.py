# SPDX-License-Identifier: Apache-2.0
"""pytest for bench/canary_power.py: the table of one-run canary audits of dp-sgd over seeds. At the run's own
noise no audit may flag the accounted claim (each errs with probability <= 0.05 per run; 2 runs x 3 methods, so a
false alarm here has probability <= 0.3 under the methods' assumptions at any seed, and these seeds are fixed:
the outcome is deterministic); at a tenth of the noise every method flags it on both seeds (the twin that must be
caught)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "canary_power.py")
BUILD = os.environ.get("DPLEDGER_BUILD_DIR", os.path.join(HERE, "..", "build"))


def table(*args):
    out = subprocess.run([sys.executable, SCRIPT, BUILD, *args], capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5 and cells[0].isdigit():
            rows[(int(cells[0]), cells[1], cells[2])] = (float(cells[3]), cells[4])
    return rows


def test_correct_runs_pass_and_a_tenth_of_the_noise_is_caught():
    rows = table("--canaries", "1000", "--seeds", "2", "--factors", "1,0.1")
    assert len(rows) == 6
    for method in ("one-run", "one-run-fdp", "gdp"):
        low_full, flagged_full = rows[(1000, method, "1")]
        low_tenth, flagged_tenth = rows[(1000, method, "0.1")]
        assert flagged_full == "0/2" and low_full < 1
        assert flagged_tenth == "2/2" and low_tenth > 1
