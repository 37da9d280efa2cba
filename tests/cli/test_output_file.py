"""`tokdrill start` writes only a regular file: a named pipe, a device or a symbolic link (dangling
or not) is refused at once with the reason, and nothing is written through it."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tokdrill import locations
from tokdrill.cli import main
from tokdrill.cli.output_file import write_regular_file
from tokdrill.progress.store import Store

DRILL = "bytes-to-unicode"


def start_at_once(*argv: str) -> int:
    """``tokdrill start ...``'s exit code; fails (instead of hanging the suite) when it blocks."""
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(main(["start", *argv])), daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():
        for target in argv:  # let a writer stuck on a pipe go
            if Path(target).is_fifo():
                os.close(os.open(target, os.O_RDONLY | os.O_NONBLOCK))
        worker.join(5)
        pytest.fail(f"tokdrill start {' '.join(argv)} blocked")
    return result[0]


def no_clock_started() -> bool:
    path = locations.database_path()
    if not path.exists():
        return True
    with Store.open(path) as store:
        return store.start(DRILL) is None


def test_start_onto_a_named_pipe_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pipe = tmp_path / "mine.py"
    os.mkfifo(pipe)
    assert start_at_once(DRILL, str(pipe), "--force") == 1
    err = capsys.readouterr().err
    assert f"cannot write {pipe}: it is a named pipe, not a regular file" in err and "Traceback" not in err
    assert pipe.is_fifo() and no_clock_started()


def test_start_onto_a_device_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert start_at_once(DRILL, "/dev/null", "--force") == 1
    assert "it is a character device, not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("force", [False, True])
def test_start_never_writes_through_a_symbolic_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], force: bool
) -> None:
    target = tmp_path / "elsewhere" / "planted.py"
    target.parent.mkdir()
    link = tmp_path / "mine.py"
    link.symlink_to(target)  # dangling: its target does not exist yet
    assert start_at_once(DRILL, str(link), *(["--force"] if force else [])) == 1
    assert "it is a symbolic link, not a regular file" in capsys.readouterr().err
    assert not target.exists() and link.is_symlink() and no_clock_started()


def test_a_regular_file_is_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text("x" * 10_000)
    write_regular_file(path, "short\n")
    assert path.read_text() == "short\n"
    assert start_at_once(DRILL, str(path), "--force") == 0
    assert path.read_text().startswith("# ")
