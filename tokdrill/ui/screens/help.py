"""The help screen: every key binding, grouped by screen, read from the keymap."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tokdrill.ui import keymap
from tokdrill.ui.text import printable
from tokdrill.ui.widgets.footer import FittingFooter


def bindings_table() -> Table:
    """A table of group, keys, action and binding id for every binding in the keymap."""
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column("where")
    table.add_column("keys", style="bold cyan")
    table.add_column("does")
    table.add_column("id", style="dim")
    for group, entries in keymap.GROUPS.items():
        for i, binding in enumerate(keymap.bindings(entries)):
            table.add_row(
                group if i == 0 else "", binding.key.replace(",", " / "), binding.description, binding.id or ""
            )
    table.add_row("Everywhere", "ctrl+p", "Command palette", "")
    table.add_row("", "ctrl+q", "Quit (drafts are saved)", "")
    return table


class HelpScreen(ModalScreen[None]):
    """Lists the bindings and says what readiness means; Esc or q closes it."""

    BINDINGS = keymap.CLOSE

    def __init__(self, readiness: str) -> None:
        super().__init__()
        self.readiness = readiness

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static("[b]Keys[/b]  (the editor keeps its own: ctrl+a/e/k/u/w/d/z/y/x/c/v, f6, f7)")
            with VerticalScroll(id="help-body"):
                if self.readiness:
                    yield Static(Text.assemble(("Readiness: ", "bold"), printable(self.readiness)), id="help-readiness")
                yield Static(bindings_table())
        yield FittingFooter()

    def action_close(self) -> None:
        self.dismiss(None)
