# SPDX-License-Identifier: Apache-2.0
"""The noise searches and composition theorems of dp_accounting.pld.accountant, certified.

``get_smallest_*_noise`` return the noise for which ``num_queries`` uses meet ``privacy_parameters`` by dpledger's
certified accountants (``dpledger calibrate``): never less noise than the exact optimum. ``advanced_composition``
evaluates the optimal composition theorem of Kairouz, Oh and Viswanath (2015, Thm 3.3) with the delta sums
enlarged by a relative 1e-9 (far above the rounding error of their float evaluation), so an epsilon it returns
meets ``total_delta``.
"""

import math

from ... import _api
from .common import DifferentialPrivacyParameters

__all__ = ["get_smallest_laplace_noise", "get_smallest_discrete_laplace_noise", "get_smallest_gaussian_noise",
           "get_smallest_subsampled_gaussian_noise", "advanced_composition",
           "get_smallest_epsilon_from_advanced_composition"]

# Relative enlargement of a float-evaluated delta (see the module docstring).
_DELTA_MARGIN = 1e-9


def _check(privacy_parameters, num_queries, sensitivity):
    if not isinstance(privacy_parameters, DifferentialPrivacyParameters) and not (
            hasattr(privacy_parameters, "epsilon") and hasattr(privacy_parameters, "delta")):
        raise ValueError(f"privacy_parameters must have epsilon and delta, got {privacy_parameters!r}")
    if isinstance(num_queries, bool) or int(num_queries) != num_queries or num_queries < 1:
        raise ValueError(f"num_queries must be an integer >= 1, got {num_queries!r}")
    if not sensitivity > 0:
        raise ValueError(f"sensitivity must be > 0, got {sensitivity!r}")
    return int(num_queries)


def _calibrated(spec, privacy_parameters):
    return float(_api.calibrate([spec], epsilon=privacy_parameters.epsilon, delta=privacy_parameters.delta).value)


def get_smallest_laplace_noise(privacy_parameters, num_queries=1, sensitivity=1):
    """The smallest Laplace scale (for L1 ``sensitivity``) whose ``num_queries``-fold composition meets
    ``privacy_parameters`` by a certified bound."""
    k = _check(privacy_parameters, num_queries, sensitivity)
    return sensitivity * _calibrated(f"laplace:b=?,steps={k}", privacy_parameters)


def get_smallest_discrete_laplace_noise(privacy_parameters, num_queries=1, sensitivity=1):
    """The largest discrete Laplace parameter a (pmf proportional to e^{-a|x|}; larger a is less noise) for integer
    ``sensitivity`` whose ``num_queries``-fold composition meets ``privacy_parameters`` by a certified bound."""
    k = _check(privacy_parameters, num_queries, sensitivity)
    if int(sensitivity) != sensitivity:
        raise ValueError(f"sensitivity must be an integer for the discrete Laplace mechanism, got {sensitivity!r}")
    return _calibrated(f"discrete_laplace:a=?,sens={int(sensitivity)},steps={k}", privacy_parameters)


def get_smallest_gaussian_noise(privacy_parameters, num_queries=1, sensitivity=1):
    """The smallest Gaussian standard deviation (for L2 ``sensitivity``) whose ``num_queries``-fold composition
    meets ``privacy_parameters`` by a certified bound."""
    k = _check(privacy_parameters, num_queries, sensitivity)
    return sensitivity * _calibrated(f"gaussian:sigma=?,steps={k}", privacy_parameters)


def get_smallest_subsampled_gaussian_noise(privacy_parameters, num_queries=1, sensitivity=1, sampling_prob=1.0):
    """The smallest Gaussian standard deviation (for L2 ``sensitivity``) whose ``num_queries``-fold composition on
    Poisson samples of rate ``sampling_prob`` meets ``privacy_parameters`` by a certified bound."""
    k = _check(privacy_parameters, num_queries, sensitivity)
    if not 0 < sampling_prob <= 1:
        raise ValueError(f"sampling_prob must be in (0, 1], got {sampling_prob!r}")
    q = "" if sampling_prob == 1 else f",q={_api.number_text('sampling_prob', sampling_prob)}"
    return sensitivity * _calibrated(f"gaussian:sigma=?{q},steps={k}", privacy_parameters)


def _kov_delta(epsilon, k, i):
    """delta_i of Kairouz, Oh and Viswanath 2015, Thm 3.3: sum_{l<i} C(k,l) (e^{eps(k-l)} - e^{eps(k-2i+l)}) /
    (1 + e^eps)^k, evaluated in log space and enlarged by _DELTA_MARGIN (upper bound)."""
    if i == 0:
        return 0.0
    log_norm = k * (epsilon + math.log1p(math.exp(-epsilon))) if epsilon > 0 else k * math.log(2)
    total = 0.0
    for l in range(i):
        log_binom = math.lgamma(k + 1) - math.lgamma(l + 1) - math.lgamma(k - l + 1)
        a = epsilon * (k - l)
        b = epsilon * (k - 2 * i + l)
        # e^a - e^b = e^a (1 - e^{b-a}), b <= a
        total += math.exp(log_binom + a - log_norm) * -math.expm1(b - a)
    return total * (1 + _DELTA_MARGIN)


def advanced_composition(privacy_parameters, num_queries, total_delta):
    """The smallest total epsilon of the form epsilon (k - 2i) for which ``num_queries`` = k uses of an
    (epsilon, delta)-DP algorithm are (total epsilon, ``total_delta``)-DP by the optimal composition theorem
    (Kairouz, Oh and Viswanath 2015, Thm 3.3); None when total_delta < 1 - (1 - delta)^k."""
    k = _check(privacy_parameters, num_queries, 1)
    epsilon, delta = privacy_parameters.epsilon, privacy_parameters.delta
    for i in range(k // 2, -1, -1):
        delta_i = _kov_delta(epsilon, k, i)
        if 1 - ((1 - delta) ** k) * (1 - delta_i) <= total_delta:
            return epsilon * (k - 2 * i)
    return None


def get_smallest_epsilon_from_advanced_composition(total_privacy_parameters, num_queries, delta=0):
    """The largest per-use epsilon (to 1e-9 relative, rounded down) such that ``num_queries`` uses of an
    (epsilon, ``delta``)-DP algorithm are ``total_privacy_parameters``-DP by :func:`advanced_composition`; None
    when total delta < 1 - (1 - delta)^num_queries."""
    k = _check(total_privacy_parameters, num_queries, 1)
    total_epsilon, total_delta = total_privacy_parameters.epsilon, total_privacy_parameters.delta
    if 1 - ((1 - delta) ** k) > total_delta:
        return None

    def meets(eps):
        value = advanced_composition(DifferentialPrivacyParameters(eps, delta), k, total_delta)
        return value is not None and value <= total_epsilon

    lo, hi = total_epsilon / k, total_epsilon  # k uses of eps/k always meet it (basic composition)
    if meets(hi):
        return hi
    while hi - lo > 1e-9 * hi:
        mid = (lo + hi) / 2
        if meets(mid):
            lo = mid
        else:
            hi = mid
    return lo
