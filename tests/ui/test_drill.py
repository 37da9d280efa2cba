"""The drill flow: choose a mode, type, submit wrong and right code, results, attempt recorded;
the clock, drafts, leaving, giving up and opening another drill."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from textual.pilot import Pilot
from textual.widgets import Static
from ui_helpers import SIZE, SMALL, burst, hold_grading, load, settle, start_drill, submit

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.scheduling.readiness import window_start
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.messages import OpenCard, OpenDrill
from tokdrill.ui.screens import drill as drill_screen
from tokdrill.ui.screens.dialogs import Confirm, GiveUp, ModeChoice, RestoreDraft
from tokdrill.ui.screens.drill import DrillScreen
from tokdrill.ui.screens.home import HomeScreen
from tokdrill.ui.widgets.code_editor import CodeEditor
from tokdrill.ui.widgets.timer import DrillTimer

DRILL = "bytes-to-unicode"
WRONG = "def bytes_to_unicode():\n    return {}\n"


async def open_drill(app: TokdrillApp, pilot: Pilot[None], mode_key: str) -> DrillScreen:
    """From Today, press Enter on the first item (the newcomer's drill) and pick a mode."""
    assert isinstance(app.screen, HomeScreen)
    await pilot.press("enter")
    assert isinstance(app.screen, ModeChoice)
    await pilot.press(mode_key)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, DrillScreen)
    return screen


def drill_screens(app: TokdrillApp) -> list[DrillScreen]:
    return [s for s in app.screen_stack if isinstance(s, DrillScreen)]


async def test_retype_wrong_then_right_records_one_passing_attempt(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "r")
        assert screen.mode == "retype" and screen.drill.id == DRILL
        editor = screen.query_one(CodeEditor)
        assert editor.text == ""
        await pilot.press(*"def")
        assert screen.last_progress is not None and screen.last_progress.divergence is None
        assert screen.last_progress.accuracy == 1.0

        await load(pilot, screen, WRONG)
        clock.advance(seconds=90)
        await submit(app, pilot)
        verdict = screen.last_verdict
        assert verdict is not None and not verdict.passed
        shown = screen.results.text_of("tests")
        for test in verdict.tests:  # every hidden test is listed with its outcome
            assert test.name.split("::")[-1] in shown
        assert "failed" in shown
        assert backend.store.attempts(DRILL) == []
        assert not screen.finished

        await load(pilot, screen, backend.reference(screen.drill))
        clock.advance(seconds=30)
        await submit(app, pilot)
        assert screen.last_verdict is not None and screen.last_verdict.passed
        [attempt] = backend.store.attempts(DRILL)
        assert attempt.passed and attempt.mode == "retype" and attempt.submissions == 2
        assert attempt.active_seconds == pytest.approx(120.0)
        assert attempt.retype_accuracy == pytest.approx(1.0)
        summary = screen.results.text_of("summary")
        assert "Passed in 2:00" in summary and "under the 8:00 target" in summary
        assert "first pass" in summary
        assert "matches the reference exactly" in screen.results.text_of("diff")
        assert editor.read_only
        assert backend.draft(DRILL, "retype") is None


async def test_a_pass_is_on_screen_before_the_editor_is_restyled_read_only(app: TokdrillApp, backend: Backend) -> None:
    """Making the editor read-only redraws every row it shows: that waits until the verdict
    has been painted, so it does not slow the frame the user waits for."""
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, DRILL, "retype")
        await load(pilot, screen, backend.reference(screen.drill))
        frames: list[bool] = []  # per frame painted with the verdict set: was the editor read-only
        display = app._display

        def counted(shown: object, renderable: object) -> None:
            display(shown, renderable)  # type: ignore[arg-type]
            if renderable is not None and screen.last_verdict is not None:
                frames.append(screen.editor.read_only)

        app._display = counted  # type: ignore[method-assign]
        await submit(app, pilot)
        await pilot.pause()
        assert screen.last_verdict is not None and screen.last_verdict.passed
        assert frames[0] is False and frames[-1] is True, frames


async def test_second_pass_reports_personal_best_and_diff(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, DRILL, "recall")
        code = backend.reference(screen.drill)
        await load(pilot, screen, code)
        clock.advance(seconds=300)
        await submit(app, pilot)
        assert screen.finished
        await pilot.press("escape")
        screen = await start_drill(app, pilot, DRILL, "recall")
        assert screen.editor.text == screen.drill.starter  # recall starts from the starter
        await load(pilot, screen, "# my version\n" + code)
        clock.advance(seconds=200)
        await submit(app, pilot)
        summary = screen.results.text_of("summary")
        assert "new personal best (was 5:00)" in summary
        assert "-# my version" in screen.results.diff_text
        assert len(backend.store.attempts(DRILL)) == 2


async def test_recall_shows_prompt_and_hides_reference(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "m")
        assert screen.mode == "recall"
        assert not screen.query("#reference")
        assert screen.query_one("#prompt").display
        assert screen.editor.text == screen.drill.starter
        assert not screen.query_one("#retype-status").display


async def test_retype_writes_the_prompt_when_it_is_first_shown(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "r")
        assert not screen.query("#prompt-text")  # hidden behind the reference: not built yet
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert screen.query_one("#prompt").display
        assert not screen.query_one("#reference").display
        shown = screen.query("#prompt-text")
        assert len(shown) == 1 and screen.query_one("#prompt").children[0] is shown.first()
        await pilot.press("ctrl+r", "ctrl+r")  # back to the reference and to the prompt again
        await pilot.pause()
        assert len(screen.query("#prompt-text")) == 1


async def test_retype_marks_first_divergence_and_jumps_to_it(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "r")
        reference = backend.reference(screen.drill).split("\n")
        await load(pilot, screen, "\n".join(reference[:3] + ["    oops"]))
        progress = screen.last_progress
        assert progress is not None and progress.divergence is not None
        assert progress.divergence.line == 3
        assert screen.query_one("#reference").marked == 3
        assert "line 4, col 5" in str(screen.status.render())
        await pilot.press("ctrl+g")
        assert screen.editor.cursor_location == (progress.divergence.line, progress.divergence.column)


async def test_the_clock_starts_with_the_first_keystroke(app: TokdrillApp, clock: FixedClock) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, DRILL, "retype")
        timer = screen.query_one(DrillTimer)
        clock.advance(seconds=45)  # reading the reference first costs nothing
        timer.tick()
        assert timer.active_seconds() == 0.0 and "starts when you type" in str(timer.render())
        await pilot.press("d")
        clock.advance(seconds=10)
        timer.tick()
        assert timer.active_seconds() == pytest.approx(10.0)
        assert "starts when you type" not in str(timer.render())


async def test_the_first_keystroke_has_the_grader_prepare_the_drill_off_the_ui_thread(
    app: TokdrillApp, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    prepared: list[tuple[str, str]] = []

    def prepare(drill):  # type: ignore[no-untyped-def]
        prepared.append((drill.id, threading.current_thread().name))
        return []

    monkeypatch.setattr(backend, "prepare_grading", prepare)
    async with app.run_test(size=SIZE) as pilot:
        await start_drill(app, pilot, DRILL, "recall")
        await pilot.pause()
        assert prepared == []  # opening a drill to read it costs nothing
        await pilot.press("d", "e", "f")
        await settle(pilot, lambda: bool(prepared))
        await pilot.pause()
        assert [drill for drill, _ in prepared] == [DRILL]
        assert prepared[0][1] != threading.main_thread().name


async def test_paused_time_is_not_counted(app: TokdrillApp, clock: FixedClock) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "r")
        timer = screen.query_one(DrillTimer)
        await pilot.press("d")
        clock.advance(seconds=10)
        await pilot.press("ctrl+t")
        assert not timer.running and screen.editor.read_only
        clock.advance(seconds=1000)
        await pilot.press("ctrl+t")
        assert timer.running and not screen.editor.read_only
        clock.advance(seconds=5)
        assert timer.active_seconds() == pytest.approx(15.0)


async def test_timer_colour_changes_near_and_past_target(app: TokdrillApp, clock: FixedClock) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "r")
        timer = screen.query_one(DrillTimer)
        await pilot.press("d")
        target = screen.drill.target_seconds
        clock.advance(seconds=target * 0.85)
        timer.tick()
        assert timer.has_class("-near") and not timer.has_class("-over")
        clock.advance(seconds=target * 0.2)
        timer.tick()
        assert timer.has_class("-over") and not timer.has_class("-near")


async def test_draft_restored_after_a_crash(backend: Backend, clock: FixedClock) -> None:
    # the previous session autosaved a draft and died without cleaning up
    backend.save_draft(DRILL, "retype", "def bytes_to_unicode():\n    pass\n", 123.0)
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        app.start_drill(DRILL, "retype")
        await pilot.pause()
        assert isinstance(app.screen, RestoreDraft)
        await pilot.press("y")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        assert screen.editor.text == "def bytes_to_unicode():\n    pass\n"
        timer = screen.query_one(DrillTimer)
        assert timer.active_seconds() == pytest.approx(123.0)
        clock.advance(seconds=60)  # the restored time waits for typing too
        assert timer.active_seconds() == pytest.approx(123.0) and timer.waiting


async def test_draft_discarded_when_starting_fresh(backend: Backend) -> None:
    backend.save_draft(DRILL, "retype", "x = 1\n", 5.0)
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        app.start_drill(DRILL, "retype")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        assert app.screen.editor.text == ""
        assert backend.draft(DRILL, "retype") is None


async def test_drafts_autosave_on_a_timer_and_on_submit_and_leave(
    app: TokdrillApp, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tokdrill.ui.screens.drill.AUTOSAVE_SECONDS", 0.05)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "r")
        await pilot.press(*"def x")
        await pilot.pause(0.3)  # a few autosave periods
        draft = backend.draft(DRILL, "retype")
        assert draft is not None and draft.text == "def x"
        await load(pilot, screen, "def y():\n    return 1\n")
        await submit(app, pilot)  # wrong, but the draft is saved before grading
        draft = backend.draft(DRILL, "retype")
        assert draft is not None and draft.text == "def y():\n    return 1\n"
        await load(pilot, screen, "def z")
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
        draft = backend.draft(DRILL, "retype")
        assert draft is not None and draft.text == "def z"


async def test_quitting_mid_drill_keeps_the_draft(backend: Backend) -> None:
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        app.start_drill(DRILL, "retype")
        await pilot.pause()
        await pilot.press(*"def b")
        await pilot.press("ctrl+q")
    store = type(backend.store).open(backend.store.path)
    try:
        draft = store.draft(DRILL, "retype")
        assert draft is not None and draft.text == "def b"
    finally:
        store.close()


# ---------------------------------------------------------------------------- leaving a drill
@pytest.mark.parametrize("mode", ["retype", "recall"])
async def test_escape_leaves_the_drill_in_one_press_before_any_submit(
    app: TokdrillApp, backend: Backend, mode: str
) -> None:
    async with app.run_test(size=SMALL) as pilot:
        app.start_drill(DRILL, mode)  # type: ignore[arg-type]
        await pilot.pause()
        await pilot.press(*"x = 1")
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
        draft = backend.draft(DRILL, mode)  # type: ignore[arg-type]
        assert draft is not None and "x = 1" in draft.text


async def test_escape_leaves_the_drill_in_one_press_after_a_failed_submit(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        app.start_drill(DRILL, "retype")
        await pilot.pause()
        await pilot.press(*"def bytes_to_unicode(): return {}")
        await submit(app, pilot)
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
        draft = backend.draft(DRILL, "retype")
        assert draft is not None and draft.text == "def bytes_to_unicode(): return {}"
        assert backend.store.attempts(DRILL) == []


async def test_escape_leaves_after_a_pass(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, DRILL, "retype")
        await load(pilot, screen, backend.reference(screen.drill))
        await submit(app, pilot)
        assert screen.finished
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


# ---------------------------------------------------------------------------------- giving up
async def test_give_up_asks_first_and_no_changes_nothing(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, DRILL, "retype")
        await pilot.press(*"def b")
        await pilot.press("f9")
        assert isinstance(app.screen, GiveUp)
        await pilot.press("n")
        assert app.screen is screen and screen.editor.text == "def b"
        assert backend.store.attempts(DRILL) == []
        await pilot.press("f9", "escape")
        assert app.screen is screen and not screen.finished
        await pilot.press(*"ytes")  # typing goes on in the editor
        assert screen.editor.text == "def bytes"


async def test_giving_up_records_a_failed_attempt_and_keeps_the_draft(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "r")
        await pilot.press("d")
        await load(pilot, screen, WRONG)
        await submit(app, pilot)
        clock.advance(seconds=60)
        await pilot.press("f9", "y")
        assert isinstance(app.screen, HomeScreen)
        [attempt] = backend.store.attempts(DRILL)
        assert not attempt.passed and attempt.submissions == 1 and attempt.tests
        assert attempt.active_seconds == pytest.approx(60.0)
        draft = backend.draft(DRILL, "retype")
        assert draft is not None and draft.text == WRONG and draft.elapsed_seconds == 0.0
        state = backend.store.item_state("drill", DRILL)
        assert state is not None and state.reps == 1


async def test_giving_up_with_discard_drops_the_draft(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        await start_drill(app, pilot, DRILL, "retype")
        await pilot.press(*"def b")
        await pilot.press("f9", "d")
        assert isinstance(app.screen, HomeScreen)
        [attempt] = backend.store.attempts(DRILL)
        assert not attempt.passed and attempt.submissions == 0
        assert backend.draft(DRILL, "retype") is None


# ------------------------------------------------------------------- opening another drill
async def test_opening_another_drill_asks_and_keeps_the_typing(app: TokdrillApp, backend: Backend) -> None:
    other = "bpe-encode"
    async with app.run_test(size=SMALL) as pilot:
        first = await start_drill(app, pilot, DRILL, "retype")
        await pilot.press(*"def bytes_to")
        app.post_message(OpenDrill(other, "recall"))  # as the command palette does
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        assert app.screen is first and first.editor.text == "def bytes_to"
        app.post_message(OpenDrill(other, "recall"))
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen) and screen.drill.id == other
        assert len(drill_screens(app)) == 1  # never two drills stacked
        draft = backend.draft(DRILL, "retype")
        assert draft is not None and draft.text == "def bytes_to"
        app.post_message(OpenDrill(DRILL, "retype"))  # and back: the typing is offered again
        await pilot.pause()
        await pilot.press("y")  # leave the other drill
        await pilot.pause()
        assert isinstance(app.screen, RestoreDraft)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen) and app.screen.editor.text == "def bytes_to"


async def test_opening_the_open_drill_again_goes_back_to_it(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, DRILL, "retype")
        await pilot.press(*"def")
        await pilot.press("f1")
        app.post_message(OpenDrill(DRILL, "retype"))
        await pilot.pause()
        assert app.screen is screen and screen.editor.text == "def"
        assert len(drill_screens(app)) == 1


CITED_DECK = """\
deck: cited
title: Cited deck
description: One card with a reference.
cards:
  - id: cited-card
    question: What does BPE merge first?
    answer: The most frequent adjacent pair.
    key_points: [most frequent pair, adjacent symbols]
    tags: [bpe]
    references:
      - title: Neural Machine Translation of Rare Words with Subword Units
        authors: Rico Sennrich, Barry Haddow, Alexandra Birch
        year: 2016
        venue: ACL 2016
        url: https://aclanthology.org/P16-1162/
"""


async def test_references_show_under_the_prompt_and_under_the_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FixedClock
) -> None:
    extra = tmp_path / "mine"
    (extra / "hidden").mkdir(parents=True)
    (extra / "cited.yaml").write_text(CITED_DECK)
    shipped = Path(__file__).resolve().parents[2] / "drills"
    drill = yaml.safe_load((shipped / "bytes-to-unicode.yaml").read_text())
    drill["id"] = "cited-drill"
    drill["references"] = yaml.safe_load(CITED_DECK)["cards"][0]["references"]
    (extra / "cited-drill.yaml").write_text(yaml.safe_dump(drill, sort_keys=False))
    (extra / "hidden" / "test_bytes_to_unicode.py").write_text(
        (shipped / "hidden" / "test_bytes_to_unicode.py").read_text()
    )
    monkeypatch.setenv("TOKDRILL_CONTENT", str(extra))
    backend = Backend.open(clock=clock)
    assert backend.library.drill("cited-drill").references, backend.problems
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "cited-drill", "recall")
        shown = str(screen.query_one("#prompt-references").render())
        assert "Sennrich" in shown and "(2016)" in shown and "https://aclanthology.org/P16-1162/" in shown
        await pilot.press("escape")
        app.post_message(OpenCard("cited-card"))
        await pilot.pause()
        await pilot.press("space")
        references = app.screen.query_one("#references")
        assert references.display and "Neural Machine Translation of Rare Words" in str(references.render())


async def test_the_next_due_day_after_a_pass_comes_before_the_interview(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    interview = clock.now().date() + timedelta(days=6)
    backend.set_interview_date(interview)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, DRILL, "recall")
        await load(pilot, screen, backend.reference(screen.drill))
        await submit(app, pilot)
        assert screen.finished
        summary = screen.results.text_of("summary")
        state = backend.store.item_state("drill", DRILL)
        assert state is not None and state.due.date() > interview  # the scheduler alone would go past it
        window = window_start(interview, backend._planner.calendar()).date()
    assert f"next due {window.isoformat()}." in " ".join(summary.split())


async def test_while_grading_the_bar_says_so_and_the_last_verdict_stays_greyed(
    app: TokdrillApp, backend: Backend
) -> None:
    """Grading changes no layout: the drill bar says "grading…", the results panel stays as it
    was (hidden before the first verdict, greyed after one) until the new verdict replaces it."""
    release = hold_grading(backend)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, DRILL, "recall")
        bar_state = screen.query_one("#grade-state", Static)
        for round_ in range(2):
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: bar_state.display)  # once the verdict is slow to come
            assert screen.grading and "grading" in str(bar_state.render())
            if round_ == 0:
                assert not screen.results.display  # nothing was shown yet, and nothing moves
            else:
                assert screen.results.stale and "FAILED" in screen.results.text_of("tests")
            release.set()
            await settle(pilot, lambda: not screen.grading)
            release.clear()
            assert not bar_state.display and screen.results.display and not screen.results.stale


async def test_a_verdict_that_comes_at_once_replaces_the_last_without_a_grading_frame(
    app: TokdrillApp, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing says "grading…" or greys the last verdict before the delay: a quick verdict
    goes straight from the old results to the new ones."""
    monkeypatch.setattr(drill_screen, "GRADING_SHOWN_AFTER", 3600.0)
    release = hold_grading(backend)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, DRILL, "recall")
        bar_state = screen.query_one("#grade-state", Static)
        for _ in range(2):
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: screen.grading)
            await pilot.pause()
            assert not bar_state.display and not screen.results.stale
            release.set()
            await settle(pilot, lambda: not screen.grading)
            release.clear()
            assert not bar_state.display and "FAILED" in screen.results.text_of("tests")


async def test_typing_while_paused_resumes_and_keeps_the_keys(app: TokdrillApp, clock: FixedClock) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "r")
        timer = screen.query_one(DrillTimer)
        await pilot.press("d")
        clock.advance(seconds=10)
        await pilot.press("ctrl+t")
        assert not timer.running and screen.editor.read_only
        clock.advance(seconds=100)
        burst(app, ["e", "f", "backspace", "f"])  # a fast typist who forgot the pause
        await pilot.pause(0.3)
        assert timer.running and not screen.editor.read_only
        assert screen.editor.text == "def"
        assert timer.active_seconds() == pytest.approx(10.0)


async def test_a_restored_draft_keeps_its_corrections_accuracy_and_the_clock_at_leaving(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_drill(app, pilot, "r")
        await pilot.press(*"dex", "backspace", *"f byt")  # one typo, fixed
        await pilot.pause()
        typed = screen.typing_figures()
        assert typed is not None and typed.corrected_errors == 1 and typed.accuracy < 1
        await submit(app, pilot)  # wrong: the draft is saved as the clock stands now
        clock.advance(seconds=90)  # then ninety more seconds of thinking
        left_at = screen.timer.active_seconds()
        await pilot.press("escape")
        await pilot.pause()
        draft = backend.draft(DRILL, "retype")
        assert draft is not None and draft.elapsed_seconds == pytest.approx(left_at) and draft.submissions == 1
        app.start_drill(DRILL, "retype")
        await pilot.pause()
        assert isinstance(app.screen, RestoreDraft)
        await pilot.press("y")
        await pilot.pause()
        again = app.screen
        assert isinstance(again, DrillScreen) and again is not screen
        restored = again.typing_figures()
        assert restored is not None
        assert (restored.corrected_errors, restored.accuracy) == (typed.corrected_errors, typed.accuracy)
        assert again.timer.active_seconds() == pytest.approx(left_at) and again.submissions == 1
