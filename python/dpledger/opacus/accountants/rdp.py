# SPDX-License-Identifier: Apache-2.0
"""RDPAccountant: Opacus's Renyi-DP accountant as a certified RDP odometer.

Each distinct (noise_multiplier, sample_rate) is bounded once at every order of the grid (certified upper
bounds on the per-step RDP of the Poisson-subsampled Gaussian); a step adds to the running sums, and
``get_epsilon`` converts at the best order of the grid (Mironov 2017 Prop. 3 or Balle et al. 2020 Thm 21, the
smaller). So a training loop can ask for its epsilon after every step: a step and an epsilon cost microseconds.
The default grid is dp_accounting's (Opacus's orders and more), so the bound is never looser than Opacus's own
RDP value on the same orders, and it is certified. ``dpledger.compose(..., accountant="rdp")`` optimises the
order over all reals, usually a little tighter again.
"""

import math

from ... import _dpledger
from ..._api import call_in_python_terms, number_text
from ..._events import history_specs
from .accountant import IAccountant

__all__ = ["RDPAccountant"]


class _Odometer:
    """The C++ odometer kept in step with a history list (appends and growing last entries are incremental)."""

    def __init__(self, orders):
        self.orders = tuple(float(a) for a in orders)
        self._meter = _dpledger.RdpOdometer(list(self.orders))
        self._seen = []  # the history items the meter holds

    def sync(self, history):
        """Brings the meter to `history` (a list of (noise_multiplier, sample_rate, num_steps) items): items
        appended, or a last item grown, are added; any other change rebuilds (per-step bounds stay cached)."""
        seen = self._seen
        history = [h if type(h) is tuple else tuple(h) for h in history]
        if history == seen:
            return
        k = 0
        while k < len(seen) and k < len(history) and seen[k] == history[k]:
            k += 1
        if k == len(seen) - 1 and k < len(history) and history[k][:2] == seen[k][:2] and history[k][2] >= seen[k][2]:
            self._meter.extend(int(history[k][2]) - int(seen[k][2]))  # the last item grew
            k += 1
        elif k < len(seen):
            self._meter.clear()
            k = 0
        for nm, q, steps in history[k:]:
            self._meter.add(history_specs([(nm, q, 1)])[0], int(steps))
        self._seen = history

    def epsilon(self, delta):
        return call_in_python_terms(self._meter.epsilon, delta)


class RDPAccountant(IAccountant):
    # dp_accounting's default orders: Opacus's DEFAULT_ALPHAS (1.1 .. 10.9, 12 .. 63) with 11, 128, 256, 512, 1024.
    DEFAULT_ALPHAS = [1 + x / 10.0 for x in range(1, 100)] + list(range(11, 64)) + [128, 256, 512, 1024]

    def __init__(self):
        super().__init__()
        self._odometers = {}

    def _odometer(self, alphas):
        key = None if alphas is None else tuple(float(a) for a in alphas)
        meter = self._odometers.get(key)
        if meter is None:
            if len(self._odometers) >= 8:
                self._odometers.clear()
            meter = self._odometers[key] = _Odometer(self.DEFAULT_ALPHAS if key is None else key)
        meter.sync(self.history)
        return meter

    def get_privacy_spent(self, *, delta, alphas=None):
        """(epsilon, best_alpha): the certified epsilon at ``delta`` and the order it was converted at."""
        if not self.history:
            return 0.0, 0.0
        if self._noiseless():
            return math.inf, math.nan
        eps, order = self._odometer(alphas).epsilon(number_text("delta", delta))
        return float(eps), float(order) if not math.isnan(order) else math.nan

    def get_epsilon(self, delta, alphas=None, **kwargs):
        """The privacy budget (epsilon) spent so far at ``delta``: a certified upper bound, the best over
        ``alphas`` (default ``DEFAULT_ALPHAS``)."""
        eps, _ = self.get_privacy_spent(delta=delta, alphas=alphas)
        return eps

    @classmethod
    def mechanism(cls):
        return "rdp"
