"""A key footer that shows only the keys that fit on one line, never a key cut in half.

Keys are kept in the order the screen binds them (the keymap lists the most needed first) until
the next one would not fit beside the command-palette key; F1 and the palette list every key.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from tokdrill.ui.textual_internals import FooterKey, footer_ready

PALETTE_EXTRA = 2  # the palette key's left border and right padding


def key_width(key: FooterKey) -> int:
    """Cells a (non-compact) footer key takes: `` key `` then ``description ``."""
    width = cell_len(key.key_display) + 2
    if key.description:
        width += cell_len(key.description) + 1
    return width


def fitting(keys: list[FooterKey], width: int) -> list[FooterKey]:
    """The leading ``keys`` whose widths add up to at most ``width`` (in order, none skipped)."""
    kept: list[FooterKey] = []
    for key in keys:
        width -= key_width(key)
        if width < 0:
            break
        kept.append(key)
    return kept


class FittingFooter(Footer):
    """Textual's footer, cut to the keys that fit in its width (recomputed on resize)."""

    def __init__(self) -> None:
        super().__init__(show_command_palette=True)
        self._composed_width = -1
        self._composed_keys: tuple[object, ...] | None = None

    def _shown_keys(self) -> tuple[object, ...]:
        """What the footer would show of the screen's bindings now."""
        return tuple(
            (binding.key, binding.action, binding.description, enabled, tooltip)
            for _node, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Recompose only when the keys shown would change: the screen announces a change of
        bindings on every focus move and every refresh of them, and recomposing mounts and styles
        every key again."""
        if footer_ready(self) and screen is self.screen and self._shown_keys() == self._composed_keys:
            return
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        self._forget_removed_keys()
        if footer_ready(self):
            self._composed_keys = self._shown_keys()
        children = list(super().compose())
        width = self.size.width or self.app.size.width
        self._composed_width = width
        palette = [c for c in children if isinstance(c, FooterKey) and c.has_class("-command-palette")]
        keys = [c for c in children if isinstance(c, FooterKey) and c not in palette]
        room = width - sum(key_width(p) + PALETTE_EXTRA for p in palette)
        yield from fitting(keys, room)
        yield from palette

    def _forget_removed_keys(self) -> None:
        """Drop the ``compact`` watchers of keys no longer mounted. Each key the footer composes
        binds to its ``compact``, and Textual prunes those watchers only when ``compact``
        changes; as the footer recomposes whenever the keys it shows change, the removed keys
        (and the work of restyling them) would otherwise pile up for as long as the app runs."""
        watchers = getattr(self, "__watchers", {}).get("compact")
        if watchers:
            watchers[:] = [(node, callback) for node, callback in watchers if node.is_attached]

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._composed_width:
            self.call_after_refresh(self.recompose)
