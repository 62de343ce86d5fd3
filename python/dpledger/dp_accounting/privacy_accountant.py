# SPDX-License-Identifier: Apache-2.0
"""The PrivacyAccountant interface of dp_accounting, and the ledger-backed accountant behind dpledger's PLD and
RDP accountants.

An accountant keeps the events it composed; ``get_epsilon``/``get_delta`` compose the whole ledger with
dpledger's certified accountant (the same call as ``dpledger compose --ledger`` on the events' JSON), so the
answer is the CLI's, bit for bit, and an upper bound rounded up.
"""

import abc
import dataclasses
import enum
import json
import math
import numbers
import re
from typing import Any, Optional

from .. import _dpledger
from .._api import ComposeResult, call_in_python_terms, number_text, python_terms
from .._api import rdp as _api_rdp
from .._events import class_name, event_to_json, is_dp_event
from .dp_event import DpEvent
from .dp_event_builder import DpEventBuilder

__all__ = ["NeighboringRelation", "UnsupportedEventError", "PrivacyAccountant", "CompositionErrorDetails"]


class NeighboringRelation(enum.Enum):
    ADD_OR_REMOVE_ONE = 1
    REPLACE_ONE = 2
    # A record is replaced with a special record, such as the zero record.
    REPLACE_SPECIAL = 3


class UnsupportedEventError(Exception):
    """Raised by compose() for an event the accountant does not support; ``invalid_event`` is the offending
    subevent (None when not known)."""

    def __init__(self, *args, invalid_event=None):
        super().__init__(*args)
        self.invalid_event = invalid_event


@dataclasses.dataclass(frozen=True)
class CompositionErrorDetails:
    """Why a composition fails: the offending subevent and the reason."""
    invalid_event: Any
    error_message: Optional[str]


# Reasons of the ledger reader that mean an invalid parameter value (ValueError), not an event the accountant
# cannot account (UnsupportedEventError).
_INVALID_VALUE = re.compile(r"^(?!neighboring_relation).*(must be|must hold|missing field|need 0 <=|overflows|"
                            r"is out of range)")
# dp_accounting's names of the parameters a refusal names by its spec key (its messages start with them).
_PARAMETER_NAMES = {"sigma": "Noise multiplier", "noise_multiplier": "Noise multiplier", "q": "Sampling rate",
                    "sampling_probability": "Sampling rate"}


def _named_parameter(message):
    """'Noise multiplier out of range: ' for a refusal of sigma=... (or of noise_multiplier), and the like; '' for
    others."""
    found = re.search(r"\b([a-z_]+)=\S* is out of range", message) or re.search(r"\b([a-z_]+) must be", message)
    name = _PARAMETER_NAMES.get(found.group(1)) if found else None
    return f"{name} out of range: " if name else ""


# The reader's refusal of a mechanism without noise: dp_accounting answers epsilon inf, and so does this package.
_NOT_PRIVATE = "is not private (dp_accounting reports an infinite epsilon)"


def _is_event(event):
    return isinstance(event, DpEvent) or is_dp_event(event)


def _offending_subevent(event, fails):
    """The innermost subevent of a Composed/SelfComposed tree that fails on its own (the event itself if none)."""
    name = class_name(event)
    if name == "ComposedDpEvent":
        for e in getattr(event, "events", ()):
            if fails(e):
                return _offending_subevent(e, fails)
    elif name == "SelfComposedDpEvent" and _is_event(getattr(event, "event", None)) and fails(event.event):
        return _offending_subevent(event.event, fails)
    return event


def _relation_name(relation):
    name = getattr(relation, "name", relation)
    if name not in NeighboringRelation.__members__:
        raise ValueError(f"neighboring_relation: {relation!r} is not one of ADD_OR_REMOVE_ONE, REPLACE_ONE, "
                         f"REPLACE_SPECIAL")
    return name


class PrivacyAccountant(metaclass=abc.ABCMeta):
    """dp_accounting's accountant interface: supports, compose(event, count=1), ledger, get_epsilon, get_delta."""

    def __init__(self, neighboring_relation):
        self._neighboring_relation = neighboring_relation
        self._ledger = DpEventBuilder()

    @property
    def neighboring_relation(self):
        return self._neighboring_relation

    def supports(self, event):
        """Whether compose(event) would succeed."""
        return self._maybe_compose(event, 1, False) is None

    CompositionErrorDetails = CompositionErrorDetails

    def compose(self, event, count=1):
        """Adds ``count`` applications of ``event`` to the ledger; returns the accountant. An event the accountant
        cannot account raises UnsupportedEventError, an invalid parameter value ValueError."""
        if not _is_event(event):
            raise TypeError(f"`event` must be `DpEvent`. Found {type(event)}.")
        if isinstance(count, bool) or not isinstance(count, numbers.Integral):
            raise TypeError(f"`count` must be an integer. Found {type(count)}.")
        count = int(count)
        if count < 1:
            raise ValueError(f"`count` must be positive. Found {count}.")
        error = self._maybe_compose(event, count, False)
        if error is not None:
            message = error.error_message if isinstance(error, CompositionErrorDetails) else str(error)
            invalid = error.invalid_event if isinstance(error, CompositionErrorDetails) else event
            if message and _INVALID_VALUE.match(message):
                raise ValueError(_named_parameter(message) + message)
            raise UnsupportedEventError(f"Unsupported event: {event}. Error: [{message}] caused by subevent "
                                        f"{invalid}.", invalid_event=invalid)
        self._ledger.compose(event, count)
        self._maybe_compose(event, count, True)
        return self

    @property
    def ledger(self):
        """The composed DpEvent processed so far."""
        return self._ledger.build()

    @abc.abstractmethod
    def _maybe_compose(self, event, count, do_compose):
        """None if the composition is supported (and done when do_compose), else the reason it is not."""

    @abc.abstractmethod
    def get_epsilon(self, target_delta):
        """The epsilon of everything composed, at ``target_delta``."""

    def get_delta(self, target_epsilon):
        """The delta of everything composed, at ``target_epsilon``."""
        raise NotImplementedError()


def _gaussians(event):
    """Whether `event` is a GaussianDpEvent or a composition of them (what Poisson sampling under REPLACE_ONE takes)."""
    name = class_name(event)
    if name == "GaussianDpEvent":
        return True
    if name == "SelfComposedDpEvent":
        return _gaussians(event.event)
    if name == "ComposedDpEvent":
        return all(_gaussians(e) for e in event.events)
    return False


def _stated_for_replace_one(tree):
    """The event tree (JSON) with every sum of values re-stated for replace-one neighbours. dp_event defines the
    Gaussian, Laplace and discrete Laplace events on a sum of values of norm <= C (noise multiplier s/C, or
    sensitivity C): replacing one value moves the sum by up to 2C, so they are accounted at twice the shift (the noise
    multiplier halved, exactly, or the sensitivity doubled), as dp_accounting's PLD accountant does for the Gaussian.
    A Poisson-sampled event is marked instead: its pair is stated per value (docs/mechanisms.md)."""
    name = tree.get("class_name")
    if name in ("GaussianDpEvent", "LaplaceDpEvent"):
        return dict(tree, noise_multiplier=tree["noise_multiplier"] / 2)
    if name == "DiscreteLaplaceDpEvent":
        return dict(tree, sensitivity=tree["sensitivity"] * 2)
    if name == "PoissonSampledDpEvent":
        if tree.get("sampling_probability") == 1:  # every value is in the sum: the event itself
            return _stated_for_replace_one(tree["event"])
        return dict(tree, neighboring_relation="REPLACE_ONE")
    out = dict(tree)
    if isinstance(tree.get("event"), dict):
        out["event"] = _stated_for_replace_one(tree["event"])
    if isinstance(tree.get("events"), list):
        out["events"] = [_stated_for_replace_one(e) if isinstance(e, dict) else e for e in tree["events"]]
    return out


class LedgerAccountant(PrivacyAccountant):
    """A dp_accounting accountant answered by one of dpledger's accountants (``accountant``: pld, rdp, auto, ...)."""

    accountant = "auto"

    def __init__(self, neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE):
        super().__init__(neighboring_relation)
        self._relation = _relation_name(neighboring_relation)
        self._non_private = False
        self._specs_cache = []  # the specs of self.ledger (None: to be recomputed)
        self._results = {}

    # The neighbouring relations each event is certified for (docs/mechanisms.md, "Neighbouring relations", cites
    # the theorem of each pair); a class not listed holds for the relation its sensitivity or guarantee is stated
    # for. Every other (event, relation) pair is refused: supports() is False, compose() raises.
    _RELATIONS = {
        # Under REPLACE_ONE only the Gaussian is analysed (Lebeda, Regehr, Kamath and Steinke 2025, Prop. 13), and
        # only by the PLD accountant; the ledger check refuses the others with the reason.
        "PoissonSampledDpEvent": ("ADD_OR_REMOVE_ONE", "REPLACE_ONE", "REPLACE_SPECIAL"),
        "SampledWithoutReplacementDpEvent": ("REPLACE_ONE",),
        "SampledWithReplacementDpEvent": ("REPLACE_ONE",),
        "MixtureOfGaussiansDpEvent": ("ADD_OR_REMOVE_ONE", "REPLACE_SPECIAL"),
        "TruncatedSubsampledGaussianDpEvent": ("ADD_OR_REMOVE_ONE",),
        "RandomizedResponseDpEvent": ("REPLACE_ONE", "REPLACE_SPECIAL"),
        "SingleEpochTreeAggregationDpEvent": ("ADD_OR_REMOVE_ONE", "REPLACE_SPECIAL"),
    }

    def _relation_error(self, event):
        """None if `event` and every event inside it are certified for this accountant's relation, else why not."""
        name = class_name(event)
        allowed = self._RELATIONS.get(name)
        if allowed is not None and self._relation not in allowed:
            return (f"neighboring_relation must be {' or '.join(f'`{r}`' for r in allowed)} for `{name}`. Found "
                    f"{self._relation}.")
        if name == "PoissonSampledDpEvent" and self._relation == "REPLACE_ONE" and not _gaussians(event.event):
            return (f"neighboring_relation must be `ADD_OR_REMOVE_ONE` or `REPLACE_SPECIAL` for `{name}` of a "
                    f"`{class_name(event.event)}` (under `REPLACE_ONE` only Poisson-sampled Gaussians are analysed). "
                    f"Found {self._relation}.")
        inner = getattr(event, "event", None)
        if inner is not None and not isinstance(inner, (str, bytes, numbers.Number)):
            error = self._relation_error(inner)
            if error is not None:
                return error
        for e in getattr(event, "events", None) or ():
            error = self._relation_error(e)
            if error is not None:
                return error
        return None

    def _tree(self, event, count):
        """The JSON tree of `event` composed `count` times, NonPrivateDpEvents taken out (they make the budget
        infinite), and whether there was one; or a reason string."""
        name = class_name(event)
        if name == "NonPrivateDpEvent":
            return None, True
        if name == "SelfComposedDpEvent":
            c = getattr(event, "count", None)
            if isinstance(c, bool) or not isinstance(c, numbers.Integral) or c < 0:
                return f"SelfComposedDpEvent: count must be an integer >= 0, got {c!r}", False
            inner, non_private = self._tree(event.event, count * int(c))
            return inner, non_private and c > 0
        if name == "ComposedDpEvent":
            trees, non_private = [], False
            for e in event.events:
                t, n = self._tree(e, count)
                if isinstance(t, str):
                    return t, False
                non_private = non_private or n
                if t is not None:
                    trees.append(t)
            return ({"class_name": "ComposedDpEvent", "events": trees} if trees else None), non_private
        error = self._relation_error(event)
        if error is not None:
            return error, False
        tree = event_to_json(event)
        if self._relation == "REPLACE_ONE":
            tree = _stated_for_replace_one(tree)
        if count == 1:
            return tree, False
        return {"class_name": "SelfComposedDpEvent", "event": tree, "count": count}, False

    def _specs_of(self, event, count):
        """(specs, non_private) of `event` composed `count` times, or (reason, False) when it is not supported."""
        try:
            tree, non_private = self._tree(event, count)
        except ValueError as e:
            return str(e), False
        if isinstance(tree, str) or tree is None:
            return tree or [], non_private
        try:
            return _dpledger.ledger_text_specs(json.dumps([tree]), "dp_event"), non_private
        except ValueError as e:
            if "the ledger has no entry with a privacy cost" in str(e):
                return [], non_private
            if _NOT_PRIVATE in str(e):  # a mechanism without noise: the whole composition is not private
                return [], True
            return python_terms(str(e)), False

    def _reason(self, event, count):
        """(None or the reason `event` cannot be composed, its specs, whether it is non-private)."""
        if not _is_event(event):
            return f"`event` must be `DpEvent`. Found {type(event)}.", None, False
        specs, non_private = self._specs_of(event, max(int(count), 1))
        if isinstance(specs, str):
            return specs, None, False
        if specs:
            # Each entry must be one the accountant takes; Poisson and wor entries cannot mix (the relation check
            # in _tree admits only one of them per accountant).
            reason = _dpledger.applies(specs, self.accountant)
            if reason is not None:
                return python_terms(reason), None, False
        return None, specs, non_private

    def _maybe_compose(self, event, count, do_compose):
        reason, specs, non_private = self._reason(event, count)
        if reason is not None:
            invalid = _offending_subevent(event, lambda e: self._reason(e, 1)[0] is not None)
            return CompositionErrorDetails(invalid, reason)
        if do_compose:
            self._non_private = self._non_private or non_private
            self._specs_cache = None
            self._results.clear()
        return None

    @property
    def _specs(self):
        """The specs of the ledger as built (equal consecutive events merged into one self-composition)."""
        if self._specs_cache is None:
            specs, _ = self._specs_of(self.ledger, 1)
            self._specs_cache = specs
        return self._specs_cache

    def result(self, *, delta=None, epsilon=None):
        """The full answer of dpledger for the ledger (a :class:`dpledger.ComposeResult`: the bound, a certified
        lower bound, the accountant and its method), for ``delta=`` or ``epsilon=``."""
        if (delta is None) == (epsilon is None):
            raise ValueError("result: give exactly one of delta= or epsilon=")
        given, value = ("delta", number_text("target_delta", delta)) if delta is not None else \
            ("epsilon", number_text("target_epsilon", epsilon))
        key = (given, value)
        if key not in self._results:
            self._results[key] = ComposeResult(
                call_in_python_terms(_dpledger.compose, self._specs, given, value, self.accountant,
                                     rename={"--delta": "target_delta", "--epsilon": "target_epsilon"}),
                list(self._specs))
        return self._results[key]

    def _pure_epsilon(self):
        """The certified epsilon of the ledger at delta 0 (dpledger's pure-DP accountant), inf if it is not pure."""
        try:
            return ComposeResult(_dpledger.compose(self._specs, "delta", "0", "pure"), list(self._specs)).epsilon
        except ValueError:
            return math.inf

    def get_epsilon(self, target_delta):
        number_text("target_delta", target_delta)
        if self._non_private:
            return math.inf
        if not self._specs:
            return 0.0
        if target_delta == 0:
            return self._pure_epsilon()
        if target_delta == 1:
            return 0.0
        return self.result(delta=target_delta).epsilon

    def get_delta(self, target_epsilon):
        number_text("target_epsilon", target_epsilon)
        if self._non_private:
            return 1.0
        if not self._specs:
            return 0.0
        if target_epsilon == math.inf:
            # delta at epsilon inf is the probability of an infinite privacy loss: 0 when some Renyi divergence
            # of order > 1 is finite (the output distributions are then mutually absolutely continuous), else
            # bounded by the delta at the largest finite epsilon
            try:
                finite = math.isfinite(float(_api_rdp(self._specs, [2.0]).rdp[0]))
            except ValueError:
                finite = False
            return 0.0 if finite else self.result(epsilon=1e300).delta
        return self.result(epsilon=target_epsilon).delta

    @property
    def ledger_specs(self):
        """The composed ledger as dpledger mechanism specs (what ``dpledger compose -m`` takes)."""
        return list(self._specs)
