"""install.sh: the README's install command. A full install downloads the dependencies, so it is
proved by hand as an ordinary user (see the README); here, what it decides before that."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "install.sh"


def run(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8", **env}
    return subprocess.run(
        ["sh", str(SCRIPT), *args], capture_output=True, text=True, env=environment, timeout=60, check=False
    )


def test_the_readme_installs_with_the_script_and_opens_the_linked_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("```bash\n", 1)[1].splitlines()[0]
    assert first.split("#")[0].split() == ["sh", "install.sh", "&&", "~/.local/bin/tokdrill"]


def test_an_old_or_missing_python_is_refused_with_what_to_do(tmp_path: Path) -> None:
    old = tmp_path / "python-old"
    old.write_text("#!/bin/sh\nexec " + sys.executable + ' -c "import sys; sys.exit(1)" "$@"\n')
    old.chmod(0o755)
    result = run(tmp_path, PYTHON=str(old))
    assert result.returncode == 1 and "needs Python 3.11 or later" in result.stderr
    result = run(tmp_path, PYTHON="no-such-python3")
    assert result.returncode == 1 and "install Python 3.11 or later" in result.stderr
    assert not (tmp_path / ".local").exists()  # nothing made


def test_uninstall_removes_the_environment_and_link_but_never_progress(tmp_path: Path) -> None:
    share = tmp_path / ".local" / "share"
    env = share / "tokdrill-venv" / "bin"
    env.mkdir(parents=True)
    (env / "tokdrill").write_text("#!/bin/sh\n")
    progress = share / "tokdrill" / "progress.sqlite3"
    progress.parent.mkdir()
    progress.write_bytes(b"kept")
    link = tmp_path / ".local" / "bin" / "tokdrill"
    link.parent.mkdir()
    link.symlink_to(env / "tokdrill")
    result = run(tmp_path, "--uninstall")
    assert result.returncode == 0, result.stderr
    assert not link.is_symlink() and not (share / "tokdrill-venv").exists()
    assert progress.read_bytes() == b"kept" and "progress stays" in result.stdout


def test_an_unknown_option_is_named(tmp_path: Path) -> None:
    result = run(tmp_path, "--frobnicate")
    assert result.returncode == 1 and "unknown option --frobnicate" in result.stderr
