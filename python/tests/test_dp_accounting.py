# SPDX-License-Identifier: Apache-2.0
"""dpledger.dp_accounting on events with dp_accounting 0.6's exact class names and fields, three ways: its
stand-ins, classes of another library that only share names and attributes (as dp_accounting's own attrs
classes do), and to_named_tuple() forms; every value equal to the CLI's on the events' JSON."""

import collections
import math

import pytest

import dpledger
from dpledger import dp_accounting
from dpledger.dp_accounting import dp_event as de
from conftest import cli_json


# --- Events that only share dp_accounting 0.6's class names and field names (no common base class). -------------
def _foreign(name, fields):
    def __init__(self, *args):
        for f, a in zip(fields, args):
            object.__setattr__(self, f, a)
    cls = type(name, (), {"__slots__": tuple(fields), "__init__": __init__, "__module__": "dp_accounting.dp_event",
                          "__repr__": lambda self: f"{name}(...)"})
    return cls


FOREIGN = {n: _foreign(n, f) for n, f in {
    "GaussianDpEvent": ["noise_multiplier"], "LaplaceDpEvent": ["noise_multiplier"],
    "EpsilonDeltaDpEvent": ["epsilon", "delta"], "RandomizedResponseDpEvent": ["noise_parameter", "num_buckets"],
    "PoissonSampledDpEvent": ["sampling_probability", "event"],
    "SampledWithoutReplacementDpEvent": ["source_dataset_size", "sample_size", "event"],
    "SelfComposedDpEvent": ["event", "count"], "ComposedDpEvent": ["events"], "NoOpDpEvent": [],
    "NonPrivateDpEvent": [], "UnsupportedDpEvent": [], "ZCDpEvent": ["rho", "xi"]}.items()}


def _named_tuple_form(event):
    """event.to_named_tuple() as dp_accounting makes it: module_name, class_name and the fields."""
    fields = [f for f in event.__slots__] if hasattr(event, "__slots__") else list(event.__dataclass_fields__)
    T = collections.namedtuple(f"_{type(event).__name__}NamedTupleWrapper", ["module_name", "class_name"] + fields)

    def conv(v):
        if type(v).__name__.endswith("DpEvent"):
            return _named_tuple_form(v)
        if isinstance(v, list):
            return [conv(x) for x in v]
        return v
    return T("dp_accounting.dp_event", type(event).__name__, *[conv(getattr(event, f)) for f in fields])


def _to_json(t):
    """The docs' helper (docs/ledger_files.md): a to_named_tuple() tree as JSON for `--ledger`."""
    if hasattr(t, "_fields"):
        return {k: _to_json(getattr(t, k)) for k in t._fields}
    if isinstance(t, (list, tuple)):
        return [_to_json(x) for x in t]
    return t


def dp_sgd(ns, sigma=1.1, q=0.01, steps=10000):
    return ns["SelfComposedDpEvent"](ns["PoissonSampledDpEvent"](q, ns["GaussianDpEvent"](sigma)), steps)


def mixed(ns):
    return ns["ComposedDpEvent"]([
        ns["SelfComposedDpEvent"](ns["PoissonSampledDpEvent"](0.01, ns["GaussianDpEvent"](1.1)), 1000),
        ns["LaplaceDpEvent"](10.0), ns["NoOpDpEvent"](),
        ns["RandomizedResponseDpEvent"](0.5, 2), ns["SelfComposedDpEvent"](ns["GaussianDpEvent"](20.0), 3)])


STAND_INS = {n: getattr(de, n) for n in FOREIGN}
FORMS = {"stand-ins": STAND_INS, "foreign classes": FOREIGN}


@pytest.mark.parametrize("form", FORMS)
def test_pld_and_rdp_accountants_equal_the_cli_on_dp_sgd(form, tmp_json):
    event = dp_sgd(FORMS[form])
    path = tmp_json(_to_json(_named_tuple_form(dp_sgd(FOREIGN))))
    for cls, name in ((dp_accounting.PLDAccountant, "pld"), (dp_accounting.RdpAccountant, "rdp")):
        acc = cls()
        assert acc.supports(event)
        assert acc.compose(event) is acc
        j = cli_json("compose", "--ledger", path, "--delta", "1e-5", "--accountant", name)
        assert acc.get_epsilon(1e-5) == j["epsilon"]
        assert acc.result(delta=1e-5).lower == j.get("epsilon_lower")
        jd = cli_json("compose", "--ledger", path, "--epsilon", "2", "--accountant", name)
        assert acc.get_delta(2.0) == jd["delta"]
    rdp = dp_accounting.rdp.RdpAccountant().compose(event)
    eps, order = rdp.get_epsilon_and_optimal_order(1e-5)
    assert order == cli_json("compose", "--ledger", path, "--delta", "1e-5", "--accountant", "rdp")["order"]
    assert rdp.rdp.shape == rdp.orders.shape == (len(dp_accounting.rdp.DEFAULT_RDP_ORDERS),)


def test_named_tuple_forms_and_counts_compose_like_their_events(tmp_json):
    event = mixed(FOREIGN)
    path = tmp_json(_to_json(_named_tuple_form(event)))
    j = cli_json("compose", "--ledger", path, "--delta", "1e-6", "--accountant", "rdp")
    # Poisson sampling and randomized response are both certified under REPLACE_SPECIAL (not together under
    # ADD_OR_REMOVE_ONE, where randomized response is refused).
    special = dp_accounting.NeighboringRelation.REPLACE_SPECIAL
    for e in (event, _named_tuple_form(event), mixed(STAND_INS)):
        assert not dp_accounting.RdpAccountant().supports(e)
        assert dp_accounting.RdpAccountant(neighboring_relation=special).compose(e).get_epsilon(1e-6) == j["epsilon"]
    # compose(event, count) is the self-composition; composing twice adds.
    three = dp_accounting.RdpAccountant().compose(de.LaplaceDpEvent(10.0), 3)
    again = dp_accounting.RdpAccountant().compose(de.LaplaceDpEvent(10.0)).compose(de.LaplaceDpEvent(10.0), 2)
    jl = cli_json("compose", "-m", "laplace:b=10,steps=3", "--delta", "1e-6", "--accountant", "rdp")
    assert three.get_epsilon(1e-6) == again.get_epsilon(1e-6) == jl["epsilon"]
    assert three.ledger_specs == ["laplace:b=10,steps=3"]


def test_ledger_is_built_as_dp_accounting_builds_it():
    acc = dp_accounting.PLDAccountant()
    assert isinstance(acc.ledger, de.NoOpDpEvent)
    g = de.GaussianDpEvent(2.0)
    acc.compose(g).compose(g, 2)
    assert acc.ledger == de.SelfComposedDpEvent(g, 3)
    acc.compose(de.LaplaceDpEvent(1.0))
    assert acc.ledger == de.ComposedDpEvent([de.SelfComposedDpEvent(g, 3), de.LaplaceDpEvent(1.0)])
    foreign = dp_accounting.PLDAccountant().compose(FOREIGN["GaussianDpEvent"](2.0), 2)
    assert type(foreign.ledger).__name__ == "SelfComposedDpEvent"


def test_supports_and_unsupported_events():
    pld, rdp = dp_accounting.PLDAccountant(), dp_accounting.RdpAccountant()
    assert not pld.supports(de.UnsupportedDpEvent())
    made_up = _foreign("MadeUpDpEvent", ["noise_multiplier"])(1.0)  # a class dpledger's ledger reader does not know
    assert not rdp.supports(made_up) and not pld.supports(made_up)
    assert not rdp.supports(de.EpsilonDeltaDpEvent(1.0, 1e-6))  # no RDP curve for delta > 0
    assert pld.supports(de.EpsilonDeltaDpEvent(1.0, 1e-6))
    assert not pld.supports(de.PoissonSampledDpEvent(0.1, de.LaplaceDpEvent(1.0)))  # PLD: only sampled Gaussians
    wor = de.SampledWithoutReplacementDpEvent(1000, 10, de.GaussianDpEvent(1.0))
    assert not rdp.supports(wor)  # wor is analysed for replace-one neighbours
    replace_one = dp_accounting.RdpAccountant(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
    assert replace_one.supports(wor) and not replace_one.supports(dp_sgd(STAND_INS))
    with pytest.raises(dp_accounting.UnsupportedEventError, match="MadeUpDpEvent is not one of dp_accounting 0.6's event classes"):
        rdp.compose(made_up)
    with pytest.raises(TypeError, match="must be `DpEvent`"):
        rdp.compose("gaussian:sigma=1")
    with pytest.raises(ValueError, match="must be positive"):
        rdp.compose(de.GaussianDpEvent(1.0), 0)
    assert rdp.get_epsilon(1e-5) == 0.0 and isinstance(rdp.ledger, de.NoOpDpEvent)  # nothing composed


def test_every_event_is_certified_for_its_relation_or_refused():
    rel = dp_accounting.NeighboringRelation
    g = de.GaussianDpEvent(2.0)
    events = {
        "mixture": de.MixtureOfGaussiansDpEvent(1.0, [0.0, 1.0], [0.9, 0.1]),
        "truncated": de.TruncatedSubsampledGaussianDpEvent(1000, 0.01, 20, 1.1),
        "with replacement": de.SampledWithReplacementDpEvent(1000, 10, g),
        "randomized response": de.RandomizedResponseDpEvent(0.5, 4),
        "tree": de.SingleEpochTreeAggregationDpEvent(5.0, 100),
        "poisson": de.PoissonSampledDpEvent(0.01, g),
        "without replacement": de.SampledWithoutReplacementDpEvent(1000, 10, g),
    }
    # The relations each is certified for (docs/mechanisms.md, "Neighbouring relations"); refused under the others.
    certified = {
        "mixture": {"ADD_OR_REMOVE_ONE", "REPLACE_SPECIAL"},
        "truncated": {"ADD_OR_REMOVE_ONE"},
        "with replacement": {"REPLACE_ONE"},
        "randomized response": {"REPLACE_ONE", "REPLACE_SPECIAL"},
        "tree": {"ADD_OR_REMOVE_ONE", "REPLACE_SPECIAL"},
        "poisson": {"ADD_OR_REMOVE_ONE", "REPLACE_SPECIAL"},
        "without replacement": {"REPLACE_ONE"},
    }
    for name, event in events.items():
        for r in rel:
            acc = dp_accounting.RdpAccountant(neighboring_relation=r)
            want = r.name in certified[name]
            # supports() may still be False for a certified pair when the RDP accountant has no curve for it.
            if not want:
                assert not acc.supports(event), (name, r.name)
                with pytest.raises(dp_accounting.UnsupportedEventError, match="neighboring_relation must be"):
                    acc.compose(event)
                # Nested inside a composition or a self-composition: refused too.
                assert not acc.supports(de.ComposedDpEvent([g, de.SelfComposedDpEvent(event, 2)])), (name, r.name)
    # The events whose guarantee is stated for the relation given hold under every relation.
    for r in rel:
        assert dp_accounting.RdpAccountant(neighboring_relation=r).supports(g)
        assert dp_accounting.RdpAccountant(neighboring_relation=r).supports(de.RepeatAndSelectDpEvent(g, 10, 1))
    assert not dp_accounting.RdpAccountant(neighboring_relation=rel.REPLACE_ONE).supports(
        de.RepeatAndSelectDpEvent(de.PoissonSampledDpEvent(0.01, g), 10, 1))
    assert dp_accounting.RdpAccountant(neighboring_relation=rel.REPLACE_ONE).supports(events["randomized response"])


def test_non_private_event_gives_an_infinite_budget():
    acc = dp_accounting.PLDAccountant().compose(de.GaussianDpEvent(1.0)).compose(FOREIGN["NonPrivateDpEvent"]())
    assert acc.get_epsilon(1e-5) == math.inf and acc.get_delta(1.0) == 1.0


def _sampled(sigma):
    return de.SelfComposedDpEvent(de.PoissonSampledDpEvent(0.01, de.GaussianDpEvent(sigma)), 1000)


def test_calibrate_dp_mechanism_meets_the_target_within_tol():
    tol = 1e-4
    sigma = dp_accounting.calibrate_dp_mechanism(dp_accounting.RdpAccountant, _sampled, 1.0, 1e-5, tol=tol)
    eps = lambda s: dp_accounting.RdpAccountant().compose(_sampled(s)).get_epsilon(1e-5)  # noqa: E731
    assert eps(sigma) <= 1.0 < eps(sigma - 2 * tol)
    best = dpledger.calibrate("gaussian:sigma=?,q=0.01,steps=1000", epsilon=1, delta=1e-5, accountant="rdp").value
    assert sigma - tol <= best <= sigma
    # Discrete: the largest number of Gaussian(10) steps within epsilon 2, as `dpledger calibrate steps=?`.
    n = dp_accounting.calibrate_dp_mechanism(dp_accounting.RdpAccountant,
                                             lambda k: de.SelfComposedDpEvent(de.GaussianDpEvent(10.0), k), 2.0, 1e-5,
                                             bracket_interval=dp_accounting.LowerEndpointAndGuess(0, 10), discrete=True)
    assert isinstance(n, int)
    assert n == dpledger.calibrate("gaussian:sigma=10,steps=?", epsilon=2, delta=1e-5, accountant="rdp").value
    # PLD on one Gaussian, against dpledger's certified calibration by the same accountant.
    s = dp_accounting.calibrate_dp_mechanism(dp_accounting.PLDAccountant, de.GaussianDpEvent, 1.0, 1e-5, tol=1e-3)
    assert dp_accounting.PLDAccountant().compose(de.GaussianDpEvent(s)).get_epsilon(1e-5) <= 1.0
    assert abs(s - dpledger.calibrate("gaussian:sigma=?", epsilon=1, delta=1e-5, accountant="pld").value) <= 1e-3
    with pytest.raises(dp_accounting.mechanism_calibration.NonEmptyAccountantError):
        dp_accounting.calibrate_dp_mechanism(lambda: dp_accounting.RdpAccountant().compose(de.GaussianDpEvent(1.0)),
                                             de.GaussianDpEvent, 1.0, 1e-5)


def test_compose_takes_dp_events_directly():
    event = dp_sgd(STAND_INS)
    assert dpledger.compose(event, delta=1e-5, accountant="rdp").epsilon == \
        dpledger.compose("gaussian:sigma=1.1,q=0.01,steps=10000", delta=1e-5, accountant="rdp").epsilon


def test_randomized_response_rdp_helper_is_exact_and_rounded_up():
    mpmath = pytest.importorskip("mpmath")
    np = pytest.importorskip("numpy")
    from dpledger.dp_accounting.rdp import rdp_privacy_accountant as rdp_module
    rel = dp_accounting.NeighboringRelation
    orders = [1.5, 2.5, 5, 50, 100]
    mpmath.mp.dps = 50
    for p, k in [(0.3, 10), (0.05, 20), (0.01, 3)]:
        special = rdp_module._compute_randomized_response_rdp(p, k, orders + [math.inf], rel.REPLACE_SPECIAL)
        # the divergences between an input's output and the uniform output, both directions, at 50 digits
        big, small = mpmath.mpf(k) * (1 - mpmath.mpf(p)) + mpmath.mpf(p), mpmath.mpf(p)
        for order, value in zip(orders, special):
            a = mpmath.mpf(order)
            exact = max(mpmath.log(big ** x / k + (k - 1) * small ** x / k) for x in (a, 1 - a)) / (a - 1)
            assert mpmath.mpf(value) >= exact and mpmath.mpf(math.nextafter(value, 0)) < exact
        assert special[-1] >= float(max(mpmath.log(big), -mpmath.log(small)))
        # under REPLACE_ONE: the curve dpledger rdp gives (and the accountant composes)
        one = rdp_module._compute_randomized_response_rdp(p, k, orders, rel.REPLACE_ONE)
        assert list(one) == list(dpledger.rdp([f"rr:p={p},k={k}"], orders).rdp)
        assert all(one >= special[:-1])  # the REPLACE_ONE pair dominates (joint convexity)
    assert list(rdp_module._compute_randomized_response_rdp(0, 2, [1.1], rel.REPLACE_ONE)) == [math.inf]
    assert list(rdp_module._compute_randomized_response_rdp(1, 2, [1.1], rel.REPLACE_SPECIAL)) == [0]
    for args, message in [((-1, 10, [1.1]), "noise_parameter must be in"), ((0.1, 0, [1.1]), "num_buckets must be"),
                          ((0.1, 10, [1, 1.2]), "order alpha must be > 1")]:
        with pytest.raises(ValueError, match=message):
            rdp_module._compute_randomized_response_rdp(*args, rel.REPLACE_SPECIAL)


def test_true_positive_rates_bound_the_exact_trade_off_curve():
    np = pytest.importorskip("numpy")
    from statistics import NormalDist
    normal = NormalDist()
    acc = dp_accounting.pld.PLDAccountant()
    acc.compose(de.GaussianDpEvent(1.0))  # 1-GDP: the exact trade-off curve is TPR = Phi(Phi^-1(FPR) + 1)
    fprs = np.array([1e-6, 1e-3, 0.01, 0.1, 0.3, 0.5])
    tprs = acc.get_true_positive_rates(fprs)
    exact = np.array([normal.cdf(normal.inv_cdf(a) + 1) for a in fprs])
    assert np.all(tprs >= exact) and np.all(tprs <= exact + 1e-3)  # upper bounds, close to the curve
    assert isinstance(acc.get_true_positive_rates(0.1), float)
    mu = acc.get_gdp_parameter_estimate()
    assert 1 <= mu <= 1 + 1e-3
    # two pure events, eps 1 and 2 (dp_accounting's test value at FPR 0.1: 0.8286)
    pure = dp_accounting.pld.PLDAccountant()
    pure.compose(de.EpsilonDeltaDpEvent(1.0, 0)).compose(de.EpsilonDeltaDpEvent(2.0, 0))
    assert 0.8286 - 1e-3 <= pure.get_true_positive_rates(0.1) <= 0.8286 + 1e-3
    # no guarantee: every test may succeed; nothing composed: no test beats chance
    none = dp_accounting.pld.PLDAccountant().compose(de.NonPrivateDpEvent())
    assert none._contains_non_dp_event and none.get_true_positive_rates(0.1) == 1
    assert none.get_gdp_parameter_estimate() == math.inf
    empty = dp_accounting.pld.PLDAccountant()
    assert empty.get_true_positive_rates(0.25) == 0.25 and empty.get_gdp_parameter_estimate() == 0
    # an (eps, delta) event: the loss is infinite with probability delta > every default FPR
    approx = dp_accounting.pld.PLDAccountant().compose(de.EpsilonDeltaDpEvent(1.0, 0.1))
    assert approx.get_gdp_parameter_estimate() == math.inf


def test_replace_one_accounts_the_poisson_sampled_gaussian_and_twice_the_shift_of_sums():
    r1, special = dp_accounting.NeighboringRelation.REPLACE_ONE, dp_accounting.NeighboringRelation.REPLACE_SPECIAL
    g = de.GaussianDpEvent(1.0)
    sampled = de.PoissonSampledDpEvent(0.01, g)
    # The PLD accountant: the antipodal pair (docs/mechanisms.md), as the CLI's sampling=poisson_replace_one.
    acc = dp_accounting.PLDAccountant(r1).compose(sampled, 1000)
    assert acc.ledger_specs == ["gaussian:sigma=1,steps=1000,q=0.01,sampling=poisson_replace_one"]
    j = cli_json("compose", "-m", "gaussian:sigma=1,q=0.01,steps=1000,sampling=poisson_replace_one", "--delta", "1e-5",
                 "--accountant", "pld")
    assert acc.get_epsilon(1e-5) == j["epsilon"]
    # Replacing a record by one that contributes nothing is one of its changes: at least the add/remove budget.
    assert j["epsilon_lower"] > dp_accounting.PLDAccountant().compose(sampled, 1000).get_epsilon(1e-5)
    # Rate 1 samples everything: the Gaussian itself under replace-one.
    assert dp_accounting.PLDAccountant(r1).compose(de.PoissonSampledDpEvent(1.0, g)).ledger_specs == ["gaussian:sigma=0.5"]
    # No Renyi analysis of it, and no pair for other sampled mechanisms: refused in dp_accounting's words.
    assert not dp_accounting.RdpAccountant(neighboring_relation=r1).supports(sampled)
    with pytest.raises(dp_accounting.UnsupportedEventError,
                       match="neighboring_relation must be `ADD_OR_REMOVE_ONE` or `REPLACE_SPECIAL`"):
        dp_accounting.PLDAccountant(r1).compose(de.PoissonSampledDpEvent(0.1, de.LaplaceDpEvent(1.0)))
    # dp_event's sums of values of norm <= C move by 2C when one value is replaced, C otherwise.
    for accountant in (dp_accounting.PLDAccountant, lambda r: dp_accounting.RdpAccountant(neighboring_relation=r)):
        assert accountant(r1).compose(g).ledger_specs == ["gaussian:sigma=0.5"]
        assert accountant(special).compose(g).ledger_specs == ["gaussian:sigma=1"]
        assert accountant(r1).compose(de.LaplaceDpEvent(2.0)).ledger_specs == ["laplace:b=1"]
        assert accountant(r1).compose(de.DiscreteLaplaceDpEvent(0.5, 1)).ledger_specs == ["discrete_laplace:a=0.5,sens=2"]
    wor = dp_accounting.RdpAccountant(neighboring_relation=r1).compose(de.SampledWithoutReplacementDpEvent(1000, 10, g))
    assert wor.ledger_specs == ["gaussian:sigma=0.5,q=0.01,sampling=wor"]
    assert dp_accounting.PLDAccountant(r1).compose(g).get_epsilon(1e-5) == \
        dp_accounting.PLDAccountant().compose(de.GaussianDpEvent(0.5)).get_epsilon(1e-5)
