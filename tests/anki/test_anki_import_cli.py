"""`tokdrill import-anki`: where the deck goes, when it refuses, and that a failure writes nothing
(also as an ordinary user, whose permissions are real)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from anki_helpers import add_note, anki_collection, export_package, folder_snapshot

import tokdrill
from tokdrill import locations
from tokdrill.backend import Backend
from tokdrill.cli import main


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("import-cli")
    with anki_collection(folder) as col:
        add_note(
            col,
            "Basic",
            {"Front": "Why byte-level BPE?", "Back": "No unknown token: every byte is in the base alphabet."},
            deck="Tok::Bytes",
        )
        add_note(
            col,
            "Basic",
            {"Front": "What is ▁ in SentencePiece?", "Back": "The marker for a preceding space."},
            deck="Tok::SP",
        )
        return export_package(col, folder / "tok.apkg")


def run(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_imports_into_the_default_folder_that_the_app_loads(package: Path, capsys) -> None:
    code, out, err = run("import-anki", str(package), "--deck", "tok", capsys=capsys)
    assert code == 0, err
    target = locations.user_content_dir() / "tok.yaml"
    assert out.splitlines()[:2] == [
        "imported 2 card(s) from 2 note(s) (2 card(s) in Anki): deck 'tok' (Tok)",
        f"  {target}",
    ]
    assert "key points of 2 card(s) were drawn from their answers" in out
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Imported from Anki (tok.apkg) by `tokdrill import-anki`.\n")
    backend = Backend.open()
    try:
        assert [c.question for c in backend.library.deck("tok").cards] == [
            "Why byte-level BPE?",
            "What is ▁ in SentencePiece?",
        ]
    finally:
        backend.close()


def test_importing_again_is_refused_unless_replacing_and_ids_stay(package: Path, capsys) -> None:
    assert run("import-anki", str(package), "--deck", "tok", capsys=capsys)[0] == 0
    target = locations.user_content_dir() / "tok.yaml"
    before = target.read_bytes()
    code, _, err = run("import-anki", str(package), "--deck", "tok", capsys=capsys)
    assert code == 1
    assert f"{target} already exists (deck 'tok' was imported before); add --replace" in err
    assert target.read_bytes() == before
    # the user refines the drawn key points of the first card; a re-import keeps them
    lines = before.decode().splitlines()
    first_points = next(i for i, line in enumerate(lines) if line.startswith("    key_points:"))
    lines[first_points] = "    key_points: [no unknown token, every byte in the base alphabet]"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run(
        "import-anki", str(package), "--deck", "tok", "--replace", "--title", "Tokenizers", capsys=capsys
    )
    assert code == 0 and out.startswith("replaced deck with 2 card(s)")
    assert "1 card(s) keep the key points their deck file already had" in out
    after = target.read_text(encoding="utf-8")
    ids = [line for line in lines if line.startswith("  - id: ")]
    assert ids == [line for line in after.splitlines() if line.startswith("  - id: ")]
    assert "title: Tokenizers" in after
    assert "    key_points: [no unknown token, every byte in the base alphabet]" in after.splitlines()
    # without --title, replacing keeps the deck's title
    assert run("import-anki", str(package), "--deck", "tok", "--replace", capsys=capsys)[0] == 0
    assert "title: Tokenizers" in target.read_text(encoding="utf-8")


def test_from_deck_keeps_one_anki_deck(package: Path, capsys) -> None:
    code, out, _ = run("import-anki", str(package), "--deck", "sp", "--from-deck", "tok::sp", "--json", capsys=capsys)
    assert code == 0
    report = json.loads(out)
    assert (report["cards"], report["title"]) == (1, "SP")
    code, _, err = run("import-anki", str(package), "--deck", "none", "--from-deck", "Nope", capsys=capsys)
    assert code == 1 and "no note is in the Anki deck 'Nope'" in err


def test_dry_run_prints_the_deck_and_writes_nothing(package: Path, capsys) -> None:
    code, out, err = run("import-anki", str(package), "--deck", "tok", "--dry-run", capsys=capsys)
    assert code == 0
    assert out.startswith("# Imported from Anki") and "deck: tok\n" in out
    assert err.startswith("would import 2 card(s)")
    assert not locations.user_content_dir().exists()


def test_data_dir_is_honoured(package: Path, tmp_path: Path, capsys) -> None:
    data = tmp_path / "elsewhere"
    assert run("--data-dir", str(data), "import-anki", str(package), "--deck", "tok", capsys=capsys)[0] == 0
    assert (data / "content" / "tok.yaml").is_file()
    code, out, _ = run("--data-dir", str(data), "list", "--json", capsys=capsys)
    assert code == 0 and "tok" in {d["id"] for d in json.loads(out)["decks"]}
    code, out, _ = run("list", "--json", capsys=capsys)
    assert code == 0 and "tok" not in {d["id"] for d in json.loads(out)["decks"]}


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["--deck", "Bad_Id"], 2, "--deck 'Bad_Id' is not a valid id"),
        (["--deck", "bpe"], 1, "deck id 'bpe' is already used by "),
    ],
)
def test_refusals(package: Path, argv: list[str], code: int, message: str, capsys) -> None:
    result, _, err = run("import-anki", str(package), *argv, capsys=capsys)
    assert (result, message in err) == (code, True), err
    assert not locations.user_content_dir().exists()


def test_a_missing_file_is_a_usage_error(tmp_path: Path, capsys) -> None:
    code, _, err = run("import-anki", str(tmp_path / "nope.apkg"), "--deck", "x", capsys=capsys)
    assert code == 2 and "no such file" in err


def _malformed(tmp_path: Path, package: Path) -> dict[str, Path]:
    files = {}
    files["not-a-zip"] = tmp_path / "a.apkg"
    files["not-a-zip"].write_text("hello", encoding="utf-8")
    files["no-collection"] = tmp_path / "b.apkg"
    with zipfile.ZipFile(files["no-collection"], "w") as archive:
        archive.writestr("media", "{}")
    files["newer-format"] = tmp_path / "c.apkg"
    with zipfile.ZipFile(package) as old, zipfile.ZipFile(files["newer-format"], "w") as new:
        for name in old.namelist():
            new.writestr(name, b"\x08\x07" if name == "meta" else old.read(name))
    files["truncated"] = tmp_path / "d.apkg"
    files["truncated"].write_bytes(package.read_bytes()[: package.stat().st_size // 2])
    files["empty-text"] = tmp_path / "e.txt"
    files["empty-text"].write_text("#separator:tab\n#html:true\n", encoding="utf-8")
    return files


def test_malformed_files_fail_clearly_and_write_nothing(package: Path, tmp_path: Path, capsys) -> None:
    folder = locations.user_content_dir()
    folder.mkdir(parents=True)
    (folder / "keep.yaml").write_text(
        "deck: keep\ntitle: Keep\ncards:\n  - id: keep-1\n    question: Q\n    answer: A\n    key_points: [a, b]\n",
        encoding="utf-8",
    )
    before = folder_snapshot(folder)
    for kind, path in _malformed(tmp_path, package).items():
        code, out, err = run("import-anki", str(path), "--deck", "keep-new", capsys=capsys)
        assert code == 1, kind
        assert err.startswith(f"tokdrill import-anki: {path}: "), (kind, err)
        assert "Traceback" not in err and out == ""
        assert folder_snapshot(folder) == before, kind


def _python_for(user_visible: Path) -> tuple[list[str], dict[str, str]]:
    """A command line and environment that run tokdrill as an ordinary user: Debian's Python (an
    ordinary user cannot reach the pyenv Pythons under /root) with this interpreter's packages,
    copied where that user can read them."""
    modules = user_visible / "site"
    if not modules.exists():
        probe = (
            "import sys, importlib\n"
            "for m in ('tokdrill.cli.import_anki_cmd', 'tokdrill.anki.importer', 'tokdrill.anki.export', "
            "'tokdrill.content.yaml_reading', 'tokdrill.content.loader', 'genanki', 'zstandard', 'platformdirs', "
            "'pygments.lexers.python', 'pygments.formatters.html', 'yaml', 'reference_impl', 'snowballstemmer', "
            "'tokdrill.cli.list_cmd', 'tokdrill.cli.export_anki_cmd'):\n"
            "    importlib.import_module(m)\n"
            "print('\\n'.join(sorted({getattr(m, '__file__', None) or '' for m in sys.modules.values()})))\n"
        )
        files = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
        roots = {Path(sysconfig.get_paths()[k]) for k in ("purelib", "platlib")} | {Path(tokdrill.__file__).parents[1]}
        tops = set()
        for file in map(Path, files):
            # the innermost root holding the file (the checkout may hold the virtual environment)
            holders = [root for root in roots if root in file.parents]
            if holders:
                root = max(holders, key=lambda r: len(r.parts))
                tops.add(root / file.relative_to(root).parts[0])
        for top in tops:
            target = modules / top.name
            if top.is_dir():
                shutil.copytree(top, target, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
            elif top.suffix in (".py", ".so"):
                modules.mkdir(parents=True, exist_ok=True)
                shutil.copy2(top, target)
        for path in [user_visible, *user_visible.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IROTH | (stat.S_IXOTH if path.is_dir() else 0))
        # compiled once here: the ordinary user may not write bytecode next to these files
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(modules)], check=True)
    python = "/usr/bin/python3" if os.geteuid() == 0 else sys.executable
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(modules), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
    command = [python, "-m", "tokdrill"]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", *command]
    return command, env


@pytest.fixture
def world_visible() -> Iterator[Path]:
    """A scratch folder other users can enter (pytest's own temporary folders are private)."""
    base = Path(tempfile.mkdtemp(prefix="tokdrill-ordinary-"))
    base.chmod(0o755)
    yield base
    for path in [base, *base.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    shutil.rmtree(base)


@pytest.mark.ordinary_user
def test_as_an_ordinary_user(package: Path, world_visible: Path) -> None:
    """Imports into the user's own folder; an unreadable file or an unwritable folder is a clear
    message and leaves everything as it was."""
    base = world_visible
    command, env = _python_for(base)
    home = base / "home"
    home.mkdir()
    home.chmod(0o777)
    env |= {"HOME": str(home), "TOKDRILL_HOME": str(home / "tokdrill")}
    readable = base / "tok.apkg"
    shutil.copy(package, readable)
    readable.chmod(0o644)

    def tokdrill_(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*command, *argv], capture_output=True, text=True, env=env, cwd=base, timeout=120)

    done = tokdrill_("import-anki", str(readable), "--deck", "tok")
    assert done.returncode == 0, done.stderr
    deck_file = home / "tokdrill" / "content" / "tok.yaml"
    assert deck_file.is_file()
    listed = tokdrill_("list", "--json")
    assert "tok" in {d["id"] for d in json.loads(listed.stdout)["decks"]}, listed.stderr
    assert listed.stderr == ""

    private = base / "private.apkg"
    shutil.copy(package, private)
    private.chmod(0o600 if os.geteuid() == 0 else 0o000)  # root owns it: the ordinary user cannot read it
    done = tokdrill_("import-anki", str(private), "--deck", "other")
    assert done.returncode == 1
    assert f"{private}: cannot read: Permission denied" in done.stderr

    before = folder_snapshot(home)
    locked = deck_file.parent
    if os.geteuid() == 0:
        os.chown(locked, 0, 0)  # the folder now belongs to someone else
    locked.chmod(0o555)
    try:
        done = tokdrill_("import-anki", str(readable), "--deck", "again")
        assert done.returncode == 1
        assert f"cannot write in {locked}: Permission denied" in done.stderr
        assert folder_snapshot(home) == before
        done = tokdrill_("export-anki", str(locked / "out.apkg"))
        assert done.returncode == 1 and "Permission denied" in done.stderr
    finally:
        locked.chmod(0o755)
