# SPDX-License-Identifier: Apache-2.0
"""RdpAccountant: dp_accounting's Renyi-DP accountant, answered by dpledger's certified RDP accountant
(``dpledger compose --accountant rdp``: the conversion at the optimal order, found over all real orders), with the
module-level helpers of ``dp_accounting.rdp.rdp_privacy_accountant`` (``compute_epsilon``, ``compute_delta`` and
the formulas its users call).

Every RDP value here is a certified upper bound (``dpledger rdp``), every epsilon and delta an upper bound rounded
up. Orders outside dpledger's range are answered by monotonicity of the Renyi divergence in the order: an order
<= 1 (down to the KL divergence at 1) by the bound at order 1 + 1e-6, an order above 1e7 by the bound at order
infinity; both are upper bounds of the asked value. By the same monotonicity each order's value is the least of
the bounds at the orders asked at or above it.
"""

import decimal
import math
import numbers

import numpy as np

from .. import dp_event
from ... import _api, _dpledger
from ..privacy_accountant import LedgerAccountant, NeighboringRelation

__all__ = ["RdpAccountant", "DEFAULT_RDP_ORDERS", "NeighborRel", "compute_epsilon", "compute_delta"]

NeighborRel = NeighboringRelation

# dp_accounting's default orders (used for the `rdp` property; epsilon and delta optimise over every order).
DEFAULT_RDP_ORDERS = tuple([1 + x / 10.0 for x in range(1, 100)] + list(range(11, 64)) + [128, 256, 512, 1024])

# The orders dpledger evaluates: (1, 1e7] and inf. Others are bounded by monotonicity (see the module docstring).
_SMALLEST_ORDER = 1 + 1e-6
_LARGEST_FINITE_ORDER = 1e7


def _checked_orders(orders):
    a = np.array(orders, dtype=np.float64)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"orders: a non-empty sequence of Renyi orders is required, got {orders!r}")
    if np.any(np.isnan(a)) or np.any(a <= 0):
        raise ValueError(f"orders: every Renyi order must be > 0 (orders <= 1 are bounded by order "
                         f"{_SMALLEST_ORDER}), got {orders!r}")
    return a


def _rdp_at(specs, orders):
    """Certified upper bounds on the RDP of `specs` at `orders` (any orders > 0, see the module docstring)."""
    orders = _checked_orders(orders)
    evaluated = np.where(orders <= 1, _SMALLEST_ORDER, np.where(orders > _LARGEST_FINITE_ORDER, np.inf, orders))
    unique, index = np.unique(evaluated, return_inverse=True)
    # The Renyi divergence is non-decreasing in the order, so the bound at any larger order bounds a smaller one:
    # each value is the least over the orders at or above it (unique is sorted).
    values = np.minimum.accumulate(np.asarray(_api.rdp(specs, unique).rdp, dtype=np.float64)[::-1])[::-1]
    return values[index]


def _conversion(orders, rdp, given, value):
    orders = np.asarray(orders, dtype=np.float64).reshape(-1)
    rdp = np.asarray(rdp, dtype=np.float64).reshape(-1)
    if orders.shape != rdp.shape:
        raise ValueError("orders and rdp: the input lists must have the same length")
    if np.any(orders < 1):
        raise ValueError(f"orders: every Renyi divergence order must be at least 1, found {orders.min()}")
    bound, index = _dpledger.rdp_conversion(list(orders), list(rdp), given, float(value))
    return bound, index


def compute_epsilon(orders, rdp, delta):
    """(epsilon, optimal order) from an RDP curve: the best conversion over ``orders`` (Mironov 2017 Prop. 3 and
    Balle et al. 2020 Thm 21, the smaller), an upper bound rounded up. ``delta`` 0 gives 0 if the curve is zero,
    else inf (with order 0), as dp_accounting answers."""
    if not isinstance(delta, numbers.Real) or math.isnan(delta) or delta < 0:
        raise ValueError(f"delta must be >= 0, got {delta!r}")
    if delta == 0:
        return (0, 0) if all(r == 0 for r in np.asarray(rdp).reshape(-1)) else (np.inf, 0)
    if delta >= 1:
        return 0.0, list(orders)[0]
    bound, index = _conversion(orders, rdp, "delta", delta)
    if index < 0:
        return np.inf, list(orders)[0]
    return max(0.0, bound), list(orders)[index]


def compute_delta(orders, rdp, epsilon):
    """(delta, optimal order) from an RDP curve at ``epsilon``: the best conversion over ``orders`` (both theorems
    solved for delta, the smaller), an upper bound rounded up, at most 1."""
    if not isinstance(epsilon, numbers.Real) or math.isnan(epsilon) or epsilon < 0:
        raise ValueError(f"epsilon must be >= 0, got {epsilon!r}")
    if all(r == 0 for r in np.asarray(rdp).reshape(-1)):
        return 0.0, list(orders)[0]
    if epsilon == math.inf:
        return 0.0, list(orders)[0]
    bound, index = _conversion(orders, rdp, "epsilon", epsilon)
    if index < 0:
        return 1.0, list(orders)[0]
    return min(1.0, bound), list(orders)[index]


def _compute_rdp_poisson_subsampled_gaussian(q, noise_multiplier, orders):
    """Certified upper bounds on the RDP of the Poisson-subsampled Gaussian mechanism (sampling rate ``q``, noise
    ``noise_multiplier``) at ``orders`` (Mironov, Talwar and Zhang 2019; ``dpledger rdp``); a float for one order."""
    scalar = np.ndim(orders) == 0
    orders_array = _checked_orders(orders)
    if not 0 <= q <= 1:
        raise ValueError(f"q: the sampling probability must be in [0, 1], got {q!r}")
    if noise_multiplier < 0:
        raise ValueError(f"noise_multiplier must be >= 0, got {noise_multiplier!r}")
    if q == 0:
        values = np.zeros_like(orders_array)
    elif noise_multiplier == 0:
        values = np.full_like(orders_array, np.inf)
    else:
        spec = f"gaussian:sigma={_api.number_text('noise_multiplier', noise_multiplier)}"
        if q < 1:
            spec += f",q={_api.number_text('q', q)}"
        values = _rdp_at([spec], orders_array)
    return float(values[0]) if scalar else values


def _compute_log_a(q, sigma, alpha):
    """An upper bound on log A_alpha = (alpha - 1) * RDP_alpha of the subsampled Gaussian (Mironov et al. 2019)."""
    return (alpha - 1) * _compute_rdp_poisson_subsampled_gaussian(q, sigma, alpha)


_compute_log_a_frac = _compute_log_a


def _rounded_up(value):
    """The least binary64 >= a Decimal computed to 60 digits (enlarged by 1e-50 relative, more than its error)."""
    value = value + abs(value) * decimal.Decimal("1e-50")
    f = float(value)
    return f if decimal.Decimal(f) >= value else math.nextafter(f, math.inf)


def _randomized_response_rdp_replace_special(p, k, alpha):
    """Renyi divergence of order alpha between k-ary randomized response's output on an input, P = (1 - p + p/k,
    p/k, ..., p/k), and on the special record, the uniform U, the larger of both directions (Mironov 2017, Def. 3;
    the pair of dp_accounting's REPLACE_SPECIAL relation): (alpha - 1) D = log((k(1-p) + p)^x / k + (k - 1) p^x / k)
    with x = alpha for D(P||U) and x = 1 - alpha for D(U||P); at alpha = inf, max(log(k(1-p) + p), -log p).
    Exact, evaluated to 60 digits from the binary64 inputs and rounded up."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        p_, k_ = decimal.Decimal(p), decimal.Decimal(k)
        log_1, log_2 = (k_ * (1 - p_) + p_).ln(), p_.ln()
        if math.isinf(alpha):
            return _rounded_up(max(log_1, -log_2))
        a = decimal.Decimal(alpha)
        bounds = [((x * log_1).exp() / k_ + (k_ - 1) / k_ * (x * log_2).exp()).ln() for x in (a, 1 - a)]
        return _rounded_up(max(bounds) / (a - 1))


def _compute_randomized_response_rdp(noise_parameter, num_buckets, alphas, neighboring_relation):
    """The RDP of k-ary randomized response (``RandomizedResponseDpEvent(noise_parameter, num_buckets)``) at each
    of ``alphas`` (each > 1) under ``neighboring_relation``, exact and rounded up: under REPLACE_ONE the divergence
    between the outputs on two inputs (dpledger rdp -m rr:p=P,k=K, the curve the accountant composes; docs/
    mechanisms.md), under REPLACE_SPECIAL between an input's output and the uniform one (dp_accounting's pair,
    _randomized_response_rdp_replace_special). noise_parameter 1 or one bucket cost 0, noise_parameter 0 inf."""
    if not 0 <= noise_parameter <= 1:
        raise ValueError(f"noise_parameter must be in [0, 1]. Got {noise_parameter}")
    if num_buckets < 1:
        raise ValueError(f"num_buckets must be >= 1. Got {num_buckets}")
    orders = np.array(alphas, dtype=np.float64).reshape(-1)
    for alpha in orders:
        if not alpha > 1:
            raise ValueError(f"Renyi divergence order alpha must be > 1. Got {alpha}")
    if num_buckets == 1 or noise_parameter == 1:
        return np.zeros_like(orders)
    if noise_parameter == 0:
        return np.full_like(orders, np.inf)
    if neighboring_relation == NeighboringRelation.REPLACE_ONE:
        spec = (f"rr:p={_api.number_text('noise_parameter', noise_parameter)},"
                f"k={_api.number_text('num_buckets', num_buckets)}")
        return _rdp_at([spec], orders)
    return np.array([_randomized_response_rdp_replace_special(float(noise_parameter), int(num_buckets), float(a))
                     for a in orders])


def _effective_gaussian_noise_multiplier(event, accept_zcdp=False):
    """The noise multiplier of the single Gaussian mechanism a nest of Composed/SelfComposed Gaussian events equals
    (sum of sigma^-2, then ^-1/2; Dong, Roth and Su 2019); zCDP events (xi = 0) and discrete Gaussians count as
    Gaussians when ``accept_zcdp``. Returns the first other subevent met instead of a float."""
    if isinstance(event, dp_event.GaussianDpEvent):
        return event.noise_multiplier
    if accept_zcdp and isinstance(event, dp_event.ZCDpEvent) and event.xi == 0:
        return 1 / np.sqrt(2 * event.rho)  # rho = 1 / (2 sigma^2)
    if accept_zcdp and isinstance(event, dp_event.DiscreteGaussianDpEvent):
        return event.sigma / event.sensitivity
    if isinstance(event, dp_event.SelfComposedDpEvent):
        sigma = _effective_gaussian_noise_multiplier(event.event, accept_zcdp)
        return sigma / math.sqrt(event.count) if isinstance(sigma, float) else sigma
    if isinstance(event, dp_event.ComposedDpEvent):
        total = 0.0
        for e in event.events:
            sigma = _effective_gaussian_noise_multiplier(e, accept_zcdp)
            if not isinstance(sigma, float):
                return sigma
            total += sigma ** -2
        return total ** -0.5
    return event


def _truncated_negative_binomial_mean(gamma, shape):
    """Mean of the truncated negative binomial distribution (Papernot and Steinke 2022, Def. 1): shape 0 the
    logarithmic distribution, (1 - gamma) / (gamma log(1/gamma)); shape 1 the geometric, 1/gamma; otherwise
    shape (1 - gamma) / (gamma (1 - gamma^shape)). Evaluated with expm1/log1p so nearby parameters agree."""
    if shape < 0:
        raise ValueError(f"shape must be >= 0, got {shape!r}")
    if not 0 < gamma <= 1:
        raise ValueError(f"gamma must be in (0, 1], got {gamma!r}")
    if gamma == 1:
        return 1.0
    log_gamma = math.log(gamma)
    # (1 - gamma) / gamma = -expm1(log_gamma) / gamma; the shape-dependent factor is shape / (1 - gamma^shape),
    # whose limit at shape 0 is 1 / log(1/gamma).
    ratio = -math.expm1(log_gamma) / gamma
    if shape == 0:
        return ratio / -log_gamma
    x = shape * log_gamma
    return ratio * shape / -math.expm1(x)


def _gamma_truncated_negative_binomial(shape, mean, tolerance=1e-9):
    """The gamma whose truncated negative binomial distribution of this shape has this mean (the mean decreases
    in gamma): bisection to a relative accuracy ``tolerance``, returning the lower end."""
    if shape < 0:
        raise ValueError(f"shape must be >= 0, got {shape!r}")
    if mean < 1:
        raise ValueError(f"mean must be >= 1, got {mean!r}")
    if shape == 1:
        return 1 / mean
    lo, hi = 0.0, min(1.0, 2 * (shape + 1) / mean)
    while hi > lo * (1 + tolerance):
        mid = (lo + hi) / 2
        if _truncated_negative_binomial_mean(mid, shape) < mean:
            hi = mid
        else:
            lo = mid
    return lo


class RdpAccountant(LedgerAccountant):
    """Privacy accountant that uses Renyi differential privacy. ``get_epsilon``/``get_delta`` convert at the
    best order over all real orders > 1 (never worse than the best of ``orders``); ``orders`` and ``rdp`` give
    the composed curve's certified upper bounds at ``orders``."""

    accountant = "rdp"
    # No Renyi analysis of Poisson sampling under REPLACE_ONE (the PLD accountant has one).
    _RELATIONS = dict(LedgerAccountant._RELATIONS, PoissonSampledDpEvent=("ADD_OR_REMOVE_ONE", "REPLACE_SPECIAL"))

    def __init__(self, orders=None, neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE):
        super().__init__(neighboring_relation)
        self._orders = _checked_orders(DEFAULT_RDP_ORDERS if orders is None else orders)

    @property
    def orders(self):
        return np.copy(self._orders)

    @property
    def rdp(self):
        """Certified upper bounds on the composed RDP at each of ``orders`` (``dpledger rdp --orders``)."""
        if self._non_private:
            return np.full_like(self._orders, np.inf)
        if not self._specs:
            return np.zeros_like(self._orders)
        return _rdp_at(self._specs, self._orders)

    # dp_accounting's attribute name for the same curve.
    _rdp = rdp

    def get_epsilon_and_optimal_order(self, target_delta):
        if not self._specs or self._non_private:
            return self.get_epsilon(target_delta), None
        r = self.result(delta=target_delta)
        return r.epsilon, r.order

    def get_delta_and_optimal_order(self, target_epsilon):
        if not self._specs or self._non_private:
            return self.get_delta(target_epsilon), None
        r = self.result(epsilon=target_epsilon)
        return r.delta, r.order
