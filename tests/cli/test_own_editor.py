"""The own-editor loop: `tokdrill start` writes the drill with its prompt as a comment and starts
the clock; `tokdrill check` records failed concepts and the first pass as a timed attempt
(unless --no-record); `tokdrill show` prints what the app shows."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import tokdrill
from tokdrill import locations
from tokdrill.cli import main
from tokdrill.content import load_library
from tokdrill.content.reference import reference_source
from tokdrill.progress.store import Store

DRILL = "bpe-encode"


def stored() -> Store:
    return Store.open(locations.database_path())


def test_start_writes_prompt_and_starter_and_refuses_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drill = load_library([], check_symbols=False).drill(DRILL)
    target = tmp_path / "mine.py"
    assert main(["start", DRILL, str(target)]) == 0
    text = target.read_text()
    assert text.startswith(f"# {drill.title}\n#\n# ")
    assert drill.starter.strip() in text
    compile(text, str(target), "exec")  # the prompt is all comments
    with stored() as store:
        start = store.start(DRILL)
        assert start is not None and start.mode == "recall" and start.path == str(target.resolve())
    assert main(["start", DRILL, str(target)]) == 2
    assert "exists" in capsys.readouterr().err


def test_start_retype_writes_the_reference_to_copy(tmp_path: Path) -> None:
    target = tmp_path / "retype.py"
    assert main(["start", DRILL, str(target), "--retype"]) == 0
    text = target.read_text()
    first = reference_source(load_library([], check_symbols=False).drill(DRILL).symbols).splitlines()[0]
    assert f"# {first}" in text
    with stored() as store:
        start = store.start(DRILL)
        assert start is not None and start.mode == "retype"


def test_check_logs_failures_and_times_the_first_pass_after_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    drill = load_library([], check_symbols=False).drill(DRILL)
    mine = tmp_path / "mine.py"
    assert main(["start", DRILL, str(mine)]) == 0
    assert main(["check", DRILL, str(mine)]) == 1  # the starter fails
    out = capsys.readouterr().out
    assert "recorded in your mistakes:" in out and "merge-order" in out and "clock running" in out
    mine.write_text(reference_source(drill.symbols))
    assert main(["check", DRILL, str(mine)]) == 0
    assert "recorded: passed in" in capsys.readouterr().out
    with stored() as store:
        (attempt,) = store.attempts(DRILL)
        assert attempt.origin == "check" and attempt.passed and attempt.submissions == 2
        start = store.start(DRILL)
        assert start is not None and start.passed_at == attempt.ended_at  # later checks are practice runs
        failed = store.concept_results(["merge-order"], failed=True)
        assert len(failed) == 1 and failed[0].origin == "check"
    assert main(["check", DRILL, str(mine), "--json"]) == 0  # the same file again: not recorded again
    captured = capsys.readouterr()
    assert json.loads(captured.out)["passed"] is True and "not recorded again" in captured.err
    mine.write_text(reference_source(drill.symbols) + "\n# tidied\n")
    assert main(["check", DRILL, str(mine)]) == 0  # a changed file after the pass: a practice run
    assert "practice run, not recorded" in capsys.readouterr().out
    with stored() as store:
        assert len(store.attempts(DRILL)) == 1


def test_code_that_does_not_import_records_no_mistake(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine.py"
    mine.write_text("def encode(text, merges:\n")
    assert main(["check", DRILL, str(mine)]) == 1
    out = capsys.readouterr().out
    assert f"your code failed to import ({mine}, line 1" in out
    assert "recorded in your mistakes" not in out
    with stored() as store:
        assert store.concept_results(failed=True) == []
        assert store.start(DRILL) is not None  # the clock still runs from this first check


def test_check_no_record_keeps_nothing(tmp_path: Path) -> None:
    mine = tmp_path / "mine.py"
    assert main(["start", DRILL, str(mine)]) == 0
    assert main(["check", DRILL, str(mine), "--no-record"]) == 1
    with stored() as store:
        assert store.concept_results() == [] and store.attempts() == []
        start = store.start(DRILL)
        assert start is not None and start.checks == 0


def test_show_prints_the_parts(capsys: pytest.CaptureFixture[str]) -> None:
    drill = load_library([], check_symbols=False).drill(DRILL)
    assert main(["show", DRILL, "--prompt"]) == 0
    assert capsys.readouterr().out == drill.prompt.rstrip() + "\n"
    assert main(["show", DRILL, "--starter"]) == 0
    assert capsys.readouterr().out == drill.starter.rstrip() + "\n"
    assert main(["show", DRILL, "--reference"]) == 0
    assert capsys.readouterr().out == reference_source(drill.symbols).rstrip() + "\n"
    assert main(["show", DRILL]) == 0
    whole = capsys.readouterr().out
    assert drill.title in whole and drill.prompt.strip() in whole
    assert main(["show", "no-such-drill"]) == 2
    assert "tokdrill show: unknown drill" in capsys.readouterr().err


@pytest.fixture
def ordinary() -> Iterator[tuple[list[str], dict[str, str], Path]]:
    """A command running ``python -m tokdrill`` as an ordinary user (nobody, when the tests run
    as root), its environment, and a folder that user may enter (with tokdrill and the packages
    it needs copied where that user can read them)."""
    base = Path(tempfile.mkdtemp(prefix="tokdrill-ordinary-"))
    base.chmod(0o755)
    probe = (
        "import sys, importlib\n"
        "for m in ('tokdrill.cli.start_cmd', 'tokdrill.cli.check_cmd', 'tokdrill.content.loader', "
        "'tokdrill.content.reference', 'tokdrill.progress.store', 'tokdrill.practice.service', 'reference_impl'):\n"
        "    importlib.import_module(m)\n"
        "print('\\n'.join(sorted({getattr(m, '__file__', None) or '' for m in sys.modules.values()})))\n"
    )
    files = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    roots = {Path(sysconfig.get_paths()[k]) for k in ("purelib", "platlib")} | {Path(tokdrill.__file__).parents[1]}
    site = base / "site"
    for file in map(Path, files):
        holders = [root for root in roots if root in file.parents]
        if not holders:
            continue
        root = max(holders, key=lambda r: len(r.parts))
        top = root / file.relative_to(root).parts[0]
        if top.is_dir() and not (site / top.name).exists():
            shutil.copytree(top, site / top.name, ignore=shutil.ignore_patterns("__pycache__"))
        elif top.suffix in (".py", ".so"):
            site.mkdir(exist_ok=True)
            shutil.copy2(top, site / top.name)
    checkout = Path(tokdrill.__file__).parents[1]
    for shipped in ("drills", "questions"):  # the shipped content, where the copied package looks for it
        shutil.copytree(checkout / shipped, site / shipped, ignore=shutil.ignore_patterns("__pycache__"))
    for path in [base, *base.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IROTH | (stat.S_IXOTH if path.is_dir() else 0))
    python = "/usr/bin/python3" if os.geteuid() == 0 else sys.executable
    command = [python, "-m", "tokdrill"]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", *command]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(site), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
    yield command, env, base
    shutil.rmtree(base, ignore_errors=True)


@pytest.mark.ordinary_user
def test_start_as_an_ordinary_user(ordinary: tuple[list[str], dict[str, str], Path]) -> None:
    """The file and the clock land in the user's folders; a folder the user may not write is a
    clear message, no traceback, and no clock started."""
    command, env, base = ordinary
    home = base / "home"
    home.mkdir(mode=0o777)
    home.chmod(0o777)
    env = env | {"HOME": str(home), "TOKDRILL_HOME": str(home / "tokdrill")}

    def tokdrill_(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*command, *argv], capture_output=True, text=True, env=env, cwd=home, timeout=120)

    done = tokdrill_("start", DRILL, str(home / "mine.py"))
    assert done.returncode == 0, done.stderr
    assert (home / "mine.py").read_text().startswith("# ")
    locked = base / "locked"
    locked.mkdir()
    locked.chmod(0o555)  # no one but root may write in it (the command never runs as root)
    done = tokdrill_("start", DRILL, str(locked / "mine.py"))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert f"cannot write {locked / 'mine.py'}" in done.stderr
    with Store.open(home / "tokdrill" / "progress.sqlite3") as store:
        start = store.start(DRILL)
        assert start is not None and start.path == str(home / "mine.py")
