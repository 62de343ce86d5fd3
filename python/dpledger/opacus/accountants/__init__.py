"""Opacus's accountants (opacus.accountants) on dpledger's certified accounting."""

from .accountant import IAccountant
from .prv import PRVAccountant
from .rdp import RDPAccountant
from .registry import create_accountant, register_accountant

__all__ = ["IAccountant", "RDPAccountant", "PRVAccountant", "register_accountant", "create_accountant"]
