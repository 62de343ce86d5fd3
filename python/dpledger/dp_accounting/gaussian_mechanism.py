# SPDX-License-Identifier: Apache-2.0
"""The Gaussian mechanism's epsilon and noise (dp_accounting.gaussian_mechanism), certified: ``get_epsilon_gaussian``
is an upper bound on the exact (analytic) epsilon of one Gaussian mechanism (Balle and Wang 2018, Thm 8; ``dpledger
compose -m gaussian:sigma=S``), rounded up; ``get_sigma_gaussian`` a noise standard deviation (L2 sensitivity 1)
whose certified epsilon is at most the target (``dpledger calibrate``), so it is never below the exact optimum.
``tol`` is accepted for dp_accounting's signature: the answers are as tight as dpledger's accountants make them.
"""

import math
import numbers

from .. import _api

__all__ = ["get_epsilon_gaussian", "get_sigma_gaussian"]


def _real(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(value):
        raise ValueError(f"{name} must be a number, got {value!r}")
    return float(value)


def _check_delta(delta):
    delta = _real("delta", delta)
    if not 0 <= delta <= 1:
        raise ValueError(f"delta must be in [0, 1], got delta={delta}.")
    return delta


def get_epsilon_gaussian(sigma, delta, tol=1.0e-12):
    """An upper bound on the epsilon of the Gaussian mechanism with noise ``sigma`` (sensitivity 1) at ``delta``
    (0 when delta is 1 or sigma is inf; inf when sigma or delta is 0)."""
    sigma = _real("sigma", sigma)
    if sigma < 0:
        raise ValueError(f"sigma must be non-negative, got sigma={sigma}.")
    delta = _check_delta(delta)
    del tol
    if delta == 1 or sigma == math.inf:
        return 0.0
    if sigma == 0 or delta == 0:
        return math.inf
    spec = [f"gaussian:sigma={_api.number_text('sigma', sigma)}"]
    try:  # one Gaussian: the optimal accountant is its exact (analytic) epsilon, the others are not needed
        return _api.compose(spec, delta=delta, accountant="optimal").epsilon
    except _api.NotApplicableError:
        return _api.compose(spec, delta=delta).epsilon


def get_sigma_gaussian(epsilon, delta, tol=1.0e-12):
    """A noise standard deviation for the Gaussian mechanism (sensitivity 1) that is (``epsilon``, ``delta``)-DP
    by a certified bound, within dpledger's calibration tolerance of the smallest (0 when delta is 1 or epsilon
    inf; inf when delta is 0)."""
    epsilon = _real("epsilon", epsilon)
    if epsilon < 0:
        raise ValueError(f"epsilon must be non-negative, got epsilon={epsilon}.")
    delta = _check_delta(delta)
    del tol
    if delta == 1 or epsilon == math.inf:
        return 0.0
    if delta == 0:
        return math.inf
    try:  # one Gaussian: the optimal accountant is its exact (analytic) epsilon, the others are not needed
        return float(_api.calibrate(["gaussian:sigma=?"], epsilon=epsilon, delta=delta, accountant="optimal").value)
    except _api.NotApplicableError:
        return float(_api.calibrate(["gaussian:sigma=?"], epsilon=epsilon, delta=delta).value)
