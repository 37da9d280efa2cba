"""Text fields that apply their editing keys in the order the keys arrive.

Textual runs a widget's own key bindings (backspace, delete, arrows, home, end, enter in a field)
only after the key has bubbled up to the app, while typed characters go in at once; under a burst
of keys (a fast typist, a busy machine) a backspace could then land after the characters typed
after it, or a character be lost. These fields run their own bound keys as each key arrives
(and :class:`tokdrill.ui.key_routing.RoutesKeys` keeps keys in order when a screen sends them
to a field that is not focused).
"""

from __future__ import annotations

from textual import events
from textual.widget import Widget
from textual.widgets import Input

from tokdrill.ui.textual_internals import key_bindings
from tokdrill.ui.widgets.safe_history import SafeHistory


async def run_own_binding(widget: Widget, event: events.Key) -> bool:
    """Run ``widget``'s own binding for ``event``'s key now; False when it binds no such key."""
    bindings = key_bindings(widget).get(event.key)
    if not bindings:
        return False
    action = bindings[0].action
    if widget.check_action(action, ()) is False:
        return False
    event.stop()
    event.prevent_default()
    await widget.run_action(action)
    return True


class InOrderInput(Input):
    """Textual's Input, its editing keys applied in the order they arrive."""

    async def _on_key(self, event: events.Key) -> None:
        if not await run_own_binding(self, event):
            await super()._on_key(event)


class InOrderTextArea(SafeHistory):
    """Textual's TextArea, its editing keys applied in the order they arrive."""

    async def _on_key(self, event: events.Key) -> None:
        if self.read_only or not await run_own_binding(self, event):
            await super()._on_key(event)
