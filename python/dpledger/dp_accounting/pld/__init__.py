# SPDX-License-Identifier: Apache-2.0
"""PLD accounting (dp_accounting.pld): the PLDAccountant and the noise searches of dp_accounting.pld.accountant."""

from . import accountant, common, pld_privacy_accountant
from .pld_privacy_accountant import PLDAccountant

__all__ = ["accountant", "common", "pld_privacy_accountant", "PLDAccountant"]
