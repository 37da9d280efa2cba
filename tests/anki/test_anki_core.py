"""The Anki package is core code: it never pulls in Textual, and `tokdrill --help` stays light."""

from __future__ import annotations

import subprocess
import sys


def test_anki_modules_import_without_textual() -> None:
    code = (
        "import importlib, sys\n"
        "for name in ('tokdrill.anki.export', 'tokdrill.anki.importer', 'tokdrill.cli.export_anki_cmd',"
        " 'tokdrill.cli.import_anki_cmd'):\n"
        "    importlib.import_module(name)\n"
        "print(','.join(sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_anki_commands_load_nothing_heavy_until_they_run() -> None:
    code = (
        "import sys\n"
        "from tokdrill.cli import build_parser\n"
        "build_parser(['import-anki', '--help'])\n"
        "build_parser(['export-anki', '--help'])\n"
        "print(','.join(m for m in ('genanki', 'bs4', 'markdownify', 'markdown_it', 'zstandard', 'yaml', 'sqlite3')"
        " if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
