"""Step through an algorithm the drills teach, on your own corpus and word.

The steps come from the reference implementation running (``tokdrill.playground.steps``); this
screen only moves through them: → / n / space next, ← / p previous, End to the last, Home to the
first, g to a step by number. Every text is drawn as plain text.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from tokdrill.playground.steps import ALGORITHMS, Algorithm, StepInputError, Walkthrough
from tokdrill.ui import keymap
from tokdrill.ui.widgets.footer import FittingFooter
from tokdrill.ui.widgets.safe_history import SafeHistory
from tokdrill.ui.widgets.token_view import LABEL, TITLE, Run, TokenView

PLAIN, SPECIAL = 0, 2  # token-view shades: the even shade is plain here, the special one a warning

SAMPLE_CORPUS = "low low low low low lower lower newest newest newest newest newest newest widest widest widest"
SAMPLE_WORD = "lowest"


def step_runs(walk: Walkthrough, index: int) -> list[Run]:
    """Step ``index`` of ``walk``: its number and title, its lines, and the result at the end."""
    step = walk.steps[index]
    runs: list[Run] = [(f"{walk.algorithm}: step {index + 1} of {len(walk.steps)}, {step.title}", TITLE)]
    for line in step.lines:
        runs += [("\n", PLAIN), (line, PLAIN)]
    if index == len(walk.steps) - 1:
        runs += [("\n", PLAIN), ("\n", PLAIN), ("result: ", TITLE), (walk.result, PLAIN)]
        if walk.cut:
            runs += [("\n", PLAIN), ("(cut: only the first steps are shown)", LABEL)]
    return runs


class StepsView(TokenView):
    """The current step, drawn line by line (a step changes no layout); its keys move between steps."""

    BINDINGS: ClassVar[list[BindingType]] = keymap.STEPS
    DEFAULT_CSS = """
    StepsView > .token-view--even { background: $surface; }
    """


class StepsScreen(Screen[None]):
    """Choose an algorithm, give it a corpus and a word, and walk through the reference's steps."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "Back", priority=True, id="steps.back")]
    index: reactive[int] = reactive(0)

    def __init__(self, corpus: str = SAMPLE_CORPUS, word: str = SAMPLE_WORD) -> None:
        super().__init__()
        self._corpus = corpus
        self._word = word
        self.algorithm: Algorithm = ALGORITHMS[0]
        self.walk: Walkthrough | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="steps-top"):
            yield OptionList(*(Option(Text(a.title), id=a.id) for a in ALGORITHMS), id="steps-algorithms")
            with Vertical(id="steps-inputs"):
                yield SafeHistory(self._corpus, id="steps-corpus", soft_wrap=True, tab_behavior="focus")
                with Horizontal(id="steps-row"):
                    yield Input(self._word, placeholder="word", id="steps-word")
                    yield Input(placeholder="size", id="steps-size", type="integer")
        yield StepsView(id="steps-view")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.query_one("#steps-algorithms", OptionList).highlighted = 0
        self._describe_inputs()
        self.run_walkthrough()
        self.query_one("#steps-view").focus()

    def _describe_inputs(self) -> None:
        size = self.query_one("#steps-size", Input)
        size.placeholder = self.algorithm.uses_size or "(no size)"
        size.disabled = not self.algorithm.uses_size
        if self.algorithm.uses_size and not size.value:
            size.value = str(self.algorithm.default_size)
        self.query_one("#steps-word", Input).disabled = not self.algorithm.uses_word

    @on(OptionList.OptionSelected, "#steps-algorithms")
    @on(OptionList.OptionHighlighted, "#steps-algorithms")
    def _chosen(self, event: OptionList.OptionHighlighted) -> None:
        chosen = next(a for a in ALGORITHMS if a.id == event.option.id)
        if chosen is not self.algorithm:
            self.algorithm = chosen
            self.query_one("#steps-size", Input).value = ""
            self._describe_inputs()
            self.run_walkthrough()
        if isinstance(event, OptionList.OptionSelected):
            self.query_one("#steps-view").focus()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.run_walkthrough()
        self.query_one("#steps-view").focus()

    def run_walkthrough(self) -> None:
        """Build the walkthrough of the chosen algorithm on the inputs, off the UI thread."""
        size_text = self.query_one("#steps-size", Input).value
        size = int(size_text) if size_text.strip().lstrip("-").isdigit() else self.algorithm.default_size
        self._build(
            self.algorithm,
            self.query_one("#steps-corpus", TextArea).text,
            self.query_one("#steps-word", Input).value,
            max(0, min(size, 500)),
        )

    @work(thread=True, exclusive=True, group="steps")
    def _build(self, algorithm: Algorithm, corpus: str, word: str, size: int) -> None:
        try:
            walk: Walkthrough | str = algorithm.build(corpus, word, size)
        except StepInputError as exc:
            walk = str(exc)
        self.app.call_from_thread(self._show_walk, walk)

    def _show_walk(self, walk: Walkthrough | str) -> None:
        if isinstance(walk, str):
            self.walk = None
            self.query_one(StepsView).show([(walk, SPECIAL)])
            return
        self.walk = walk
        self.index = 0
        self.mutate_reactive(StepsScreen.index)

    def watch_index(self) -> None:
        if self.walk is not None and self.walk.steps:
            self.query_one(StepsView).show(step_runs(self.walk, self.index))

    def validate_index(self, index: int) -> int:
        last = len(self.walk.steps) - 1 if self.walk is not None else 0
        return max(0, min(index, last))

    def action_step(self, delta: int) -> None:
        self.index += delta

    def action_first(self) -> None:
        self.index = 0

    def action_last(self) -> None:
        if self.walk is not None:
            self.index = len(self.walk.steps) - 1

    def action_jump(self) -> None:
        def chosen(number: int | None) -> None:
            if number is not None:
                self.index = number - 1

        total = len(self.walk.steps) if self.walk is not None else 0
        self.app.push_screen(JumpTo(total), chosen)

    def action_leave(self) -> None:
        self.app.pop_screen()


class JumpTo(ModalScreen[int | None]):
    """Ask for a step number."""

    BINDINGS = keymap.CLOSE

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(f"Go to step (1-{self.total}), Enter to go", style="bold"))
            yield Input(placeholder="step number", id="jump-number", type="integer")
        yield FittingFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        self.dismiss(int(value) if value.isdigit() else None)

    def action_close(self) -> None:
        self.dismiss(None)
