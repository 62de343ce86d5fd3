# SPDX-License-Identifier: Apache-2.0
"""PLDAccountant: dp_accounting's privacy-loss-distribution accountant, answered by dpledger's certified PLD
accountant (``dpledger compose --accountant pld``), with dp_accounting's f-DP read-outs (true-positive-rate bounds
and the mu-GDP estimate)."""

import math
import numbers
import statistics

from ... import _dpledger
from ..._api import call_in_python_terms
from ..privacy_accountant import LedgerAccountant, NeighboringRelation

NeighborRel = NeighboringRelation

__all__ = ["PLDAccountant", "NeighborRel"]

# The privacy profile behind the true-positive-rate bounds is read at this many epsilons, evenly from 0 to the
# epsilon at the smallest delta asked (1e-13 by default, as dp_accounting's deltas); up to _PROFILE_TOP when that
# epsilon is infinite (an infinite privacy loss with probability above that delta).
_PROFILE_POINTS = 1001
_PROFILE_TOP = 50.0


class PLDAccountant(LedgerAccountant):
    """Privacy accountant that uses privacy loss distributions (certified: dpledger chooses its own loss grid and
    bounds every discretisation and round-off error, so ``value_discretization_interval`` is accepted for
    compatibility and not used)."""

    accountant = "pld"

    def __init__(self, neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE,
                 value_discretization_interval=1e-4):
        super().__init__(neighboring_relation)
        self._value_discretization_interval = value_discretization_interval

    @property
    def _contains_non_dp_event(self):
        """dp_accounting's name: whether a composed event has no privacy guarantee (epsilon inf, delta 1)."""
        return self._non_private

    def _privacy_profile(self, smallest_delta):
        """(epsilons, deltas): certified pairs (eps, delta(eps)) of the composed ledger, delta an upper bound, at
        _PROFILE_POINTS epsilons from 0 to the epsilon at `smallest_delta`, and the pure pair (eps at delta 0)
        when it is finite. Every pair is an (eps, delta)-DP guarantee of the ledger."""
        key = ("profile", smallest_delta)
        if key not in self._results:
            top = self.get_epsilon(smallest_delta)
            if not math.isfinite(top) or top > _PROFILE_TOP:
                top = _PROFILE_TOP
            epsilons = [top * i / (_PROFILE_POINTS - 1) for i in range(_PROFILE_POINTS)]
            deltas = list(call_in_python_terms(_dpledger.pld_deltas, self._specs, epsilons))
            pure = self._pure_epsilon()
            if math.isfinite(pure):
                epsilons.append(pure)
                deltas.append(0.0)
            self._results[key] = (epsilons, deltas)
        return self._results[key]

    def get_true_positive_rates(self, false_positive_rates, deltas=None):
        """Upper bounds on the true positive rate of any test of the composed mechanism's two neighbouring output
        distributions at each false positive rate alpha (Kairouz, Oh and Viswanath 2015, Thm 2.1: an (eps,
        delta)-DP mechanism has TPR <= min(e^eps alpha + delta, 1 - e^-eps (1 - alpha - delta))), the least over
        the certified (eps, delta(eps)) pairs of the privacy profile: certified upper bounds, on a grid of 1001
        epsilons (dp_accounting reads its own profile at 3001 deltas instead). ``deltas``, if given, sets the
        smallest delta (the top of the epsilon grid); default 1e-13. A float for a float, else an array."""
        import numpy as np
        scalar = isinstance(false_positive_rates, numbers.Number)
        alphas = np.array([false_positive_rates] if scalar else false_positive_rates, dtype=np.float64)
        if self._non_private:
            tpr = np.ones_like(alphas)
        elif not self._specs:
            tpr = np.minimum(alphas, 1.0)
        else:
            positive = [d for d in (np.asarray(deltas).reshape(-1) if deltas is not None else []) if d > 0]
            epsilons, profile = self._privacy_profile(min(positive) if positive else 1e-13)
            tpr = np.ones_like(alphas)
            for eps, delta in zip(epsilons, profile):
                tpr = np.minimum(tpr, np.exp(eps) * alphas + delta)
                tpr = np.minimum(tpr, 1.0 + (alphas + delta - 1.0) * np.exp(-eps))
        return float(tpr[0]) if scalar else tpr

    def get_gdp_parameter_estimate(self, false_positive_rates=None, deltas=None):
        """dp_accounting's estimate of the mu-GDP parameter: the largest Phi^-1(TPR) - Phi^-1(FPR) over
        ``false_positive_rates`` (default 500 from 1e-12 to 0.5, geometrically; those above 0.5 are dropped), the
        TPRs the certified upper bounds of get_true_positive_rates. Like dp_accounting's, an estimate: the finite
        grid of FPRs can miss where the curve is tightest. Infinite when the privacy loss is infinite with
        probability above the smallest FPR (bounded by ``get_delta(inf)``)."""
        import numpy as np
        if self._non_private:
            return math.inf
        if false_positive_rates is None:
            fprs = np.logspace(np.log10(1e-12), np.log10(0.5), num=500)
        else:
            fprs = np.asarray(false_positive_rates, dtype=np.float64)
            fprs = fprs[fprs <= 0.5]
        if not self._specs:
            return 0.0
        if self.get_delta(math.inf) > fprs.min():
            return math.inf
        tprs = self.get_true_positive_rates(fprs, deltas)
        normal = statistics.NormalDist()
        gaps = [math.inf if t >= 1 else normal.inv_cdf(t) - normal.inv_cdf(a) for t, a in zip(tprs, fprs) if a > 0]
        return max(gaps)
