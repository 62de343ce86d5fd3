# SPDX-License-Identifier: Apache-2.0
"""The Python API over dpledger's libraries: compose, calibrate, rdp, running budgets, audits of samples, check.

Each function passes the mechanisms as spec strings and the targets as decimal strings into the same C++ entry
points the CLI commands call, with the GIL released while they compute. Results carry the floats that
``dpledger --json`` prints (a bound is the CLI's certified decimal, rounded in the safe direction) and ``str()``
of a result is the CLI's text output. Errors raise ValueError with the CLI's message
(:class:`NotApplicableError` when the chosen accountant cannot answer).
"""

import decimal
import math
import numbers
import os
import re

from . import _dpledger
from ._events import event_specs, is_dp_event
from .mechanisms import as_spec

NotApplicableError = _dpledger.NotApplicableError

__all__ = ["compose", "calibrate", "rdp", "running", "audit_samples", "check", "list_claims", "ComposeResult",
           "CalibrationResult", "RdpResult", "RunningResult", "AuditResult", "CheckResult", "NotApplicableError",
           "DEFAULT_RDP_ORDERS", "number_text", "mechanism_specs", "python_terms"]

# `dpledger rdp`'s default --orders.
DEFAULT_RDP_ORDERS = (1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20, 24, 32, 48, 64, 128,
                      256, 512, 1024, math.inf)


# The CLI's options named as the Python arguments that carry them, in error messages.
_PYTHON_ARGUMENTS = {"--delta": "delta", "--epsilon": "epsilon", "--tolerance": "tolerance", "--orders": "orders",
                     "--accountant": "accountant", "--ledger": "ledgers", "--every": "every", "--mu": "mu",
                     "--confidence": "confidence", "--samples": "samples", "--set": "set",
                     "-m SPEC (repeatable)": "mechanisms", "--ledger FILE": "ledgers"}
_SPEC_FLAG = re.compile(r"(?<![\w-])-m (?=\S)")
_FLAG = re.compile(r"(?<![\w-])(-m SPEC \(repeatable\)|--ledger FILE|--[a-z][a-z-]*)")


def python_terms(message, rename=None):
    """A message of the library (worded for the CLI) with each option named as its Python argument (``rename``:
    further {option: argument} pairs, e.g. ``{"--delta": "target_delta"}``)."""
    names = dict(_PYTHON_ARGUMENTS, **(rename or {}))
    message = _FLAG.sub(lambda m: names.get(m.group(1), m.group(1)), message)
    return _SPEC_FLAG.sub("mechanism ", message)  # "-m gaussian:sigma=-1: ..." names the spec


def call_in_python_terms(fn, *args, rename=None):
    """fn(*args), its ValueError (or NotApplicableError) reworded by :func:`python_terms`."""
    try:
        return fn(*args)
    except ValueError as e:
        raise type(e)(python_terms(str(e), rename)) from None


def number_text(name, value):
    """The decimal a number stands for, as the CLI would receive it: strings as typed, floats as the shortest
    decimal that reads back as the same float (so 1e-5 is the decimal 1e-5, not 1.0000000000000000818e-05)."""
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{name}={value!r}: a number is required")
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, numbers.Real):
        return repr(float(value))
    raise ValueError(f"{name}={value!r}: a number is required")


def _read_ledger_file(path):
    # Read by the library, as --ledger reads it (the same size limits; a device such as /dev/zero stops at them).
    return call_in_python_terms(_dpledger.ledger_file_specs, os.fspath(path))


def mechanism_specs(mechanisms, ledgers=()):
    """The spec strings of ``mechanisms`` (one or a list of spec strings, :class:`dpledger.Mechanism` objects and
    dp_accounting DpEvents) followed by the entries of the ledger files ``ledgers`` (paths, as ``--ledger``)."""
    if mechanisms is None:
        mechanisms = []
    elif isinstance(mechanisms, str) or not hasattr(mechanisms, "__iter__") or is_dp_event(mechanisms):
        mechanisms = [mechanisms]
    specs = []
    for m in mechanisms:
        if is_dp_event(m):
            specs.extend(event_specs(m))
        else:
            specs.append(as_spec(m))
    if isinstance(ledgers, (str, os.PathLike)):
        ledgers = [ledgers]
    for path in ledgers:
        specs.extend(_read_ledger_file(path))
    if not specs:
        raise ValueError(python_terms("no mechanism: give -m SPEC (repeatable) and/or --ledger FILE"))
    return specs


def _target(delta, epsilon, command):
    if (delta is None) == (epsilon is None):
        raise ValueError(f"{command}: give exactly one of delta= (for the epsilon bound) or epsilon= (for the "
                         f"delta bound)")
    return ("delta", number_text("delta", delta)) if delta is not None else ("epsilon", number_text("epsilon", epsilon))


class _Result:
    """Fields from the extension's dict as attributes; ``str()`` is the CLI's text output."""

    _fields = ()

    def __init__(self, d):
        self.__dict__.update(d)

    def __str__(self):
        return self.text.rstrip("\n")

    def __repr__(self):
        shown = ", ".join(f"{k}={getattr(self, k)!r}" for k in self._fields)
        return f"{type(self).__name__}({shown})"

    def as_dict(self):
        """The fields as a plain dict (what ``dpledger --json`` prints, for the fields it has)."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


class ComposeResult(_Result):
    """The bound of :func:`compose`: ``epsilon`` and ``delta`` (the one not given is the certified upper bound,
    rounded up as the CLI prints it), ``lower`` (a certified lower bound on the true value, or None),
    ``accountant`` (the one that gave the bound; ``auto`` resolved), ``order`` (Renyi order, rdp only), ``method``,
    ``mechanisms`` (the resolved specs). ``per_accountant`` has every accountant's own answer."""

    _fields = ("epsilon", "delta", "lower", "accountant", "order")

    def __init__(self, d, specs):
        super().__init__(d)
        self._specs = specs
        self._per_accountant = None

    @property
    def bound(self):
        """The certified upper bound: epsilon for a delta target, delta for an epsilon target."""
        return self.epsilon if self.given == "delta" else self.delta

    @property
    def epsilon_lower(self):
        return self.lower if self.given == "delta" else None

    @property
    def delta_lower(self):
        return self.lower if self.given == "epsilon" else None

    def _compute_per_accountant(self):
        if self._per_accountant is None:
            value = number_text(self.given, self.delta if self.given == "delta" else self.epsilon)
            results, reasons = {}, {}
            for name in _dpledger.accountants():
                if name == self.accountant and self.accountant_requested in (name, "auto"):
                    results[name] = self
                    continue
                try:
                    results[name] = ComposeResult(call_in_python_terms(_dpledger.compose, self._specs, self.given,
                                                                         value, name), self._specs)
                except NotApplicableError as e:
                    reasons[name] = str(e)
            self._per_accountant = (results, reasons)
        return self._per_accountant

    @property
    def per_accountant(self):
        """{accountant: ComposeResult} for every accountant that applies (computed on first use: the same as
        ``dpledger compose --accountant NAME``)."""
        return self._compute_per_accountant()[0]

    @property
    def not_applicable(self):
        """{accountant: reason} for the accountants that do not apply to this ledger and target."""
        return self._compute_per_accountant()[1]


def compose(mechanisms=None, *, delta=None, epsilon=None, accountant="auto", ledgers=()):
    """The privacy budget of a composition (``dpledger compose``): the epsilon bound for ``delta=``, or the delta
    bound for ``epsilon=``.

    ``mechanisms``: spec strings (``"gaussian:sigma=1.1,q=0.01,steps=10000"``), :class:`dpledger.Mechanism`
    objects, dp_accounting DpEvents, or a list of them, composed in order; ``ledgers``: ledger files as
    ``--ledger`` reads them. ``accountant``: pure, basic, advanced, optimal, rdp, pld or auto (the tightest that
    applies). Returns a :class:`ComposeResult`.
    """
    specs = mechanism_specs(mechanisms, ledgers)
    given, value = _target(delta, epsilon, "compose")
    return ComposeResult(call_in_python_terms(_dpledger.compose, specs, given, value, str(accountant)), specs)


class CalibrationResult(_Result):
    """The answer of :func:`calibrate`: ``parameter`` (sigma, b, steps, q, eps or a), ``value`` (certified to meet
    the target), ``objective`` (smallest or largest), ``epsilon_at_value`` (the accountant's bound there),
    ``failing_value`` (the bracket's other end, not certified), ``accountant``, ``mechanisms`` (with the value
    substituted), ``evaluations``, ``tolerance``."""

    _fields = ("parameter", "value", "objective", "epsilon_at_value", "accountant")

    def __init__(self, d):
        super().__init__(d)
        if self.parameter == "steps":  # an integer count
            self.value = int(self.value)
            if self.failing_value is not None:
                self.failing_value = int(self.failing_value)


def calibrate(mechanisms=None, *, epsilon, delta, accountant="auto", tolerance=0, ledgers=()):
    """The best value of the one ``?`` in the specs that still meets (``epsilon``, ``delta``): the smallest sigma
    or b, the largest steps, q or eps (``dpledger calibrate``), e.g.
    ``calibrate(Gaussian(sigma="?", q=0.01, steps=10_000), epsilon=1, delta=1e-5)``."""
    specs = mechanism_specs(mechanisms, ledgers)
    return CalibrationResult(call_in_python_terms(_dpledger.calibrate, specs, number_text("epsilon", epsilon),
                                                  number_text("delta", delta), str(accountant),
                                                  number_text("tolerance", tolerance)))


class RdpResult(_Result):
    """The composed Renyi-DP curve: ``orders`` and ``rdp`` (NumPy arrays; upper bounds rounded up as the CLI
    prints them), ``texts`` (the printed decimals). Unpacks as ``orders, rdp``."""

    _fields = ("orders", "rdp")

    def __iter__(self):
        return iter((self.orders, self.rdp))

    @property
    def text(self):
        lines = [f"{'order':<12}RDP epsilon (upper bound, rounded up)"]
        lines += [f"{o:<12}{t}" for o, t in zip(self.order_texts, self.texts)]
        return "\n".join(lines) + "\n"


def rdp(mechanisms=None, orders=None, *, ledgers=()):
    """The Renyi-DP curve of the composition at ``orders`` (array-like, each in (1, 1e7] or inf; default: those of
    ``dpledger rdp``), as a :class:`RdpResult` of NumPy arrays."""
    import numpy as np
    specs = mechanism_specs(mechanisms, ledgers)
    a = np.asarray(DEFAULT_RDP_ORDERS if orders is None else orders, dtype=np.float64)
    if a.ndim == 0:
        a = a.reshape(1)
    values, texts, resolved = call_in_python_terms(_dpledger.rdp, specs, a)
    order_texts = [_dpledger.format_input(float(x)) for x in a]
    return RdpResult({"orders": a.copy(), "rdp": values, "texts": texts, "order_texts": order_texts,
                      "mechanisms": resolved})


class RunningResult(_Result):
    """The running budget (privacy odometer) of a ledger: at each checkpoint (``steps``, the 1-based ``entry``
    and ``steps_in_entry``; NumPy arrays) the certified epsilon of every accountant that applies
    (``epsilon[name]``, NaN where a slow accountant was not evaluated); each column is non-decreasing and ends at
    compose's value. ``not_applicable``: "accountant: reason"."""

    _fields = ("steps", "epsilon")

    @property
    def text(self):
        names = list(self.epsilon)
        lines = ["checkpoint  entry  steps" + "".join("  " + n for n in names)]
        for i in range(len(self.steps)):
            row = f"{i + 1}  {self.entry[i]}  {self.steps[i]}"
            for n in names:
                v = self.epsilon[n][i]
                row += "  " + ("-" if math.isnan(v) else repr(float(v)))
            lines.append(row)
        lines += [f"not applicable: {r}" for r in self.not_applicable]
        return "\n".join(lines) + "\n"


def running(mechanisms=None, *, delta, accountant="auto", every=0, ledgers=()):
    """The running epsilon after each ledger entry, and every ``every`` steps inside one (0: entries only), for
    every accountant that applies (``dpledger compose --running``)."""
    specs = mechanism_specs(mechanisms, ledgers)
    if isinstance(every, bool) or not isinstance(every, numbers.Integral) or not 0 <= every <= 2**63 - 1:
        raise ValueError(f"every={every!r} is out of range: allowed integers [0, 9223372036854775807]")
    return RunningResult(call_in_python_terms(_dpledger.running, specs, number_text("delta", delta), str(accountant),
                                              int(every)))


class AuditResult(_Result):
    """The threshold audit of a claim on two sets of outputs: ``verdict`` (pass, violation or inconclusive),
    ``epsilon_lower`` (certified at the confidence; rounded down), ``epsilon_estimate``, ``epsilon_claimed``,
    ``mu_lower``/``mu_claimed``/``mu_estimate`` for a Gaussian-DP claim, ``resolution`` and ``detectable`` (the
    smallest violation the run could see), ``event`` (the chosen threshold event and its counts)."""

    _fields = ("verdict", "audited", "epsilon_lower", "epsilon_claimed", "detectable")

    @property
    def text(self):
        unit = self.audited
        lines = [f"verdict          {self.verdict.upper()} (confidence {self.confidence!r})",
                 f"epsilon_lower    {self.epsilon_lower!r}   (lower bound, delta {self.delta!r})",
                 f"epsilon_claimed  {self.epsilon_claimed!r}"]
        if self.mu_lower is not None:
            lines.insert(1, f"mu_lower         {self.mu_lower!r}   (Gaussian-DP mu, lower bound)")
        lines.append(f"detectable       {unit} > {self.detectable!r}")
        e = self.event
        lines.append(f"event            output {'<=' if e['tail'] == 'left' else '>'} {e['threshold']!r}, likelier "
                     f"under {e['likelier_under']}: {e['count_p']}/{e['n_p']} vs {e['count_q']}/{e['n_q']}")
        return "\n".join(lines) + "\n"


def _projection_text(projection):
    if projection is None:
        return ""
    if isinstance(projection, str):
        return projection
    if isinstance(projection, numbers.Integral) and not isinstance(projection, bool):
        return f"coord:{int(projection)}"
    return "weights:" + ",".join(number_text("weight", w) for w in projection)


def audit_samples(samples, neighbour_samples, *, epsilon=None, delta=None, mu=None, confidence=0.95, tolerance=0.1,
                  projection=None):
    """Audits your mechanism's outputs on neighbouring datasets D (``samples``) and D' (``neighbour_samples``):
    NumPy arrays, one output per element (1-D) or one output vector per row (2-D, with ``projection``: a 1-based
    column K, ``"coord:K"``, a sequence of weights or ``"weights:w1,w2,..."``), against the claim ``epsilon``
    (at ``delta``) or Gaussian-DP ``mu`` (``dpledger audit --samples``). The first half of each array chooses
    the event, the second half estimates it. Returns an :class:`AuditResult` (the verdict is data, not an
    exception)."""
    import numpy as np
    opt = lambda name, v: None if v is None else number_text(name, v)  # noqa: E731
    return AuditResult(_dpledger.audit_samples(
        np.asarray(samples, dtype=np.float64), np.asarray(neighbour_samples, dtype=np.float64), opt("epsilon", epsilon),
        opt("delta", delta), opt("mu", mu), number_text("confidence", confidence), number_text("tolerance", tolerance),
        _projection_text(projection)))


class CheckResult(_Result):
    """The proofs-check: ``claims`` (one dict per claim: id, source, statement, expected, status, claimed,
    computed, counterexample, reproduce, as_expected, ...), ``summary`` per paper, ``all_as_expected``,
    ``report`` (Markdown)."""

    _fields = ("all_as_expected",)

    @property
    def text(self):
        lines = [f"{'claim':<30}{'expected':<14}{'status':<14}computed"]
        for c in self.claims:
            status = c["status"] + ("" if c["as_expected"] else " (!)")
            computed = c["computed"] if len(c["computed"]) <= 90 else c["computed"][:87] + "..."
            lines.append(f"{c['id']:<30}{c['expected']:<14}{status:<14}{computed}")
        lines.append("every claim has its expected status" if self.all_as_expected
                     else "SOME CLAIMS DIFFER FROM THEIR EXPECTED STATUS")
        return "\n".join(lines) + "\n"


def check(claims=None, *, quick=False, seed=20261123, set=None):  # noqa: A002 (the CLI's --set)
    """Recomputes the numbered claims of the seed papers (``dpledger check``): all, or the given ids / paper
    prefixes; ``set={"name": value}`` overrides a claimed constant. Returns a :class:`CheckResult`."""
    selectors = [claims] if isinstance(claims, str) else list(claims or [])
    sets = {str(k): number_text(f"--set {k}", v) for k, v in (set or {}).items()}
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"--seed {seed!r}: an integer >= 0 is required")
    return CheckResult(_dpledger.check(selectors, bool(quick), int(seed), sets))


def list_claims(claims=None):
    """The claims (id, source, location, statement, expected status, constants) without running them."""
    selectors = [claims] if isinstance(claims, str) else list(claims or [])
    return _dpledger.claims(selectors)
