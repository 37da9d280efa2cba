"""Where a typed key goes when the focused widget is not the one that should take it.

A screen that sends typed keys to a field other than the focused one (Browse's type to search)
implements :class:`RoutesKeys`: the app asks it where each key belongs before sending the key on,
so the keys of a burst cannot overtake one another on different ways to the field (see
:mod:`tokdrill.ui.widgets.in_order` for why the order of keys matters).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from textual import events


@runtime_checkable
class RoutesKeys(Protocol):
    """A screen that may move focus to where a key belongs before the app sends the key on."""

    def route_key(self, event: events.Key) -> bool:
        """Focus the widget that should receive ``event`` (or leave focus where it is); True
        when the screen took the key itself and the app should not send it on."""
