"""The own-editor loop: `tokdrill start` writes the drill with its prompt as a comment and starts
the clock; `tokdrill check` records failed concepts and the first pass as a timed attempt
(unless --no-record); `tokdrill show` prints what the app shows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tokdrill import locations
from tokdrill.cli import main
from tokdrill.content import load_library
from tokdrill.content.reference import reference_source
from tokdrill.progress.store import Store

DRILL = "bpe-encode"


def stored() -> Store:
    return Store.open(locations.database_path())


def test_start_writes_prompt_and_starter_and_refuses_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drill = load_library([], check_symbols=False).drill(DRILL)
    target = tmp_path / "mine.py"
    assert main(["start", DRILL, str(target)]) == 0
    text = target.read_text()
    assert text.startswith(f"# {drill.title}\n#\n# ")
    assert drill.starter.strip() in text
    compile(text, str(target), "exec")  # the prompt is all comments
    with stored() as store:
        start = store.start(DRILL)
        assert start is not None and start.mode == "recall" and start.path == str(target.resolve())
    assert main(["start", DRILL, str(target)]) == 2
    assert "exists" in capsys.readouterr().err


def test_start_retype_writes_the_reference_to_copy(tmp_path: Path) -> None:
    target = tmp_path / "retype.py"
    assert main(["start", DRILL, str(target), "--retype"]) == 0
    text = target.read_text()
    first = reference_source(load_library([], check_symbols=False).drill(DRILL).symbols).splitlines()[0]
    assert f"# {first}" in text
    with stored() as store:
        start = store.start(DRILL)
        assert start is not None and start.mode == "retype"


def test_check_logs_failures_and_times_the_first_pass_after_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drill = load_library([], check_symbols=False).drill(DRILL)
    mine = tmp_path / "mine.py"
    assert main(["start", DRILL, str(mine)]) == 0
    assert main(["check", DRILL, str(mine)]) == 1  # the starter fails
    out = capsys.readouterr().out
    assert "recorded in your mistakes:" in out and "merge-order" in out and "clock running" in out
    mine.write_text(reference_source(drill.symbols))
    assert main(["check", DRILL, str(mine)]) == 0
    assert "recorded: passed in" in capsys.readouterr().out
    with stored() as store:
        (attempt,) = store.attempts(DRILL)
        assert attempt.origin == "check" and attempt.passed and attempt.submissions == 2
        assert store.start(DRILL) is None
        failed = store.concept_results(["merge-order"], failed=True)
        assert len(failed) == 1 and failed[0].origin == "check"
    assert main(["check", DRILL, str(mine), "--json"]) == 0  # a later pass is not another attempt
    captured = capsys.readouterr()
    assert json.loads(captured.out)["passed"] is True and "not timed" in captured.err
    with stored() as store:
        assert len(store.attempts(DRILL)) == 1


def test_check_no_record_keeps_nothing(tmp_path: Path) -> None:
    mine = tmp_path / "mine.py"
    assert main(["start", DRILL, str(mine)]) == 0
    assert main(["check", DRILL, str(mine), "--no-record"]) == 1
    with stored() as store:
        assert store.concept_results() == [] and store.attempts() == []
        start = store.start(DRILL)
        assert start is not None and start.checks == 0


def test_show_prints_the_parts(capsys: pytest.CaptureFixture[str]) -> None:
    drill = load_library([], check_symbols=False).drill(DRILL)
    assert main(["show", DRILL, "--prompt"]) == 0
    assert capsys.readouterr().out == drill.prompt.rstrip() + "\n"
    assert main(["show", DRILL, "--starter"]) == 0
    assert capsys.readouterr().out == drill.starter.rstrip() + "\n"
    assert main(["show", DRILL, "--reference"]) == 0
    assert capsys.readouterr().out == reference_source(drill.symbols).rstrip() + "\n"
    assert main(["show", DRILL]) == 0
    whole = capsys.readouterr().out
    assert drill.title in whole and drill.prompt.strip() in whole
    assert main(["show", "no-such-drill"]) == 2
    assert "unknown drill" in capsys.readouterr().err
