# SPDX-License-Identifier: Apache-2.0
"""calibrate_dp_mechanism: dp_accounting's search for the best mechanism parameter within a privacy budget,
with its signature and contract, on dpledger's certified accountants.

The bracket is searched as dp_accounting does (from ``LowerEndpointAndGuess(0, 1)`` by default, doubling and
halving the distance to the lower endpoint up to 2**30); the bracket is then narrowed by bisection, which keeps
one endpoint whose epsilon is at most the target. That endpoint is returned: with a dpledger accountant its
epsilon is a certified upper bound, so the answer meets the budget, and it is within ``tol`` of the threshold
(for a parameter the epsilon is monotone in).
"""

import dataclasses
import math

from .._events import class_name

__all__ = ["BracketInterval", "ExplicitBracketInterval", "LowerEndpointAndGuess", "NoBracketIntervalFoundError",
           "NonEmptyAccountantError", "calibrate_dp_mechanism"]


class BracketInterval:
    pass


@dataclasses.dataclass(frozen=True)
class ExplicitBracketInterval(BracketInterval):
    endpoint_1: float
    endpoint_2: float


@dataclasses.dataclass(frozen=True)
class LowerEndpointAndGuess(BracketInterval):
    lower_endpoint: float
    initial_guess: float


class NoBracketIntervalFoundError(Exception):
    """No explicit bracket interval was found."""


class NonEmptyAccountantError(Exception):
    """make_fresh_accountant returned an accountant with a non-empty ledger."""


def _sign(x):
    return 1 if x > 0 else (-1 if x < 0 else 0)


def _search_for_explicit_bracket_interval(bracket_interval, epsilon_gap):
    endpoint, guess = bracket_interval.lower_endpoint, bracket_interval.initial_guess
    if endpoint >= guess:
        raise ValueError(f"bracket_interval.lower_endpoint ({endpoint}) must be less than "
                         f"bracket_interval.initial_guess ({guess}).")
    scale = guess - endpoint
    upper = lower = guess
    search_up = search_down = True
    next_upper_value = next_lower_value = epsilon_gap(guess)
    orig_sign = _sign(next_upper_value)
    up_power = down_power = 0
    while search_up or search_down:
        up_better = abs(next_upper_value) <= abs(next_lower_value)
        if search_up and (up_better or not search_down):
            up_power += 1
            next_upper = endpoint + scale * 2**up_power
            if up_power >= 30:
                search_up = False
            try:
                next_upper_value = epsilon_gap(next_upper)
                if math.isnan(next_upper_value):
                    raise ValueError("Got NaN for epsilon gap.")
                if _sign(next_upper_value) != orig_sign:
                    return ExplicitBracketInterval(upper, next_upper)
                upper = next_upper
            except Exception:  # pylint: disable=broad-except  (a parameter outside the domain ends that side)
                search_up = False
        else:
            down_power -= 1
            next_lower = endpoint + scale * 2**down_power
            if down_power <= -30:
                search_down = False
            try:
                next_lower_value = epsilon_gap(next_lower)
                if math.isnan(next_lower_value):
                    raise ValueError("Got NaN for epsilon gap.")
                if _sign(next_lower_value) != orig_sign:
                    return ExplicitBracketInterval(next_lower, lower)
                lower = next_lower
            except Exception:  # pylint: disable=broad-except
                search_down = False
    raise NoBracketIntervalFoundError("Unable to find bracketing interval within 2**30 of initial guess. "
                                      "Consider providing an ExplicitBracketInterval.")


def calibrate_dp_mechanism(make_fresh_accountant, make_event_from_param, target_epsilon, target_delta,
                           bracket_interval=None, discrete=False, tol=None):
    """The parameter value within ``tol`` of the optimum whose epsilon at ``target_delta`` is at most
    ``target_epsilon`` (an int when ``discrete``). ``make_fresh_accountant``: returns an empty accountant (e.g.
    ``dpledger.dp_accounting.pld.PLDAccountant``); ``make_event_from_param``: value -> DpEvent."""
    if not callable(make_fresh_accountant):
        raise TypeError(f"make_fresh_accountant must be callable. found {type(make_fresh_accountant)}.")
    if not callable(make_event_from_param):
        raise TypeError(f"make_event_from_param must be callable. found {type(make_event_from_param)}.")
    if target_epsilon < 0:
        raise ValueError(f"target_epsilon must be nonnegative. Found {target_epsilon}.")
    if not 0 <= target_delta <= 1:
        raise ValueError(f"target_delta must be in range [0, 1]. Found {target_delta}.")
    if bracket_interval is None:
        bracket_interval = LowerEndpointAndGuess(0, 1)

    def epsilon_gap(x):
        if discrete:
            x = int(round(float(x)))
        event = make_event_from_param(x)
        accountant = make_fresh_accountant()
        if class_name(accountant.ledger) != "NoOpDpEvent":
            raise NonEmptyAccountantError()
        return accountant.compose(event).get_epsilon(target_delta) - target_epsilon

    if isinstance(bracket_interval, LowerEndpointAndGuess):
        bracket_interval = _search_for_explicit_bracket_interval(bracket_interval, epsilon_gap)
    elif isinstance(bracket_interval, ExplicitBracketInterval):
        if bracket_interval.endpoint_1 >= bracket_interval.endpoint_2:
            raise ValueError(f"bracket_interval.endpoint_1 ({bracket_interval.endpoint_1}) must be less than "
                             f"bracket_interval.endpoint_2 ({bracket_interval.endpoint_2}).")
    else:
        raise TypeError(f"Unrecognized bracket_interval type: {type(bracket_interval)}")

    if tol is None:
        tol = 1.0 if discrete else 1e-6 * (bracket_interval.endpoint_2 - bracket_interval.endpoint_1)
    elif discrete:
        tol = max(tol, 1.0)
    elif tol <= 0:
        raise ValueError(f"tol must be positive. Found {tol}.")

    gap_1, gap_2 = epsilon_gap(bracket_interval.endpoint_1), epsilon_gap(bracket_interval.endpoint_2)
    if gap_1 * gap_2 > 0:
        raise ValueError(f"Bracket interval {bracket_interval} did not bracket a solution: the epsilon gap is "
                         f"{gap_1} and {gap_2} at its ends.")
    root = _bisect(epsilon_gap, bracket_interval.endpoint_1, bracket_interval.endpoint_2, tol)
    return int(round(float(root))) if discrete else root


def _bisect(epsilon_gap, lower, upper, tol):
    """A point within ``tol`` of a root of ``epsilon_gap`` in [lower, upper] where the gap is <= 0 (the bracket's
    ends must have opposite signs): bisection keeping opposite signs at the ends."""
    lower_value, upper_value = epsilon_gap(lower), epsilon_gap(upper)
    if lower_value * upper_value > 0:
        raise ValueError(f"epsilon_gap at the ends of [{lower}, {upper}] must have opposite signs: found "
                         f"{lower_value} and {upper_value}")
    while upper - lower > tol and lower_value != 0 and upper_value != 0:
        middle = (lower + upper) / 2
        if middle in (lower, upper):
            break
        middle_value = epsilon_gap(middle)
        if middle_value == 0:
            return middle
        if _sign(middle_value) == _sign(lower_value):
            lower, lower_value = middle, middle_value
        else:
            upper, upper_value = middle, middle_value
    if lower_value == 0:
        return lower
    if upper_value == 0:
        return upper
    return lower if lower_value < 0 else upper
