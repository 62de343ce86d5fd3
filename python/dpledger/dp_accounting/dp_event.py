# SPDX-License-Identifier: Apache-2.0
"""Stand-ins for dp_accounting's DpEvent classes: the class names and fields of dp_accounting 0.6
(``dp_accounting.dp_event``), for building events without installing dp_accounting.

dpledger's accountants read any object by its class name and attributes, so events built from dp_accounting
itself, from these classes, or their ``to_named_tuple()`` forms are all accepted. Which classes dpledger can
account is decided by its ledger reader (docs/ledger_files.md); the others are refused by ``supports``.
"""

import collections.abc
import dataclasses
import importlib
import typing
from typing import Any, List, NamedTuple, Optional, Protocol, Sequence, Union

__all__ = ["DpEventNamedTuple", "DpEvent", "NoOpDpEvent", "NonPrivateDpEvent", "UnsupportedDpEvent", "RandomizedResponseDpEvent",
           "EpsilonDeltaDpEvent", "GaussianDpEvent", "LaplaceDpEvent", "DiscreteLaplaceDpEvent",
           "DiscreteGaussianDpEvent", "SelfComposedDpEvent", "ComposedDpEvent", "PoissonSampledDpEvent",
           "SampledWithReplacementDpEvent", "SampledWithoutReplacementDpEvent", "SingleEpochTreeAggregationDpEvent",
           "RepeatAndSelectDpEvent", "MixtureOfGaussiansDpEvent", "ZCDpEvent", "ExponentialMechanismDpEvent",
           "PermuteAndFlipDpEvent", "TruncatedSubsampledGaussianDpEvent"]

_event = dataclasses.dataclass(frozen=True)


@typing.runtime_checkable
class DpEventNamedTuple(Protocol):
    """The named-tuple form of an event (``to_named_tuple``): its fields plus ``module_name`` and ``class_name``."""
    _fields: tuple

    module_name: str
    class_name: str


def _to_named_tuple_value(value):
    if isinstance(value, DpEvent):
        return value.to_named_tuple()
    if isinstance(value, collections.abc.Mapping):
        return type(value)([(k, _to_named_tuple_value(v)) for k, v in value.items()])
    if isinstance(value, collections.abc.Sequence) and not isinstance(value, (str, bytes)):
        return type(value)([_to_named_tuple_value(v) for v in value])
    return value


def _from_named_tuple_value(value):
    if isinstance(value, DpEventNamedTuple):
        return DpEvent.from_named_tuple(value)
    if isinstance(value, collections.abc.Mapping):
        return type(value)([(k, _from_named_tuple_value(v)) for k, v in value.items()])
    if isinstance(value, collections.abc.Sequence) and not isinstance(value, (str, bytes)):
        return type(value)([_from_named_tuple_value(v) for v in value])
    return value


@_event
class DpEvent:
    """The application of a private mechanism (the base class)."""

    def to_named_tuple(self):
        """The event as a NamedTuple (``module_name``, ``class_name``, then its fields; nested events converted),
        for passing events where this package is not a dependency, or for serialising them."""
        cls = type(self)
        fields = [f for f in dataclasses.fields(self)]
        for f in fields:
            if f.name.startswith("_") or not f.init:
                raise ValueError(f"{cls.__name__}: field {f.name} is private or not set by the constructor, so the "
                                 f"event has no named-tuple form")
        wrapper = NamedTuple(f"_{cls.__name__}NamedTupleWrapper",
                             [("module_name", str), ("class_name", str)] + [(f.name, f.type) for f in fields])
        values = {f.name: _to_named_tuple_value(getattr(self, f.name)) for f in fields}
        return wrapper(module_name=cls.__module__, class_name=cls.__name__, **values)

    @classmethod
    def from_named_tuple(cls, obj):
        """The event a ``to_named_tuple()`` form stands for (its class found by ``module_name`` and
        ``class_name``)."""
        module_name, class_name = obj.module_name, obj.class_name
        module_name = module_name.decode() if isinstance(module_name, bytes) else module_name
        class_name = class_name.decode() if isinstance(class_name, bytes) else class_name
        subcls = getattr(importlib.import_module(module_name), class_name)
        values = {f: _from_named_tuple_value(getattr(obj, f)) for f in obj._fields
                  if f not in ("module_name", "class_name")}
        return subcls(**values)


@_event
class NoOpDpEvent(DpEvent):
    """An operation with no privacy cost."""


@_event
class NonPrivateDpEvent(DpEvent):
    """A non-private operation: epsilon and delta become infinite."""


@_event
class UnsupportedDpEvent(DpEvent):
    """An operation without a privacy description: no accountant supports it."""


@_event
class RandomizedResponseDpEvent(DpEvent):
    """Randomized response over ``num_buckets`` buckets, answering uniformly at random with probability
    ``noise_parameter``."""
    noise_parameter: float
    num_buckets: int


@_event
class EpsilonDeltaDpEvent(DpEvent):
    """A mechanism that is (epsilon, delta)-DP."""
    epsilon: float
    delta: float


@_event
class GaussianDpEvent(DpEvent):
    """The Gaussian mechanism with noise standard deviation ``noise_multiplier`` times the L2 sensitivity."""
    noise_multiplier: float


@_event
class LaplaceDpEvent(DpEvent):
    """The Laplace mechanism with scale ``noise_multiplier`` times the L1 sensitivity."""
    noise_multiplier: float


@_event
class DiscreteLaplaceDpEvent(DpEvent):
    """The discrete Laplace mechanism with parameter ``noise_parameter`` and integer L1 ``sensitivity``."""
    noise_parameter: float
    sensitivity: int


@_event
class DiscreteGaussianDpEvent(DpEvent):
    """The discrete Gaussian mechanism with scale ``sigma`` (``dimension`` None: unknown)."""
    sigma: float
    sensitivity: float = 1.0
    dimension: Optional[int] = None


@_event
class SelfComposedDpEvent(DpEvent):
    """``event`` applied ``count`` times (adaptively)."""
    event: Any
    count: int


@_event
class ComposedDpEvent(DpEvent):
    """The ``events`` applied in turn (adaptively)."""
    events: List[Any]


@_event
class PoissonSampledDpEvent(DpEvent):
    """``event`` applied to a Poisson sample (each record kept with probability ``sampling_probability``)."""
    sampling_probability: float
    event: Any


@_event
class SampledWithReplacementDpEvent(DpEvent):
    """``event`` applied to ``sample_size`` records drawn with replacement from ``source_dataset_size``."""
    source_dataset_size: int
    sample_size: int
    event: Any


@_event
class SampledWithoutReplacementDpEvent(DpEvent):
    """``event`` applied to ``sample_size`` distinct records drawn from ``source_dataset_size``."""
    source_dataset_size: int
    sample_size: int
    event: Any


@_event
class SingleEpochTreeAggregationDpEvent(DpEvent):
    """Tree aggregation over one epoch (each record in at most one tree)."""
    noise_multiplier: float
    step_counts: Union[int, List[int]]


@_event
class RepeatAndSelectDpEvent(DpEvent):
    """``event`` repeated a random number of times (mean ``mean``, distribution shape ``shape``), best kept."""
    event: Any
    mean: float
    shape: float


@_event
class MixtureOfGaussiansDpEvent(DpEvent):
    """N(0, sigma^2) on D against the mixture sum_i p_i N(c_i, sigma^2) on D'."""
    standard_deviation: float
    sensitivities: Sequence[float]
    sampling_probs: Sequence[float]


@_event
class ZCDpEvent(DpEvent):
    """A (xi, rho)-zCDP mechanism."""
    rho: float
    xi: float = 0.0


@_event
class ExponentialMechanismDpEvent(DpEvent):
    """The epsilon-DP exponential mechanism."""
    epsilon: float


@_event
class PermuteAndFlipDpEvent(DpEvent):
    """The epsilon-DP permute-and-flip mechanism."""
    epsilon: float


@_event
class TruncatedSubsampledGaussianDpEvent(DpEvent):
    """The Gaussian mechanism on a Poisson sample truncated to ``truncated_batch_size`` records."""
    dataset_size: int
    sampling_probability: float
    truncated_batch_size: int
    noise_multiplier: float
