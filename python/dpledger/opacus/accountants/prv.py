# SPDX-License-Identifier: Apache-2.0
"""PRVAccountant: Opacus's privacy-random-variable accountant, with its value made a certified bound.

``get_epsilon(delta, eps_error=0.01, delta_error=delta/1000)`` computes Opacus's own PRV value (its ``eps_upper``:
the numerical composition of Gopi, Lee and Wutschitz 2021 at ``delta - delta_error`` plus ``eps_error``, as
``prv_estimate`` reproduces it) and dpledger's certified privacy-loss-distribution bound on the same history
(``dpledger compose --ledger history.json --accountant pld``): Opacus's number where the PLD accountant certifies
that delta(that number) <= delta (on a coarse loss grid, in milliseconds), else the larger of Opacus's number and
the certified epsilon bound. Either way the value returned is a certified upper bound. ``result`` gives the
certified bound alone (usually tighter by about ``eps_error``).
"""

from ... import _api, _dpledger
from .accountant import IAccountant
from .prv_estimate import OPACUS_ALPHAS, prv_epsilon_upper
from .rdp import RDPAccountant

__all__ = ["PRVAccountant"]

# The loss grid of the check that Opacus's value is a bound. Opacus's value exceeds the tight epsilon by about
# eps_error, much more than this grid's discretisation error, so the check rarely fails; when it does, the
# certified bound on the default grid is computed.
_PROOF_GRID = 1e-3


def _domain_half_width(history, eps_error, delta_error):
    """L of Gopi et al. 2021, Remark 5.6, as Opacus's compute_safe_domain_size sets it: 3 above the largest of the
    RDP epsilon of the history at delta_error / 4 and of each single step at delta_error / (8 T), and of
    eps_error; the epsilons are dpledger's certified RDP bounds at Opacus's orders (at least Opacus's values)."""
    total = sum(int(steps) for _, _, steps in history)
    meter = RDPAccountant()
    meter.history = list(history)
    half_width = meter.get_epsilon(delta_error / 4, alphas=OPACUS_ALPHAS)
    for nm, q, _ in history:
        meter.history = [(nm, q, 1)]
        half_width = max(half_width, meter.get_epsilon(delta_error / (8 * total), alphas=OPACUS_ALPHAS))
    return max(half_width, eps_error) + 3


class PRVAccountant(IAccountant):
    def __init__(self):
        super().__init__()
        self._results = {}

    def result(self, delta):
        """dpledger's certified answer (a :class:`dpledger.ComposeResult`: the bound, a certified lower bound, the
        method) for the history at ``delta``."""
        key = (tuple(tuple(item) for item in self.history), _api.number_text("delta", delta))
        if key not in self._results:
            if len(self._results) >= 16:
                self._results.clear()
            self._results[key] = _api.compose(self.ledger_specs(), delta=key[1], accountant="pld")
        return self._results[key]

    def get_epsilon(self, delta, *, eps_error=0.01, delta_error=None, **kwargs):
        """The epsilon spent at ``delta``: Opacus's PRV value (``eps_upper`` for ``eps_error`` and ``delta_error``)
        where dpledger's PLD accountant proves it a bound, else the larger of it and dpledger's certified bound; a
        certified upper bound either way."""
        if not self.history:
            return 0.0
        if self._noiseless():
            return float("inf")
        if not (isinstance(delta, (int, float)) or hasattr(delta, "__float__")) or not 0 < float(delta) < 1:
            return self.result(delta).epsilon  # the certified accountant's answer (or its error, in Python terms)
        delta = float(delta)
        if delta_error is None:
            delta_error = delta / 1000
        if not 0 < eps_error < 1 or not 0 < delta_error < delta:
            # Outside Opacus's analysis (its domain size assumes eps_error < 1): the certified bound alone.
            return self.result(delta).epsilon
        items = [(nm, q, steps) for nm, q, steps in self.history if q > 0 and steps > 0]
        if not items:
            return self.result(delta).epsilon
        try:
            estimate = prv_epsilon_upper(items, delta, eps_error, delta_error,
                                         _domain_half_width(items, eps_error, delta_error))
        except (RuntimeError, ValueError, ImportError):
            # Opacus raises here (its mesh or its floating point cannot resolve delta), or the mesh would exceed
            # prv_estimate.MAX_POINTS (about 10^6 steps), or SciPy (which Opacus requires) is not installed: the
            # certified bound stands.
            return self.result(delta).epsilon
        if self._proves(estimate, delta):
            return estimate
        return max(estimate, self.result(delta).epsilon)

    def _proves(self, epsilon, delta):
        """Whether dpledger's PLD accountant certifies (epsilon, delta) for the history: its upper bound on
        delta(epsilon), on a coarse loss grid (1e-3: a few milliseconds), is at most delta."""
        try:
            return _dpledger.pld_deltas(self.ledger_specs(), [epsilon], _PROOF_GRID)[0] <= delta
        except ValueError:
            return False

    @classmethod
    def mechanism(cls):
        return "prv"
