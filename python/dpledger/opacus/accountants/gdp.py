# SPDX-License-Identifier: Apache-2.0
"""GaussianAccountant: Opacus's Gaussian-DP accountant. NOT a bound: Opacus's accountant approximates the
composition of Poisson-subsampled Gaussian steps by mu-GDP through a central limit theorem (Bu, Dong, Long and Su
2020, Cor. 5: mu = q sqrt(T (e^{1/sigma^2} - 1))), which can underestimate the privacy loss (Gopi, Lee and Wutschitz
2021). This class computes the same mu and converts it to epsilon exactly (mu-GDP is the Gaussian mechanism of noise
1/mu: dpledger's certified epsilon of that mechanism), so its epsilon is certified *for mu-GDP* but is still only
the CLT approximation of the training's epsilon. Use RDPAccountant or PRVAccountant for a bound."""

import math
import warnings

from ...dp_accounting.gaussian_mechanism import get_epsilon_gaussian
from .accountant import IAccountant

__all__ = ["GaussianAccountant"]


def gdp_mu_poisson(steps, noise_multiplier, sample_rate):
    """The CLT approximation of mu for ``steps`` Poisson-subsampled Gaussian steps (Bu et al. 2020, Cor. 5; an
    approximation, neither an upper nor a lower bound)."""
    if noise_multiplier == 0:
        return math.inf
    return sample_rate * math.sqrt(steps * math.expm1(1 / noise_multiplier ** 2))


class GaussianAccountant(IAccountant):
    """Opacus's GaussianAccountant (mechanism ``gdp``): the central-limit approximation of the training's
    epsilon, not a bound (see the module docstring). Noise multiplier and sample rate stay constant."""

    def __init__(self):
        warnings.warn("GaussianAccountant (gdp) is a central-limit approximation, not a bound: it can underestimate "
                      "the privacy loss. RDPAccountant and PRVAccountant give certified bounds.")
        super().__init__()

    def step(self, *, noise_multiplier, sample_rate):
        if self.history:
            last_noise_multiplier, last_sample_rate, num_steps = self.history[-1]
            if last_noise_multiplier != noise_multiplier or last_sample_rate != sample_rate:
                raise ValueError("Noise multiplier and sample rate have to stay constant in GaussianAccountant.")
            self.history = [(last_noise_multiplier, last_sample_rate, num_steps + 1)]
        else:
            self.history = [(noise_multiplier, sample_rate, 1)]

    def get_epsilon(self, delta, poisson=True, **kwargs):
        """The CLT approximation of epsilon at ``delta`` (not a bound). Only Poisson sampling (``poisson=True``)
        is supported."""
        if not poisson:
            raise ValueError("poisson=False: the uniform-sampling GDP approximation is not supported; use Poisson "
                             "sampling (poisson=True)")
        if not self.history:
            return 0.0
        noise_multiplier, sample_rate, num_steps = self.history[-1]
        mu = gdp_mu_poisson(num_steps, noise_multiplier, sample_rate)
        if mu == 0:
            return 0.0
        if mu == math.inf:
            return math.inf
        return get_epsilon_gaussian(1 / mu, delta)

    @classmethod
    def mechanism(cls):
        return "gdp"
