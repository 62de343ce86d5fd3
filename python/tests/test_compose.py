# SPDX-License-Identifier: Apache-2.0
"""dpledger.compose, the mechanism classes and the per-accountant values against the CLI, bit for bit."""

import math

import pytest

import dpledger
from conftest import cli_error, cli_json, cli_text

DP_SGD = "gaussian:sigma=1.1,q=0.01,steps=10000"


def test_readme_example_prints_the_cli_text_bit_for_bit():
    r = dpledger.compose([DP_SGD], delta=1e-5)
    assert str(r) + "\n" == cli_text("compose", "-m", DP_SGD, "--delta", "1e-5")
    j = cli_json("compose", "-m", DP_SGD, "--delta", "1e-5")
    assert (r.epsilon, r.delta, r.lower, r.accountant) == (j["epsilon"], j["delta"], j["epsilon_lower"], j["accountant"])
    assert r.bound == r.epsilon and r.epsilon_lower == r.lower and r.delta_lower is None
    assert r.method == j["method"] and r.accountant_requested == "auto"
    assert r.lower < r.epsilon


LEDGERS = [
    (["laplace:b=10,steps=100"], "delta", "1e-6", "auto"),
    (["laplace:b=10,steps=100"], "delta", "0", "pure"),
    (["rr:eps=0.1,steps=100"], "delta", "1e-5", "optimal"),
    (["pure:eps=0.1,steps=100"], "delta", "1e-5", "advanced"),
    (["approx:eps=0.1,delta=1e-7,steps=50"], "delta", "1e-5", "basic"),
    ([DP_SGD, "laplace:b=30,q=0.001,steps=1000"], "delta", "1e-6", "rdp"),
    (["gaussian:sigma=2,steps=10"], "epsilon", "1.5", "auto"),
    (["gaussian:sigma=4,q=0.05,steps=300"], "epsilon", "2", "rdp"),
]


@pytest.mark.parametrize("specs,given,value,accountant", LEDGERS)
def test_compose_equals_the_cli(specs, given, value, accountant):
    args = [a for s in specs for a in ("-m", s)] + [f"--{given}", value, "--accountant", accountant]
    j = cli_json("compose", *args)
    r = dpledger.compose(specs, **{given: float(value)}, accountant=accountant)
    assert r.epsilon == j["epsilon"] and r.delta == j["delta"]
    assert r.accountant == j["accountant"] and r.method == j["method"]
    assert r.lower == j.get(f"{'epsilon' if given == 'delta' else 'delta'}_lower")
    assert r.order == j.get("order")
    assert str(r) + "\n" == cli_text("compose", *args)
    # The decimal as a string is the same target as the float that prints as it.
    assert dpledger.compose(specs, **{given: value}, accountant=accountant).bound == r.bound


def test_mechanism_classes_write_the_cli_specs():
    g = dpledger.Gaussian(sigma=1.1, q=0.01, steps=10_000)
    assert g.spec() == DP_SGD == str(g)
    assert dpledger.Laplace(b=2, sens=0.5, steps=3).spec() == "laplace:b=2,sens=0.5,steps=3"
    assert dpledger.ApproxDP(eps=1, delta=1e-6, q=0.2, sampling="wor").spec() == "approx:eps=1,delta=1e-06,q=0.2,sampling=wor"
    assert dpledger.RandomizedResponse(0.5).spec() == "rr:eps=0.5"
    assert dpledger.PureDP(eps="0.1", steps=7).spec() == "pure:eps=0.1,steps=7"
    assert dpledger.NoisyIteration(1.0, 0.1, 100, index=3).spec() == "iteration:sigma=1.0,sens=0.1,steps=100,index=3"
    assert dpledger.Mechanism("gaussian", sigma=2).spec() == "gaussian:sigma=2"
    assert dpledger.compose(g, delta=1e-5, accountant="rdp").epsilon == dpledger.compose(DP_SGD, delta=1e-5, accountant="rdp").epsilon
    with pytest.raises(ValueError, match="a number"):
        dpledger.Gaussian(sigma=True).spec()


def test_gaussian_in_opacus_words_is_the_spec_string():
    """noise_multiplier, batch_size/dataset_size or sample_rate, and epochs: the same keys as the spec string."""
    g = dpledger.Gaussian(noise_multiplier=1.1, batch_size=256, dataset_size=60000, epochs=30)
    spec = "gaussian:noise_multiplier=1.1,batch_size=256,dataset_size=60000,epochs=30"
    assert g.spec() == spec
    assert dpledger.Gaussian(noise_multiplier=1.1, sample_rate="256/60000", epochs=30).spec() == \
        "gaussian:noise_multiplier=1.1,sample_rate=256/60000,epochs=30"
    r = dpledger.compose(g, delta=1e-5, accountant="rdp")
    assert r.epsilon == dpledger.compose(spec, delta=1e-5, accountant="rdp").epsilon
    # steps = ceil(30 x 60000/256) = 7032 either way
    assert r.epsilon == dpledger.compose("gaussian:sigma=1.1,q=256/60000,steps=7032", delta=1e-5, accountant="rdp").epsilon
    assert r.epsilon == dpledger.compose(dpledger.Gaussian(noise_multiplier=1.1, q="256/60000", epochs=30), delta=1e-5,
                                         accountant="rdp").epsilon
    with pytest.raises(ValueError, match="noise_multiplier"):
        dpledger.Gaussian(batch_size=256, dataset_size=60000, epochs=30)


def test_per_accountant_values_are_each_accountants_cli_value():
    specs = ["laplace:b=10,steps=100"]
    r = dpledger.compose(specs, delta=1e-6)
    per = r.per_accountant
    assert r.accountant in per and per[r.accountant] is r
    for name, sub in per.items():
        j = cli_json("compose", "-m", specs[0], "--delta", "1e-6", "--accountant", name)
        assert (sub.epsilon, sub.accountant) == (j["epsilon"], name)
        assert sub.epsilon >= r.epsilon  # auto is the smallest of them
    assert set(per) | set(r.not_applicable) == set(["optimal", "pld", "rdp", "pure", "advanced", "basic"])
    gauss = dpledger.compose(DP_SGD, delta=1e-5, accountant="rdp")
    assert "pure" in gauss.not_applicable and "does not apply" in gauss.not_applicable["pure"]


def test_ledger_files_as_the_cli_reads_them(tmp_json):
    path = tmp_json([[1.1, 0.01, 10000], [0.8, 0.02, 500]])
    r = dpledger.compose(ledgers=path, delta=1e-5, accountant="rdp")
    j = cli_json("compose", "--ledger", path, "--delta", "1e-5", "--accountant", "rdp")
    assert r.epsilon == j["epsilon"]
    assert r.mechanisms == ["gaussian:sigma=1.1,sens=1,steps=10000,q=0.01", "gaussian:sigma=0.8,sens=1,steps=500,q=0.02"]


@pytest.mark.parametrize("call,cli_args", [
    (lambda: dpledger.compose(DP_SGD, delta=2), ["compose", "-m", DP_SGD, "--delta", "2"]),
    (lambda: dpledger.compose(DP_SGD, delta="1e-5x"), ["compose", "-m", DP_SGD, "--delta", "1e-5x"]),
    (lambda: dpledger.compose(DP_SGD, epsilon=-1), ["compose", "-m", DP_SGD, "--epsilon", "-1"]),
    (lambda: dpledger.compose("gaussian:sigmaa=1.1", delta=1e-5), ["compose", "-m", "gaussian:sigmaa=1.1", "--delta", "1e-5"]),
    (lambda: dpledger.compose("gaussian:sigma=-1", delta=1e-5), ["compose", "-m", "gaussian:sigma=-1", "--delta", "1e-5"]),
    (lambda: dpledger.compose(DP_SGD, delta=1e-5, accountant="best"), ["compose", "-m", DP_SGD, "--delta", "1e-5", "--accountant", "best"]),
    (lambda: dpledger.compose(DP_SGD, delta=1e-5, accountant="pure"), ["compose", "-m", DP_SGD, "--delta", "1e-5", "--accountant", "pure"]),
    (lambda: dpledger.compose([], delta=1e-5, ledgers="/nonexistent/ledger.json"), ["compose", "--ledger", "/nonexistent/ledger.json", "--delta", "1e-5"]),
    (lambda: dpledger.calibrate("gaussian:sigma=?", epsilon=1, delta=1.5), ["calibrate", "-m", "gaussian:sigma=?", "--epsilon", "1", "--delta", "1.5"]),
])
def test_errors_raise_value_error_with_the_cli_message_in_python_terms(call, cli_args):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == dpledger._api.python_terms(cli_error(*cli_args))
    assert "--" not in str(e.value) and "-m " not in str(e.value)


def test_not_applicable_is_its_own_value_error_and_targets_are_checked_in_python():
    with pytest.raises(dpledger.NotApplicableError, match="accountant 'pure' does not apply"):
        dpledger.compose(DP_SGD, delta=1e-5, accountant="pure")
    with pytest.raises(ValueError, match="exactly one of delta= .* or epsilon="):
        dpledger.compose(DP_SGD)
    with pytest.raises(ValueError, match="exactly one of"):
        dpledger.compose(DP_SGD, delta=1e-5, epsilon=1)
    with pytest.raises(ValueError, match="no mechanism"):
        dpledger.compose([], delta=1e-5)
    with pytest.raises(ValueError, match="a number is required"):
        dpledger.compose(DP_SGD, delta=True)
    with pytest.raises(TypeError, match="spec string"):
        dpledger.compose([3.5], delta=1e-5)
    with pytest.raises(ValueError, match="not a finite number"):
        dpledger.compose(DP_SGD, delta=math.nan)
