"""What retype mode shows is a complete, passing submission for every shipped drill.

The text comes from ``reference_impl`` (imports included), so typing it exactly as shown must
pass the drill's hidden tests. The starter text for recall mode (signatures, no bodies) must pass
none of them, so that "n of m passed" counts only progress the user made.
"""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = r"""
import json
from tokdrill.content.loader import load_library
from tokdrill.content.reference import reference_source
from tokdrill.grading.inprocess import run_hidden_tests
from tokdrill.grading.submission import build_module

report = {}
for drill in load_library(None).drills.values():
    outcomes = {}
    for label, source in (("retype", reference_source(drill.symbols)), ("starter", drill.starter)):
        try:
            module, missing = build_module(source, drill.symbols)
        except Exception as exc:
            outcomes[label] = {"import_error": f"{type(exc).__name__}: {exc}"}
            continue
        results, errors = run_hidden_tests(drill.hidden_tests, module, ["-p", "no:unraisableexception"])
        outcomes[label] = {
            "missing": [str(m) for m in missing],
            "failed": [r.name for r in results if r.outcome != "passed"],
            "passed": [r.name for r in results if r.outcome == "passed"],
            "count": len(results),
            "collect_errors": errors,
        }
    report[drill.id] = outcomes
print("REPORT" + json.dumps(report))
"""


def _report() -> dict[str, dict[str, dict[str, object]]]:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("REPORT")), None)
    assert line is not None, out.stdout[-2000:] + out.stderr[-2000:]
    return json.loads(line[len("REPORT") :])


def test_retype_text_passes_and_the_starter_passes_no_test_for_every_drill() -> None:
    report = _report()
    assert len(report) >= 6
    problems = []
    for drill_id, outcomes in report.items():
        retype = outcomes["retype"]
        if "import_error" in retype or retype["missing"] or retype["failed"] or retype["collect_errors"]:
            problems.append(f"{drill_id}: retype text does not pass: {retype}")
        elif not retype["count"]:
            problems.append(f"{drill_id}: no hidden tests ran")
        starter = outcomes["starter"]
        if "import_error" in starter or starter["missing"] or starter["collect_errors"]:
            problems.append(f"{drill_id}: the starter does not build or collect: {starter}")
        elif starter["passed"]:
            problems.append(f"{drill_id}: the bare starter passes {starter['passed']}")
    assert not problems, "\n".join(problems)
