# SPDX-License-Identifier: Apache-2.0
"""PLDAccountant: dp_accounting's privacy-loss-distribution accountant, answered by dpledger's certified PLD
accountant (``dpledger compose --accountant pld``)."""

from ..privacy_accountant import LedgerAccountant, NeighboringRelation

NeighborRel = NeighboringRelation

__all__ = ["PLDAccountant", "NeighborRel"]


class PLDAccountant(LedgerAccountant):
    """Privacy accountant that uses privacy loss distributions (certified: dpledger chooses its own loss grid and
    bounds every discretisation and round-off error, so ``value_discretization_interval`` is accepted for
    compatibility and not used)."""

    accountant = "pld"

    def __init__(self, neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE,
                 value_discretization_interval=1e-4):
        super().__init__(neighboring_relation)
        self._value_discretization_interval = value_discretization_interval
