# SPDX-License-Identifier: Apache-2.0
"""PRVAccountant: Opacus's privacy-random-variable accountant, answered by dpledger's certified privacy-loss-
distribution accountant (``dpledger compose --ledger history.json --accountant pld``): the same numerical
composition idea, with every discretisation and round-off error bounded, so the epsilon is an upper bound rather
than an estimate within ``eps_error``."""

from ... import _api
from .accountant import IAccountant

__all__ = ["PRVAccountant"]


class PRVAccountant(IAccountant):
    def __init__(self):
        super().__init__()
        self._results = {}

    def result(self, delta):
        """dpledger's whole answer (a :class:`dpledger.ComposeResult`: the bound, a certified lower bound, the
        method) for the history at ``delta``."""
        key = (tuple(tuple(item) for item in self.history), _api.number_text("delta", delta))
        if key not in self._results:
            if len(self._results) >= 16:
                self._results.clear()
            self._results[key] = _api.compose(self.ledger_specs(), delta=key[1], accountant="pld")
        return self._results[key]

    def get_epsilon(self, delta, *, eps_error=0.01, delta_error=None, **kwargs):
        """The certified epsilon at ``delta`` (``eps_error`` and ``delta_error`` are accepted for compatibility:
        the bound is certified, not estimated)."""
        if not self.history:
            return 0.0
        if self._noiseless():
            return float("inf")
        return self.result(delta).epsilon

    @classmethod
    def mechanism(cls):
        return "prv"
