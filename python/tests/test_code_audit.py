# SPDX-License-Identifier: Apache-2.0
"""dpledger.audit runs the user's own mechanism on D and D' and audits its outputs with the threshold test of
`audit --samples`.

Statistical tests (fixed seeds): a Laplace mechanism on a sum of values in [0, 1] (sensitivity 1 under adding one
record) with scale b = 1 is exactly 1-DP, so `epsilon=1` passes except with probability at most 1 - C = 0.05 over
seeds; its twin with b = 0.5 is 2-DP, and at 50,000 calls a side the certified lower bound lies within about 0.15 of
2, so missing the violation of `epsilon=1` has a negligible probability. The other tests are exact."""

import math

import numpy as np
import pytest

import dpledger

D = np.array([0.3, 0.5])
D_PRIME = np.array([0.3, 0.5, 1.0])  # one more record, of the largest value


def laplace_sum(b):
    def mechanism(data, rng):
        return data.sum() + rng.laplace(0.0, b)
    return mechanism


def test_laplace_passes_at_its_scale_and_its_twin_at_half_the_scale_is_a_violation():
    ok = dpledger.audit(laplace_sum(1.0), D, D_PRIME, epsilon=1, runs=50_000, seed=1)
    assert ok.verdict == "pass", ok
    assert 0.8 < ok.epsilon_lower < 1.0
    assert ok.event["n_p"] == ok.event["n_q"] == 25_000
    assert ok.runs == 50_000 and ok.seed == 1 and ok.output_dimension == 1
    assert "PASS" in str(ok) and "runs             50000 calls of the mechanism" in str(ok)
    assert repr(ok).startswith("CodeAuditResult(verdict='pass', audited='epsilon', epsilon_lower=")
    bad = dpledger.audit(laplace_sum(0.5), D, D_PRIME, epsilon=1, runs=50_000, seed=1)
    assert bad.verdict == "violation", bad
    assert bad.epsilon_lower > 1.7
    assert isinstance(bad, dpledger.AuditResult)


def test_few_runs_are_inconclusive_and_the_seed_reproduces_the_result():
    few = dpledger.audit(laplace_sum(1.0), D, D_PRIME, epsilon=1, runs=200, seed=3)
    assert few.verdict == "inconclusive"
    again = dpledger.audit(laplace_sum(1.0), D, D_PRIME, epsilon=1, runs=200, seed=3)
    assert again.as_dict() == few.as_dict()
    other = dpledger.audit(laplace_sum(1.0), D, D_PRIME, epsilon=1, runs=200, seed=4)
    assert other.event != few.event


def test_the_same_outputs_give_the_same_audit_as_audit_samples():
    # The generators are SeedSequence(seed).spawn(2): D's first, D''s second.
    seq = np.random.SeedSequence(7).spawn(2)
    rd, rp = (np.random.Generator(np.random.PCG64(s)) for s in seq)
    d = np.array([D.sum() + rd.laplace(0.0, 1.0) for _ in range(2000)])
    dp = np.array([D_PRIME.sum() + rp.laplace(0.0, 1.0) for _ in range(2000)])
    direct = dpledger.audit_samples(d, dp, epsilon=1, delta=1e-6)
    mine = dpledger.audit(laplace_sum(1.0), D, D_PRIME, epsilon=1, delta=1e-6, runs=2000, seed=7)
    assert mine.epsilon_lower == direct.epsilon_lower and mine.event == direct.event


def test_vector_outputs_with_a_projection():
    def vector(data, rng):
        return np.array([rng.normal(), data.sum() + rng.laplace(0.0, 1.0), 5.0])
    results = [dpledger.audit(vector, D, D_PRIME, epsilon=1, runs=1000, seed=2, projection=p)
               for p in (2, "coord:2", [0, 1, 0], "weights:0,1,0", lambda out: out[1])]
    assert all(r.event == results[0].event for r in results)
    with pytest.raises(ValueError, match="vectors of 3 numbers: give projection="):
        dpledger.audit(vector, D, D_PRIME, epsilon=1, runs=10, seed=2)
    with pytest.raises(ValueError, match="projection=4 is out of range"):
        dpledger.audit(vector, D, D_PRIME, epsilon=1, runs=10, seed=2, projection=4)
    with pytest.raises(ValueError, match="projection has 2 weights"):
        dpledger.audit(vector, D, D_PRIME, epsilon=1, runs=10, seed=2, projection=[1, 2])
    mu = dpledger.audit(vector, D, D_PRIME, mu=1, runs=1000, seed=2, projection=2)
    assert mu.audited == "mu" and mu.mu_lower is not None


def test_the_data_sets_are_passed_read_only():
    def writes(data, rng):
        data[0] = 1.0
        return 0.0
    with pytest.raises(ValueError, match="read-only"):
        dpledger.audit(writes, D, D_PRIME, epsilon=1, runs=10, seed=1)


def test_errors_in_pythons_terms():
    m = laplace_sum(1.0)
    cases = [
        (TypeError, "mechanism must be a function", dict(mechanism=3)),
        (TypeError, "runs must be an integer", dict(runs=10.0)),
        (TypeError, "runs must be an integer", dict(runs=True)),
        (ValueError, r"runs=1 is out of range: allowed integers 2 to 10000000", dict(runs=1)),
        (TypeError, "seed must be an integer", dict(seed="1")),
        (ValueError, "seed=-1 is out of range", dict(seed=-1)),
        (ValueError, "give the claim: epsilon=", dict(epsilon=None)),
        (ValueError, r"epsilon=-1 is out of range: allowed \[0.0, inf\)", dict(epsilon=-1)),
        (ValueError, "epsilon=nan is out of range", dict(epsilon=math.nan)),
        (TypeError, "epsilon must be a number", dict(epsilon=[1])),
        (ValueError, r"delta=1 is out of range: allowed \[0.0, 1.0\)", dict(delta=1)),
        (ValueError, r"mu=0 is out of range: allowed \(0.0, inf\)", dict(mu=0)),
        (ValueError, r"confidence=1 is out of range: allowed \(0.0, 1.0\)", dict(confidence=1)),
        (ValueError, "tolerance=0 is out of range", dict(tolerance=0)),
        (ValueError, "projection='coord:0'", dict(projection="coord:0")),
        (ValueError, "projection='frob'", dict(projection="frob")),
        (ValueError, "projection weights must be", dict(projection=[0, 0])),
        (ValueError, "projection=0 is out of range", dict(projection=0)),
    ]
    for error, message, change in cases:
        args = dict(mechanism=m, epsilon=1, runs=10, seed=1)
        args.update(change)
        mechanism = args.pop("mechanism")
        with pytest.raises(error, match=message):
            dpledger.audit(mechanism, D, D_PRIME, **args)


def test_bad_outputs_name_the_call():
    with pytest.raises(ValueError, match=r"mechanism\(neighbour, rng\) at run 1 returned nan"):
        dpledger.audit(lambda data, rng: math.nan if len(data) == 3 else 0.0, D, D_PRIME, epsilon=1, runs=10, seed=1)
    with pytest.raises(TypeError, match=r"mechanism\(dataset, rng\) at run 1 returned str"):
        dpledger.audit(lambda data, rng: "x", D, D_PRIME, epsilon=1, runs=10, seed=1)
    with pytest.raises(ValueError, match=r"returned an array of shape \(2, 2\)"):
        dpledger.audit(lambda data, rng: np.zeros((2, 2)), D, D_PRIME, epsilon=1, runs=10, seed=1)
    with pytest.raises(ValueError, match="returned 3 numbers, the first call returned 2"):
        dpledger.audit(lambda data, rng: np.zeros(len(data)), D, D_PRIME, epsilon=1, runs=10, seed=1)
    with pytest.raises(TypeError, match="projection must return a number"):
        dpledger.audit(lambda data, rng: 1.0, D, D_PRIME, epsilon=1, runs=10, seed=1, projection=lambda o: [o])

    def broken(data, rng):
        raise KeyError("the user's own error")
    with pytest.raises(KeyError, match="the user's own error"):
        dpledger.audit(broken, D, D_PRIME, epsilon=1, runs=10, seed=1)

