"""The private names of pytest, Textual and textual-plotext are used in one module per library:
grading/pytest_internals.py, ui/textual_internals.py and ui/plotext_internals.py. Anywhere else in
the package a use of one is refused here, so the fence holds as the code grows (the code editor,
a TextArea subclass, uses the TextArea members those modules list and check)."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tokdrill"
FENCES = {
    "pytest": (PACKAGE / "grading" / "pytest_internals.py", [r"^\s*(from|import) _pytest\b", r"\b_prepareconfig\b"]),
    "Textual": (
        PACKAGE / "ui" / "textual_internals.py",
        [
            r"^\s*from textual(\.\w+)*\._\w+",
            r"\._bindings\b",
            r"\._bindings_ready\b",
            r"\._display\b",
            r"\._apply_link_style\b",
            r"\._get_style\b",
            r"\._scroll_update\b",
            r"\bkeys\.unicodedata\b",
            r"\b_read_callable\b",
        ],
    ),
    "textual-plotext": (PACKAGE / "ui" / "plotext_internals.py", [r"^\s*from textual_plotext(\.\w+)*\._\w+"]),
}


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """Lines of code, without comments and the text of docstrings (which may name the internals)."""
    text = re.sub(r'"""(.*?)"""', lambda m: "\n" * m.group(0).count("\n"), path.read_text(encoding="utf-8"), flags=re.S)
    return [(number, line.split("#")[0]) for number, line in enumerate(text.splitlines(), 1)]


def test_private_names_are_used_only_in_their_library_module() -> None:
    found = []
    for library, (home, patterns) in FENCES.items():
        assert home.exists(), home
        for module in sorted(PACKAGE.rglob("*.py")):
            if module == home:
                continue
            for number, line in _code_lines(module):
                if any(re.search(pattern, line) for pattern in patterns):
                    found.append(f"{module.relative_to(PACKAGE.parent)}:{number}: {library}: {line.strip()}")
    assert not found, "use these through the library's internals module:\n" + "\n".join(found)
