"""RdpAccountant: dp_accounting's Renyi-DP accountant, answered by dpledger's certified RDP accountant
(``dpledger compose --accountant rdp``: the conversion at the optimal order, found over all real orders)."""

import numpy as np

from .. import _api
from .privacy_accountant import LedgerAccountant, NeighboringRelation

__all__ = ["RdpAccountant", "DEFAULT_RDP_ORDERS"]

# dp_accounting's default orders (used for the `rdp` property; epsilon and delta optimise over every order).
DEFAULT_RDP_ORDERS = tuple([1 + x / 10.0 for x in range(1, 100)] + list(range(11, 64)) + [128, 256, 512, 1024])


class RdpAccountant(LedgerAccountant):
    """Privacy accountant that uses Renyi differential privacy. ``get_epsilon``/``get_delta`` convert at the
    best order over all real orders > 1 (never worse than the best of ``orders``); ``orders`` and ``rdp`` give
    the composed curve's certified upper bounds at ``orders``."""

    accountant = "rdp"

    def __init__(self, orders=None, neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE):
        super().__init__(neighboring_relation)
        self._orders = np.array(DEFAULT_RDP_ORDERS if orders is None else orders, dtype=np.float64)

    @property
    def orders(self):
        return np.copy(self._orders)

    @property
    def rdp(self):
        """Certified upper bounds on the composed RDP at each of ``orders`` (``dpledger rdp --orders``)."""
        if not self._specs:
            return np.zeros_like(self._orders)
        return _api.rdp(self._specs, self._orders).rdp

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
