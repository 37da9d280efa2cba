"""The sandbox-overhead figure compares like with like: the plain run of the tests is timed in
turn with the warm verdicts, in a fork that freezes its heap as the grading server does, and
that fork is made by a single-threaded helper process, never by the benchmark's own. The two
sandbox paths are timed in turn too, each verdict once both servers have settled."""

from __future__ import annotations

import json
import os
import threading

import pytest

from tokdrill.bench import grading
from tokdrill.bench.plain_run import PlainRuns
from tokdrill.content.loader import load_library


class _Grader:
    def __init__(self, events: list[str], name: str = "verdict") -> None:
        self.events = events
        self.name = name

    def grade(self, drill: object, source: str) -> None:
        self.events.append(self.name)

    def settle(self) -> bool:
        self.events.append(f"settle {self.name}")
        return True


def test_each_verdict_is_timed_right_after_a_plain_run_of_the_same_tests() -> None:
    events: list[str] = []

    def floor() -> float:
        events.append("plain")
        return 7.0

    warm, plain, _ = grading._timed([_Grader(events)], object(), "src", 3, floor)  # type: ignore[arg-type, list-item]
    assert [e for e in events if not e.startswith("settle")] == ["plain", "verdict"] * 3
    assert len(warm[0]) == 3 and all(ms >= 0 for ms in warm[0])
    assert plain == [7.0, 7.0, 7.0]


def test_without_a_floor_only_verdicts_are_timed() -> None:
    events: list[str] = []
    warm, plain, _ = grading._timed([_Grader(events)], object(), "src", 2, None)  # type: ignore[arg-type, list-item]
    assert events == ["settle verdict", "verdict"] * 2 and plain == [] and len(warm[0]) == 2


def test_the_two_paths_take_turns_and_each_verdict_waits_for_both_servers() -> None:
    """The namespace and Landlock servers go first in alternate rounds, and every verdict is timed
    only once both have settled: the other server's standby start never runs beside it."""
    events: list[str] = []
    graders = [_Grader(events, "ns"), _Grader(events, "ll")]
    warm, _, busy = grading._timed(graders, object(), "src", 2, None)  # type: ignore[arg-type]
    settled = ["settle ns", "settle ll"]
    assert events == [*settled, "ns", *settled, "ll", *settled, "ll", *settled, "ns"]
    assert [len(w) for w in warm] == [2, 2] and all(b >= 0 for b in busy)


def test_warm_samples_cross_the_worker_boundary_unchanged() -> None:
    samples = grading.WarmSamples(
        mode="userns", verdicts={"bpe-full": [30.0, 31.5]}, landlock={"bpe-full": [32.0, 33.0]}, landlock_seconds=1.5
    )
    again = grading.WarmSamples.from_json(json.loads(json.dumps(samples.to_json())))
    assert (again.mode, again.verdicts, again.landlock, again.landlock_seconds) == (
        "userns",
        {"bpe-full": [30.0, 31.5]},
        {"bpe-full": [32.0, 33.0]},
        1.5,
    )
    with pytest.raises(ValueError, match="milliseconds by drill"):
        grading.WarmSamples.from_json({"mode": "userns", "verdicts": [1, 2]})


def test_the_plain_run_times_the_hidden_tests_against_the_retype_text() -> None:
    drill = load_library([]).drills["bytes-to-unicode"]
    with PlainRuns() as plain:
        sample = plain.sample(drill, grading.retype_source(drill))
        assert sample is not None and sample > 0.0
        broken = plain.sample(drill, "raise SystemExit(3)\n")
    assert broken is None  # the fork reports nothing when the source does not even load


def test_a_threaded_benchmark_never_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forking while another thread runs may deadlock the child (Python 3.12+ warns): the plain
    runs fork in the helper, so the benchmark's process may have threads and never calls fork."""
    drill = load_library([]).drills["bytes-to-unicode"]
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()

    def refuse() -> int:
        raise AssertionError("os.fork() called in the benchmark's own, multi-threaded process")

    monkeypatch.setattr(os, "fork", refuse)
    try:
        with PlainRuns() as plain:
            sample = plain.sample(drill, grading.retype_source(drill))
    finally:
        stop.set()
        other.join()
    assert sample is not None and sample > 0.0


def _fake_run(monkeypatch: pytest.MonkeyPatch, mine: grading.WarmSamples, theirs: grading.WarmSamples) -> None:
    drill = load_library([]).drills["bpe-full"]
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(grading, "_drills", lambda: [drill])
    monkeypatch.setattr(grading, "_bare_pytest", lambda *args: [1.0])
    monkeypatch.setattr(grading, "_cold_by_drill", lambda ids, runs, project: {i: [400.0] for i in ids})
    monkeypatch.setattr(grading, "_warm_samples_by_drill", lambda ids, runs, with_floor=False: mine)

    def worker(args: list[str]) -> tuple[dict[str, object], str]:
        return (theirs.to_json(), "") if args[0] == "warm" else ({"bpe-full": [420.0]}, "")

    monkeypatch.setattr(grading, "_ordinary_user_or_why", worker)


def test_landlock_rows_stand_beside_the_namespace_path_of_the_same_account(monkeypatch: pytest.MonkeyPatch) -> None:
    mine = grading.WarmSamples("userns", {"bpe-full": [30.0]}, {"bpe-full": [36.0]}, floors={"bpe-full": [25.0]})
    theirs = grading.WarmSamples("userns", {"bpe-full": [31.0]}, {"bpe-full": [60.0]}, landlock_seconds=2.0)
    _fake_run(monkeypatch, mine, theirs)
    found = {f.name: f for f in grading.figures(quick=True)}
    root = found["grading: warm verdict p50, bpe-full (root, Landlock)"]
    assert (root.value, root.baseline, root.met) == (36.0, 30.0, True)
    assert root.baseline_name == "user namespaces, in turn"
    user = found["grading: warm verdict p50, bpe-full (ordinary user, Landlock)"]
    assert (user.value, user.baseline, user.met) == (60.0, 31.0, False)
    assert found["grading: wall time the Landlock path's warm verdicts added (ordinary user)"].value == 2.0
    assert "grading: warm verdict p95, bpe-full (root, Landlock)" in found


def test_a_machine_whose_own_path_is_landlock_says_so_instead_of_repeating_it(monkeypatch: pytest.MonkeyPatch) -> None:
    own = "it is this machine's own path (the rows without a path name)"
    mine = grading.WarmSamples("landlock", {"bpe-full": [30.0]}, no_landlock=own)
    theirs = grading.WarmSamples("landlock", {"bpe-full": [31.0]}, no_landlock=own)
    _fake_run(monkeypatch, mine, theirs)
    names = [f.name for f in grading.figures(quick=True)]
    assert f"grading: warm verdict (root, Landlock) skipped: {own}" in names
    assert not [n for n in names if n.endswith("Landlock)") or "added" in n]
