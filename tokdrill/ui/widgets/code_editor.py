"""The drill editor: Textual's code editor plus Enter that keeps (and extends) indentation."""

from __future__ import annotations

from textual import events
from textual.reactive import reactive
from textual.widgets import TextArea

INDENT = "    "

# Editing keys that TextArea handles through bindings. Bindings run only once the key has
# bubbled up to the app, so under fast typing a backspace could land after characters typed
# later; the editor runs these itself, in the order the keys arrived.
IN_ORDER_KEYS: dict[str, str] = {
    "backspace": "delete_left",
    "delete": "delete_right",
    "left": "cursor_left",
    "right": "cursor_right",
    "up": "cursor_up",
    "down": "cursor_down",
    "home": "cursor_line_start",
    "end": "cursor_line_end",
}


def next_line_indent(line_before_cursor: str) -> str:
    """Indentation for a new line typed after ``line_before_cursor``: the same, plus one level
    after a line that opens a block (ends with ``:`` once comments and spaces are stripped)."""
    stripped = line_before_cursor.lstrip(" \t")
    indent = line_before_cursor[: len(line_before_cursor) - len(stripped)]
    code = stripped.split("#", 1)[0].rstrip()
    if code.endswith(":"):
        indent += INDENT
    return indent


class CodeEditor(TextArea):
    """A Python code editor; with ``auto_indent`` on, Enter carries the indentation forward.

    Retyping exact whitespace is part of some drills, so auto-indent can be switched off.
    """

    auto_indent: reactive[bool] = reactive(True)

    def __init__(self, text: str = "", *, auto_indent: bool = True, id: str | None = None) -> None:
        super().__init__(
            text,
            language="python",
            theme="monokai",
            soft_wrap=False,
            tab_behavior="indent",
            show_line_numbers=True,
            id=id,
        )
        self.indent_width = 4
        self.set_reactive(CodeEditor.auto_indent, auto_indent)

    async def on_key(self, event: events.Key) -> None:
        """Enter (with auto-indent on) and the editing keys in :data:`IN_ORDER_KEYS` are handled
        here, in the order keys arrive, before TextArea's own handler runs."""
        if event.key == "enter" and self.auto_indent and not self.read_only:
            event.stop()
            event.prevent_default()
            self.action_newline()
            return
        action = IN_ORDER_KEYS.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(action)

    def action_newline(self) -> None:
        """Insert a line break, indented like the line above when auto-indent is on."""
        if self.read_only:
            return
        start, end = self.selection
        indent = ""
        if self.auto_indent:
            top = min(start, end)
            line = self.document.get_line(top[0])[: top[1]]
            indent = next_line_indent(line)
        self.replace("\n" + indent, start, end, maintain_selection_offset=False)
        self.scroll_cursor_visible()
