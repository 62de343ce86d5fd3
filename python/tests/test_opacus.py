# SPDX-License-Identifier: Apache-2.0
"""dpledger.opacus: Opacus's accountant interface on its history tuples; the RDP odometer (certified, incremental)
and the PRV accountant (Opacus's value, never below dpledger's certified PLD bound) against the CLI."""

import json
import math

import pytest

import dpledger
from dpledger.opacus import PRVAccountant, RDPAccountant, create_accountant, get_noise_multiplier
from conftest import cli_json

# dp_accounting's RDP epsilon on its default orders for DP-SGD (q 0.01, sigma 1.1, 10^4 steps, delta 1e-5), improved
# conversion, computed at 40-50 digits from the exact binary64 inputs (a public reference value).
DP_SGD_GRID_EPSILON = 5.631992368681801816


def test_history_tuples_as_opacus_keeps_them():
    acc = RDPAccountant()
    for _ in range(3):
        acc.step(noise_multiplier=1.1, sample_rate=0.01)
    acc.step(noise_multiplier=0.9, sample_rate=0.01)
    acc.step(noise_multiplier=1.1, sample_rate=0.01)
    assert acc.history == [(1.1, 0.01, 3), (0.9, 0.01, 1), (1.1, 0.01, 1)]
    assert len(acc) == 3 and acc.mechanism() == "rdp" and PRVAccountant.mechanism() == "prv"
    assert acc.ledger_specs() == ["gaussian:sigma=1.1,steps=3,q=0.01", "gaussian:sigma=0.9,steps=1,q=0.01",
                                  "gaussian:sigma=1.1,steps=1,q=0.01"]


def test_rdp_odometer_is_certified_at_dp_accountings_orders():
    acc = RDPAccountant()
    acc.history = [(1.1, 0.01, 10000)]
    eps, alpha = acc.get_privacy_spent(delta=1e-5)
    # A certified upper bound on the grid value, tight to the rounding of a few additions.
    assert DP_SGD_GRID_EPSILON <= eps <= DP_SGD_GRID_EPSILON * (1 + 1e-12)
    assert alpha in RDPAccountant.DEFAULT_ALPHAS and eps == acc.get_epsilon(1e-5)
    # dpledger's optimal-order RDP is at most the grid's; the odometer never below it by more than rounding.
    exact = dpledger.compose("gaussian:sigma=1.1,q=0.01,steps=10000", delta=1e-5, accountant="rdp").epsilon
    assert exact <= eps <= exact * 1.001
    # Fewer orders can only give a larger bound.
    assert acc.get_epsilon(1e-5, alphas=[2, 3, 4, 5, 6, 8, 16, 32]) >= eps
    assert RDPAccountant().get_privacy_spent(delta=1e-5) == (0.0, 0.0)


def test_odometer_steps_equal_the_odometer_from_scratch_and_the_clis_running_rdp_column():
    acc = RDPAccountant()
    readings = []
    for k in range(1, 301):
        acc.step(noise_multiplier=1.1, sample_rate=0.01 if k <= 200 else 0.02)
        readings.append(acc.get_epsilon(1e-5))
    assert all(a <= b for a, b in zip(readings, readings[1:]))  # non-decreasing
    for n in (1, 150, 200, 201, 300):
        fresh = RDPAccountant()
        fresh.history = [(1.1, 0.01, min(n, 200))] + ([(1.1, 0.02, n - 200)] if n > 200 else [])
        assert fresh.get_epsilon(1e-5) == readings[n - 1]
    # On the running budget's integer orders the odometer is the CLI's `compose --running` rdp column (before the
    # column's last point, which is compose's optimal-order value).
    grid = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 24, 28, 32, 40, 48, 64, 96, 128, 256]
    j = cli_json("compose", "-m", "gaussian:sigma=1.1,q=0.01,steps=200", "-m", "gaussian:sigma=1.1,q=0.02,steps=200",
                 "--delta", "1e-5", "--accountant", "rdp", "--running", "--every", "50")
    col = j["running"]["accountants"]["rdp"]
    cps = j["running"]["checkpoints"]
    for idx, value in zip(col["checkpoints"][:-1], col["epsilon"][:-1]):
        steps = cps[idx - 1]["steps"]
        acc.history = [(1.1, 0.01, min(steps, 200))] + ([(1.1, 0.02, steps - 200)] if steps > 200 else [])
        assert acc.get_epsilon(1e-5, alphas=grid) == value


def test_prv_accountant_is_dpledgers_pld_on_the_history(tmp_json):
    acc = PRVAccountant()
    acc.history = [(1.1, 0.01, 5000), (0.9, 0.02, 100)]
    path = tmp_json(acc.history)
    j = cli_json("compose", "--ledger", path, "--delta", "1e-5", "--accountant", "pld")
    assert acc.get_epsilon(delta=1e-5) == j["epsilon"] and acc.result(1e-5).lower == j["epsilon_lower"]
    # Opacus's own test of its PRV accountant (rate 0.04, noise 1.5, 2249 steps) expects its estimate 6.7773957, which
    # carries its eps_error margin; the certified bound is below it and above the certified lower bound.
    opacus_run = PRVAccountant()
    opacus_run.history = [(1.5, 0.04, 2249)]
    r = opacus_run.result(1e-5)
    assert r.lower <= opacus_run.get_epsilon(1e-5) == r.epsilon < 6.7773957
    assert PRVAccountant().get_epsilon(1e-5) == 0.0


def test_state_dict_round_trip_and_json(tmp_json):
    acc = RDPAccountant()
    acc.history = [(1.1, 0.01, 1000)]
    state = json.loads(json.dumps(acc.state_dict()))  # a saved Opacus state, as JSON (lists, not tuples)
    other = create_accountant("rdp")
    other.load_state_dict(state)
    assert other.history == [(1.1, 0.01, 1000)] and other.get_epsilon(1e-5) == acc.get_epsilon(1e-5)
    with pytest.raises(ValueError, match="cannot be loaded"):
        PRVAccountant().load_state_dict(state)
    with pytest.raises(ValueError, match="Opacus history item"):
        RDPAccountant().load_state_dict({"history": [(1.1, 0.01)], "mechanism": "rdp"})
    with pytest.raises(ValueError, match="does not have the key `history`"):
        RDPAccountant().load_state_dict({"mechanism": "rdp"})
    with pytest.raises(ValueError, match="Unexpected accounting mechanism"):
        create_accountant("gdpr")


def test_optimizer_hook_steps_the_accountant():
    class Optim:
        noise_multiplier, accumulated_iterations = 1.0, 2
    acc = RDPAccountant()
    hook = acc.get_optimizer_hook_fn(sample_rate=0.005)
    hook(Optim())
    hook(Optim())
    assert acc.history == [(1.0, 0.01, 2)]


def test_get_noise_multiplier_meets_the_target_for_the_accountant_that_reports_it():
    # Opacus's search: the epsilon reported at the answer is below the target, within epsilon_tolerance of it, and
    # the answer lies on the grid of its bisection of [0, 20]
    sigma = get_noise_multiplier(target_epsilon=2.0, target_delta=1e-5, sample_rate=0.01, epochs=5)
    acc = RDPAccountant()
    acc.history = [(sigma, 0.01, 500)]
    assert 2.0 - 0.01 <= acc.get_epsilon(1e-5) < 2.0
    assert (sigma / 20 * 2 ** 20) == int(sigma / 20 * 2 ** 20)
    tight = get_noise_multiplier(target_epsilon=2.0, target_delta=1e-5, sample_rate=0.01, epochs=5,
                                 epsilon_tolerance=1e-6)
    acc.history = [(tight, 0.01, 500)]
    assert 2.0 - 1e-6 <= acc.get_epsilon(1e-5) < 2.0 and tight <= sigma
    prv = get_noise_multiplier(target_epsilon=2.0, target_delta=1e-5, sample_rate=0.01, steps=500, accountant="prv")
    p = PRVAccountant()
    p.history = [(prv, 0.01, 500)]
    assert 2.0 - 0.01 <= p.get_epsilon(1e-5) < 2.0
    assert prv < sigma  # the PLD needs less noise than RDP
    with pytest.raises(ValueError, match="EITHER"):
        get_noise_multiplier(target_epsilon=1, target_delta=1e-5, sample_rate=0.01)
