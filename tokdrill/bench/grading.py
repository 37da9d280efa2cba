"""Grading figures: warm verdict latency per shipped drill and cold `tokdrill check` wall time,
for root and for an ordinary (unprivileged) account side by side, each beside a baseline
measured in the same run (a bare ``python -m pytest -q`` of the same hidden tests, or root's
figure). Run as root, the ordinary-account figures come from a worker process running as
``nobody``; run as an ordinary user, root's figures are not available and the table says so.

``python -m tokdrill.bench.grading --worker warm|cold QUICK DRILL...`` is that worker: it prints
one JSON object of milliseconds per drill.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tokdrill.bench.figures import PYTHON, Figure, median, percentile, time_command

if TYPE_CHECKING:
    from tokdrill.content.model import Drill
    from tokdrill.grading.warm import WarmGrader

WARM_P50_MS, WARM_P95_MS, COLD_RATIO = 50.0, 150.0, 0.5
THINK_SECONDS = 0.2  # gap between submissions in the warm figures
OVERHEAD_MS = 25.0  # what the sandbox may add on top of the hidden tests' own run time
NOBODY = 65534


def figures(quick: bool) -> list[Figure]:
    from tokdrill import locations

    drills = _drills()
    warm_runs, cold_runs = (15, 2) if quick else (50, 5)
    project = locations.drills_dir().parent
    cold_drills = drills[:1] if quick else drills
    bare = {d.id: median(_bare_pytest(d, cold_runs, project)) * 1000 for d in cold_drills}
    root = os.geteuid() == 0
    ids = [d.id for d in drills]
    mine, floors = _warm_samples_by_drill(ids, warm_runs, with_floor=True)
    who, other = ("root", "ordinary user") if root else ("ordinary user", "root")
    out: list[Figure] = []
    theirs, skipped = _ordinary_user_or_why(["warm", str(warm_runs), *ids]) if root else (None, "")
    if skipped:
        out.append(Figure(f"grading: warm verdict ({other}) skipped: {skipped}", 0.0, "ms", "information", True))
    for drill in drills:
        samples = mine[drill.id]
        p50, p95 = percentile(samples, 50), percentile(samples, 95)
        out.append(_warm_figure(drill.id, "p50", p50, WARM_P50_MS, who))
        out.append(_warm_figure(drill.id, "p95", p95, WARM_P95_MS, who))
        if theirs is not None:
            other_samples = theirs[drill.id]
            for label, value, goal, base in (
                ("p50", percentile(other_samples, 50), WARM_P50_MS, p50),
                ("p95", percentile(other_samples, 95), WARM_P95_MS, p95),
            ):
                out.append(_warm_figure(drill.id, label, value, goal, other, base, f"the same as {who}"))
        elif not root:
            out.append(Figure(f"grading: warm verdict p50, {drill.id} ({other})", 0.0, "ms", "n/a (not root)", True))
        if floors.get(drill.id):
            floor = median(floors[drill.id])
            out.append(
                Figure(
                    f"grading: sandbox overhead p50, {drill.id} ({who})",
                    p50 - floor,
                    "ms",
                    f"<= {OVERHEAD_MS:g} ms",
                    p50 - floor <= OVERHEAD_MS,
                    floor,
                    "the same tests in a plain fork, no sandbox, timed in turn with the verdicts",
                )
            )
    cold_ids = [d.id for d in cold_drills]
    cold_mine = _cold_by_drill(cold_ids, cold_runs, project)
    cold_theirs, skipped = _ordinary_user_or_why(["cold", str(cold_runs), *cold_ids]) if root else (None, "")
    if skipped:
        out.append(Figure(f"grading: cold tokdrill check ({other}) skipped: {skipped}", 0.0, "ms", "information", True))
    for drill in cold_drills:
        for name, values in ((who, cold_mine), (other, cold_theirs)):
            if values is None:
                continue
            cold = median(values[drill.id])
            out.append(
                Figure(
                    f"grading: cold tokdrill check, {drill.id} ({name})",
                    cold,
                    "ms",
                    f"<= {COLD_RATIO:g}x",
                    cold / bare[drill.id] <= COLD_RATIO,
                    bare[drill.id],
                    "bare python -m pytest -q",
                )
            )
    return out


def _drills() -> list[Drill]:
    from tokdrill.content.loader import load_library

    library = load_library([])
    if not library.drills:
        raise RuntimeError("no shipped drills loaded")
    return sorted(library.drills.values(), key=lambda d: d.id)


def _warm_figure(
    drill_id: str, label: str, value: float, goal: float, who: str, base: float | None = None, base_name: str = ""
) -> Figure:
    return Figure(
        f"grading: warm verdict {label}, {drill_id} ({who})",
        value,
        "ms",
        f"<= {goal:g} ms",
        value <= goal,
        base,
        base_name,
    )


def retype_source(drill: Drill) -> str:
    """What a person typing the reference in retype mode submits (imports included)."""
    from tokdrill.content.reference import reference_source

    imports = [line for line in drill.starter.splitlines() if line.startswith(("import ", "from "))]
    return "\n".join(imports) + "\n\n\n" + reference_source(drill.symbols)


def _warm_samples_by_drill(
    ids: Sequence[str], runs: int, with_floor: bool = False
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Milliseconds per warm verdict of each drill's retype text (which must pass) and, if asked,
    of the same tests in a plain fork (see :mod:`tokdrill.bench.plain_run`), the two taken in
    turn so that the machine's changing speed affects both alike."""
    from tokdrill.bench.plain_run import PlainRuns
    from tokdrill.grading.warm import WarmGrader

    by_id = {d.id: d for d in _drills()}
    warm: dict[str, list[float]] = {}
    floors: dict[str, list[float]] = {}
    with WarmGrader() as grader, contextlib.ExitStack() as helpers:
        plain = helpers.enter_context(PlainRuns()) if with_floor else None
        grader.preload([by_id[i] for i in ids])
        for drill_id in ids:
            drill = by_id[drill_id]
            source = retype_source(drill)
            verdict = grader.grade(drill, source)
            if not verdict.passed:
                failed = [t.name for t in verdict.tests if t.outcome != "passed"]
                raise RuntimeError(f"{drill_id}: the retype text does not pass ({verdict.problem or failed[:3]})")
            grader.preload([drill])  # a standby for this drill, as the app has when a drill is open
            floor = functools.partial(plain.sample, drill, source) if plain is not None else None
            warm[drill_id], floors[drill_id] = _timed(grader, drill, source, runs, floor)
    return warm, floors


def _timed(
    grader: WarmGrader, drill: Drill, source: str, runs: int, floor: Callable[[], float | None] | None
) -> tuple[list[float], list[float]]:
    """Milliseconds per verdict, with a pause between submissions as a person leaves (the server
    uses it to start the next standby sandbox; back-to-back calls would wait for that), and of
    a plain run of the same tests (``floor``) in each pause, once the standby is ready."""
    samples: list[float] = []
    plain: list[float] = []
    for _ in range(runs):
        time.sleep(THINK_SECONDS)
        if floor is not None:
            sample = floor()
            if sample is not None:
                plain.append(sample)
        start = time.perf_counter()
        grader.grade(drill, source)
        samples.append((time.perf_counter() - start) * 1000)
    return samples, plain


def _cold_by_drill(ids: Sequence[str], runs: int, project: Path) -> dict[str, list[float]]:
    by_id = {d.id: d for d in _drills()}
    found: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        for drill_id in ids:
            path = Path(tmp) / f"{drill_id}.py"
            path.write_text(retype_source(by_id[drill_id]), encoding="utf-8")
            os.chmod(path, 0o644)
            argv = [PYTHON, "-m", "tokdrill", "check", drill_id, str(path)]
            found[drill_id] = [s * 1000 for s in time_command(argv, runs, warmup=1, env=_env(project))]
    return found


def _env(project: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(project), env.get("PYTHONPATH", "")) if p)
    return env


def _bare_pytest(drill: Drill, runs: int, project: Path) -> list[float]:
    """Wall seconds of a plain ``python -m pytest -q`` over the drill's hidden tests."""
    argv = [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", *[str(p) for p in drill.hidden_tests]]
    cwd = os.getcwd()
    try:
        os.chdir(project)
        return time_command(argv, runs, warmup=1, env=_env(project))
    finally:
        os.chdir(cwd)


# -- the ordinary-account worker ------------------------------------------------------------------
def _ordinary_user_or_why(args: list[str]) -> tuple[dict[str, list[float]] | None, str]:
    """The worker's figures, or None and why it could not run (say, no unprivileged account or
    no way to drop to it here); the root figures are reported either way."""
    try:
        return _as_ordinary_user(args), ""
    except (OSError, RuntimeError, ValueError) as exc:
        return None, " ".join(str(exc).split())[:200] or type(exc).__name__


def _as_ordinary_user(args: list[str]) -> dict[str, list[float]]:
    """Run this module's worker as ``nobody`` and return its figures. The worker sees the machine
    through a private mount namespace in which folders closed to other users (such as /root,
    where an interpreter may live) show only the Python installation; nothing else changes."""
    from tokdrill import locations
    from tokdrill.grading.threads import may_fork

    if not may_fork():
        raise RuntimeError("the ordinary-user worker is started from a single-threaded process")

    home = tempfile.mkdtemp(prefix="tokdrill-bench-user-")
    try:
        os.chmod(home, 0o700)
        os.chown(home, NOBODY, NOBODY)
        env = _env(locations.drills_dir().parent)
        env.update({"HOME": home, "TOKDRILL_HOME": home, "XDG_CACHE_HOME": home, "TMPDIR": home})
        result = subprocess.run(
            [PYTHON, "-m", "tokdrill.bench.grading", "--worker", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=home,
            preexec_fn=_enter_ordinary_view,  # safe: this process is single-threaded (checked above)
            check=False,
        )
    finally:
        import shutil

        shutil.rmtree(home, ignore_errors=True)
    if result.returncode != 0:
        raise RuntimeError(f"the ordinary-user worker failed: {result.stderr.strip()[-2000:]}")
    data = json.loads(result.stdout)
    return {str(k): [float(x) for x in v] for k, v in data.items()}


def _enter_ordinary_view() -> None:
    """In the worker, before exec: a private mount namespace with closed folders covered
    except the installation, then the unprivileged id for good."""
    from tokdrill.grading import kernel
    from tokdrill.grading.sandbox import closed_folders, install_paths

    paths = install_paths()
    covered = closed_folders(paths)
    kernel.unshare(kernel.CLONE_NEWNS)
    kernel.set_mount_attributes("/", private=True, recursive=True)
    for folder in covered:
        inside = [p for p in paths if p.startswith(folder + "/")]
        clones = {p: kernel.open_tree(p) for p in inside}
        kernel.mount("tmpfs", folder, "tmpfs", kernel.MS_NOSUID | kernel.MS_NODEV, "size=256k,mode=755")
        for path, fd in clones.items():
            os.makedirs(path, exist_ok=True)
            kernel.move_mount(fd, path)
            os.close(fd)
    os.setgroups([])
    os.setresgid(NOBODY, NOBODY, NOBODY)
    os.setresuid(NOBODY, NOBODY, NOBODY)


def _worker(argv: list[str]) -> int:
    kind, runs, *ids = argv
    if kind == "warm":
        found, _ = _warm_samples_by_drill(ids, int(runs))
    else:
        from tokdrill import locations

        found = _cold_by_drill(ids, int(runs), locations.drills_dir().parent)
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] != ["--worker"]:
        sys.exit("usage: python -m tokdrill.bench.grading --worker warm|cold RUNS DRILL...")
    sys.exit(_worker(sys.argv[2:]))
