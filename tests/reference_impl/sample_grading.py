"""Grade sample submissions against a drill's hidden tests the way the app grades them.

A sample is a Python file under ``submissions/<family>/{wrong,right}/`` that starts with a header:

    # drills: <drill id>[, <drill id>...]
    # mistake: <what is wrong>            (wrong/ only)
    # caught-by: <test name>[, ...]       (wrong/ only: tests named after the mistake; each must fail)
    # variant: <how it differs>           (right/ only)

A header line whose key is not one of these continues the previous value. Grading builds the
submission over ``reference_impl`` (``build_module``) and runs the drill's hidden tests in-process
(``run_hidden_tests``), in a child process per drill so that the nested pytest sessions stay out
of the caller's. Run as a script, this module is that child: ``python sample_grading.py JOBS OUT``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SUBMISSIONS = HERE / "submissions"
HEADER_KEYS = ("drills", "mistake", "variant", "caught-by")


@dataclass(frozen=True)
class Sample:
    path: Path
    kind: str  # "wrong" | "right"
    drills: tuple[str, ...]
    caught_by: tuple[str, ...]
    note: str  # the mistake (wrong) or the variant (right)

    @property
    def label(self) -> str:
        return str(self.path.relative_to(SUBMISSIONS))


def read_header(path: Path) -> dict[str, str]:
    """The ``# key: value`` lines at the top of ``path``, continuation lines joined on."""
    fields: dict[str, str] = {}
    key = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        text = line.lstrip("#").strip()
        name, sep, value = text.partition(":")
        if sep and name.strip() in HEADER_KEYS:
            key = name.strip()
            fields[key] = value.strip()
        elif key is not None:
            fields[key] = f"{fields[key]} {text}".strip()
    return fields


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def discover(root: Path = SUBMISSIONS) -> list[Sample]:
    samples = []
    for path in sorted(root.glob("*/*/*.py")):
        kind = path.parent.name
        if kind not in ("wrong", "right"):
            continue
        head = read_header(path)
        note = head.get("mistake", "") if kind == "wrong" else head.get("variant", "")
        samples.append(Sample(path, kind, _split(head.get("drills", "")), _split(head.get("caught-by", "")), note))
    return samples


def drill_spec(drill_id: str) -> dict[str, object]:
    import yaml

    return yaml.safe_load((REPO / "drills" / f"{drill_id}.yaml").read_text(encoding="utf-8"))


def grade(drill_id: str, sources: dict[str, str], timeout: float = 300) -> dict[str, dict[str, object]]:
    """Grade each ``label -> source`` for ``drill_id`` in one child process; results by label.

    A record holds ``results`` (``[test name, outcome, message]`` each), ``collect_errors``,
    ``missing`` (drill symbols the source does not define) and ``import_error``.
    """
    spec = drill_spec(drill_id)
    hidden = [str(REPO / "drills" / "hidden" / name) for name in spec["hidden_tests"]]  # type: ignore[union-attr]
    jobs = [
        {"key": key, "source": source, "symbols": spec["symbols"], "hidden": hidden} for key, source in sources.items()
    ]
    with tempfile.TemporaryDirectory() as tmp:
        jobs_file, out_file = Path(tmp, "jobs.json"), Path(tmp, "out.json")
        jobs_file.write_text(json.dumps(jobs), encoding="utf-8")
        env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # the hidden tests need no plugins
        proc = subprocess.run(
            [sys.executable, __file__, str(jobs_file), str(out_file)],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if proc.returncode != 0 or not out_file.exists():
            raise RuntimeError(f"grading {drill_id} failed:\n{proc.stderr[-3000:]}")
        return {record["key"]: record for record in json.loads(out_file.read_text(encoding="utf-8"))}


def failures(record: dict[str, object]) -> dict[str, str]:
    """Test name -> outcome for every hidden test that did not pass."""
    return {name: outcome for name, outcome, _ in record["results"] if outcome != "passed"}  # type: ignore[union-attr]


def _child(jobs_file: Path, out_file: Path) -> None:
    import contextlib
    import gc
    import io

    from tokdrill.grading.inprocess import run_hidden_tests
    from tokdrill.grading.submission import build_module

    # Each nested session ends with full garbage collections: keep what is loaded out of them.
    gc.collect()
    gc.freeze()
    out = []
    for job in json.loads(jobs_file.read_text(encoding="utf-8")):
        record: dict[str, object] = {
            "key": job["key"],
            "results": [],
            "collect_errors": [],
            "missing": [],
            "import_error": "",
        }
        try:
            module, missing = build_module(job["source"], job["symbols"])
        except Exception as exc:  # noqa: BLE001 - reported as the sample's problem
            record["import_error"] = f"{type(exc).__name__}: {exc}"
            out.append(record)
            continue
        record["missing"] = [str(m) for m in missing]
        with contextlib.redirect_stdout(io.StringIO()):
            results, errors = run_hidden_tests(
                [Path(p) for p in job["hidden"]], module, ["-p", "no:unraisableexception", "--tb=native"]
            )
        record["results"] = [[r.name.split("::")[-1], r.outcome, r.message[-600:]] for r in results]
        record["collect_errors"] = errors
        out.append(record)
    out_file.write_text(json.dumps(out), encoding="utf-8")


if __name__ == "__main__":
    _child(Path(sys.argv[1]), Path(sys.argv[2]))
