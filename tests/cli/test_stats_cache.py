"""`tokdrill stats` keeps its content cache under --data-dir and, warm, parses no YAML (nor
imports the reference package: stats needs no symbol check)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tokdrill.cli import main

PROBE = """
import contextlib, io, runpy, sys
sys.argv = ["tokdrill", "--data-dir", sys.argv[1], "stats", "--json"]
with contextlib.redirect_stdout(io.StringIO()):
    try:
        runpy.run_module("tokdrill", run_name="__main__")
    except SystemExit as exit:
        assert not exit.code, exit.code
print(" ".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_stats_caches_content_under_the_data_dir(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "stats", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert list((data / "cache" / "content").glob("*.pickle"))
    assert main(["--data-dir", str(data), "stats", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in second["drills"]] == [d["id"] for d in first["drills"]]
    assert [d["id"] for d in second["decks"]] == [d["id"] for d in first["decks"]]


def test_warm_stats_imports_neither_yaml_nor_pytest_nor_the_reference(tmp_path: Path) -> None:
    data = tmp_path / "data"
    runs = [
        subprocess.run([sys.executable, "-c", PROBE, str(data)], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    cold, warm = (set(run.stdout.split()) for run in runs)
    assert "yaml" in cold  # the first run parsed the content...
    assert not {"yaml", "pytest", "textual", "reference_impl"} & warm  # ...the second took it from the cache
