# SPDX-License-Identifier: Apache-2.0
"""create_accountant(mechanism): the accountant of a mechanism name, as Opacus's registry."""

from .gdp import GaussianAccountant
from .prv import PRVAccountant
from .rdp import RDPAccountant

__all__ = ["create_accountant", "register_accountant"]

_ACCOUNTANTS = {"rdp": RDPAccountant, "gdp": GaussianAccountant, "prv": PRVAccountant}


def register_accountant(mechanism, accountant, force=False):
    """Registers ``accountant`` (an IAccountant class) for ``mechanism``; an existing one is replaced only when
    ``force``."""
    if mechanism in _ACCOUNTANTS and not force:
        raise ValueError(f"Accountant for mechanism {mechanism} is already registered")
    _ACCOUNTANTS[mechanism] = accountant


def create_accountant(mechanism):
    if mechanism in _ACCOUNTANTS:
        return _ACCOUNTANTS[mechanism]()
    raise ValueError(f"Unexpected accounting mechanism: {mechanism}")
