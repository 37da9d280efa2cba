"""Scratch folders of sandboxes without a private ``/tmp`` (the Landlock path), made, measured
and removed outside the sandbox.

Without a file system of its own the folder's size has no kernel limit beyond each file's
(``RLIMIT_FSIZE``): the supervisor measures it every :data:`CHECK_EVERY` seconds while the
submission runs (files deleted but still open included) and stops the run above the limit.

Each folder's name carries the grader's process id, so the next grader to start removes the
folders of graders that were killed before they could. Removal works whatever modes the
submission gave the folders inside (it gives them back their owner's rights first, through
descriptors, never following a symbolic link), and as root or an ordinary user alike.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile

from tokdrill.grading.mechanisms import NOBODY

PREFIX = "tokdrill-scratch-"
CHECK_EVERY = 0.05  # seconds between two measurements of a running submission's scratch folder
ENTRY_BYTES = 4096  # what each file or folder counts for at least (an inode and its name)
_NAME = re.compile(re.escape(PREFIX) + r"(\d+)-")
_swept = False


def sweep_once() -> None:
    """:func:`sweep`, the first time a process calls it (whichever sandbox path it uses)."""
    global _swept
    if not _swept:
        _swept = True
        sweep()


def make() -> str:
    """A new scratch folder (mode 700) in the temporary folder, stale ones swept first."""
    sweep_once()
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")


def remove(path: str) -> None:
    """Delete ``path`` and everything in it, whatever modes the folders inside were given."""
    _open_up(path)
    shutil.rmtree(path, ignore_errors=True)


def usage(path: str, pid: int) -> int:
    """Bytes the scratch folder ``path`` takes, plus files deleted but held open by ``pid``."""
    return _open_up(path) + _held_deleted(pid)


def _open_up(path: str) -> int:
    """Give every folder under ``path`` its owner's rights back; returns the bytes found."""
    try:
        top = os.lstat(path)
    except OSError:
        return 0
    if not stat.S_ISDIR(top.st_mode):
        return 0
    total = 0
    try:
        os.chmod(path, 0o700)
        for _folder, subfolders, files, fd in os.fwalk(path, follow_symlinks=False, onerror=lambda _exc: None):
            for name in subfolders:
                try:
                    os.chmod(name, 0o700, dir_fd=fd, follow_symlinks=False)  # never through a link
                except (OSError, ValueError, NotImplementedError):
                    pass
            for name in (*subfolders, *files):
                try:
                    total += max(os.stat(name, dir_fd=fd, follow_symlinks=False).st_blocks * 512, ENTRY_BYTES)
                except OSError:
                    pass
    except OSError:
        pass
    return total


def _held_deleted(pid: int) -> int:
    total = 0
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0
    for fd in fds:
        try:
            info = os.stat(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and info.st_nlink == 0:
            total += info.st_blocks * 512
    return total


def sweep(folder: str | None = None) -> list[str]:
    """Remove the scratch folders of this user's graders that are no longer running; returns
    what was removed. A folder another account owns (for root: other than ``nobody``, to which
    its sandboxes hand their scratch), or whose grader lives, is left alone. Removal opens every
    folder relative to its parent without following links, so a planted link leads nowhere."""
    owners = {os.geteuid(), NOBODY} if os.geteuid() == 0 else {os.geteuid()}
    base = folder or tempfile.gettempdir()
    removed: list[str] = []
    try:
        entries = list(os.scandir(base))
    except OSError:
        return removed
    for entry in entries:
        match = _NAME.match(entry.name)
        if not match:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid not in owners or _running(int(match.group(1))):
            continue
        remove(entry.path)
        removed.append(entry.path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone's process: perhaps a grader of ours under a reused id; keep it
    return True
