"""The code editor's highlights, a block of lines at a time: the same spans per line as Textual's
whole-document map, and an edit no longer queries the whole document."""

from __future__ import annotations

import asyncio
from collections import defaultdict

from textual.app import App, ComposeResult
from textual.widgets import TextArea

from tokdrill.content import load_library, reference_source
from tokdrill.ui.widgets.code_editor import CodeEditor
from tokdrill.ui.widgets.syntax_highlights import BlockHighlights, rows_an_edit_changed


class EditorApp(App[None]):
    def compose(self) -> ComposeResult:
        yield CodeEditor(id="editor")


def long_source() -> str:
    """Every drill's reference code: long functions, docstrings and strings across block edges."""
    library = load_library([])
    return "\n\n".join(reference_source(d.symbols) for d in library.drills.values()) + '\n"""open\nstring'


def whole_document(editor: CodeEditor) -> dict[int, list[tuple[int, int | None, str]]]:
    """What TextArea's own ``_build_highlight_map`` computes for the document."""
    saved = editor._highlights
    editor._highlights = defaultdict(list)
    TextArea._build_highlight_map(editor)
    found = {line: list(spans) for line, spans in editor._highlights.items() if spans}
    editor._highlights = saved
    return found


def test_each_line_gets_the_spans_of_the_whole_document_query() -> None:
    async def run() -> None:
        app = EditorApp()
        async with app.run_test() as pilot:
            editor = app.query_one(CodeEditor)
            editor.load_text(long_source())
            await pilot.pause()
            expected = whole_document(editor)
            blocks = editor._highlights
            assert isinstance(blocks, BlockHighlights)
            lines = editor.document.line_count
            assert lines > 300
            for line in range(lines):
                assert sorted(blocks[line]) == sorted(expected.get(line, [])), line

    asyncio.run(run())


def test_an_edit_queries_only_the_blocks_that_are_drawn() -> None:
    async def run() -> None:
        app = EditorApp()
        async with app.run_test(size=(100, 30)) as pilot:
            editor = app.query_one(CodeEditor)
            editor.load_text(long_source())
            editor.move_cursor(editor.document.end)
            await pilot.pause()
            asked: list[tuple[tuple[int, int], tuple[int, int]]] = []
            query = editor._query_rows

            def counted(start: tuple[int, int], end: tuple[int, int]) -> dict[str, list[object]]:
                asked.append((start, end))
                return query(start, end)  # type: ignore[return-value]

            editor._highlights = BlockHighlights(counted)  # type: ignore[arg-type]
            editor.insert("x")
            await pilot.pause()
            assert 1 <= len(asked) <= 2  # the block(s) on screen at the end, not the whole document
            last_row = editor.document.line_count - 1
            assert all(start[0] <= last_row < end[0] + 50 for start, end in asked)

    asyncio.run(run())


def test_an_edit_is_looked_up_again_with_the_statement_around_it() -> None:
    """Renaming an argument changes no syntax, yet the rows of its statement are looked up again
    (a highlight can hang on text in another row of it); the rows around stay as they were."""

    async def run() -> None:
        app = EditorApp()
        async with app.run_test() as pilot:
            editor = app.query_one(CodeEditor)
            editor.load_text('x = 1\ntotal = add(\n    first,\n    second,\n)\ny = 2\nz = 3\nw = """done"""\nv = 5')
            await pilot.pause()
            document = editor.document
            before = document._syntax_tree
            document.replace_range((2, 4), (2, 9), "other")
            after = document._syntax_tree
            assert list(before.changed_ranges(after)) == []
            assert rows_an_edit_changed(before, after, (2, 4), (2, 9)) == [(1, 5)]
            before = after
            document.replace_range((5, 4), (5, 5), '"""')  # a string opens, up to the quotes on row 7
            assert rows_an_edit_changed(before, document._syntax_tree, (5, 4), (5, 7)) == [(5, 9)]

    asyncio.run(run())
