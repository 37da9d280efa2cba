"""The core never imports Textual: proven in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

CORE_MODULES = [
    "tokdrill.content.loader",
    "tokdrill.content.reference",
    "tokdrill.content.keypoints",
    "tokdrill.grading.api",
    "tokdrill.grading.submission",
    "tokdrill.progress.store",
    "tokdrill.practice.stats",
    "tokdrill.scheduling",
    "tokdrill.cli",
    "reference_impl",
]


def test_core_imports_without_textual() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core modules pulled in Textual: {out.stdout.strip()}"


def test_cli_help_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys\n"
        "from tokdrill.cli import build_parser\n"
        "build_parser()\n"
        "heavy = [m for m in ('textual', 'yaml', 'fsrs', 'pytest', 'sqlite3', 'reference_impl') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"`tokdrill --help` imports {out.stdout.strip()}"


def test_import_layers_hold() -> None:
    """The layer contract in pyproject.toml ([tool.importlinter]) holds for every import."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports())"],
        capture_output=True,
        text=True,
        cwd=root,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
