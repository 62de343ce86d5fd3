# SPDX-License-Identifier: Apache-2.0
"""dpledger: certified differential-privacy accounting from Python.

The same C++ accountants as the ``dpledger`` command line (interval arithmetic, bounds rounded in the safe
direction), called in-process::

    >>> import dpledger
    >>> r = dpledger.compose(["gaussian:sigma=1.1,q=0.01,steps=10000"], delta=1e-5)
    >>> r.epsilon, r.accountant          # the certified upper bound, as `dpledger compose` prints it

Functions: :func:`compose`, :func:`calibrate`, :func:`rdp`, :func:`running`, :func:`audit_samples`,
:func:`audit` (runs your own mechanism on D and D'), :func:`check`; mechanisms as spec strings or :class:`Gaussian`, :class:`Laplace`, ... Drop-in accountants:
:mod:`dpledger.dp_accounting` (Google's dp_accounting interface, on its DpEvents) and :mod:`dpledger.opacus`
(Opacus's accountants and ``get_noise_multiplier``). Guide: docs/python.md.
"""

from ._dpledger import __version__

__license__ = "Apache-2.0"
from ._api import (DEFAULT_RDP_ORDERS, AuditResult, CalibrationResult, CheckResult, ComposeResult,
                   NotApplicableError, RdpResult, RunningResult, audit_samples, calibrate, check, compose,
                   list_claims, rdp, running)
from ._code_audit import CodeAuditResult, audit
from .mechanisms import (ApproxDP, Gaussian, Laplace, Mechanism, NoisyIteration, PureDP, RandomizedResponse)

__all__ = ["__version__", "compose", "calibrate", "rdp", "running", "audit_samples", "audit", "check", "list_claims",
           "Mechanism", "Gaussian", "Laplace", "RandomizedResponse", "PureDP", "ApproxDP", "NoisyIteration",
           "ComposeResult", "CalibrationResult", "RdpResult", "RunningResult", "AuditResult", "CodeAuditResult", "CheckResult",
           "NotApplicableError", "DEFAULT_RDP_ORDERS"]
