"""Python run by an ordinary account on this checkout: as root, as ``nobody`` through setpriv (root
reads every file whatever its mode, so permission checks need another account); otherwise as
ourselves. The account may be unable to reach this interpreter or the checkout (a clone in a
private folder, as ``mktemp -d`` makes); ``unreachable_reason`` says why, for a skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
NOBODY = 65534
DROP = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--inh-caps=-all"]


def environment() -> dict[str, str]:
    """This process's environment without tokdrill's settings, with the checkout and this
    interpreter's packages importable, and no home of the user's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOKDRILL_", "XDG_"))}
    env.update(PYTHONPATH=os.pathsep.join([str(CHECKOUT), *sys.path[1:]]), HOME="/tmp", TOKDRILL_HOME="/nonexistent")
    return env


def command(*argv: str) -> list[str]:
    """``python argv...`` with this interpreter, as the ordinary account."""
    python = [sys.executable, *argv]
    return [*DROP, *python] if os.geteuid() == 0 else python


def run_python(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -c script args`` as the ordinary account, with ``environment()``."""
    return subprocess.run(
        command("-c", script, *args), capture_output=True, text=True, timeout=120, check=False, env=environment()
    )


def closed_folder(path: Path) -> Path | None:
    """The outermost folder on the way to ``path`` that other users may not enter, if any."""
    for folder in [*reversed(path.parents), path]:
        try:
            if folder.is_dir() and not folder.stat().st_mode & 0o001:
                return folder
        except OSError:
            return folder
    return None


def unreachable_reason() -> str | None:
    """Why the ordinary account cannot import tokdrill from this checkout with this interpreter,
    or None when it can (always, when we are not root)."""
    if os.geteuid() != 0:
        return None
    try:
        done = run_python("import tokdrill, yaml")
    except (OSError, subprocess.SubprocessError) as error:
        return f"cannot run Python as an ordinary account here: {error}"
    if done.returncode == 0:
        return None
    closed = closed_folder(CHECKOUT) or closed_folder(Path(sys.executable))
    where = f": {closed} is closed to other users" if closed else ""
    last = done.stderr.strip().splitlines()[-1:] or ["no output"]
    return (
        f"an ordinary account cannot import tokdrill from {CHECKOUT} with {sys.executable}{where} "
        f"({last[0]}); clone into a folder others may enter to run this test as root"
    )
