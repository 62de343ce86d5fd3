# SPDX-License-Identifier: Apache-2.0
"""dp_accounting, answered by dpledger: the interface of Google's dp_accounting (0.6) on dpledger's certified
accountants. Replace ``import dp_accounting`` by ``from dpledger import dp_accounting``.

``PLDAccountant`` and ``RdpAccountant`` take dp_accounting's own DpEvent objects (or these stand-ins, or their
``to_named_tuple()`` forms: events are read by class name and attributes) and answer ``get_epsilon`` and
``get_delta`` with certified upper bounds (the values of ``dpledger compose --ledger`` on the events' JSON).
``calibrate_dp_mechanism`` has dp_accounting's signature. Guide: docs/python.md.
"""

from . import dp_event, dp_event_builder, gaussian_mechanism, mechanism_calibration, pld, privacy_accountant, rdp
from .dp_event import (ComposedDpEvent, DiscreteGaussianDpEvent, DiscreteLaplaceDpEvent, DpEvent,
                       EpsilonDeltaDpEvent, ExponentialMechanismDpEvent, GaussianDpEvent, LaplaceDpEvent,
                       MixtureOfGaussiansDpEvent, NonPrivateDpEvent, NoOpDpEvent, PermuteAndFlipDpEvent,
                       PoissonSampledDpEvent, RandomizedResponseDpEvent, RepeatAndSelectDpEvent,
                       SampledWithoutReplacementDpEvent, SampledWithReplacementDpEvent, SelfComposedDpEvent,
                       SingleEpochTreeAggregationDpEvent, TruncatedSubsampledGaussianDpEvent, UnsupportedDpEvent,
                       ZCDpEvent)
from .dp_event_builder import DpEventBuilder
from .gaussian_mechanism import get_epsilon_gaussian, get_sigma_gaussian
from .mechanism_calibration import ExplicitBracketInterval, LowerEndpointAndGuess, calibrate_dp_mechanism
from .pld import PLDAccountant
from .privacy_accountant import NeighboringRelation, PrivacyAccountant, UnsupportedEventError
from .rdp import RdpAccountant
