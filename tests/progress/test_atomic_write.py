"""Exports are written whole or not at all: a failed export leaves the old file and no hidden
temporary file behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tokdrill.progress.atomic_write import write_atomically


def _left_behind(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.mark.parametrize("failure", ["the target is a folder", "the disk is full", "interrupted"])
def test_a_failed_export_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], failure: str
) -> None:
    """``tokdrill export`` writes through a hidden ``.NAME.xxxx`` file: whatever stops it, that
    file is gone afterwards and the target is as it was."""
    from tokdrill.cli import main

    out = tmp_path / "out"
    out.mkdir()
    target = out / "backup.json"
    if failure == "the target is a folder":
        target.mkdir()
        expected = 1
    else:
        target.write_text("the previous export\n")
        if failure == "the disk is full":
            expected = 1

            def full(fd: int) -> None:
                raise OSError(28, "No space left on device")

            monkeypatch.setattr(os, "fsync", full)
        else:
            expected = 130

            def interrupted(src: object, dst: object) -> None:
                raise KeyboardInterrupt

            monkeypatch.setattr(os, "replace", interrupted)
    assert main(["--data-dir", str(tmp_path / "data"), "export", str(target)]) == expected
    assert _left_behind(out) == []
    if target.is_file():
        assert target.read_text() == "the previous export\n"
    assert "Traceback" not in capsys.readouterr().err


def test_write_atomically_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "doc.json"
    target.write_text("old")
    write_atomically(target, "new\n")
    assert target.read_text() == "new\n" and _left_behind(tmp_path) == []
