"""get_noise_multiplier: Opacus's noise calibration, with its signature, on dpledger's certified accountants."""

from ... import _api, _dpledger
from ..._events import history_specs
from .rdp import RDPAccountant
from .registry import create_accountant

__all__ = ["get_noise_multiplier"]

MAX_SIGMA = 1e6


def get_noise_multiplier(*, target_epsilon, target_delta, sample_rate, epochs=None, steps=None, accountant="rdp",
                         epsilon_tolerance=0.01, **kwargs):
    """The noise multiplier sigma for which training with Poisson rate ``sample_rate`` for ``steps`` steps (or
    ``epochs`` epochs: int(epochs / sample_rate) steps, as Opacus counts them) spends at most
    (``target_epsilon``, ``target_delta``) by ``accountant``'s certified epsilon: the value
    ``create_accountant(accountant)`` reports after those steps is at most the target.

    ``rdp``: the smallest sigma (to a relative 1e-6, well inside ``epsilon_tolerance``) for the RDP odometer of
    :class:`RDPAccountant`; ``prv`` (or ``pld``, ``auto``): the smallest sigma certified by ``dpledger
    calibrate`` with that accountant (``pld`` for ``prv``).
    """
    if (steps is None) == (epochs is None):
        raise ValueError("get_noise_multiplier takes as input EITHER a number of steps or a number of epochs")
    if steps is None:
        steps = int(epochs / sample_rate)
    if not epsilon_tolerance > 0:
        raise ValueError(f"epsilon_tolerance={epsilon_tolerance!r} is out of range: allowed (0, inf)")
    q = _api.number_text("sample_rate", sample_rate)
    template = f"gaussian:sigma=?,steps={int(steps)}" + ("" if float(q) == 1 else f",q={q}")
    if accountant != "rdp":
        kind = {"prv": "pld"}.get(accountant, accountant)
        if accountant in ("gdp",):
            create_accountant(accountant)  # refuses, with the reason
        return _api.calibrate(template, epsilon=target_epsilon, delta=target_delta, accountant=kind).value

    # rdp: the odometer RDPAccountant reports is the smallest conversion over its orders, each decreasing in sigma;
    # its best order at the sigma dpledger's optimal-order RDP needs, with two neighbours either side, is searched
    # by bisection (a bound on those orders is a bound on all of them, so the answer meets the target as reported).
    delta_text = _api.number_text("target_delta", target_delta)
    alphas = [float(a) for a in RDPAccountant.DEFAULT_ALPHAS]

    def epsilon_at(sigma, orders):
        meter = _dpledger.RdpOdometer(orders)
        meter.add(history_specs([(sigma, sample_rate, 1)])[0], int(steps))
        return meter.epsilon(delta_text)

    start = _api.calibrate(template, epsilon=target_epsilon, delta=target_delta, accountant="rdp").value
    best = alphas.index(epsilon_at(start, alphas)[1])
    near = alphas[max(0, best - 2):best + 3]
    low = high = start
    while epsilon_at(low, near)[0] <= target_epsilon:
        high, low = low, low / 1.01
        if low < 1e-6:
            return high
    while epsilon_at(high, near)[0] > target_epsilon:
        low, high = high, high * 1.01
        if high > MAX_SIGMA:
            raise ValueError("The privacy budget is too low.")
    while high - low > 1e-6 * high:
        middle = (low + high) / 2
        if epsilon_at(middle, near)[0] <= target_epsilon:
            high = middle
        else:
            low = middle
    return high
