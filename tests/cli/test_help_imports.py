"""`tokdrill --help` builds the parser without importing any subcommand's module (nor typing,
nor anything of the app or the core), and a subcommand's own help imports only that subcommand."""

from __future__ import annotations

import json
import subprocess
import sys

from tokdrill.cli import SUBCOMMANDS

PROBE = """
import contextlib, io, json, runpy, sys
sys.argv = ["tokdrill", *sys.argv[1:]]
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        runpy.run_module("tokdrill", run_name="__main__")
    except SystemExit as exit:
        assert not exit.code, exit.code
print(json.dumps({"help": out.getvalue(), "modules": sorted(sys.modules)}))
"""

NEVER_FOR_HELP = (
    "typing",
    "textual",
    "tokdrill.backend",
    "tokdrill.ui",
    "tokdrill.grading",
    "sqlite3",
    "msgspec",
    "yaml",
)


def _help(*args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=60, check=True)
    report: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def _subcommand_modules(modules: object) -> set[str]:
    assert isinstance(modules, list)
    return {m.rsplit(".", 1)[-1] for m in modules if m.startswith("tokdrill.cli.") and m.endswith("_cmd")}


def test_help_lists_every_subcommand_without_importing_one() -> None:
    report = _help("--help")
    text = report["help"]
    assert isinstance(text, str)
    assert all(name in text for name in SUBCOMMANDS), text
    assert _subcommand_modules(report["modules"]) == set()
    modules = report["modules"]
    assert isinstance(modules, list)
    loaded = sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in NEVER_FOR_HELP))
    assert loaded == [], f"imported for --help: {loaded}"


def test_a_subcommands_help_imports_that_subcommand_alone() -> None:
    report = _help("stats", "--help")
    text = report["help"]
    assert isinstance(text, str)
    assert "--data-dir" in text and "--json" in text  # the common options and its own
    assert _subcommand_modules(report["modules"]) == {"stats_cmd"}
