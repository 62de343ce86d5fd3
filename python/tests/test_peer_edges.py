# SPDX-License-Identifier: Apache-2.0
"""The drop-ins at the edges, as the peers answer there: zero noise is epsilon inf, NumPy scalars are numbers,
RepeatAndSelect's shape inf, users' own DpEvent classes, exception types (ValueError for a bad value,
UnsupportedEventError with the offending subevent), errors naming Python arguments, Opacus's registry."""

import math

import numpy as np
import pytest

from dpledger import dp_accounting
from dpledger.dp_accounting import dp_event, mechanism_calibration
from dpledger.dp_accounting.pld import pld_privacy_accountant
from dpledger.dp_accounting.rdp import rdp_privacy_accountant
from dpledger.opacus.accountants import (GaussianAccountant, IAccountant, PRVAccountant, RDPAccountant,
                                         create_accountant, register_accountant, registry)

ACCOUNTANTS = [pld_privacy_accountant.PLDAccountant, rdp_privacy_accountant.RdpAccountant]


@pytest.mark.parametrize("make", ACCOUNTANTS)
@pytest.mark.parametrize("event", [dp_event.GaussianDpEvent(0),
                                   dp_event.PoissonSampledDpEvent(0.5, dp_event.GaussianDpEvent(0.0)),
                                   dp_event.ComposedDpEvent([dp_event.GaussianDpEvent(1.0), dp_event.LaplaceDpEvent(0)])])
def test_zero_noise_is_epsilon_inf(make, event):
    acc = make().compose(event)
    assert acc.get_epsilon(1e-5) == math.inf
    assert acc.get_delta(1.0) == 1.0


@pytest.mark.parametrize("make", ACCOUNTANTS)
def test_nothing_sampled_is_free_even_without_noise(make):
    acc = make().compose(dp_event.PoissonSampledDpEvent(0, dp_event.GaussianDpEvent(0.0)))
    assert acc.get_epsilon(1e-10) == 0


@pytest.mark.parametrize("make", [RDPAccountant, PRVAccountant])
def test_opacus_step_without_noise_is_epsilon_inf(make):
    acc = make()
    acc.step(noise_multiplier=1.0, sample_rate=0.01)
    acc.step(noise_multiplier=0, sample_rate=0.01)
    assert acc.get_epsilon(delta=1e-5) == math.inf


def test_calibration_takes_numpy_scalars():
    sigma = mechanism_calibration.calibrate_dp_mechanism(
        pld_privacy_accountant.PLDAccountant, dp_event.GaussianDpEvent, np.float64(1.0), np.float64(1e-5),
        bracket_interval=mechanism_calibration.LowerEndpointAndGuess(np.float64(0.0), np.float64(1.0)))
    assert isinstance(sigma, float) and 3 < sigma < 6
    eps = pld_privacy_accountant.PLDAccountant().compose(dp_event.GaussianDpEvent(sigma)).get_epsilon(1e-5)
    assert eps <= 1.0
    count = mechanism_calibration.calibrate_dp_mechanism(
        rdp_privacy_accountant.RdpAccountant, lambda k: dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(10.0), k),
        np.float64(2.0), np.float64(1e-5), discrete=True)
    assert isinstance(count, int) and count > 1


def test_numpy_scalars_in_events_and_targets():
    acc = rdp_privacy_accountant.RdpAccountant()
    acc.compose(dp_event.PoissonSampledDpEvent(np.float32(0.01), dp_event.GaussianDpEvent(np.float64(1.1))),
                np.int64(100))
    assert 0 < acc.get_epsilon(np.float64(1e-5)) < math.inf
    assert 0 < acc.get_delta(np.float64(1.0)) < 1


def test_repeat_and_select_with_shape_inf():
    event = dp_event.RepeatAndSelectDpEvent(dp_event.GaussianDpEvent(2.0), 10.0, float("inf"))
    acc = rdp_privacy_accountant.RdpAccountant().compose(event)
    eps = acc.get_epsilon(1e-6)
    assert 0 < eps < math.inf
    # shape inf (a fixed number of repetitions) is the worst shape: no smaller than a finite one
    finite = rdp_privacy_accountant.RdpAccountant().compose(
        dp_event.RepeatAndSelectDpEvent(dp_event.GaussianDpEvent(2.0), 10.0, 1.0)).get_epsilon(1e-6)
    assert eps >= finite * 0.5


class MyEvent(dp_event.DpEvent):
    """A user's own event class (not one of dp_accounting's)."""


@pytest.mark.parametrize("make", ACCOUNTANTS)
def test_a_users_subclass_is_unsupported_not_a_type_error(make):
    mine = MyEvent()
    acc = make()
    assert not acc.supports(mine)
    with pytest.raises(dp_accounting.UnsupportedEventError, match="caused by subevent") as e:
        acc.compose(dp_event.ComposedDpEvent([dp_event.GaussianDpEvent(1.0), dp_event.SelfComposedDpEvent(mine, 3)]))
    assert e.value.invalid_event is mine
    details = acc._maybe_compose(mine, 1, False)
    assert details.invalid_event is mine and details.error_message
    with pytest.raises(TypeError):
        acc.compose("not an event")


@pytest.mark.parametrize("make", ACCOUNTANTS)
@pytest.mark.parametrize("event", [dp_event.PoissonSampledDpEvent(1.1, dp_event.GaussianDpEvent(1.0)),
                                   dp_event.PoissonSampledDpEvent(-0.1, dp_event.GaussianDpEvent(1.0)),
                                   dp_event.GaussianDpEvent(-1.0)])
def test_invalid_values_raise_value_error(make, event):
    with pytest.raises(ValueError) as e:
        make().compose(event)
    assert not isinstance(e.value, dp_accounting.UnsupportedEventError)


def test_the_relation_refusal_is_unsupported():
    acc = rdp_privacy_accountant.RdpAccountant(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
    event = dp_event.PoissonSampledDpEvent(0.1, dp_event.GaussianDpEvent(1.0))
    with pytest.raises(dp_accounting.UnsupportedEventError) as e:
        acc.compose(event)
    assert e.value.invalid_event == event


@pytest.mark.parametrize("make", ACCOUNTANTS)
def test_targets_at_the_ends(make):
    empty = make()
    assert empty.get_epsilon(0) == 0 and empty.get_delta(math.inf) == 0
    acc = make().compose(dp_event.GaussianDpEvent(1.0))
    assert acc.get_epsilon(0) == math.inf  # a Gaussian is not (eps, 0)-DP for any eps
    assert acc.get_delta(math.inf) == 0
    assert acc.get_epsilon(1) == 0


def test_errors_name_the_python_arguments():
    acc = pld_privacy_accountant.PLDAccountant().compose(dp_event.GaussianDpEvent(1.0))
    with pytest.raises(ValueError) as e:
        acc.get_epsilon(2.0)
    assert "target_delta" in str(e.value) and "--" not in str(e.value)
    with pytest.raises(ValueError) as e:
        acc.get_delta(-1.0)
    assert "target_epsilon" in str(e.value) and "--" not in str(e.value)


def test_rdp_orders_at_one_and_beyond_the_range():
    acc = rdp_privacy_accountant.RdpAccountant(orders=[1.0, 2.0, 1e10])
    acc.compose(dp_event.LaplaceDpEvent(1.0))
    kl, two, large = acc._rdp
    assert 0 < kl <= two <= large
    assert large == pytest.approx(1.0, rel=1e-9)  # order inf: the Laplace mechanism's pure eps
    assert math.isfinite(acc.get_epsilon(1e-6))
    for bad in ([0.0, 2.0], [-1.0], [float("nan")], []):
        with pytest.raises(ValueError, match="orders"):
            rdp_privacy_accountant.RdpAccountant(orders=bad)


def test_register_accountant_force():
    class Dummy(IAccountant):
        def get_epsilon(self, delta, *args, **kwargs):
            return 0.0

        @classmethod
        def mechanism(cls):
            return "dummy"

    class Dummy2(Dummy):
        pass

    try:
        register_accountant("dummy", Dummy)
        with pytest.raises(ValueError):
            register_accountant("dummy", Dummy2)
        register_accountant("dummy", Dummy2, force=True)
        assert isinstance(create_accountant("dummy"), Dummy2)
    finally:
        registry._ACCOUNTANTS.pop("dummy", None)


def test_gaussian_accountant_is_the_labelled_approximation():
    with pytest.warns(UserWarning, match="not a bound"):
        acc = GaussianAccountant()
    for _ in range(10):
        acc.step(noise_multiplier=1.5, sample_rate=0.04)
    approx = acc.get_epsilon(delta=1e-5)
    mu = 0.04 * math.sqrt(10 * math.expm1(1 / 1.5 ** 2))
    assert approx == dp_accounting.get_epsilon_gaussian(1 / mu, 1e-5)
    with pytest.raises(ValueError, match="constant"):
        acc.step(noise_multiplier=1.0, sample_rate=0.04)
    assert create_accountant("gdp").mechanism() == "gdp"
