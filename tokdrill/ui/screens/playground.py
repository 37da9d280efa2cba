"""The tokenizer playground: type or paste text, see its tokens in several tokenizers side by side.

Each panel shows one encoding's tokens in alternating colours (or their ids, the pre-tokenizer's
pieces, or how the last character changes the final tokens), with the counts, bytes per token and
the cost at the price set in Settings. Tokenizing and laying out run in a worker thread; keys
typed while it runs are taken together in the next run. Every text here is drawn as plain text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, SelectionList, Static, TextArea
from textual.widgets.selection_list import Selection

from tokdrill.backend import Backend
from tokdrill.playground.boundary import Boundary, boundary
from tokdrill.playground.encoders import DEFAULT_ENCODINGS, SPEC_HELP, Encoder, EncoderError, open_encoder
from tokdrill.playground.glyphs import visible
from tokdrill.playground.hf_cache import find_cached
from tokdrill.playground.tokens import Figures, TextRefused, Token, check_text, figures
from tokdrill.progress import settings as keys
from tokdrill.ui import keymap
from tokdrill.ui.text import printable
from tokdrill.ui.widgets.footer import FittingFooter
from tokdrill.ui.widgets.paste_area import PasteArea
from tokdrill.ui.widgets.token_view import LABEL, Layout, Run, TokenView, lay_out, printable_runs

View = Literal["tokens", "ids", "pieces", "boundary"]
ENCODINGS_SETTING = "ui.playground_encodings"
MAX_PANELS = 4
FRAME_WAIT_SECONDS = 0.25  # the most the rest of a layout waits for the frame before it
SAMPLE = "Tokenizers split text like this: naïve café, 12345 digits, <|endoftext|> and   spaces. http:"


@dataclass(frozen=True, slots=True)
class Panel:
    """What one encoding shows: its runs for the current view and its figures (or a problem)."""

    name: str
    runs: tuple[Run, ...]
    figures: Figures | None
    problem: str = ""
    layout: Layout | None = None  # the runs laid out for the view's width (perhaps only a screenful)


def token_runs(tokens: Sequence[Token]) -> list[Run]:
    return [(t.text, 2 if t.special else i % 2) for i, t in enumerate(tokens)]


def id_runs(tokens: Sequence[Token]) -> list[Run]:
    return [(f" {t.id} ", 2 if t.special else i % 2) for i, t in enumerate(tokens)]


def piece_runs(pieces: Sequence[str]) -> list[Run]:
    return [(visible(p), i % 2) for i, p in enumerate(pieces)]


def boundary_runs(found: Boundary | None) -> list[Run]:
    """The tokens of the text's end without and with its last character."""
    if found is None:
        return [("(type some text)", LABEL)]
    runs: list[Run] = [
        (f"last character {visible(found.added)}; {found.shared} token(s) before it unchanged", LABEL),
        ("\n", LABEL),
        ("without it: ", LABEL),
        *(token_runs(found.before) or [("(nothing)", LABEL)]),
        ("\n", LABEL),
        ("with it:    ", LABEL),
        *token_runs(found.after),
        ("\n", LABEL),
        (
            "it re-cut the token before it: token healing backs up over that token"
            if found.retokenized
            else "it only added token(s) after the ones there",
            LABEL,
        ),
    ]
    return runs


def panel_for(
    encoder: Encoder, text: str, view: View, price: float | None, width: int = 0, lines: int | None = None
) -> Panel:
    """One encoding's panel for ``text`` in ``view``, laid out for ``width`` cells when given, its
    first ``lines`` lines only when given (runs in a worker thread)."""
    tokenized = encoder.tokenize(text)
    numbers = figures(tokenized, price)
    runs: list[Run]
    if view == "ids":
        runs = id_runs(tokenized.tokens)
    elif view == "pieces":
        runs = piece_runs(encoder.pieces(text))
    elif view == "boundary":
        runs = boundary_runs(boundary(encoder, text))
    else:
        runs = token_runs(tokenized.tokens)
    runs = printable_runs(runs)
    return Panel(encoder.name, tuple(runs), numbers, layout=lay_out(runs, width, lines) if width else None)


def head_panel(encoder: Encoder, text: str, view: View, width: int, lines: int) -> Panel | None:
    """The first ``lines`` lines of ``text``'s panel in the tokens or ids view, laid out for
    ``width`` cells from the tokens of a head of the text alone (exactly the whole text's first
    tokens), without counts; None for a text too short to need it, a view that needs the whole
    text, or an encoder that cannot cut the text exactly."""
    wanted = 2 * width * lines  # characters: a token takes at least a cell per character
    if view not in ("tokens", "ids") or not width or len(text) < 4 * wanted:
        return None
    head = encoder.head(text, wanted)
    if head is None:
        return None
    runs = printable_runs(id_runs(head.tokens) if view == "ids" else token_runs(head.tokens))
    first = lay_out(runs, width, lines + 1)  # the line after them too, so the last one is whole
    if len(first.lines) <= lines:
        return None
    return Panel(encoder.name, tuple(runs), None, layout=Layout(width, first.lines[:lines], complete=False))


def header_text(panel: Panel, view: View) -> Text:
    """The panel's heading: encoding and counts; bytes per token and cost on the next lines."""
    if panel.figures is None:
        said = (printable(panel.problem), "red") if panel.problem else ("counting the tokens…", "dim")
        return Text.assemble((printable(panel.name), "bold"), "\n", said)
    n = panel.figures
    per = "-" if n.bytes_per_token is None else f"{n.bytes_per_token:.2f}"
    lines = Text.assemble(
        (printable(panel.name), "bold"),
        f"  {n.tokens:,} tokens",
        "" if view == "tokens" else f"  ({view})",
        "\n",
        f"{n.characters:,} chars · {n.utf8_bytes:,} bytes · {per} B/token",
    )
    if n.cost is not None:
        lines.append(f"\ncost {n.cost:.6f}")
    return lines


def set_header(header: Static, text: Text) -> None:
    """Show ``text`` in ``header``, laying the screen out again only when its height may change
    (a frame without a layout pass is drawn sooner)."""
    width = header.content_region.width
    old = str(header.render()).split("\n") if header.is_mounted else []
    new = text.plain.split("\n")
    same = len(old) == len(new) and all(0 < cell_len(line) <= width for line in old + new)
    header.update(text, layout=not same)


class PlaygroundScreen(Screen[None]):
    """A text box over one panel per encoding."""

    BINDINGS: ClassVar[list[BindingType]] = keymap.PLAYGROUND
    view: reactive[View] = reactive("tokens")

    def __init__(self, backend: Backend, text: str = SAMPLE, encodings: Sequence[str] = (), note: str = "") -> None:
        """``encodings`` (a card's "see it") are shown instead of the ones chosen last, and
        ``note`` says what to look at."""
        super().__init__()
        self.backend = backend
        self._initial_text = text
        self._note = note
        self._encoders: dict[str, Encoder | str] = {}  # spec -> encoder, or why it cannot open
        stored = backend.setting(ENCODINGS_SETTING)
        specs = [s for s in stored if isinstance(s, str)] if isinstance(stored, list) else []
        self.specs: list[str] = list(encodings)[:MAX_PANELS] or specs[:MAX_PANELS] or list(DEFAULT_ENCODINGS)
        self._busy: tuple[object, ...] | None = None  # what the tokenizing under way was given
        self._again = False  # the text or view changed while it ran
        self.shown = 0  # how many times tokens have been drawn (the benchmark waits on it)
        self.counted = 0  # how many times every panel's counts have been drawn

    def compose(self) -> ComposeResult:
        yield Static(
            Text(f"See it: {printable(self._note)}")
            if self._note
            else "Playground: type or paste text; Tab moves to the tokens",
            id="playground-title",
        )
        area = PasteArea(self._initial_text, id="playground-text", soft_wrap=True, tab_behavior="focus")
        area.pasted = self.refresh_tokens  # a paste's first tokens are drawn with the pasted text
        yield area
        yield Horizontal(id="playground-panels")
        yield FittingFooter()

    def on_mount(self) -> None:
        self._build_panels()
        self.query_one("#playground-text", TextArea).focus()
        self.refresh_tokens()

    def _build_panels(self) -> None:
        holder = self.query_one("#playground-panels", Horizontal)
        holder.remove_children()
        for index, spec in enumerate(self.specs):
            holder.mount(
                Vertical(
                    Static(Text(printable(spec), style="bold"), classes="panel-header", id=f"header-{index}"),
                    TokenView(id=f"tokens-{index}"),
                    classes="playground-panel",
                )
            )

    # ------------------------------------------------------------------ tokenizing
    @on(TextArea.Changed, "#playground-text")
    def _text_changed(self) -> None:
        # Wrapping a long text in the box would cost every keystroke; the panels wrap it anyway.
        self.query_one("#playground-text", PasteArea).fit_wrap()
        self.refresh_tokens()

    def watch_view(self) -> None:
        if self.is_mounted:
            self.refresh_tokens()

    def refresh_tokens(self) -> None:
        """Tokenize the text in every encoding, off the UI thread: at once when no tokenizing is
        under way, else once more as soon as the current one is drawn (keys typed meanwhile
        are coalesced into that one run). A long text's first screenful is drawn first, here,
        from the head of the text (see :func:`head_panel`); the whole text is tokenized once
        that frame is drawn."""
        text = self.query_one("#playground-text", TextArea).text
        price = self.backend.setting(keys.TOKEN_PRICE)
        sizes = [(view.wrap_width, view.scrollable_content_region.height) for view in self.query(TokenView)]
        sizes += [(0, 0)] * (len(self.specs) - len(sizes))
        arguments = (
            text,
            self.view,
            float(price) if isinstance(price, (int, float)) else None,
            list(self.specs),
            sizes,
        )
        if self._busy is not None:
            self._again = self._again or arguments != self._busy
            return
        self._busy, self._again = arguments, False
        heads = self._heads(text, sizes)
        if any(heads):
            self._show_panels(heads, self.view, whole=False)
            self.call_after_refresh(self._tokenize, *arguments)
        else:
            self._tokenize(*arguments)

    def _heads(self, text: str, sizes: list[tuple[int, int]]) -> list[Panel | None]:
        """Each panel's first screenful from the head of a long ``text``, for the encoders already
        open (a head is a few thousand characters: quick enough for the UI thread)."""
        try:
            check_text(text, "the text")
        except TextRefused:
            return []
        heads: list[Panel | None] = []
        for spec, (width, height) in zip(self.specs, sizes):
            encoder = self._encoders.get(spec)  # None until opened, a message when it cannot be
            if encoder is None or isinstance(encoder, str):
                heads.append(None)
            else:
                heads.append(head_panel(encoder, text, self.view, width, max(1, height)))
        return heads

    @work(thread=True, group="playground")  # one at a time: see refresh_tokens
    def _tokenize(
        self, text: str, view: View, price: float | None, specs: list[str], sizes: list[tuple[int, int]]
    ) -> None:
        """Every panel with its counts and the lines on screen, drawn; then the rest of each layout."""
        try:
            text = check_text(text, "the text")
        except TextRefused as exc:
            panels = [Panel(spec, (), None, str(exc)) for spec in specs]
        else:
            panels = []
            for spec, (width, height) in zip(specs, sizes):
                encoder = self._encoder(spec)
                if isinstance(encoder, str):
                    panels.append(Panel(spec, (), None, encoder))
                else:
                    panels.append(panel_for(encoder, text, view, price, width, max(1, height)))
        rest = [panel for panel in panels if panel.layout and not panel.layout.complete]
        painted = threading.Event()
        self.app.call_from_thread(self._show_panels, panels, view, True, painted.set if rest else None)
        if rest:  # laying out the rest holds the GIL: the frame with the counts is drawn first
            painted.wait(FRAME_WAIT_SECONDS)
        layouts = [
            lay_out(panel.runs, panel.layout.width) if panel.layout and not panel.layout.complete else None
            for panel in panels
        ]
        self.app.call_from_thread(self._complete_panels, panels, layouts)

    def _encoder(self, spec: str) -> Encoder | str:
        """The encoder ``spec`` names, opened once (in the worker: loading a table takes a moment)."""
        found = self._encoders.get(spec)
        if found is None:
            try:
                found = open_encoder(spec)
            except EncoderError as exc:
                found = str(exc)
            self._encoders[spec] = found
        return found

    def _show_panels(
        self, panels: Sequence[Panel | None], view: View, whole: bool, painted: Callable[[], object] | None = None
    ) -> None:
        """Show each panel given (``whole``: of the whole text, with its counts); call ``painted``
        once the frame that shows them is drawn."""
        for index, panel in enumerate(panels):
            headers = self.query(f"#header-{index}")
            views = self.query(f"#tokens-{index}")
            if panel is None or not headers or not views:
                continue
            set_header(headers.first(Static), header_text(panel, view))
            views.first(TokenView).show(panel.runs, panel.layout)
        self.shown += 1
        self.counted += whole
        if painted is not None:
            self.call_after_refresh(painted)

    def _complete_panels(self, panels: list[Panel], layouts: list[Layout | None]) -> None:
        for index, (panel, layout) in enumerate(zip(panels, layouts)):
            views = self.query(f"#tokens-{index}")
            if layout is not None and views:
                views.first(TokenView).complete(panel.runs, layout)
        self._busy = None
        if self._again:
            self.refresh_tokens()

    # ------------------------------------------------------------------ keys
    def _toggle(self, view: View) -> None:
        self.view = "tokens" if self.view == view else view

    def action_show_ids(self) -> None:
        self._toggle("ids")

    def action_show_pieces(self) -> None:
        self._toggle("pieces")

    def action_show_boundary(self) -> None:
        self._toggle("boundary")

    def action_leave(self) -> None:
        self.app.pop_screen()

    def action_encodings(self) -> None:
        def chosen(specs: list[str] | None) -> None:
            if specs:
                self.specs = specs[:MAX_PANELS]
                self.backend.set_setting(ENCODINGS_SETTING, self.specs)
                self._build_panels()
                self.refresh_tokens()

        self.app.push_screen(EncodingPicker(self.specs), chosen)


class EncodingPicker(ModalScreen[list[str] | None]):
    """Choose up to four encodings: the shipped tables, tokenizers in the Hugging Face cache, or
    one typed in (a trained BPE or a tokenizer.json path)."""

    BINDINGS: ClassVar[list[BindingType]] = keymap.ENCODING_PICKER

    def __init__(self, current: list[str]) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        scan = find_cached()
        options = list(DEFAULT_ENCODINGS) + [f"hf:{c.name}" for c in scan.tokenizers]
        options += [s for s in self.current if s not in options]
        with Vertical(classes="dialog"):
            yield Static(Text("Encodings (space toggles, up to 4; ctrl+s applies)", style="bold"))
            yield SelectionList[str](
                *(Selection(Text(printable(name)), name, name in self.current) for name in options), id="encoding-list"
            )
            yield Input(placeholder="add: bpe:corpus.txt@512 or path/to/tokenizer.json", id="encoding-spec")
            note = "No Hugging Face cache found." if not scan.tokenizers else ""
            if scan.unreadable:
                note = "Could not read: " + "; ".join(scan.unreadable[:3])
            yield Static(Text(printable(note or SPEC_HELP)), classes="dim", id="encoding-note")
        yield FittingFooter()

    @on(Input.Submitted, "#encoding-spec")
    def _add(self, event: Input.Submitted) -> None:
        spec = event.value.strip()
        if not spec:
            return
        selections = self.query_one("#encoding-list", SelectionList)
        if spec not in [selections.get_option_at_index(i).value for i in range(selections.option_count)]:
            selections.add_option(Selection(Text(printable(spec)), spec, True))
        else:
            selections.select(spec)
        event.input.value = ""
        selections.focus()

    def action_apply(self) -> None:
        chosen = list(self.query_one("#encoding-list", SelectionList).selected)
        if not chosen:
            self.notify("Choose at least one encoding.", severity="warning")
            return
        if len(chosen) > MAX_PANELS:
            self.notify(f"Up to {MAX_PANELS} side by side; the first {MAX_PANELS} are shown.", timeout=4)
        self.dismiss(chosen)

    def action_close(self) -> None:
        self.dismiss(None)
