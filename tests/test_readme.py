"""README's first commands are the ones CI runs."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tokdrill.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block, "README.md must open with a bash block of commands"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_install_and_test_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2, commands
    assert commands[0].endswith("tokdrill"), "first command installs and opens the app"
    assert "pytest" in commands[1], "second command installs and runs the tests"


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _readme_commands()[1] in ci.splitlines()


def _section(title: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert found, f"README.md has no section {title!r}"
    return found.group(1)


def _help(*argv: str) -> str:
    """What ``tokdrill ARGV --help`` prints."""
    parser = build_parser(list(argv))
    if not argv:
        return parser.format_help()
    subcommands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return subcommands.choices[argv[0]].format_help()


def _listed_commands() -> dict[str, str]:
    """The Command line table's commands: subcommand ('' for plain ``tokdrill``) -> its usage."""
    rows = {}
    for line in _section("Command line").splitlines():
        first_cell = re.match(r"\| (.*?) \| ", line.replace("\\|", "/"))
        if not first_cell:
            continue
        for usage in re.findall(r"`(tokdrill\b[^`]*)`", first_cell.group(1)):
            words = usage.split()
            rows[words[1] if len(words) > 1 and not words[1].startswith("[") else ""] = usage
    return rows


def test_the_readme_lists_every_command_that_help_lists() -> None:
    listed = _listed_commands()
    helped = set(re.findall(r"^    ([a-z][a-z-]*)  ", _help(), re.M))
    assert helped, "tokdrill --help lists no commands"
    assert set(listed) - {""} == helped, (
        f"missing from README: {sorted(helped - set(listed))}; not commands: {sorted(set(listed) - helped - {''})}"
    )


def test_every_option_the_readme_shows_is_in_the_commands_help() -> None:
    for command, usage in _listed_commands().items():
        options = set(re.findall(r"--[a-z][a-z-]*", usage))
        text = _help(command) if command else _help()
        unknown = sorted(option for option in options if not re.search(rf"{option}\b", text))
        assert not unknown, f"README shows {unknown} for `tokdrill {command}`, which its --help does not list"


def _links(path: Path) -> list[tuple[str, str]]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold commands, not links
    return [(path.name, target) for target in re.findall(r"\]\(([^)\s]+)\)", text)]


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of ``path``."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_every_relative_link_in_the_docs_points_at_something_that_exists() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for name, target in _links(page):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            file, _, anchor = target.partition("#")
            goal = (page.parent / file).resolve() if file else page
            if not goal.exists():
                broken.append(f"{name}: {target} (no such file)")
            elif anchor and goal.suffix == ".md" and anchor not in _anchors(goal):
                broken.append(f"{name}: {target} (no such heading)")
    assert not broken, broken


def test_files_and_sections_named_in_the_package_exist() -> None:
    """A module that points at a doc, a script or a test names one that is there, and a section
    of a doc (``docs/x.md, "Heading"``) that the doc has."""
    missing = []
    for module in sorted((ROOT / "tokdrill").rglob("*.py")):
        text = module.read_text(encoding="utf-8")
        named = re.findall(r"\b((?:docs|scripts|tests|drills|questions)/[\w./-]*\.[a-z]+)\b", text)
        missing += [f"{module.relative_to(ROOT)}: {path}" for path in named if not (ROOT / path).exists()]
        for path, heading in re.findall(r"\b(docs/[\w./-]+\.md), \"([^\"]+)\"", text):
            if (ROOT / path).exists() and heading not in re.findall(r"^#+ (.+)$", (ROOT / path).read_text(), re.M):
                missing.append(f"{module.relative_to(ROOT)}: {path}, section {heading!r}")
    assert not missing, missing


def test_every_repository_path_the_docs_name_exists() -> None:
    """A path in backticks (`tokdrill/...`, `scripts/...`) names a file or folder that is there;
    a pattern (`drills/hidden/test_*.py`, `tokdrill/cli/<name>_cmd.py`) matches at least one."""
    folders = "tokdrill|tests|scripts|docs|drills|questions|reference_impl"
    missing = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for path in sorted(set(re.findall(rf"`((?:{folders})/[\w./*<>-]+|\.ci/run)`", text))):
            pattern = re.sub(r"<[^>]*>", "*", path)
            if not any(ROOT.glob(pattern)):
                missing.append(f"{page.name}: {path}")
    assert not missing, missing
