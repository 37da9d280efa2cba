"""A drill's hidden tests, collected once on the trusted side, ready to run in sandboxes.

Because the grading process collects, it knows the expected test names and the concepts each
test checks before any user code exists, and the sandbox never needs to open the hidden test
files: their source sits in ``linecache`` for tracebacks.
"""

from __future__ import annotations

import inspect
import linecache
from pathlib import Path

from tokdrill.grading.pytest_session import (
    PreparationError,
    SubmissionPlugin,
    TestSession,
    open_session,
    remember_source,
)
from tokdrill.grading.spec import DrillSpec

__all__ = ["PreparationError", "PreparedDrill", "hidden_dirs"]


def hidden_dirs(spec: DrillSpec) -> list[str]:
    """The folders holding the drill's hidden tests (and their conftest files)."""
    return sorted({str(Path(p).parent) for p in spec.hidden_tests})


class PreparedDrill:
    """A drill's collected test session, the plugin its ``impl`` fixture reads, and what the
    collection found."""

    def __init__(self, spec: DrillSpec) -> None:
        self.spec = spec
        missing = [p for p in spec.hidden_tests if not Path(p).is_file()]
        if missing:
            raise PreparationError(f"hidden test file not found: {', '.join(missing)}")
        if not spec.hidden_tests:
            raise PreparationError(f"drill {spec.id!r} lists no hidden tests")
        self.submission = SubmissionPlugin()
        try:
            self.session: TestSession = open_session(list(spec.hidden_tests), self.submission)
        except PreparationError as exc:
            raise PreparationError(f"drill {spec.id!r}: {exc}") from exc
        collection = self.session.collection
        if collection.errors:
            detail = "\n".join(collection.errors)
            raise PreparationError(f"the hidden tests of {spec.id!r} do not collect:\n{detail}")
        self.expected: tuple[str, ...] = collection.names
        self.concepts: dict[str, tuple[str, ...]] = dict(collection.concepts)
        if not self.expected:
            raise PreparationError(f"the hidden tests of {spec.id!r} contain no tests")
        self._cache_sources()

    def _cache_sources(self) -> None:
        """Keep the test and conftest sources in ``linecache``: tracebacks show them after the
        files become unreadable in the sandbox. ``mtime=None`` keeps ``checkcache`` away."""
        paths = set(self.spec.hidden_tests)
        for folder in hidden_dirs(self.spec):
            conftest = Path(folder) / "conftest.py"
            if conftest.is_file():
                paths.add(str(conftest))
        for path in paths:
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
