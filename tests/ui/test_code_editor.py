"""Auto-indent that never fights the typist: typing the shown text exactly produces it exactly,
Backspace in leading whitespace removes one level, and the choice is kept."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets.text_area import Selection
from ui_helpers import SIZE, start_drill

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.content import load_library, reference_source
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.widgets.code_editor import SCROLL_STEP, CodeEditor, dedent_column, next_line_indent


class EditorApp(App[None]):
    """Just the drill editor, so that thousands of keys cost seconds, not minutes."""

    def compose(self) -> ComposeResult:
        yield CodeEditor(id="editor")


def type_exactly(editor: CodeEditor, text: str) -> None:
    """Type ``text`` through the editor's key handling: each leading space is one key press and
    each line break an Enter (the rest of a line, where auto-indent plays no part, is one press)."""
    for number, line in enumerate(text.split("\n")):
        if number:
            editor.action_newline()
        code = line.lstrip(" ")
        for _ in range(len(line) - len(code)):
            editor.type_text(" ")
        if code:
            editor.type_text(code)


REFERENCES = {drill_id: reference_source(drill.symbols) for drill_id, drill in load_library().drills.items()}


@pytest.mark.parametrize("auto_indent", [True, False], ids=["auto-indent", "plain"])
async def test_typing_each_reference_exactly_produces_it_exactly(auto_indent: bool) -> None:
    app = EditorApp()
    async with app.run_test(size=SIZE):
        editor = app.query_one(CodeEditor)
        editor.language = None  # highlighting plays no part in what is typed
        for drill_id, reference in REFERENCES.items():
            editor.load_text("")
            editor.reference_lines = reference.split("\n")
            editor.auto_indent = auto_indent
            type_exactly(editor, reference)
            assert editor.text == reference, drill_id


async def test_typing_only_the_code_lets_auto_indent_supply_every_indentation() -> None:
    app = EditorApp()
    async with app.run_test(size=SIZE):
        editor = app.query_one(CodeEditor)
        editor.language = None
        for drill_id, reference in REFERENCES.items():
            editor.load_text("")
            editor.reference_lines = reference.split("\n")
            editor.auto_indent = True
            type_exactly(editor, "\n".join(line.lstrip(" ") for line in reference.split("\n")))
            assert editor.text == reference, drill_id


async def test_the_drill_screen_gives_its_editor_the_reference(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "retype")
        await pilot.press("ctrl+o")
        lines = screen.reference.split("\n")
        indents = [len(line) - len(line.lstrip(" ")) for line in lines]
        row = next(i for i in range(1, len(lines)) if indents[i] and indents[i + 1] < indents[i])  # a dedent follows
        screen.editor.load_text("\n".join(lines[:row]))
        screen.editor.move_cursor(screen.editor.document.end)
        await pilot.press("enter", "x", "enter")  # the reference's indentation, dedent included
        assert screen.editor.text == "\n".join(lines[:row] + [" " * indents[row] + "x", " " * indents[row + 1]])


async def test_provisional_indent_keeps_what_was_typed(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "recall")
        editor = screen.editor
        editor.auto_indent = True
        editor.load_text("")
        await pilot.press(*"def f():", "enter")
        assert editor.text == "def f():\n    "
        await pilot.press("space", "space", *"x")  # two spaces typed: they win over four
        assert editor.text == "def f():\n  x"
        await pilot.press("enter", "enter", *"z")  # a line left empty stays empty
        assert editor.text == "def f():\n  x\n\n  z"
        editor.load_text("")
        await pilot.press(*"def g():", "enter", "tab", *"y")  # Tab is absorbed like spaces
        assert editor.text == "def g():\n    y"


async def test_backspace_in_leading_whitespace_removes_one_level(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "recall")
        editor = screen.editor
        editor.auto_indent = True
        editor.load_text("")
        await pilot.press(*"for a in b:", "enter", *"if a:", "enter", *"x", "enter")
        assert editor.text.endswith("        x\n        ")
        await pilot.press("backspace")
        assert editor.text.endswith("        x\n    ")
        await pilot.press(*"y", "enter", "backspace", *"z")
        assert editor.text == "for a in b:\n    if a:\n        x\n    y\nz"
        editor.load_text("      w")  # six spaces: back to the indent stop at four
        editor.move_cursor((0, 6))
        await pilot.press("backspace")
        assert editor.text == "    w"
        await pilot.press("right", "backspace")  # inside code Backspace removes one character
        assert editor.text == "    w"[:4]


async def test_with_auto_indent_off_keys_are_typed_literally(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "recall")
        editor = screen.editor
        assert not editor.auto_indent  # off unless the user turns it on
        editor.load_text("")
        await pilot.press(*"if x:", "enter", "space", "space", *"y", "backspace", "backspace")
        assert editor.text == "if x:\n "


async def test_auto_indent_choice_persists_across_drills_and_restarts(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "retype")
        assert not screen.editor.auto_indent
        await pilot.press("ctrl+o")
        assert screen.editor.auto_indent and "indent on" in str(screen.query_one("#indent-state").render())
        await pilot.press("escape")
        screen = await start_drill(app, pilot, "bpe-train", "recall")
        assert screen.editor.auto_indent
    reopened = Backend.open(clock=clock)
    try:
        again = TokdrillApp(reopened, cursor_blink=False)
        async with again.run_test(size=SIZE) as pilot:
            screen = await start_drill(again, pilot, "bpe-encode", "retype")
            assert screen.editor.auto_indent
            await pilot.press("ctrl+o")
            assert not reopened.auto_indent()
    finally:
        reopened.close()


def test_indent_rules() -> None:
    assert next_line_indent("    x = 1") == "    "
    assert next_line_indent("    for a in b:  # loop") == "        "
    assert next_line_indent("def f():") == "    "
    assert next_line_indent("text = ':'") == ""
    assert [dedent_column(c) for c in (1, 4, 5, 8, 10)] == [0, 0, 4, 4, 8]


def long_reference() -> str:
    return "\n\n".join(REFERENCES.values())


def drawn(editor: CodeEditor) -> list[list[tuple[str, object]]]:
    """Every visible row of the editor as (text, style) segments."""
    return [[(s.text, s.style) for s in editor.render_line(y)] for y in range(editor.size.height)]


def count_rows(editor: CodeEditor, method: str) -> list[int]:
    """From now on, the row of every call of the editor's line-drawing ``method``: ``render_line``
    is each line Textual asks the editor to paint, ``_render_line`` each one drawn afresh (not
    from the editor's cache)."""
    rows: list[int] = []
    draw = getattr(editor, method)

    def counted(y: int) -> Strip:
        rows.append(y)
        return draw(y)

    setattr(editor, method, counted)
    return rows


async def test_an_edit_redraws_only_the_lines_it_changed() -> None:
    app = EditorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.load_text("\n".join(f"value_{n} = {n}  # note {n}" for n in range(200)))
        editor.focus()
        editor.move_cursor((100, len(editor.document[100])))  # the end of a comment: no other line changes
        await pilot.pause()
        rows = count_rows(editor, "_render_line")
        editor.insert("x")
        await pilot.pause()
        cursor_row = editor.cursor_location[0] - round(editor.scroll_y)
        assert set(rows) == {cursor_row}  # not the other rows of the screen


async def test_a_change_of_height_redraws_no_line_already_drawn() -> None:
    """The results opening below the editor makes it shorter, not different."""
    app = EditorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.load_text(long_reference())
        editor.cursor_blink = False  # a blinking cursor redraws its row on its own
        editor.focus()
        await pilot.pause()
        rows = count_rows(editor, "_render_line")
        await pilot.resize_terminal(100, 20)
        await pilot.pause()
        assert rows == []
        await pilot.resize_terminal(90, 20)  # a new width draws every row again
        await pilot.pause()
        assert set(rows) == set(range(editor.size.height))


@pytest.mark.parametrize(
    "edit",
    ["type", "enter", "open a string", "delete a line", "move the cursor", "select", "scroll", "narrower", "shorter"],
)
async def test_lines_kept_across_edits_are_drawn_as_a_fresh_draw_would(edit: str) -> None:
    """The drawn-line cache is keyed by each line's content, so after any edit every row must
    look exactly as it does when everything is drawn from scratch."""
    app = EditorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.load_text(long_reference())
        editor.focus()
        editor.move_cursor((40, 4))
        await pilot.pause()
        drawn(editor)  # fill the cache
        if edit == "type":
            editor.insert("x = 1")
        elif edit == "enter":
            editor.action_newline()  # every row below moves down and is renumbered
        elif edit == "open a string":
            editor.insert('"""')  # the highlights of every later line change
        elif edit == "delete a line":
            editor.action_delete_line()
        elif edit == "move the cursor":
            editor.move_cursor((45, 0))
        elif edit == "select":
            editor.selection = Selection((38, 0), (44, 3))
        elif edit == "scroll":
            editor.scroll_to(y=editor.scroll_y + 7, animate=False)
        else:
            await pilot.resize_terminal(*((90, 30) if edit == "narrower" else (100, 20)))
        await pilot.pause()
        kept = drawn(editor)
        editor._lines.forget()
        assert kept == drawn(editor)


def painted(editor: CodeEditor) -> list[list[tuple[str, object]]]:
    """The editor's rows as last painted: a row not repainted since comes from Textual's line cache."""
    strips = editor.render_lines(Region(0, 0, editor.size.width, editor.size.height))
    return [[(s.text, s.style) for s in strip] for strip in strips]


def painted_afresh(editor: CodeEditor) -> list[list[tuple[str, object]]]:
    """The editor's rows painted from scratch: highlights looked up again, no line kept."""
    editor._highlights.clear()
    editor._styles_cache.clear()
    editor._lines.forget()
    return painted(editor)


def _split_bracket(editor: CodeEditor) -> tuple[int, int]:
    """The first opening bracket whose match is a few rows further down."""
    for row in range(editor.document.line_count):
        for column, character in enumerate(editor.document[row]):
            match = editor.find_matching_bracket(character, (row, column)) if character in "([{" else None
            if match is not None and 1 < match[0] - row < 5 and editor.document[match[0]][match[1]] in ")]}":
                return row, column
    raise AssertionError("no bracket is closed on another row")


def _on_screen(editor: CodeEditor, rows_down: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The first two characters of the row ``rows_down`` below the top of the screen."""
    row = round(editor.scroll_y) + rows_down
    return (row, 0), (row, min(2, len(editor.document[row])))


STEPS = {
    "type": lambda e: e.type_text("x"),
    "type past the right edge": lambda e: [e.type_text(c) for c in " = some_long_name(" * 5],
    "enter": lambda e: e.action_newline(),
    "to the top of the screen": lambda e: e.move_cursor((round(e.scroll_y) + 1, 0)),
    "open a string": lambda e: e.insert('"""'),  # every row below turns into its text
    "undo": lambda e: e.action_undo(),
    "redo": lambda e: e.action_redo(),
    "close it again": lambda e: [e.action_delete_left() for _ in range(3)],
    "backspace joins two lines": lambda e: e.action_delete_left(),
    "edit a row away from the cursor": lambda e: e.replace("zz", *_on_screen(e, 6)),
    "select down": lambda e: [e.action_cursor_down(select=True) for _ in range(3)],
    "replace the selection with two lines": lambda e: e.replace("a = 1\nb = 2", *e.selection),
    "onto a bracket closed on another row": lambda e: e.move_cursor(_split_bracket(e)),
    "off the bracket": lambda e: e.action_cursor_right(),
    "back onto the bracket": lambda e: e.action_cursor_left(),
    "select all": lambda e: e.action_select_all(),
    "type over everything": lambda e: e.type_text("y"),
}


async def test_every_row_is_painted_as_a_fresh_paint_would_after_each_edit() -> None:
    """Only the rows an edit or a move changed are repainted, so after each step every row on
    screen must look exactly as it does when the whole editor is painted from scratch."""
    app = EditorApp()
    async with app.run_test(size=(60, 20)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.load_text(long_reference())
        editor.cursor_blink = False
        editor.focus()
        editor.move_cursor((40, 4))
        await pilot.pause()
        for step, act in STEPS.items():
            act(editor)
            await pilot.pause()
            assert painted(editor) == painted_afresh(editor), step


async def test_a_keystroke_repaints_only_the_rows_it_changed() -> None:
    app = EditorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.load_text("\n".join(f"value_{n} = {n}  # note {n}" for n in range(200)))
        editor.cursor_blink = False
        editor.focus()
        editor.move_cursor((100, len(editor.document[100])))
        await pilot.pause()
        rows = count_rows(editor, "render_line")
        editor.type_text("x")
        await pilot.pause()
        cursor_row = editor.cursor_location[0] - round(editor.scroll_y)
        assert set(rows) == {cursor_row}
        rows.clear()
        editor.action_cursor_up()
        await pilot.pause()
        assert set(rows) == {cursor_row - 1, cursor_row}  # the row left and the row reached


async def test_typing_along_a_long_line_scrolls_a_step_at_a_time() -> None:
    app = EditorApp()
    async with app.run_test(size=(60, 20)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.focus()
        offsets = []
        for _ in range(120):
            editor.type_text("a")
            await pilot.pause()
            offsets.append(round(editor.scroll_x))
        changes = sum(1 for before, after in zip(offsets, offsets[1:]) if before != after)
        assert offsets[-1] > 0 and changes <= 120 // SCROLL_STEP + 1
        view = editor.scrollable_content_region.width - editor.gutter_width
        assert offsets[-1] <= editor.cursor_location[1] < offsets[-1] + view  # the cursor is on screen


async def test_scrolling_right_stops_where_the_text_starts_if_the_rest_then_shows() -> None:
    app = EditorApp()
    async with app.run_test(size=(50, 10)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.load_text(" " * 12)
        editor.focus()
        editor.move_cursor((0, 12))
        await pilot.pause()
        view = editor.scrollable_content_region.width - editor.gutter_width
        for _ in range(view - 10):  # just past the right edge: a scroll of a column or two is needed
            editor.type_text("a")
            await pilot.pause()
        assert round(editor.scroll_x) == 12  # all of the text, none of the indentation
