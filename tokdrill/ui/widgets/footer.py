"""A key footer that shows only the keys that fit on one line, never a key cut in half.

Keys are kept in the order the screen binds them (the keymap lists the most needed first) until
the next one would not fit beside the command-palette key; F1 and the palette list every key.
Which keys fit is decided from their text, so a key widget is made only for a key that is shown,
and a footer whose screen is covered by another waits until its screen is back on top.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from tokdrill.ui.textual_internals import FooterKey, footer_ready, prune_watchers

PALETTE_EXTRA = 2  # the palette key's left border and right padding


def key_width(key_display: str, description: str) -> int:
    """Cells a (non-compact) footer key takes: `` key `` then ``description ``."""
    width = cell_len(key_display) + 2
    if description:
        width += cell_len(description) + 1
    return width


class FittingFooter(Footer):
    """Textual's footer, cut to the keys that fit in its width (recomputed on resize).

    One key is shown per action, the first bound, as Textual's footer does; binding groups are
    not drawn as groups (the app declares none)."""

    def __init__(self) -> None:
        super().__init__(show_command_palette=True)
        self._composed_width = -1
        self._composed_keys: tuple[object, ...] | None = None
        self._stale = False  # something changed while the screen was covered

    def _shown_keys(self) -> tuple[object, ...]:
        """What the footer would show of the screen's bindings now."""
        return tuple(
            (binding.key, binding.action, binding.description, enabled, tooltip)
            for _node, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show
        )

    def _width(self) -> int:
        return self.size.width or self.app.size.width

    def _up_to_date(self) -> bool:
        return self._shown_keys() == self._composed_keys and self._width() == self._composed_width

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Recompose only when the keys shown would change: the screen announces a change of
        bindings on every focus move and every refresh of them, and recomposing mounts and styles
        every key again."""
        if footer_ready(self) and screen is self.screen and self._shown_keys() == self._composed_keys:
            return
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        """Lay the keys out again, once for any number of requests made before it runs, and only
        while the footer's screen is shown: a screen hidden by another (a dialog over it does not
        hide it) catches up when it is back on top. A footer whose screen has closed meanwhile
        does nothing."""
        if not self.is_attached or not self.is_mounted:
            return
        if footer_ready(self) and self._composed_keys is not None and self._up_to_date():
            return
        if self._hidden():
            self._stale = True
            return
        await super().recompose()

    def _hidden(self) -> bool:
        """Whether the footer's screen is out of sight: not in the app's stack, or under an
        opaque screen (a dialog lets the screen under it show through)."""
        stack = self.app.screen_stack
        if self.screen not in stack:
            return True
        return any(screen.styles.background.a == 1 for screen in stack[stack.index(self.screen) + 1 :])

    def _screen_changed(self, screen: Screen[object]) -> None:
        """The app shows another screen: catch up if this one is back and changed meanwhile."""
        if screen is self.screen and self._stale:
            self._stale = False
            self.call_after_refresh(self.recompose)

    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)

    def on_unmount(self) -> None:
        self.app.screen_change_signal.unsubscribe(self)

    def compose(self) -> ComposeResult:
        self._forget_removed_keys()
        width = self._composed_width = self._width()
        if not footer_ready(self):
            return
        self._composed_keys = self._shown_keys()
        shown: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show:
                shown.setdefault(binding.action, (binding, enabled, tooltip))
        self.styles.grid_size_columns = len(shown)
        palette = self._palette_key()
        room = width - (key_width(palette.key_display, palette.description) + PALETTE_EXTRA if palette else 0)
        for binding, enabled, tooltip in shown.values():
            key_display = self.app.get_key_display(binding)
            room -= key_width(key_display, binding.description)
            if room < 0:
                break
            yield FooterKey(
                binding.key, key_display, binding.description, binding.action, disabled=not enabled, tooltip=tooltip
            ).data_bind(compact=Footer.compact)
        if palette:
            yield palette

    def _palette_key(self) -> FooterKey | None:
        """The command palette's key, as Textual's footer draws it at the right end."""
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return None
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if found is None:
            return None
        _node, binding, enabled, _tooltip = found
        return FooterKey(
            binding.key,
            self.app.get_key_display(binding),
            binding.description,
            binding.action,
            classes="-command-palette",
            disabled=not enabled,
            tooltip=binding.tooltip or binding.description,
        )

    def _forget_removed_keys(self) -> None:
        """Drop the ``compact`` watchers of keys no longer mounted. Each key the footer composes
        binds to its ``compact``, and Textual prunes those watchers only when ``compact``
        changes; as the footer recomposes whenever the keys it shows change, the removed keys
        (and the work of restyling them) would otherwise pile up for as long as the app runs."""
        prune_watchers(self, "compact")

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._composed_width:
            self.call_after_refresh(self.recompose)
