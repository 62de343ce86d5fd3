# SPDX-License-Identifier: Apache-2.0
"""Opacus's accountants (opacus.accountants) on dpledger's certified accounting."""

from . import registry
from .accountant import IAccountant
from .gdp import GaussianAccountant
from .prv import PRVAccountant
from .rdp import RDPAccountant
from .registry import create_accountant, register_accountant

__all__ = ["IAccountant", "GaussianAccountant", "registry", "RDPAccountant", "PRVAccountant", "register_accountant", "create_accountant"]
