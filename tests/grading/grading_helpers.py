"""Constants and tools shared by the grading tests (imported by name: no package here)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tokdrill.grading.limits import LIMITS_ENV, Limits
from tokdrill.grading.mechanisms import NOBODY
from tokdrill.grading.spec import DrillLike
from tokdrill.grading.verdict import Verdict
from tokdrill.grading.view import closed_folders, install_paths

FIXTURES = Path(__file__).parent / "fixtures"
CONTENT = FIXTURES / "content"
HIDDEN_TEST = CONTENT / "drills" / "hidden" / "test_tiny_pairs.py"
PROJECT = Path(__file__).resolve().parents[2]
ORDINARY_UID = 61423  # the unprivileged account tests drop to when they run as root
FORK_WARNINGS = "error::DeprecationWarning"  # in grading processes (forks beside threads: see tests/conftest.py)


def declared(*paths: Path | str) -> dict[str, tuple[str, ...]]:
    """The tests hidden test files declare, read without running them, as a content Drill's
    ``test_concepts``: a drill that does not ship with tokdrill is graded against these."""
    from tokdrill.content.hidden_tests import read_hidden_test_file

    return {t.name: tuple(c for c, _ in t.concepts) for p in paths for t in read_hidden_test_file(Path(p)).tests}


TINY_TESTS = declared(HIDDEN_TEST)

GOOD_SOURCE = """\
def count_pairs(word_freqs):
    counts = {}
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts
"""

# Short limits keep the hostile suite fast; the messages name these values.
FAST_LIMITS = Limits(cpu_seconds=1, wall_seconds=3.0, memory_bytes=256 * 1024 * 1024, processes=16)


def with_body(body: str) -> str:
    """A ``count_pairs`` that runs ``body`` (indented 4) and then computes the right answer."""
    indented = "".join("    " + line + "\n" for line in body.strip("\n").splitlines())
    return f"def count_pairs(word_freqs):\n{indented}" + GOOD_SOURCE.split("\n", 1)[1]


def new_marker() -> str:
    """A unique number to find the processes a submission started by: a valid ``sleep`` argument
    (about a day), and with :func:`rename_process` a process name."""
    return f"{random.randint(80_000, 89_999)}.{random.randint(10_000, 99_999)}{os.getpid() % 1000}"


def rename_process(marker: str) -> str:
    """Submission code that names its own process after ``marker`` (shown in /proc/PID/comm)."""
    name = marker.replace(".", "")[-15:]
    return f"import ctypes\nctypes.CDLL(None).prctl(15, {name.encode()!r}, 0, 0, 0)\n"


def comm_name(marker: str) -> str:
    return marker.replace(".", "")[-15:]


def canary_intact(folder: Path) -> bool:
    return sorted(p.name for p in folder.iterdir()) == ["keep.txt"] and (folder / "keep.txt").read_text() == "canary\n"


def processes_with(marker: str) -> list[int]:
    """Pids of live (not zombie) processes whose command line or name contains ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            comm = Path(f"/proc/{entry}/comm").read_text()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if (marker in cmdline or marker in comm) and state != "Z":
            found.append(int(entry))
    return found


def processes_named(name: str) -> list[int]:
    """Pids of live processes whose name (/proc/PID/comm) is ``name``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if Path(f"/proc/{entry}/comm").read_text().strip() == name and alive(int(entry)):
                    found.append(int(entry))
            except OSError:
                continue
    return found


def parent_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("PPid:"):
            return int(line.split()[1])
    raise LookupError(pid)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition, seconds: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    """Poll ``condition`` until true or ``seconds`` pass (generous: the machine may be loaded)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def check_argv(drill_id: str, path: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "tokdrill", "--content", str(CONTENT), "check", drill_id, str(path), *extra]


def check_env(limits: Limits | None = None, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PROJECT), env.get("PYTHONPATH", "")) if p)
    env["PYTHONWARNINGS"] = FORK_WARNINGS
    if limits is not None:
        env[LIMITS_ENV] = json.dumps(limits.to_json())
    env.update(extra)
    return env


class CheckGrader:
    """Grades through `tokdrill check --json` in a fresh process (the cold path), with the
    same call shape as ``WarmGrader.grade``."""

    def __init__(self, workdir: Path, env: dict[str, str] | None = None) -> None:
        self.workdir = workdir
        self.env = env or {}

    def grade(self, drill: DrillLike, source: str, *, limits: Limits | None = None) -> Verdict:
        path = self.workdir / f"answer_{random.randint(0, 10**9)}.py"
        path.write_text(source, encoding="utf-8")
        result = subprocess.run(
            check_argv(drill.id, path, "--json"),
            capture_output=True,
            env=check_env(limits, **self.env),
            timeout=120,
            cwd=self.workdir,
        )
        assert result.returncode in (0, 1), result.stderr.decode(errors="replace")[-2000:]
        verdict = Verdict.from_json(json.loads(result.stdout))
        assert verdict.passed == (result.returncode == 0)
        return verdict


# -- an ordinary (non-root) account --------------------------------------------------------------
def ordinary_uid() -> int:
    """The account the non-root tests use: this one if it is not root, else ORDINARY_UID."""
    return os.getuid() if os.getuid() != 0 else ORDINARY_UID


def sandbox_uid() -> int:
    """The outside user id a sandbox started by this process runs as."""
    return NOBODY if os.geteuid() == 0 else os.geteuid()


def ordinary_home() -> Path:
    """A fresh folder owned by the ordinary account, for its HOME and data."""
    home = Path(tempfile.mkdtemp(prefix="tokdrill-user-"))
    os.chmod(home, 0o700)
    if os.getuid() == 0:
        os.chown(home, ORDINARY_UID, ORDINARY_UID)
    return home


def as_ordinary_user(argv: list[str]) -> list[str]:
    """``argv`` run by the ordinary account. As root: in a private mount namespace where folders
    closed to other users (e.g. /root) show only the Python installation, as on a machine where
    the account could run this interpreter; nothing on the machine changes. Fails clearly if
    the tools for that are missing."""
    if os.getuid() != 0:
        return argv
    for tool in ("unshare", "setpriv", "mount"):
        assert shutil.which(tool), f"running tests as an ordinary user needs util-linux's {tool}"
    paths = install_paths()
    script = ["set -e"]
    for index, folder in enumerate(closed_folders(paths)):
        for j, path in enumerate(p for p in paths if p.startswith(folder + "/")):
            script += [
                f"stage=$(mktemp -d /tmp/tokdrill-stage-{index}-{j}-XXXXXX)",
                f"mount --bind '{path}' \"$stage\"",
                f'keep_{index}_{j}="$stage"',
            ]
        script.append(f"mount -t tmpfs -o mode=755 tmpfs '{folder}'")
        for j, path in enumerate(p for p in paths if p.startswith(folder + "/")):
            script += [f"mkdir -p '{path}'", f"mount --move \"$keep_{index}_{j}\" '{path}'"]
    uid = str(ORDINARY_UID)
    script.append(f'exec setpriv --reuid={uid} --regid={uid} --clear-groups --inh-caps=-all "$@"')
    return ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", "\n".join(script), "sh", *argv]


def ordinary_env(home: Path, **extra: str) -> dict[str, str]:
    """Environment for the ordinary account: its own HOME and data folders, the checkout importable."""
    env = check_env(**extra)
    env.update(
        {
            "HOME": str(home),
            "USER": "tokdrill-test",
            "LOGNAME": "tokdrill-test",
            "TOKDRILL_HOME": str(home / "data"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_DATA_HOME": str(home / "share"),
            "TMPDIR": str(home),
        }
    )
    return env
