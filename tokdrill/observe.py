"""Watching the reference implementations run, without changing a line of them.

The retype drills show ``reference_impl``'s source as it is, so the step-through cannot add calls
to it. Instead :func:`observe` runs a reference function under a line tracer
(:func:`sys.settrace`, this thread only) and, each time a watched line of that function has run,
records what a capture function reads from the frame's locals. The function's own result is
returned unchanged (tests compare it with an untraced call).
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any

Capture = Callable[[Mapping[str, Any]], object]


@dataclass(frozen=True, slots=True)
class Watch:
    """After a line of the watched function containing ``line`` has run, record ``capture(locals)``
    under ``name``."""

    name: str
    line: str
    capture: Capture


@dataclass(frozen=True, slots=True)
class Event:
    """One recorded observation, in the order the lines ran."""

    name: str
    value: Any  # whatever the capture read: each walkthrough knows its own shapes


class WatchError(LookupError):
    """A watched line is not (or no longer) in the function's source."""


def _code(func: Callable[..., object]) -> CodeType:
    target = getattr(func, "__func__", func)
    code = getattr(target, "__code__", None)
    if not isinstance(code, CodeType):
        raise WatchError(f"{func!r} has no Python code to watch")
    return code


def _line_numbers(func: Callable[..., object], watches: list[Watch]) -> dict[int, Watch]:
    lines, first = inspect.getsourcelines(getattr(func, "__func__", func))
    found: dict[int, Watch] = {}
    for watch in watches:
        hits = [first + offset for offset, text in enumerate(lines) if watch.line in text]
        if len(hits) != 1:
            raise WatchError(f"{func.__qualname__}: expected one line holding {watch.line!r}, found {len(hits)}")
        found[hits[0]] = watch
    return found


def observe(func: Callable[..., Any], *args: object, watches: list[Watch], **kwargs: object) -> tuple[Any, list[Event]]:
    """Call ``func(*args, **kwargs)`` and return its result with the events of ``watches``."""
    code = _code(func)
    by_line = _line_numbers(func, watches)
    events: list[Event] = []
    pending: dict[int, Watch] = {}  # frame id -> the watched line that has just started

    def local(frame: FrameType, event: str, arg: object) -> Any:
        if event in ("line", "return"):
            waiting = pending.pop(id(frame), None)
            if waiting is not None:
                events.append(Event(waiting.name, waiting.capture(frame.f_locals)))
            if event == "line" and frame.f_lineno in by_line:
                pending[id(frame)] = by_line[frame.f_lineno]
        return local

    def global_(frame: FrameType, event: str, arg: object) -> Any:
        return local if event == "call" and frame.f_code is code else None

    previous = sys.gettrace()
    sys.settrace(global_)
    try:
        result = func(*args, **kwargs)
    finally:
        sys.settrace(previous)
    return result, events
