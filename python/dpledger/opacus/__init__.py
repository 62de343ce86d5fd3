# SPDX-License-Identifier: Apache-2.0
"""Opacus's privacy accountants, answered by dpledger: replace ``from opacus.accountants import RDPAccountant`` by
``from dpledger.opacus.accountants import RDPAccountant`` (and ``opacus.accountants.utils.get_noise_multiplier``
by ``dpledger.opacus.accountants.utils.get_noise_multiplier``). An accountant can be given to Opacus's
``PrivacyEngine(accountant=...)``-style code: it has the IAccountant interface (step, get_epsilon, history, len,
mechanism, state_dict, load_state_dict, get_optimizer_hook_fn). Guide: docs/python.md.
"""

from . import accountants
from .accountants import IAccountant, PRVAccountant, RDPAccountant, create_accountant
from .accountants.utils import get_noise_multiplier

__all__ = ["accountants", "IAccountant", "RDPAccountant", "PRVAccountant", "create_accountant",
           "get_noise_multiplier"]
