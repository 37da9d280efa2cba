"""Every key binding of the app, each with an id so a keymap can remap it.

The drill editor (Textual's TextArea) owns ctrl+a/e/k/u/w/d/z/y/x/c/v, f6 and f7, so the drill
screen's own keys are ctrl+s/t/o/g (not used by the editor) bound with ``priority=True``, and the
app-wide keys are F-keys that work from every screen.
"""

from __future__ import annotations

from textual.binding import Binding

APP = [
    Binding("f1", "help", "Help", id="app.help"),
    Binding("f2", "today", "Today", id="app.today"),
    Binding("f3", "browse", "Browse", id="app.browse"),
    Binding("f4", "stats", "Stats", id="app.stats"),
    Binding("f5", "review", "Review", id="app.review"),
]

HOME = [
    Binding("enter,n", "next", "Start next", id="home.next"),
    Binding("r", "review", "Review cards", id="home.review"),
    Binding("d", "drill", "Pick a drill", id="home.drill"),
    Binding("i", "interview_date", "Interview date", id="home.interview_date"),
    Binding("e", "problems", "Problems", id="home.problems"),
]

DRILL = [
    Binding("ctrl+s", "submit", "Submit", priority=True, id="drill.submit"),
    Binding("ctrl+t", "pause", "Pause/resume", priority=True, id="drill.pause"),
    Binding("ctrl+o", "toggle_indent", "Auto-indent", priority=True, id="drill.auto_indent"),
    Binding("ctrl+g", "goto_divergence", "Go to divergence", priority=True, id="drill.goto_divergence"),
    Binding("ctrl+r", "toggle_reference", "Reference", priority=True, id="drill.reference"),
    Binding("f9", "give_up", "Give up", id="drill.give_up"),
    Binding("escape", "leave", "Back", id="drill.back"),
]

MODE_CHOICE = [
    Binding("r", "choose('retype')", "Retype", id="mode.retype"),
    Binding("m", "choose('recall')", "From memory", id="mode.recall"),
    Binding("escape", "cancel", "Cancel", id="mode.cancel"),
]

RESTORE = [
    Binding("y", "restore", "Restore draft", id="restore.yes"),
    Binding("n", "discard", "Start fresh", id="restore.no"),
]

REVIEW = [
    Binding("space", "reveal", "Reveal", id="review.reveal"),
    Binding("1", "rate(1)", "Again", id="review.again"),
    Binding("2", "rate(2)", "Hard", id="review.hard"),
    Binding("3", "rate(3)", "Good", id="review.good"),
    Binding("4", "rate(4)", "Easy", id="review.easy"),
    Binding("t", "typed_mode", "Type answer", id="review.typed"),
    Binding("ctrl+s", "check_typed", "Check answer", priority=True, id="review.check"),
    Binding("escape", "leave", "Back", id="review.back"),
]

BROWSE = [
    Binding("slash", "search", "Search", id="browse.search"),
    Binding("escape", "leave", "Back", id="browse.back"),
]

STATS = [
    Binding("escape", "leave", "Back", id="stats.back"),
]

CLOSE = [
    Binding("escape,q", "close", "Close", id="modal.close"),
]

GROUPS: dict[str, list[Binding]] = {
    "Everywhere": APP,
    "Today": HOME,
    "Drill": DRILL,
    "Drill: choose a mode": MODE_CHOICE,
    "Drill: restore a draft": RESTORE,
    "Review": REVIEW,
    "Browse": BROWSE,
    "Stats": STATS,
}
