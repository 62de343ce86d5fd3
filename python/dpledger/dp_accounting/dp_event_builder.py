# SPDX-License-Identifier: Apache-2.0
"""DpEventBuilder: the composition of a series of events as one event (as dp_accounting's builder: NoOp events
dropped, self-compositions flattened, equal consecutive events merged into a SelfComposedDpEvent)."""

import sys

from . import dp_event as _stand_ins
from .._events import class_name

__all__ = ["DpEventBuilder"]


def _classes_like(event):
    """The event classes of the library `event` comes from (dp_accounting's own, when its events are used)."""
    module = sys.modules.get(type(event).__module__) if event is not None else None
    if module is not None and all(hasattr(module, n) for n in ("ComposedDpEvent", "SelfComposedDpEvent", "NoOpDpEvent")):
        return module
    return _stand_ins


class DpEventBuilder:
    def __init__(self):
        self._event_counts = []
        self._composed_event = None

    def compose(self, event, count=1):
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"`count` must be an integer. Found {type(count)}.")
        if count < 1:
            raise ValueError(f"`count` must be positive. Found {count}.")
        name = class_name(event)
        if name == "NoOpDpEvent":
            return
        if name == "SelfComposedDpEvent":
            self.compose(event.event, count * event.count)
            return
        if self._event_counts and self._event_counts[-1][0] == event:
            self._event_counts[-1] = (event, self._event_counts[-1][1] + count)
        else:
            self._event_counts.append((event, count))
        self._composed_event = None

    def build(self):
        if self._composed_event is None:
            classes = _classes_like(self._event_counts[0][0] if self._event_counts else None)
            events = [e if c == 1 else classes.SelfComposedDpEvent(e, c) for e, c in self._event_counts]
            if not events:
                self._composed_event = classes.NoOpDpEvent()
            elif len(events) == 1:
                self._composed_event = events[0]
            else:
                self._composed_event = classes.ComposedDpEvent(events)
        return self._composed_event
