"""A drill's hidden tests, made ready on the trusted side to run in sandboxes.

For tokdrill's own (shipped) drills the grading process collects the tests once: it knows the
expected test names and the concepts each test checks before any user code exists, and the
sandbox never needs to open the hidden test files (their source sits in ``linecache`` for
tracebacks). Any other drill's tests are never imported here: the grading process reads their
files as text for the sandbox, which collects them itself, and expects exactly the tests (and
concepts) the content declares, read from the files without running them.
"""

from __future__ import annotations

import inspect
import linecache
from pathlib import Path

from tokdrill.grading.pytest_session import (
    PreparationError,
    SandboxSession,
    SubmissionPlugin,
    TestSession,
    open_session,
    remember_source,
)
from tokdrill.grading.spec import DrillSpec

__all__ = ["PreparationError", "PreparedDrill", "hidden_dirs", "hidden_files"]

TEXT_LIMIT = 4 << 20  # bytes of one third-party hidden test or conftest file


def hidden_dirs(spec: DrillSpec) -> list[str]:
    """The folders holding the drill's hidden tests (and their conftest files)."""
    return sorted({str(Path(p).parent) for p in spec.hidden_tests})


def hidden_files(spec: DrillSpec) -> list[str]:
    """The drill's hidden test files and the conftest files beside them."""
    conftests = [str(Path(folder) / "conftest.py") for folder in hidden_dirs(spec)]
    return [*spec.hidden_tests, *(p for p in conftests if Path(p).is_file())]


class PreparedDrill:
    """A drill's test session, the plugin its ``impl`` fixture reads, and the tests expected."""

    def __init__(self, spec: DrillSpec) -> None:
        self.spec = spec
        missing = [p for p in spec.hidden_tests if not Path(p).is_file()]
        if missing:
            raise PreparationError(f"hidden test file not found: {', '.join(missing)}")
        if not spec.hidden_tests:
            raise PreparationError(f"drill {spec.id!r} lists no hidden tests")
        self.submission = SubmissionPlugin()
        self.session: TestSession
        if spec.shipped:
            self._collect()
        else:
            self._declare()
        if not self.expected:
            raise PreparationError(f"the hidden tests of {spec.id!r} contain no tests")

    def _collect(self) -> None:
        """Shipped tests: collected here, once."""
        spec = self.spec
        try:
            self.session = open_session(list(spec.hidden_tests), self.submission)
        except PreparationError as exc:
            raise PreparationError(f"drill {spec.id!r}: {exc}") from exc
        collection = self.session.collection
        if collection.errors:
            detail = "\n".join(collection.errors)
            raise PreparationError(f"the hidden tests of {spec.id!r} do not collect:\n{detail}")
        self.expected: tuple[str, ...] = collection.names
        self.concepts: dict[str, tuple[str, ...]] = dict(collection.concepts)
        self._cache_sources()

    def _declare(self) -> None:
        """Tests of any other origin: read as text for the sandbox; the names are the declared ones."""
        spec = self.spec
        self.expected = tuple(name for name, _ in spec.declared)
        self.concepts = dict(spec.declared)
        if not self.expected:
            raise PreparationError(
                f"drill {spec.id!r} does not come with tokdrill and declares no hidden tests: its tests "
                "run only in the sandbox, so the test names must be known from its files beforehand"
            )
        texts = {path: _read_text(path) for path in hidden_files(spec)}
        files = {p: texts[p] for p in spec.hidden_tests}
        conftests = {p: text for p, text in texts.items() if p not in files}
        self.session = SandboxSession(files, conftests, self.submission, self.expected)

    def _cache_sources(self) -> None:
        """Keep the test and conftest sources in ``linecache``: tracebacks show them after the
        files become unreadable in the sandbox. ``mtime=None`` keeps ``checkcache`` away."""
        for path in hidden_files(self.spec):
            text = Path(path).read_text(encoding="utf-8")
            lines = text.splitlines(keepends=True)
            linecache.cache[path] = (len(text), None, lines, path)
            remember_source(text)
        # inspect.getmodule() maps every loaded module's file on first use (~0.1 s), and
        # pytest calls it for each failure report: build that map here, once, for all runs.
        items = getattr(getattr(self.session, "session", None), "items", None)
        code = getattr(getattr(items[0], "obj", None), "__code__", None) if items else None
        if code is not None:
            inspect.getmodule(code)  # a code object has no __module__: forces the full scan


def _read_text(path: str) -> str:
    """A third-party hidden test file's text (bounded; UTF-8 as Python reads source)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(TEXT_LIMIT + 1)
    except OSError as exc:
        raise PreparationError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if len(data) > TEXT_LIMIT:
        raise PreparationError(f"{path} is larger than {TEXT_LIMIT >> 20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PreparationError(f"{path} is not UTF-8 text: {exc.reason} at byte {exc.start}") from exc
