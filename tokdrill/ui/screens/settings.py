"""Settings: new items per day, retention, auto-indent, the interview date, mock length and time
zone, changed in place. Values are read and checked by :mod:`tokdrill.progress.settings`, the
same as ``tokdrill config`` does; a refused value says why beside the field and nothing changes."""

from __future__ import annotations

from datetime import date

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Checkbox, Input, Label, Static

from tokdrill.backend import Backend
from tokdrill.progress import settings as keys
from tokdrill.ui import keymap
from tokdrill.ui.messages import SettingsChanged
from tokdrill.ui.screens.dialogs import interview_date_problem
from tokdrill.ui.text import plain
from tokdrill.ui.widgets.footer import FittingFooter
from tokdrill.ui.widgets.in_order import InOrderInput
from tokdrill.ui.widgets.on_off import OnOffBox

FIELDS: dict[str, str] = {
    keys.NEW_CARDS_PER_DAY: "New cards per day",
    keys.NEW_DRILLS_PER_DAY: "New drills per day",
    keys.DESIRED_RETENTION: "Desired retention",
    keys.AUTO_INDENT: "Auto-indent in drills",
    keys.INTERVIEW_DATE: "Interview date",
    keys.MOCK_MINUTES: "Mock interview minutes",
    keys.TIMEZONE: "Time zone",
    keys.TOKEN_PRICE: "Price per 1M tokens",
}


def field_text(value: keys.SettingValue) -> str:
    """What a field shows for ``value`` (empty for no value)."""
    return "" if value is None else keys.setting_text(value)


class SettingsScreen(Screen[None]):
    """One row per setting: Enter (or leaving the field) saves it, Space toggles auto-indent."""

    BINDINGS = keymap.SETTINGS

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        self.backend = backend

    def compose(self) -> ComposeResult:
        yield Static("[b]Settings[/b] · the same settings as `tokdrill config`", id="settings-title")
        with VerticalScroll(id="settings-body"):
            for key, label in FIELDS.items():
                value = self.backend.setting(key)
                with Horizontal(classes="setting-row"):
                    yield Label(label, classes="setting-label")
                    if key == keys.AUTO_INDENT:
                        yield OnOffBox(value is True, id=f"field-{key}")
                    else:
                        yield InOrderInput(field_text(value), compact=True, id=f"field-{key}")
                    yield Static("", id=f"status-{key}", classes="setting-status")
                yield Static(keys.DESCRIPTIONS[key], classes="setting-help")
        yield Static("Enter saves a field · Tab moves to the next · Esc goes back", id="settings-hint")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.query_one(f"#field-{keys.NEW_CARDS_PER_DAY}", Input).focus()

    def save(self, key: str, text: str) -> bool:
        """Check and keep ``text`` as the value of ``key``; says beside the field what happened."""
        status = self.query_one(f"#status-{key}", Static)
        try:
            value = keys.setting_from_text(key, text)
        except ValueError as exc:
            status.update(plain(f"✗ {exc}", "bold red"))
            return False
        if key == keys.INTERVIEW_DATE and isinstance(value, str) and value != self.backend.setting(key):
            today = self.backend.local_day(self.backend.clock.now())
            problem = interview_date_problem(date.fromisoformat(value), today)
            if problem is not None:
                status.update(Text(f"✗ {problem}", style="bold red"))
                return False
        if value != self.backend.setting(key):
            self.backend.set_setting(key, value)
            status.update(Text("✓ saved", style="green"))
            self.post_message(SettingsChanged())
        elif str(status.render()).startswith("✗"):
            status.update("")  # back to the value it had: nothing is wrong any more
        field = self.query_one(f"#field-{key}")
        if isinstance(field, Input) and field.value != field_text(value):
            field.value = field_text(value)
        return True

    @staticmethod
    def _key(widget_id: str | None) -> str:
        return (widget_id or "").removeprefix("field-")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.save(self._key(event.input.id), event.value):
            self.focus_next()

    @on(Input.Blurred)
    def _left_field(self, event: Input.Blurred) -> None:
        self.save(self._key(event.input.id), event.value)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.save(self._key(event.checkbox.id), "true" if event.value else "false")

    def action_leave(self) -> None:
        """Back; a field being edited is saved first (a refused value keeps you here)."""
        focused = self.focused
        if isinstance(focused, Input) and not self.save(self._key(focused.id), focused.value):
            return
        self.app.pop_screen()
