# SPDX-License-Identifier: Apache-2.0
"""calibrate, rdp (NumPy), running budgets, audits of NumPy samples and check, against the CLI."""

import decimal
import json
import math
from fractions import Fraction

import numpy as np
import pytest

import dpledger
from conftest import cli_json, cli_text, run_cli


def held_value(text, more_is_more_private):
    """The double the spec parser holds for the decimal `text`: the double below it for sigma and b (more noise is
    more private), above it for the other keys; the decimal itself when it is a double."""
    f = float(text)
    if Fraction(f) == Fraction(text):
        return f
    if more_is_more_private:
        return f if Fraction(f) < Fraction(text) else math.nextafter(f, -math.inf)
    return f if Fraction(f) > Fraction(text) else math.nextafter(f, math.inf)


def test_calibrate_equals_the_cli():
    spec = "gaussian:sigma=?,q=0.01,steps=10000"
    for accountant in ("rdp", "auto"):
        r = dpledger.calibrate(spec, epsilon=1, delta=1e-5, accountant=accountant)
        args = ["calibrate", "-m", spec, "--epsilon", "1", "--delta", "1e-5", "--accountant", accountant]
        j = cli_json(*args)
        # The CLI prints the calibrated sigma as the shortest decimal that reads back as exactly the value held (not
        # the nearest decimal, which may read back as a more private sigma); the package returns that double.
        value_text = str(json.loads(run_cli("--json", *args)[1], parse_float=decimal.Decimal)["value"])
        assert r.value == held_value(value_text, more_is_more_private=True)

        assert (r.parameter, r.objective, r.epsilon_at_value, r.accountant, r.evaluations) == \
            (j["parameter"], j["objective"], j["epsilon_at_value"], j["accountant"], j["evaluations"])
        raw = json.loads(run_cli("--json", *args)[1], parse_float=decimal.Decimal)
        assert r.failing_value == (held_value(str(raw["failing_value"]), True) if "failing_value" in raw else None)
        assert r.tolerance == j["tolerance"]
        assert str(r) + "\n" == cli_text(*args)
        assert r.epsilon_at_value <= 1
    # The class form with '?' is the same request.
    same = dpledger.calibrate(dpledger.Gaussian(sigma="?", q=0.01, steps=10_000), epsilon=1, delta=1e-5, accountant="rdp")
    assert same.value == dpledger.calibrate(spec, epsilon=1, delta=1e-5, accountant="rdp").value
    steps = dpledger.calibrate("laplace:b=8,steps=?", epsilon=1, delta=0, accountant="pure")
    assert (steps.parameter, steps.value, steps.objective) == ("steps", 8, "largest") and isinstance(steps.value, int)


def test_rdp_gives_numpy_arrays_equal_to_the_cli():
    specs = ["gaussian:sigma=1.1,q=0.01,steps=10000", "laplace:b=3,steps=5"]
    r = dpledger.rdp(specs)
    j = cli_json("rdp", "-m", specs[0], "-m", specs[1])
    assert isinstance(r.rdp, np.ndarray) and r.rdp.dtype == np.float64
    assert r.orders.tolist() == [math.inf if o == "inf" else o for o in j["orders"]]
    assert r.rdp.tolist() == [math.inf if v == "inf" else v for v in j["rdp"]]
    assert str(r) + "\n" == cli_text("rdp", "-m", specs[0], "-m", specs[1])
    orders, values = dpledger.rdp("gaussian:sigma=2", np.array([2.0, 3.5, 10.0]))
    jo = cli_json("rdp", "-m", "gaussian:sigma=2", "--orders", "2,3.5,10")
    assert values.tolist() == jo["rdp"] == [0.25, 0.4375, 1.25]  # alpha / (2 sigma^2), exact
    with pytest.raises(ValueError, match=r"orders=1 is out of range: allowed \(1, 1e7\] or inf"):
        dpledger.rdp("gaussian:sigma=2", [1.0])


def test_running_budget_equals_the_cli():
    spec = "gaussian:sigma=1.1,q=0.01,steps=3000"
    r = dpledger.running([spec, "laplace:b=50,steps=10"], delta=1e-5, every=1000)
    j = cli_json("compose", "-m", spec, "-m", "laplace:b=50,steps=10", "--delta", "1e-5", "--running", "--every", "1000")
    cps = j["running"]["checkpoints"]
    assert r.steps.tolist() == [c["steps"] for c in cps]
    assert r.entry.tolist() == [c["entry"] for c in cps]
    assert r.steps_in_entry.tolist() == [c["steps_in_entry"] for c in cps]
    assert set(r.epsilon) == set(j["running"]["accountants"])
    for name, col in j["running"]["accountants"].items():
        got = r.epsilon[name]
        assert [got[i - 1] for i in col["checkpoints"]] == col["epsilon"]
        evaluated = got[~np.isnan(got)]
        assert np.all(np.diff(evaluated) >= 0)  # non-decreasing
    assert r.epsilon[j["accountant"]][-1] == j["epsilon"]  # ends at compose's value
    assert r.not_applicable == j["running"].get("not_applicable", [])


def _write_samples(path, a):
    rows = a.reshape(len(a), -1)
    path.write_text("".join(",".join(repr(float(x)) for x in row) + "\n" for row in rows))
    return str(path)


def test_audit_samples_equals_the_cli_and_catches_a_false_claim(tmp_path):
    rng = np.random.default_rng(20261122)
    d = rng.laplace(0.0, 1.0, 40000)          # Laplace b = 1 on neighbours one apart: 1-DP
    dp = rng.laplace(1.0, 1.0, 40000)
    fd, fdp = _write_samples(tmp_path / "d.txt", d), _write_samples(tmp_path / "dp.txt", dp)
    honest = dpledger.audit_samples(d, dp, epsilon=1.0)
    j = cli_json("audit", "--samples", fd, "--neighbour-samples", fdp, "--epsilon", "1")
    for k in ("verdict", "epsilon_lower", "epsilon_claimed", "epsilon_estimate", "resolution", "detectable"):
        assert getattr(honest, k) == j[k], k
    for k in ("threshold", "count_p", "n_p", "count_q", "n_q", "p_lower", "q_upper", "tail"):
        assert honest.event[k] == j["event"][k], k
    assert honest.verdict != "violation"
    # The miscalibrated twin: the same outputs claimed 0.5-DP must be caught.
    false_claim = dpledger.audit_samples(d, dp, epsilon=0.5)
    assert false_claim.verdict == "violation" and false_claim.epsilon_lower > 0.5
    assert false_claim.verdict == cli_json("audit", "--samples", fd, "--neighbour-samples", fdp, "--epsilon", "0.5")["verdict"]
    # Vectors with a projection, and a Gaussian-DP claim.
    d2 = np.column_stack([rng.normal(0, 1, 20000), rng.normal(0, 1, 20000)])
    dp2 = np.column_stack([rng.normal(0, 1, 20000), rng.normal(1, 1, 20000)])
    f2, fp2 = _write_samples(tmp_path / "d2.txt", d2), _write_samples(tmp_path / "dp2.txt", dp2)
    mu = dpledger.audit_samples(d2, dp2, mu=1.0, projection=2)
    jm = cli_json("audit", "--samples", f2, "--neighbour-samples", fp2, "--mu", "1", "--projection", "coord:2")
    assert (mu.verdict, mu.mu_lower, mu.mu_claimed, mu.audited) == (jm["verdict"], jm["mu_lower"], jm["mu_claimed"], "mu")
    assert dpledger.audit_samples(d2, dp2, mu=1.0, projection=[0, 1]).mu_lower == mu.mu_lower
    with pytest.raises(ValueError, match="row 3: nan is not a finite number"):
        dpledger.audit_samples(np.array([0.0, 1.0, np.nan]), dp, epsilon=1)
    with pytest.raises(ValueError, match="needs the claim"):
        dpledger.audit_samples(d, dp)
    with pytest.raises(ValueError, match="has 2 columns"):
        dpledger.audit_samples(d2, dp2, mu=1.0)


def test_check_equals_the_cli():
    r = dpledger.check("000", quick=True)
    j = cli_json("check", "000", "--quick")
    assert [(c["id"], c["status"], c["expected"], c["computed"]) for c in r.claims] == \
        [(c["id"], c["status"], c["expected"], c["computed"]) for c in j["claims"]]
    assert r.all_as_expected == j["all_as_expected"] is True
    assert "| " in r.report
    listed = dpledger.list_claims("000")
    assert [c["id"] for c in listed] == [c["id"] for c in r.claims]
    # The check can fail: Theorem 2.2.1's worst-case factor halved no longer holds, as in the CLI.
    moved = dpledger.check("000/thm-2.2.1", quick=True, set={"worst_case_factor": 0.5})
    assert moved.claims[0]["status"] == "fails" and not moved.all_as_expected
    assert cli_json("check", "000/thm-2.2.1", "--quick", "--set", "worst_case_factor=0.5")["claims"][0]["status"] == "fails"
    with pytest.raises(ValueError, match="not a known|matches no"):
        dpledger.check("999/none")
