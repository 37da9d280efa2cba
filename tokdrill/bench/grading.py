"""Grading figures: warm verdict latency per seed drill and cold `tokdrill check` wall time, each
beside a bare ``python -m pytest -q`` run of the same hidden tests (measured in the same run)."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from tokdrill.bench.figures import PYTHON, Figure, median, percentile, time_command

SEED_DRILLS = ("bpe-train", "bpe-encode", "bytes-to-unicode", "viterbi-segment", "wordpiece-tokenize-word", "bpe-full")
WARM_P50_MS, WARM_P95_MS, COLD_RATIO = 50.0, 150.0, 0.5
THINK_SECONDS = 0.2  # gap between submissions in the warm figures
OVERHEAD_MS = 25.0  # what the sandbox may add on top of the hidden tests' own run time


def figures(quick: bool) -> list[Figure]:
    from tokdrill import locations
    from tokdrill.content.loader import load_library
    from tokdrill.content.reference import reference_source
    from tokdrill.grading import WarmGrader

    library = load_library([])
    drills = [library.drills[d] for d in SEED_DRILLS if d in library.drills]
    if not drills:
        raise RuntimeError("none of the seed drills loaded")
    warm_runs, cold_runs = (15, 2) if quick else (50, 5)
    project = locations.drills_dir().parent
    out: list[Figure] = []
    sources = {d.id: reference_source(d.symbols) for d in drills}
    bare = {d.id: median(_bare_pytest(d, cold_runs, project)) * 1000 for d in drills}
    with WarmGrader() as grader:
        grader.preload(drills)
        for drill in drills:
            source = sources[drill.id]
            verdict = grader.grade(drill, source)
            note = ""
            if not verdict.passed:
                # The retype text may lack the imports its module has (see the report); measure
                # with them added rather than time a failing run, and say so in the figure's name.
                source = sources[drill.id] = _reference_imports(drill.symbols) + source
                verdict = grader.grade(drill, source)
                note = (
                    " (module imports added)" if verdict.passed else f" [reference text did not pass: {_why(verdict)}]"
                )
            grader.preload([drill])  # standby for this drill, as the app has when a drill is open
            samples = _warm_samples(grader, drill, source, warm_runs)
            p50, p95 = percentile(samples, 50), percentile(samples, 95)
            out.append(
                Figure(
                    f"grading: warm verdict p50, {drill.id}{note}",
                    p50,
                    "ms",
                    f"<= {WARM_P50_MS:g} ms",
                    p50 <= WARM_P50_MS and "did not pass" not in note,
                    bare[drill.id],
                    "bare python -m pytest -q",
                )
            )
            out.append(
                Figure(
                    f"grading: warm verdict p95, {drill.id}{note}",
                    p95,
                    "ms",
                    f"<= {WARM_P95_MS:g} ms",
                    p95 <= WARM_P95_MS and "did not pass" not in note,
                    bare[drill.id],
                    "bare python -m pytest -q",
                )
            )
            floor = _floor_ms(drill, source, max(5, warm_runs // 3))
            if floor is not None:
                out.append(
                    Figure(
                        f"grading: sandbox overhead p50, {drill.id}",
                        p50 - floor,
                        "ms",
                        f"<= {OVERHEAD_MS:g} ms",
                        p50 - floor <= OVERHEAD_MS,
                        floor,
                        "the same tests run in a plain fork, no sandbox",
                    )
                )
    cold_drills = drills[:1] if quick else drills
    for drill in cold_drills:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "submission.py"
            path.write_text(sources[drill.id], encoding="utf-8")
            argv = [PYTHON, "-m", "tokdrill", "check", drill.id, str(path)]
            cold = median(time_command(argv, cold_runs, warmup=1, env=_env(project))) * 1000
        ratio = cold / bare[drill.id]
        out.append(
            Figure(
                f"grading: cold tokdrill check, {drill.id}",
                cold,
                "ms",
                f"<= {COLD_RATIO:g}x",
                ratio <= COLD_RATIO,
                bare[drill.id],
                "bare python -m pytest -q",
            )
        )
        no_autoload = median(_bare_pytest(drill, cold_runs, project, autoload=False)) * 1000
        # A stricter baseline than the issue's, shown for information: a sandboxed run of the same
        # tests costs about what a plugin-free pytest run costs (the sandbox is not free).
        out.append(
            Figure(
                f"grading: cold tokdrill check vs pytest without plugin autoload, {drill.id}",
                cold,
                "ms",
                "information",
                True,
                no_autoload,
                "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 pytest -q",
            )
        )
    return out


def _floor_ms(drill: object, source: str, runs: int) -> float | None:
    """Median ms of the drill's hidden tests against ``source`` in a plain fork of this process
    (pytest already configured, no sandbox): what the tests cost by themselves."""
    import threading

    if threading.active_count() > 1 or not hasattr(os, "fork"):
        return None
    from tokdrill.grading.prepared import PreparedDrill
    from tokdrill.grading.spec import DrillSpec
    from tokdrill.grading.submission import build_module

    prepared = PreparedDrill(DrillSpec.of(drill))
    samples = []
    for _ in range(runs):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                start = time.perf_counter()
                prepared.plugin.module, _ = build_module(source, prepared.spec.symbols)
                prepared.run_tests()
                os.write(write_end, repr(time.perf_counter() - start).encode())
            finally:
                os._exit(0)
        os.close(write_end)
        data = os.read(read_end, 64)
        os.close(read_end)
        os.waitpid(pid, 0)
        if data:
            samples.append(float(data) * 1000)
    return median(samples) if samples else None


def _warm_samples(grader: object, drill: object, source: str, runs: int) -> list[float]:
    """Milliseconds per verdict, with a pause between submissions as a person leaves (the server
    uses it to fork the next standby sandbox; back-to-back calls would wait for that)."""
    samples = []
    for _ in range(runs):
        time.sleep(THINK_SECONDS)
        start = time.perf_counter()
        grader.grade(drill, source)  # type: ignore[attr-defined]
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _reference_imports(symbols: object) -> str:
    """The top-level import statements of the reference modules defining ``symbols``."""
    import ast
    import sys

    import reference_impl

    lines: list[str] = []
    for symbol in symbols:  # type: ignore[attr-defined]
        module = sys.modules[getattr(reference_impl, symbol.split(".")[0]).__module__]
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)) and getattr(node, "module", "") != "__future__":
                text = ast.unparse(node)
                if text not in lines:
                    lines.append(text)
    return "\n".join(lines) + "\n\n"


def _why(verdict: object) -> str:
    problem = getattr(verdict, "problem", "")
    if problem:
        return problem.splitlines()[0][:80]
    failed = [t for t in getattr(verdict, "tests", ()) if t.outcome != "passed"]
    return f"{len(failed)} test(s) failed, first {failed[0].name}" if failed else "unknown"


def _env(project: Path, autoload: bool = True) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(project), env.get("PYTHONPATH", "")) if p)
    if not autoload:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    return env


def _bare_pytest(drill: object, runs: int, project: Path, autoload: bool = True) -> list[float]:
    """Wall seconds of a plain ``python -m pytest -q`` over the drill's hidden tests."""
    argv = [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", *[str(p) for p in drill.hidden_tests]]  # type: ignore[attr-defined]
    cwd = os.getcwd()
    try:
        os.chdir(project)
        return time_command(argv, runs, warmup=1, env=_env(project, autoload))
    finally:
        os.chdir(cwd)
