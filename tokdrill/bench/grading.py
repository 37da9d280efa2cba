"""Grading figures: warm verdict latency per shipped drill and cold `tokdrill check` wall time,
for root and for an ordinary (unprivileged) account side by side, each beside a baseline
measured in the same run (a bare ``python -m pytest -q`` of the same hidden tests, or root's
figure). Run as root, the ordinary-account figures come from a worker process running as
``nobody``; run as an ordinary user, root's figures are not available and the table says so.

Warm verdicts are measured on both sandbox paths: the machine's own (user namespaces where the
kernel grants them) and the Landlock path a machine without them takes, through a second warm
server told to refuse user namespaces. The two servers are timed in turn, each verdict after
both have settled, so the machine's changing speed affects both paths alike.

``python -m tokdrill.bench.grading --worker warm|cold RUNS DRILL...`` is that worker: it prints
one JSON object (milliseconds per drill, and for ``warm`` those of the Landlock path too).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tokdrill.bench.figures import PYTHON, Figure, median, percentile, time_command

if TYPE_CHECKING:
    from tokdrill.content.model import Drill
    from tokdrill.grading.warm import WarmGrader

WARM_P50_MS, WARM_P95_MS, COLD_RATIO = 50.0, 150.0, 0.5
OVERHEAD_MS = 25.0  # what the sandbox may add on top of the hidden tests' own run time
NOBODY = 65534
LANDLOCK = "Landlock"
PATH_NAMES = {"userns": "user namespaces", "landlock": LANDLOCK, "plain": "no file protection"}


@dataclass
class WarmSamples:
    """Milliseconds per warm verdict, by drill: on the grader's own path (``mode``), on the
    Landlock path (empty, with the reason in ``no_landlock``, when it is not measured), and of
    the same tests in a plain fork; ``landlock_seconds`` is the wall time the Landlock figures
    added to the run."""

    mode: str
    verdicts: dict[str, list[float]] = field(default_factory=dict)
    landlock: dict[str, list[float]] = field(default_factory=dict)
    no_landlock: str = ""
    floors: dict[str, list[float]] = field(default_factory=dict)
    landlock_seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "mode": self.mode,
            "verdicts": self.verdicts,
            "landlock": self.landlock,
            "no_landlock": self.no_landlock,
            "landlock_seconds": self.landlock_seconds,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> WarmSamples:
        seconds = data.get("landlock_seconds")
        return cls(
            mode=str(data.get("mode", "")),
            verdicts=_ms_by_drill(data.get("verdicts")),
            landlock=_ms_by_drill(data.get("landlock")),
            no_landlock=str(data.get("no_landlock", "")),
            landlock_seconds=float(seconds) if isinstance(seconds, int | float) else 0.0,
        )


def _ms_by_drill(data: object) -> dict[str, list[float]]:
    if not isinstance(data, dict):
        raise ValueError(f"expected milliseconds by drill, got {type(data).__name__}")
    return {str(k): [float(x) for x in v] for k, v in data.items()}


def figures(quick: bool) -> list[Figure]:
    from tokdrill import locations

    drills = _drills()
    warm_runs, cold_runs = (15, 2) if quick else (50, 5)
    project = locations.drills_dir().parent
    cold_drills = drills[:1] if quick else drills
    bare = {d.id: median(_bare_pytest(d, cold_runs, project)) * 1000 for d in cold_drills}
    root = os.geteuid() == 0
    ids = [d.id for d in drills]
    mine = _warm_samples_by_drill(ids, warm_runs, with_floor=True)
    who, other = ("root", "ordinary user") if root else ("ordinary user", "root")
    out: list[Figure] = []
    theirs: WarmSamples | None = None
    skipped = ""
    if root:
        found, skipped = _ordinary_user_or_why(["warm", str(warm_runs), *ids])
        theirs = WarmSamples.from_json(found) if found is not None else None
    if skipped:
        out.append(Figure(f"grading: warm verdict ({other}) skipped: {skipped}", 0.0, "ms", "information", True))
    for samples, name in ((mine, who), (theirs, other)):
        if samples is not None and samples.no_landlock:
            why = samples.no_landlock
            out.append(
                Figure(f"grading: warm verdict ({name}, {LANDLOCK}) skipped: {why}", 0.0, "ms", "information", True)
            )
    for drill in drills:
        p50 = percentile(mine.verdicts[drill.id], 50)
        out.extend(_warm_figures(drill.id, mine.verdicts[drill.id], who))
        if theirs is not None:
            base = mine.verdicts[drill.id]
            out.extend(_warm_figures(drill.id, theirs.verdicts[drill.id], other, base, f"the same as {who}"))
        elif not root:
            out.append(Figure(f"grading: warm verdict p50, {drill.id} ({other})", 0.0, "ms", "n/a (not root)", True))
        for samples, name in ((mine, who), (theirs, other)):
            if samples is not None and drill.id in samples.landlock:
                out.extend(
                    _warm_figures(
                        drill.id,
                        samples.landlock[drill.id],
                        f"{name}, {LANDLOCK}",
                        samples.verdicts[drill.id],
                        f"{PATH_NAMES.get(samples.mode, samples.mode)}, in turn",
                    )
                )
        if mine.floors.get(drill.id):
            floor = median(mine.floors[drill.id])
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
    for samples, name in ((mine, who), (theirs, other)):
        if samples is not None and samples.landlock:
            out.append(
                Figure(
                    f"grading: wall time the {LANDLOCK} path's warm verdicts added ({name})",
                    samples.landlock_seconds,
                    "s",
                    "information",
                    True,
                )
            )
    cold_ids = [d.id for d in cold_drills]
    cold_mine = _cold_by_drill(cold_ids, cold_runs, project)
    cold_theirs: dict[str, list[float]] | None = None
    skipped = ""
    if root:
        found, skipped = _ordinary_user_or_why(["cold", str(cold_runs), *cold_ids])
        cold_theirs = _ms_by_drill(found) if found is not None else None
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


def _warm_figures(
    drill_id: str, samples: Sequence[float], who: str, base: Sequence[float] | None = None, base_name: str = ""
) -> list[Figure]:
    """The p50 and p95 figures of one drill's warm verdicts (beside ``base``'s, when given)."""
    out = []
    for label, pct, goal in (("p50", 50, WARM_P50_MS), ("p95", 95, WARM_P95_MS)):
        value = percentile(samples, pct)
        out.append(
            Figure(
                f"grading: warm verdict {label}, {drill_id} ({who})",
                value,
                "ms",
                f"<= {goal:g} ms",
                value <= goal,
                percentile(base, pct) if base else None,
                base_name if base else "",
            )
        )
    return out


def retype_source(drill: Drill) -> str:
    """What a person typing the reference in retype mode submits (imports included)."""
    from tokdrill.content.reference import reference_source

    imports = [line for line in drill.starter.splitlines() if line.startswith(("import ", "from "))]
    return "\n".join(imports) + "\n\n\n" + reference_source(drill.symbols)


def _warm_samples_by_drill(ids: Sequence[str], runs: int, with_floor: bool = False) -> WarmSamples:
    """Milliseconds per warm verdict of each drill's retype text (which must pass), on this
    machine's own sandbox path and, where that is not Landlock already, on the Landlock path; and
    if asked, of the same tests in a plain fork (see :mod:`tokdrill.bench.plain_run`). All are
    taken in turn, so that the machine's changing speed affects them alike."""
    from tokdrill.bench.plain_run import PlainRuns
    from tokdrill.grading.mechanisms import REFUSE_ENV
    from tokdrill.grading.warm import WarmGrader

    by_id = {d.id: d for d in _drills()}
    drills = [by_id[i] for i in ids]
    with WarmGrader() as grader, WarmGrader(env={REFUSE_ENV: "userns"}) as fallback, contextlib.ExitStack() as helpers:
        plain = helpers.enter_context(PlainRuns()) if with_floor else None
        found = WarmSamples(mode=grader.mode())
        graders = [grader]
        fallback_mode = fallback.mode()
        if found.mode == "landlock":
            found.no_landlock = "it is this machine's own path (the rows without a path name)"
        elif fallback_mode != "landlock":
            found.no_landlock = f"no Landlock here (the fallback is {PATH_NAMES.get(fallback_mode, fallback_mode)})"
        else:
            graders.append(fallback)
            preloading = threading.Thread(target=fallback.preload, args=(drills,))  # beside the first server's
            preloading.start()
        grader.preload(drills)
        if len(graders) > 1:
            waited = time.perf_counter()
            preloading.join()
            found.landlock_seconds += time.perf_counter() - waited
        for drill in drills:
            source = retype_source(drill)
            for each in graders:
                verdict = each.grade(drill, source)
                if not verdict.passed:
                    failed = [t.name for t in verdict.tests if t.outcome != "passed"]
                    path = PATH_NAMES.get(each.mode(), "?")
                    raise RuntimeError(
                        f"{drill.id}: the retype text does not pass on the {path} path ({verdict.problem or failed[:3]})"
                    )
                each.preload([drill])  # a standby for this drill, as the app has when a drill is open
            floor = functools.partial(plain.sample, drill, source) if plain is not None else None
            samples, floors, busy = _timed(graders, drill, source, runs, floor)
            found.verdicts[drill.id] = samples[0]
            found.floors[drill.id] = floors
            if len(samples) > 1:
                found.landlock[drill.id] = samples[1]
                found.landlock_seconds += busy[1]
    return found


def _timed(
    graders: Sequence[WarmGrader], drill: Drill, source: str, runs: int, floor: Callable[[], float | None] | None
) -> tuple[list[list[float]], list[float], list[float]]:
    """Milliseconds per verdict of each grader, in turn (the first to go changes each round), each
    once every server has settled (started its next standby, as it does while a person reads a
    verdict), and of a plain run of the same tests (``floor``) once per round; and the wall
    seconds the benchmark spent on each grader (its verdicts and the waits for it to settle)."""
    samples: list[list[float]] = [[] for _ in graders]
    busy = [0.0 for _ in graders]
    plain: list[float] = []
    for round_ in range(runs):
        if floor is not None:
            sample = floor()
            if sample is not None:
                plain.append(sample)
        first = round_ % len(graders)
        for i in (*range(first, len(graders)), *range(first)):
            for j, each in enumerate(graders):
                started = time.perf_counter()
                each.settle()
                busy[j] += time.perf_counter() - started
            start = time.perf_counter()
            graders[i].grade(drill, source)
            took = time.perf_counter() - start
            busy[i] += took
            samples[i].append(took * 1000)
    return samples, plain, busy


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
def _ordinary_user_or_why(args: list[str]) -> tuple[dict[str, object] | None, str]:
    """The worker's figures, or None and why it could not run (say, no unprivileged account or
    no way to drop to it here); the root figures are reported either way."""
    try:
        return _as_ordinary_user(args), ""
    except (OSError, RuntimeError, ValueError) as exc:
        return None, " ".join(str(exc).split())[:200] or type(exc).__name__


def _as_ordinary_user(args: list[str]) -> dict[str, object]:
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
    if not isinstance(data, dict):
        raise ValueError("the ordinary-user worker printed no JSON object")
    return {str(k): v for k, v in data.items()}


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
    found: dict[str, object]
    if kind == "warm":
        found = _warm_samples_by_drill(ids, int(runs)).to_json()
    else:
        from tokdrill import locations

        found = dict(_cold_by_drill(ids, int(runs), locations.drills_dir().parent))
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] != ["--worker"]:
        sys.exit("usage: python -m tokdrill.bench.grading --worker warm|cold RUNS DRILL...")
    sys.exit(_worker(sys.argv[2:]))
