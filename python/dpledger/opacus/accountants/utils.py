# SPDX-License-Identifier: Apache-2.0
"""get_noise_multiplier: Opacus's noise calibration, with its signature and its search, on dpledger's accountants."""

from .registry import create_accountant

__all__ = ["get_noise_multiplier"]

MAX_SIGMA = 1e6


def get_noise_multiplier(*, target_epsilon, target_delta, sample_rate, epochs=None, steps=None, accountant="rdp",
                         epsilon_tolerance=0.01, **kwargs):
    """The noise multiplier sigma for which training with Poisson rate ``sample_rate`` for ``steps`` steps (or
    ``epochs`` epochs: int(epochs / sample_rate) steps, as Opacus counts them) spends at most
    (``target_epsilon``, ``target_delta``) as ``create_accountant(accountant)`` reports it.

    Opacus's search: sigma doubled from 20 until the epsilon is below the target, then halving the bracket [0,
    sigma] until the epsilon is within ``epsilon_tolerance`` below the target; the upper end is returned. The
    accountant's epsilon at the answer is below the target, so with ``rdp`` and ``prv`` (certified bounds) the
    answer meets the budget; with ``gdp`` it meets the central-limit approximation only.
    """
    if (steps is None) == (epochs is None):
        raise ValueError("get_noise_multiplier takes as input EITHER a number of steps or a number of epochs")
    if steps is None:
        steps = int(epochs / sample_rate)
    if not epsilon_tolerance > 0:
        raise ValueError(f"epsilon_tolerance={epsilon_tolerance!r} is out of range: allowed (0, inf)")
    if not target_epsilon > 0:
        raise ValueError(f"target_epsilon={target_epsilon!r} is out of range: allowed (0, inf)")
    meter = create_accountant(mechanism=accountant)

    def epsilon_at(sigma):
        meter.history = [(sigma, sample_rate, int(steps))]
        return meter.get_epsilon(delta=target_delta, **kwargs)

    sigma_low, sigma_high, eps_high = 0.0, 10.0, float("inf")
    while eps_high > target_epsilon:
        sigma_high = 2 * sigma_high
        eps_high = epsilon_at(sigma_high)
        if sigma_high > MAX_SIGMA:
            raise ValueError("The privacy budget is too low.")
    while target_epsilon - eps_high > epsilon_tolerance:
        sigma = (sigma_low + sigma_high) / 2
        eps = epsilon_at(sigma)
        if eps < target_epsilon:
            sigma_high, eps_high = sigma, eps
        else:
            sigma_low = sigma
    return sigma_high
