# SPDX-License-Identifier: Apache-2.0
"""Opacus's PRV value: the numerical composition of privacy-loss random variables of Gopi, Lee and Wutschitz
(2021), computed as Opacus computes it (binary64, NumPy and SciPy), with its error margins.

Opacus's ``PRVAccountant.get_epsilon(delta, eps_error, delta_error)`` returns ``eps_upper``: the epsilon of the
discretised, truncated and FFT-composed loss distribution at ``delta - delta_error``, plus ``eps_error`` (Gopi et
al. 2021, Thm 5.5: an upper bound on the true epsilon when the mesh and the domain are as chosen here, up to
floating-point error). This module reproduces that number, so that code tuned on Opacus's values finds them; the
drop-in's ``PRVAccountant`` reports it only where it is at least dpledger's certified bound (``prv.py``).

The steps follow Opacus's ``opacus/accountants/prv.py`` and ``analysis/prv`` (Apache-2.0), with one change that
does not move the result: the domain's half-width L comes from dpledger's certified RDP bounds at Opacus's
orders, which are at least Opacus's float ones, so the truncation keeps at least the mass Opacus keeps (the grid
points are multiples of the mesh whatever L is).
"""

import math

import numpy as np

__all__ = ["OPACUS_ALPHAS", "prv_epsilon_upper"]

# Opacus's RDPAccountant.DEFAULT_ALPHAS: the orders of its domain-size computation.
OPACUS_ALPHAS = [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))

_SQRT2 = math.sqrt(2)

# The largest mesh Opacus's algorithm is run on here (2^23 points, 64 MB a copy; about 10^6 steps at the default
# errors): beyond it the composition would take many seconds and gigabytes, and prv_epsilon_upper refuses
# (ValueError), so that the caller answers with its certified bound instead.
MAX_POINTS = 2 ** 23


def _prv_cdf(t, q, sigma):
    """CDF of the privacy loss of the Poisson-subsampled Gaussian (Gopi et al. 2021, Prop. B4)."""
    from scipy.special import erfc
    t = np.asarray(t, dtype=np.float64)
    with np.errstate(divide="ignore"):  # q = 1: the loss is supported on the whole line (log 0 = -inf)
        inside = t > np.log(1 - q)
    z = np.log(np.where(inside, (np.exp(t) + q - 1) / q, 1))
    value = (-q * erfc((2 * z * sigma ** 2 - 1) / (2 * _SQRT2 * sigma)) / 2
             - (1 - q) * erfc((2 * z * sigma ** 2 + 1) / (2 * _SQRT2 * sigma)) / 2 + 1.0)
    return np.where(inside, value, 0.0)


class _Truncated:
    """The loss variable conditioned on [t_min, t_max) (Opacus's TruncatedPrivacyRandomVariable)."""

    def __init__(self, q, sigma, t_min, t_max):
        self.q, self.sigma, self.t_min, self.t_max = q, sigma, t_min, t_max
        self._cdf_min = _prv_cdf(t_min, q, sigma)
        self._mass = _prv_cdf(t_max, q, sigma) - self._cdf_min

    def cdf(self, t):
        t = np.asarray(t, dtype=np.float64)
        inner = (_prv_cdf(t, self.q, self.sigma) - self._cdf_min) / self._mass
        return np.where(t < self.t_min, 0.0, np.where(t < self.t_max, inner, 1.0))

    def mean(self):
        """E[T] = sum over pieces of r F(r) - l F(l) - int_l^r F (integration by parts), on Opacus's pieces."""
        from scipy import integrate
        lower_exponent = int(np.log10(np.abs(self.t_min)))
        upper_exponent = int(np.log10(self.t_max))
        points = np.concatenate([[self.t_min], -np.logspace(start=lower_exponent, stop=-5, num=10), [0],
                                 np.logspace(start=-5, stop=upper_exponent, num=10), [self.t_max]])
        mean = 0.0
        for left, right in zip(points[:-1], points[1:]):
            integral, _ = integrate.quad(self.cdf, left, right, limit=500)
            mean += right * self.cdf(right) - left * self.cdf(left) - integral
        return mean


def _aligned_domain(t_min, t_max, dt):
    """Opacus's Domain.create_aligned: ends on multiples of dt, an even number of points."""
    t_min = np.floor(t_min / dt) * dt
    t_max = np.ceil(t_max / dt) * dt
    size = int(np.round((t_max - t_min) / dt)) + 1
    if size % 2 == 1:
        size += 1
        t_max += dt
    if abs((t_max - t_min) / (size - 1) - dt) / dt >= 1e-8:
        raise RuntimeError("the PRV domain is not aligned on its mesh")
    return t_min, t_max, size


def _discretised(q, sigma, t_min, t_max, size):
    """(pmf, shift): the truncated loss's mass on each mesh cell, and the shift that gives it the continuous
    mean (Gopi et al. 2021, Alg. 1)."""
    ts = np.linspace(t_min, t_max, size)
    dt = (t_max - t_min) / (size - 1)
    prv = _Truncated(q, sigma, t_min, t_max)
    pmf = prv.cdf(ts + dt / 2) - prv.cdf(ts - dt / 2)
    shift = prv.mean() - np.dot(ts, pmf)
    if abs(shift) >= dt / 2:
        raise RuntimeError("the discrete mean differs from the continuous mean by half a mesh cell or more")
    return pmf, shift


def _self_composed(pmf, count):
    """The pmf of `count` self-compositions on the same N points as Opacus places it (its _compose_fourier: the
    circular convolution power of length N, rolled by count - 1, plus N/2 for an even count). Point j holds the
    composed mass at linear index j + (count - 1) K, K = N/2 - 1 (the domain is [-K dt, (K + 1) dt]), which is what
    Opacus's roll selects. The power is taken circularly over a length M >= N with small prime factors, so the FFT
    is fast for every N; the two differ only in which far-tail masses (beyond the domain, which L makes negligible)
    alias onto the window."""
    from scipy.fft import irfft, next_fast_len, rfft
    n = len(pmf)
    m = next_fast_len(n, real=True)
    composed = irfft(rfft(pmf, m) ** count, m)
    shift = (count - 1) * (n // 2 - 1)
    return composed[(np.arange(n) + shift) % m]


def prv_epsilon_upper(history, delta, eps_error, delta_error, domain_half_width):
    """Opacus's ``eps_upper`` for a history of (noise_multiplier, sample_rate, num_steps) items at ``delta``;
    ``domain_half_width`` is L (Gopi et al. 2021, Remark 5.6, as Opacus's compute_safe_domain_size sets it)."""
    from scipy.signal import convolve
    total = sum(int(steps) for _, _, steps in history)
    mesh = eps_error / np.sqrt(total * np.log(12 / delta_error) / 2)
    if not 2 * domain_half_width / mesh + 2 <= MAX_POINTS:
        raise ValueError(f"the PRV mesh would have more than {MAX_POINTS} points")
    t_min, t_max, size = _aligned_domain(-domain_half_width, domain_half_width, mesh)
    parts = []
    for sigma, q, steps in history:
        pmf, shift = _discretised(float(q), float(sigma), t_min, t_max, size)
        parts.append((_self_composed(pmf, int(steps)), shift * int(steps)))
    # The remaining compositions pairwise (Opacus's convolution tree: same length, centred).
    while len(parts) > 1:
        merged = [parts.pop()] if len(parts) % 2 == 1 else []
        for (left, s_left), (right, s_right) in zip(parts[:-1:2], parts[1::2]):
            merged.append((convolve(left, right, mode="same"), s_left + s_right))
        parts = merged
    pmf, shift = parts[0]
    # Opacus shifts the domain by each part's own shifts; the composed domain is the mesh moved by their sum.
    ts = np.linspace(t_min + shift, t_max + shift, size)
    if np.finfo(np.longdouble).eps * size > delta - delta_error:
        raise ValueError("delta is too small for the PRV accountant's floating-point composition")
    d1 = np.flip(np.flip(pmf).cumsum())
    d2 = np.flip(np.flip(pmf * np.exp(-ts)).cumsum())
    ndelta = np.exp(ts) * d2 - d1
    target = delta - delta_error
    i = np.searchsorted(ndelta, -target, side="left")
    if i <= 0:
        raise RuntimeError("the PRV accountant cannot compute epsilon")
    return float(np.log((d1[i] - target) / d2[i]) + eps_error)
