"""Every key binding of the app, each with an id so a keymap can remap it.

Within each list the keys a person needs most come first: the footer shows as many as fit, in
this order, and F1 and the command palette list all of them.

The drill editor (Textual's TextArea) owns ctrl+a/e/k/u/w/d/z/y/x/c/v, f6 and f7, so the drill
screen's own keys are ctrl+s/t/o/g/r, F9 and scroll keys the editor does not use, all bound with
``priority=True`` so that they work while the editor has focus; the app-wide keys are F-keys that
work from every screen.
"""

from __future__ import annotations

from collections.abc import Iterator

from textual.binding import Binding, BindingType

# Keys that change screens are priority bindings: they run in the order keys arrive, so keys
# typed right after them (a burst from a fast typist) reach the new screen, not the old one.
APP: list[BindingType] = [
    Binding("f1", "help", "Help", priority=True, id="app.help"),
    Binding("f2", "today", "Today", priority=True, id="app.today"),
    Binding("f3", "browse", "Browse", priority=True, id="app.browse"),
    Binding("f4", "stats", "Stats", priority=True, id="app.stats"),
    Binding("f5", "review", "Review", priority=True, id="app.review"),
    Binding("f8", "playground", "Playground", priority=True, id="app.playground"),
]

HOME: list[BindingType] = [
    Binding("n", "next", "Start next", priority=True, id="home.next"),
    Binding("r", "app.review", "Review cards", priority=True, id="home.review"),
    Binding("d", "app.browse", "Pick a drill", priority=True, id="home.drill"),
    Binding("m", "app.mistakes", "Mistakes", priority=True, id="home.mistakes"),
    Binding("k", "app.mock", "Mock interview", priority=True, id="home.mock"),
    Binding("s", "app.settings", "Settings", priority=True, id="home.settings"),
    Binding("i", "interview_date", "Interview date", priority=True, id="home.interview_date"),
    Binding("e", "problems", "Problems", priority=True, id="home.problems"),
    Binding("p", "app.playground", "Playground", priority=True, id="home.playground"),
]

DRILL: list[BindingType] = [
    Binding("ctrl+s", "submit", "Submit", priority=True, id="drill.submit"),
    Binding("escape", "leave", "Back", priority=True, id="drill.back"),
    Binding("f9", "give_up", "Give up", priority=True, id="drill.give_up"),
    Binding(
        "ctrl+down,shift+pagedown",
        "scroll_results(1)",
        "Scroll results",
        key_display="^↓↑",
        priority=True,
        id="drill.results_down",
    ),
    Binding(
        "ctrl+up,shift+pageup",
        "scroll_results(-1)",
        "Scroll results up",
        show=False,
        priority=True,
        id="drill.results_up",
    ),
    Binding(
        "alt+down",
        "scroll_reference(1)",
        "Scroll reference",
        key_display="M-↓↑",
        priority=True,
        id="drill.reference_down",
    ),
    Binding(
        "alt+up",
        "scroll_reference(-1)",
        "Scroll reference up",
        show=False,
        priority=True,
        id="drill.reference_up",
    ),
    Binding("ctrl+t", "pause", "Pause/resume", priority=True, id="drill.pause"),
    Binding("ctrl+o", "toggle_indent", "Auto-indent", priority=True, id="drill.auto_indent"),
    Binding("ctrl+g", "goto_divergence", "Go to divergence", priority=True, id="drill.goto_divergence"),
    Binding("ctrl+r", "toggle_reference", "Reference/prompt", priority=True, id="drill.reference"),
]

MODE_CHOICE: list[BindingType] = [
    Binding("r", "choose('retype')", "Retype", id="mode.retype"),
    Binding("m", "choose('recall')", "From memory", id="mode.recall"),
    Binding("escape", "cancel", "Cancel", id="mode.cancel"),
]

RESTORE: list[BindingType] = [
    Binding("y", "restore", "Restore draft", id="restore.yes"),
    Binding("n", "discard", "Start fresh", id="restore.no"),
]

GIVE_UP: list[BindingType] = [
    Binding("y", "give_up(True)", "Give up, keep the draft", id="give_up.keep"),
    Binding("d", "give_up(False)", "Give up, discard the draft", id="give_up.discard"),
    Binding("n,escape", "cancel", "Keep working", id="give_up.cancel"),
]

CONFIRM: list[BindingType] = [
    Binding("y", "answer(True)", "Yes", id="confirm.yes"),
    Binding("n,escape", "answer(False)", "No", id="confirm.no"),
]

REVIEW: list[BindingType] = [
    Binding("space", "reveal", "Reveal", id="review.reveal"),
    Binding("ctrl+s", "check_typed", "Check answer", priority=True, id="review.check"),
    Binding("1", "rate(1)", "Again", id="review.again"),
    Binding("2", "rate(2)", "Hard", id="review.hard"),
    Binding("3", "rate(3)", "Good", id="review.good"),
    Binding("4", "rate(4)", "Easy", id="review.easy"),
    Binding("escape", "leave", "Back", priority=True, id="review.back"),
    Binding("t", "typed_mode", "Type answer", id="review.typed"),
    Binding("u", "undo", "Undo rating", id="review.undo"),
    Binding("m", "study_more", "Study more", id="review.more"),
    Binding("p", "see_it", "See it in the Playground", id="review.see_it"),
]

BROWSE: list[BindingType] = [
    # priority, like the keys that change screens: the letters typed after it reach the box
    Binding("slash", "search", "Search", priority=True, id="browse.search"),
    Binding("escape", "leave", "Back / clear search", id="browse.back"),
]

STATS: list[BindingType] = [
    Binding("escape", "leave", "Back", id="stats.back"),
    Binding("c", "toggle_charts", "Charts/numbers", id="stats.charts"),
]

STATS_CHARTS: list[BindingType] = [
    Binding("right", "step_chart(1)", "Next chart", key_display="←→", id="stats.next_chart"),
    Binding("left", "step_chart(-1)", "Previous chart", show=False, id="stats.previous_chart"),
    Binding("n", "step_item(1)", "Next drill/deck", id="stats.next_item"),
    Binding("p", "step_item(-1)", "Previous drill/deck", show=False, id="stats.previous_item"),
]

MISTAKES: list[BindingType] = [
    Binding("escape", "leave", "Back", id="mistakes.back"),
]

MOCK: list[BindingType] = [
    Binding("ctrl+s", "next", "Submit answer", priority=True, id="mock.next"),
    Binding("f9", "finish", "End round", priority=True, id="mock.finish"),
    Binding("escape", "leave", "Back", priority=True, id="mock.back"),
]

PLAYGROUND: list[BindingType] = [
    Binding("ctrl+r", "encodings", "Encodings", priority=True, id="playground.encodings"),
    Binding("ctrl+t", "show_ids", "Ids", priority=True, id="playground.ids"),
    Binding("ctrl+l", "show_pieces", "Pieces", priority=True, id="playground.pieces"),
    Binding("ctrl+b", "show_boundary", "Boundary", priority=True, id="playground.boundary"),
    Binding("ctrl+n", "app.steps", "Step through", priority=True, id="playground.steps"),
    Binding("escape", "leave", "Back", priority=True, id="playground.back"),
]

STEPS: list[BindingType] = [
    Binding("right,n,space", "screen.step(1)", "Next step", key_display="→", id="steps.next"),
    Binding("left,p,backspace", "screen.step(-1)", "Previous step", key_display="←", id="steps.previous"),
    Binding("end,e", "screen.last", "Run to end", id="steps.last"),
    Binding("home", "screen.first", "First step", id="steps.first"),
    Binding("g", "screen.jump", "Go to step", id="steps.jump"),
]

ENCODING_PICKER: list[BindingType] = [
    Binding("ctrl+s", "apply", "Apply", priority=True, id="encodings.apply"),
    Binding("escape", "close", "Cancel", priority=True, id="encodings.cancel"),
]

SETTINGS: list[BindingType] = [
    Binding("escape", "leave", "Back", priority=True, id="settings.back"),
]

CLOSE: list[BindingType] = [
    Binding("escape,q", "close", "Close", id="modal.close"),
]

GROUPS: dict[str, list[BindingType]] = {
    "Everywhere": APP,
    "Today": HOME,
    "Drill": DRILL,
    "Drill: choose a mode": MODE_CHOICE,
    "Drill: restore a draft": RESTORE,
    "Drill: give up": GIVE_UP,
    "Questions (y/n)": CONFIRM,
    "Review": REVIEW,
    "Browse": BROWSE,
    "Stats": STATS,
    "Stats: charts": STATS_CHARTS,
    "Mistakes": MISTAKES,
    "Mock interview": MOCK,
    "Settings": SETTINGS,
    "Playground": PLAYGROUND,
    "Playground: encodings": ENCODING_PICKER,
    "Step through": STEPS,
}


def bindings(group: list[BindingType]) -> Iterator[Binding]:
    """The bindings of ``group`` (every entry of this keymap is a full :class:`Binding`)."""
    for entry in group:
        if isinstance(entry, Binding):
            yield entry
