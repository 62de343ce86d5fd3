# SPDX-License-Identifier: Apache-2.0
"""Shared helpers: the dpledger CLI built beside the module (DPLEDGER_BIN), run with --json for reference values."""

import json
import os
import subprocess

import pytest

BIN = os.environ.get("DPLEDGER_BIN", "")
SOURCE_DIR = os.environ.get("DPLEDGER_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def run_cli(*args, check=True):
    """The CLI's (returncode, stdout, stderr)."""
    if not os.path.isfile(BIN):
        pytest.fail(f"DPLEDGER_BIN must name the dpledger executable (got '{BIN}')")
    p = subprocess.run([BIN, "--quiet", *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"dpledger {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    """The CLI's --json output, parsed (numbers as the floats a JSON reader gets)."""
    rc, out, err = run_cli("--json", *args, check=False)
    assert rc in (0, 3, 4), f"dpledger {' '.join(args)} exited {rc}: {err}"
    return json.loads(out)


def cli_text(*args):
    return run_cli(*args)[1]


def cli_error(*args):
    """The message of the CLI's one `error:` line (exit 2)."""
    rc, out, err = run_cli(*args, check=False)
    assert rc == 2, f"dpledger {' '.join(args)} exited {rc}, expected 2"
    lines = [l for l in err.splitlines() if l.startswith("error: ")]
    assert len(lines) == 1, err
    return lines[0][len("error: "):]


@pytest.fixture
def tmp_json(tmp_path):
    def write(obj, name="ledger.json"):
        path = tmp_path / name
        path.write_text(json.dumps(obj))
        return str(path)
    return write
