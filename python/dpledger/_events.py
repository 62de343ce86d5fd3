# SPDX-License-Identifier: Apache-2.0
"""dp_accounting DpEvents and Opacus histories as the ledger files the C++ reader takes (docs/ledger_files.md).

An event is recognised by its class name and its attributes, so Google's dp_accounting classes, their
``to_named_tuple()`` forms and :mod:`dpledger.dp_accounting.dp_event`'s stand-ins all work, and dp_accounting need
not be installed. The tree is written as JSON (``class_name`` and every field) and read by the library's ledger
reader, which knows the classes it can account: a class it learns later needs no change here.
"""

import dataclasses
import enum
import json
import math
import numbers

from . import _dpledger

__all__ = ["is_dp_event", "class_name", "event_fields", "event_to_json", "event_specs", "history_specs"]


def class_name(obj):
    """The DpEvent class name of an event object or of its ``to_named_tuple()`` form."""
    name = getattr(obj, "class_name", None)
    if isinstance(name, bytes):
        name = name.decode()
    return name if isinstance(name, str) else type(obj).__name__


def is_dp_event(obj):
    """Whether obj looks like a dp_accounting DpEvent (its class name ends in ``DpEvent``)."""
    return not isinstance(obj, (str, bytes, numbers.Number)) and class_name(obj).endswith("DpEvent")


def event_fields(event):
    """The field names of an event: attrs fields, dataclass fields, named-tuple fields, or its public attributes."""
    attrs_fields = getattr(type(event), "__attrs_attrs__", None)
    if attrs_fields is not None:
        return [a.name for a in attrs_fields]
    if dataclasses.is_dataclass(event):
        return [f.name for f in dataclasses.fields(event)]
    named = getattr(event, "_fields", None)
    if named is not None:
        return [f for f in named if f not in ("module_name", "class_name")]
    slots = []
    for cls in type(event).__mro__:
        s = getattr(cls, "__slots__", ())
        slots.extend([s] if isinstance(s, str) else s)
    names = list(getattr(event, "__dict__", {}).keys()) + slots
    return [n for n in dict.fromkeys(names) if not n.startswith("_")]


def _value(v, where, depth=0):
    # Nested deeper than the ledger reader accepts (or a cycle): refused here, before Python's recursion limit.
    if depth > _dpledger.max_json_depth:
        shown = where if len(where) <= 120 else where[:120] + "..."
        raise ValueError(f"{shown}: nested deeper than {_dpledger.max_json_depth} levels (the limit of ledger files)")
    if is_dp_event(v):
        return event_to_json(v, depth + 1)
    if isinstance(v, bool):
        return v
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, numbers.Real):
        x = float(v)
        if math.isnan(x):
            raise ValueError(f"{where}: must be a number, got nan")
        return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")  # the ledger's spelling of infinity
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, enum.Enum):
        return v.name
    if isinstance(v, dict):
        return {str(k): _value(x, f"{where}[{str(k)[:40]!r}]", depth + 1) for k, x in v.items()}
    if hasattr(v, "__iter__"):
        return [_value(x, f"{where}[{i}]", depth + 1) for i, x in enumerate(v)]
    raise ValueError(f"{where}: cannot read a {type(v).__name__}")


def event_to_json(event, depth=0):
    """The event tree as a JSON-ready dict: ``class_name`` and every field, nested events likewise."""
    name = class_name(event)
    out = {"class_name": name}
    for field in event_fields(event):
        out[field] = _value(getattr(event, field), f"{name}.{field}", depth + 1)
    return out


def event_specs(events, source="dp_event"):
    """The ``-m`` specs of one event or a list of events, as ``dpledger compose --ledger`` reads their JSON.
    A tree with nothing to account (NoOpDpEvent, count 0) gives an empty list."""
    trees = [event_to_json(e) for e in (events if isinstance(events, (list, tuple)) else [events])]
    try:
        return _dpledger.ledger_text_specs(json.dumps(trees), source)
    except ValueError as e:
        if "the ledger has no entry with a privacy cost" in str(e):
            return []
        raise


def history_specs(history, source="history"):
    """The ``-m`` specs of an Opacus accountant history ``[(noise_multiplier, sample_rate, num_steps), ...]``."""
    items = []
    for i, item in enumerate(history):
        try:
            nm, q, steps = item
        except (TypeError, ValueError):
            raise ValueError(f"{source} item {i + 1}: an Opacus history item is (noise_multiplier, sample_rate, "
                             f"num_steps), got {item!r}") from None
        items.append([_value(nm, f"{source} item {i + 1} noise_multiplier"),
                      _value(q, f"{source} item {i + 1} sample_rate"),
                      _value(steps, f"{source} item {i + 1} num_steps")])
    if not items:
        return []
    return _dpledger.ledger_text_specs(json.dumps(items), source)
