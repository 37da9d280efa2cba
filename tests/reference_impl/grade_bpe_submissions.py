"""Grade the BPE-family sample submissions against their drills' hidden tests (run as a script).

Each file in ``submissions/bpe/{wrong,right}/`` starts with ``# drills: id, id`` naming the drills
it is graded for. For one drill id given on the command line, this builds every matching
submission (plus the reference code retype mode shows, typed verbatim) with ``build_module`` and runs the drill's hidden tests in this process with
``run_hidden_tests``, then writes one JSON list to the output path:
``[{"file", "kind", "missing", "failed", "passed", "collect_errors"}]``.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
SUBMISSIONS = Path(__file__).resolve().parent / "submissions" / "bpe"


def declared_drills(path: Path) -> list[str]:
    """Drill ids from the file's ``# drills:`` header line."""
    for line in path.read_text(encoding="utf-8").splitlines()[:5]:
        if line.startswith("# drills:"):
            return [d.strip() for d in line.removeprefix("# drills:").split(",") if d.strip()]
    raise ValueError(f"{path}: no '# drills:' header line")


def submissions_for(drill: str) -> list[tuple[str, Path]]:
    """``(kind, path)`` for every sample submission declared for ``drill``."""
    return [
        (kind, path)
        for kind in ("wrong", "right")
        for path in sorted((SUBMISSIONS / kind).glob("*.py"))
        if drill in declared_drills(path)
    ]


def grade(drill: str) -> list[dict[str, object]]:
    from reference_impl.tiktoken_ranks import load_ranks
    from tokdrill.grading.inprocess import run_hidden_tests
    from tokdrill.grading.submission import build_module

    if drill.startswith("tiktoken"):
        load_ranks("cl100k_base")
    # pytest.main ends each session with several full gc passes; freezing what is loaded by now
    # (the rank table included) keeps each of the many runs below cheap.
    gc.collect()
    gc.freeze()
    spec = yaml.safe_load((REPO / "drills" / f"{drill}.yaml").read_text(encoding="utf-8"))
    files = [REPO / "drills" / "hidden" / name for name in spec["hidden_tests"]]
    report: list[dict[str, object]] = []
    for kind, path in submissions_for(drill):
        module, missing = build_module(path.read_text(encoding="utf-8"), spec["symbols"], name=path.stem)
        with contextlib.redirect_stdout(io.StringIO()):
            results, collect_errors = run_hidden_tests(files, module)
        report.append(
            {
                "file": f"{kind}/{path.name}",
                "kind": kind,
                "missing": [str(m) for m in missing],
                "failed": [r.name for r in results if r.outcome != "passed"],
                "passed": sum(r.outcome == "passed" for r in results),
                "collect_errors": collect_errors,
            }
        )
    report.append(_grade_retype_view(spec, files))
    return report


def _grade_retype_view(spec: dict, files: list[Path]) -> dict[str, object]:
    """The reference code retype mode shows, typed verbatim under the starter's imports."""
    from tokdrill.content.reference import reference_source
    from tokdrill.grading.inprocess import run_hidden_tests
    from tokdrill.grading.submission import build_module

    imports = [line for line in spec["starter"].splitlines() if line.startswith(("import ", "from "))]
    source = "\n".join(imports) + "\n\n\n" + reference_source(spec["symbols"])
    module, missing = build_module(source, spec["symbols"], name="retype")
    with contextlib.redirect_stdout(io.StringIO()):
        results, collect_errors = run_hidden_tests(files, module)
    return {
        "file": "retype view of the reference",
        "kind": "right",
        "missing": [str(m) for m in missing],
        "failed": [r.name for r in results if r.outcome != "passed"],
        "passed": sum(r.outcome == "passed" for r in results),
        "collect_errors": collect_errors,
    }


if __name__ == "__main__":
    drill_id, out_path = sys.argv[1], sys.argv[2]
    Path(out_path).write_text(json.dumps(grade(drill_id), indent=1), encoding="utf-8")
