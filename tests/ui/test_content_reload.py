"""A deck imported with `tokdrill import-anki` while the app runs shows up without a restart, in
Browse with its search kept."""

from __future__ import annotations

from pathlib import Path

from ui_helpers import SMALL, settle

from tokdrill.cli import main
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.browse import BrowseScreen
from tokdrill.ui.widgets.row_list import RowList

NOTES = (
    "#separator:tab\n#html:false\n"
    "What does a tokenizer's merge list hold?\tThe learned pairs, in the order they were learned.\n"
    "Which merge applies first when encoding?\tThe one learned earliest among the pairs present.\n"
)


async def test_a_deck_imported_while_the_app_runs_appears_in_browse(
    app: TokdrillApp, home: Path, tmp_path: Path
) -> None:
    export = tmp_path / "mine.txt"
    export.write_text(NOTES, encoding="utf-8")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("f3", *"merge list")
        await pilot.pause()
        browse = app.screen
        assert isinstance(browse, BrowseScreen)
        before = list(browse.query_one(RowList).keys)
        assert main(["import-anki", str(export), "--deck", "mine", "--title", "Mine"]) == 0
        assert (home / "content" / "mine.yaml").is_file()
        await settle(pilot, lambda: "mine" in app.backend.library.decks)
        await settle(pilot, lambda: any(key.startswith("card:mine-") for key in browse.query_one(RowList).keys))
        assert browse.query_one("#search").value == "merge list"  # type: ignore[attr-defined]
        assert set(before) < set(browse.query_one(RowList).keys)
        assert "Mine" in {deck.title for deck in app.backend.library.decks.values()}
