# SPDX-License-Identifier: Apache-2.0
"""pytest for bench/jax_canary_compare.py: the table is printed with dpledger's values; where jax_privacy's
auditing.py loads (JAX_PRIVACY_AUDITING_PY), the values computed by both at a fixed threshold agree."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "jax_canary_compare.py")
BUILD = os.environ.get("DPLEDGER_BUILD_DIR", os.path.join(HERE, "..", "build"))


def run(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT, BUILD, *args], capture_output=True, text=True, env=env, check=True).stdout


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    pytest.importorskip("numpy")
    d = tmp_path_factory.mktemp("canaries")
    run("--generate", str(d))
    return [str(d / n) for n in ("gauss_1.1.csv", "gauss_3.csv", "deterministic_400.csv")]


def rows(table):
    out = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("file", "---"):
            out[(cells[0], cells[1].split(",")[0] + ("," + cells[1].split(",")[-1] if "," in cells[1] else ""))] = (cells[2], cells[3])
    return out


def test_table_without_the_anchor(files):
    env = dict(os.environ)
    env.pop("JAX_PRIVACY_AUDITING_PY", None)
    t = run(*files, env=env)
    assert "AUROC" in t and "one-run eps" in t
    r = rows(t)
    assert len(r) == 27
    assert all(float(v[0]) >= 0 for v in r.values())


@pytest.mark.skipif(not os.path.isfile(os.environ.get("JAX_PRIVACY_AUDITING_PY", "")), reason="no jax_privacy auditing.py")
def test_equal_to_the_anchor_where_both_are_exact(files):
    t = run(*files)
    for (f, fig), (ours, theirs) in rows(t).items():
        if "fixed" in fig or "AUROC" in fig or "TPR" in fig:
            assert abs(float(ours) - float(theirs)) <= 2e-6 * max(1.0, abs(float(theirs))), (f, fig, ours, theirs)
