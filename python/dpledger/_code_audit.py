# SPDX-License-Identifier: Apache-2.0
"""``dpledger.audit``: the black-box audit of your own mechanism. dpledger calls your function on the data set D and
on its neighbour D' (alternately, each side with its own NumPy generator from ``seed``), collects its outputs and
puts them through the certified threshold test of ``dpledger audit --samples`` (the first half of each side chooses
the event, the second half estimates its probabilities with exact Clopper-Pearson bounds)."""

import math
import numbers

from . import _dpledger
from ._api import AuditResult, number_text

__all__ = ["audit", "CodeAuditResult", "MAX_AUDIT_RUNS"]

# The most calls on each side (the CLI's --exec allows as many outputs).
MAX_AUDIT_RUNS = 10_000_000


class CodeAuditResult(AuditResult):
    """The audit of your mechanism: the fields of :class:`AuditResult` (``verdict``, ``epsilon_lower``,
    ``epsilon_estimate``, ``epsilon_claimed``, ``detectable``, ``event`` with its counts ``count_p``/``n_p`` and
    ``count_q``/``n_q`` on the estimation half, ...) and ``runs``, ``seed``, ``output_dimension``."""

    _fields = ("verdict", "audited", "epsilon_lower", "epsilon_claimed", "detectable", "runs", "seed")

    @property
    def text(self):
        return super().text + (f"runs             {self.runs} calls of the mechanism on each of D and D' (the first "
                               f"half chooses the event), seed {self.seed}\n")


def _claim_number(name, value, low, high, low_open, high_open):
    """The claim's number as the decimal text the extension reads, after checking it in Python's terms."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    try:
        x = float(value)
    except ValueError:
        raise ValueError(f"{name}={value!r} is not a number") from None
    inside = (low < x if low_open else low <= x) and (x < high if high_open else x <= high)
    if not inside:
        lo, hi = ("(" if low_open else "[") + f"{low!r}", f"{high!r}" + (")" if high_open else "]")
        raise ValueError(f"{name}={value!r} is out of range: allowed {lo}, {hi}")
    return number_text(name, value)


def _count(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name}={value} is out of range: allowed integers {low} to {high}")
    return int(value)


def _projection(projection):
    """None, a callable, a 1-based coordinate, or a weight vector (NumPy array), from what the user gave."""
    import numpy as np
    if projection is None or callable(projection):
        return projection
    if isinstance(projection, str):
        kind, _, rest = projection.partition(":")
        if kind == "coord":
            try:
                return _count("projection coordinate", int(rest), 1, 1_000_000)
            except ValueError:
                raise ValueError(f"projection={projection!r}: allowed 'coord:K' with K a 1-based coordinate") from None
        if kind == "weights":
            try:
                projection = [float(w) for w in rest.split(",")]
            except ValueError:
                raise ValueError(f"projection={projection!r}: allowed 'weights:w1,w2,...' with numbers") from None
        else:
            raise ValueError(f"projection={projection!r}: allowed a 1-based coordinate K, 'coord:K', weights "
                             f"(a sequence or 'weights:w1,w2,...') or a callable")
    if isinstance(projection, numbers.Integral) and not isinstance(projection, bool):
        return _count("projection", projection, 1, 1_000_000)
    try:
        w = np.asarray(projection, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"projection must be a 1-based coordinate, 'coord:K', weights or a callable, got "
                        f"{type(projection).__name__}") from None
    if w.ndim != 1 or w.size == 0 or not np.all(np.isfinite(w)) or not np.any(w):
        raise ValueError("projection weights must be a non-empty 1-D sequence of finite numbers, not all zero")
    return w


def _read_only(data):
    """A NumPy data set as a read-only view (a mechanism that writes into its data would change D between calls)."""
    import numpy as np
    if isinstance(data, np.ndarray):
        view = data.view()
        view.flags.writeable = False
        return view
    return data


def _output_values(outputs, projection, dimension):
    """The outputs of one side (a list of 1-D float arrays of one length, or of floats) as one number each."""
    import numpy as np
    if callable(projection):
        return np.asarray(outputs, dtype=np.float64)
    rows = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), dimension)
    if projection is None:
        if dimension != 1:
            raise ValueError(f"the mechanism returns vectors of {dimension} numbers: give projection= (a 1-based "
                             f"coordinate K, 'coord:K', weights or a callable) to make each a number")
        return rows[:, 0]
    if isinstance(projection, int):
        if projection > dimension:
            raise ValueError(f"projection={projection} is out of range: the mechanism's outputs have {dimension} "
                             f"coordinates (allowed 1 to {dimension})")
        return rows[:, projection - 1]
    if projection.size != dimension:
        raise ValueError(f"projection has {projection.size} weights, the mechanism's outputs have {dimension} "
                         f"coordinates")
    values = rows @ projection
    if not np.all(np.isfinite(values)):
        raise ValueError("projection overflows on an output of the mechanism")
    return values


def audit(mechanism, dataset, neighbour, *, epsilon=None, delta=None, mu=None, runs, seed, confidence=0.95,
          tolerance=0.1, projection=None):
    """Audits your mechanism against its privacy claim: calls ``mechanism(data, rng)`` ``runs`` times on
    ``dataset`` (D) and ``runs`` times on ``neighbour`` (D'), alternately, where ``rng`` is a NumPy ``Generator``
    (one per side, both from ``seed``: the same seed gives the same result), and puts the outputs through the
    threshold test of ``dpledger audit --samples`` against ``epsilon`` (at ``delta``, default 0) or the
    Gaussian-DP ``mu``.

    Each call returns one output: a number, or a 1-D array of numbers (the same length every call) made a number
    by ``projection``: a 1-based coordinate ``K`` or ``"coord:K"``, weights (a sequence or ``"weights:w1,..."``,
    the dot product), or a callable taking the output and returning a number. NumPy data sets are passed
    read-only. Returns a :class:`CodeAuditResult`; ``verdict`` is ``"pass"``, ``"violation"`` (the certified
    lower bound at ``confidence`` exceeds the claim) or ``"inconclusive"`` (no violation, but the runs could not
    resolve the claim within ``tolerance``: add runs). Exceptions raised by the mechanism propagate unchanged.
    """
    import numpy as np
    if not callable(mechanism):
        raise TypeError(f"mechanism must be a function mechanism(data, rng), got {type(mechanism).__name__}")
    runs = _count("runs", runs, 2, MAX_AUDIT_RUNS)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed={seed} is out of range: allowed integers >= 0")
    if epsilon is None and mu is None:
        raise ValueError("give the claim: epsilon= (with delta=, default 0) or mu= (Gaussian-DP)")
    eps_text = None if epsilon is None else _claim_number("epsilon", epsilon, 0.0, math.inf, False, True)
    delta_text = None if delta is None else _claim_number("delta", delta, 0.0, 1.0, False, True)
    mu_text = None if mu is None else _claim_number("mu", mu, 0.0, math.inf, True, True)
    confidence_text = _claim_number("confidence", confidence, 0.0, 1.0, True, True)
    tolerance_text = _claim_number("tolerance", tolerance, 0.0, math.inf, True, True)
    project = _projection(projection)

    generators = [np.random.Generator(np.random.PCG64(s)) for s in np.random.SeedSequence(int(seed)).spawn(2)]
    data = (_read_only(dataset), _read_only(neighbour))
    outputs = ([], [])
    dimension = None
    for run in range(runs):
        for side in (0, 1):
            out = mechanism(data[side], generators[side])
            where = f"mechanism({'dataset' if side == 0 else 'neighbour'}, rng) at run {run + 1}"
            if callable(project):
                value = project(out)
                if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.ndarray)) or np.ndim(value) != 0:
                    raise TypeError(f"projection must return a number; on the output of {where} it returned "
                                    f"{type(value).__name__}")
                value = float(value)
                if not math.isfinite(value):
                    raise ValueError(f"projection returned {value!r} on the output of {where}: allowed finite numbers")
                outputs[side].append(value)
                continue
            if isinstance(out, numbers.Real) and not isinstance(out, bool):
                x = float(out)
                size = 1
            else:
                try:
                    x = np.asarray(out, dtype=np.float64)
                except (TypeError, ValueError):
                    raise TypeError(f"{where} returned {type(out).__name__}: a number or a 1-D array of numbers is "
                                    f"required") from None
                if x.ndim > 1:
                    raise ValueError(f"{where} returned an array of shape {x.shape}: a number or a 1-D array is "
                                     f"required")
                size = x.size
                if size == 0:
                    raise ValueError(f"{where} returned an empty array")
            if dimension is None:
                dimension = size
            elif size != dimension:
                raise ValueError(f"{where} returned {size} numbers, the first call returned {dimension}")
            if size == 1:
                x = float(x) if isinstance(x, float) else float(x.reshape(-1)[0])
                finite = math.isfinite(x)
            else:
                finite = bool(np.all(np.isfinite(x)))
            if not finite:
                raise ValueError(f"{where} returned {out!r}: allowed finite numbers")
            outputs[side].append(x)
    d, dprime = (_output_values(o, project, dimension or 1) for o in outputs)
    result = _dpledger.audit_samples(d, dprime, eps_text, delta_text, mu_text, confidence_text, tolerance_text, "")
    result.update(runs=runs, seed=int(seed), output_dimension=1 if callable(project) else dimension)
    return CodeAuditResult(result)
