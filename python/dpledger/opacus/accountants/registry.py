"""create_accountant(mechanism): the accountant of a mechanism name, as Opacus's registry."""

from .prv import PRVAccountant
from .rdp import RDPAccountant

__all__ = ["create_accountant", "register_accountant"]

_ACCOUNTANTS = {"rdp": RDPAccountant, "prv": PRVAccountant}


def register_accountant(mechanism, accountant):
    if mechanism in _ACCOUNTANTS:
        raise ValueError(f"Accountant for mechanism {mechanism} is already registered")
    _ACCOUNTANTS[mechanism] = accountant


def create_accountant(mechanism):
    if mechanism == "gdp":
        raise ValueError("Unexpected accounting mechanism: gdp (Opacus's Gaussian-DP accountant is a central-limit "
                         "approximation, not a bound; dpledger offers rdp and prv, certified)")
    if mechanism in _ACCOUNTANTS:
        return _ACCOUNTANTS[mechanism]()
    raise ValueError(f"Unexpected accounting mechanism: {mechanism}")
