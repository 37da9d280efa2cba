"""Files named on the command line are used only when regular: `tokdrill start` refuses a named
pipe, a device or a symbolic link (dangling or not) at once and writes nothing through it, and
`tokdrill import` / `import-anki` refuse a pipe at once instead of waiting for a writer."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tokdrill import locations
from tokdrill.cli import main
from tokdrill.cli.user_files import read_regular_file, write_regular_file
from tokdrill.progress.store import Store

DRILL = "bytes-to-unicode"


def at_once(*argv: str) -> int:
    """``tokdrill ...``'s exit code; fails (instead of hanging the suite) when it blocks."""
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(main(list(argv))), daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():
        for target in argv:  # let a writer stuck on a pipe go
            if Path(target).is_fifo():  # open its other end, without blocking either
                for flags in (os.O_RDONLY | os.O_NONBLOCK, os.O_RDWR):
                    os.close(os.open(target, flags))
        worker.join(5)
        pytest.fail(f"tokdrill {' '.join(argv)} blocked")
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
    assert at_once("start", DRILL, str(pipe), "--force") == 1
    err = capsys.readouterr().err
    assert f"cannot write {pipe}: it is a named pipe, not a regular file" in err and "Traceback" not in err
    assert pipe.is_fifo() and no_clock_started()


def test_start_onto_a_device_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert at_once("start", DRILL, "/dev/null", "--force") == 1
    assert "it is a character device, not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("force", [False, True])
def test_start_never_writes_through_a_symbolic_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], force: bool
) -> None:
    target = tmp_path / "elsewhere" / "planted.py"
    target.parent.mkdir()
    link = tmp_path / "mine.py"
    link.symlink_to(target)  # dangling: its target does not exist yet
    assert at_once("start", DRILL, str(link), *(["--force"] if force else [])) == 1
    assert "it is a symbolic link, not a regular file" in capsys.readouterr().err
    assert not target.exists() and link.is_symlink() and no_clock_started()


def test_a_regular_file_is_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text("x" * 10_000)
    write_regular_file(path, "short\n")
    assert path.read_text() == "short\n"
    assert at_once("start", DRILL, str(path), "--force") == 0
    assert path.read_text().startswith("# ")


@pytest.mark.parametrize("argv", [["import"], ["import-anki", "--deck", "piped"]])
def test_reading_a_named_pipe_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    pipe = tmp_path / "progress.json"
    os.mkfifo(pipe)
    assert at_once(argv[0], str(pipe), *argv[1:]) in (1, 2)
    err = capsys.readouterr().err
    assert "it is a named pipe, not a regular file" in err and "Traceback" not in err


def test_a_file_to_read_may_be_reached_through_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_bytes(b"{}")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert read_regular_file(link) == b"{}"
    with pytest.raises(OSError, match="a folder"):
        read_regular_file(tmp_path)
