# SPDX-License-Identifier: Apache-2.0
"""RDP accounting (dp_accounting.rdp): the RdpAccountant and the conversion of an RDP curve to (epsilon, delta)."""

from . import rdp_privacy_accountant
from .rdp_privacy_accountant import DEFAULT_RDP_ORDERS, RdpAccountant, compute_delta, compute_epsilon

__all__ = ["rdp_privacy_accountant", "RdpAccountant", "compute_epsilon", "compute_delta", "DEFAULT_RDP_ORDERS"]
