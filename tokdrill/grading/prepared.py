"""A drill's hidden tests configured and collected once, on the trusted side, ready to fork.

Collecting is most of pytest's cost (argument parsing, plugin set-up, importing and assertion-
rewriting the test modules). A :class:`PreparedDrill` does it once per drill in the grading
process; each submission then runs only the test loop in a forked child. Because the parent
collects, it knows the expected test names before any user code exists, and the child never
needs to open the hidden test files (their source sits in ``linecache`` for tracebacks).
"""

from __future__ import annotations

import inspect
import io
import linecache
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from _pytest.config import _prepareconfig
from _pytest.main import Session

from tokdrill.grading import fastrepr
from tokdrill.grading.inprocess import PLUGIN_NAME, ResultCollector, SubmissionPlugin
from tokdrill.grading.spec import DrillSpec, test_name


class PreparationError(Exception):
    """The hidden tests themselves could not be collected: a tokdrill problem, not the user's."""


def hidden_dirs(spec: DrillSpec) -> list[str]:
    """The folders holding the drill's hidden tests (and their conftest files)."""
    return sorted({str(Path(p).parent) for p in spec.hidden_tests})


UNUSED_PLUGINS = ("doctest", "junitxml", "pastebin", "setuponly", "setupplan", "debugging", "nose", "legacypath")


def session_args(files: Sequence[str]) -> list[str]:
    """Pytest options for grading: no capture, no cache, no autoloaded plugins. The terminal
    reporter stays (assertion diffs need its writer) but writes into memory, see below."""
    rootdir = os.path.commonpath([str(Path(f).parent) for f in files]) if files else os.getcwd()
    return [
        *files,
        "-c",
        os.devnull,  # no ini file: nothing of the project's pytest set-up applies
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:stepwise",
        "-p",
        "no:faulthandler",  # the harness enables faulthandler on the submission's stderr
        "-p",
        "no:randomly",
        "-p",
        "no:logging",
        # Plugins grading never needs; blocking them also skips importing them (cold start).
        *[arg for name in UNUSED_PLUGINS for arg in ("-p", f"no:{name}")],
        "-s",
        "--import-mode=importlib",
        "-o",
        "addopts=",
        "-o",
        "python_files=test_*.py",
        "--rootdir",
        rootdir,
        "--confcutdir",
        rootdir,  # only the hidden folder's conftest, never the project's
        "-W",
        "ignore::pytest.PytestAssertRewriteWarning",
    ]


class PreparedDrill:
    """Configured pytest session with the drill's tests collected; run it in a forked child."""

    def __init__(self, spec: DrillSpec) -> None:
        self.spec = spec
        missing = [p for p in spec.hidden_tests if not Path(p).is_file()]
        if missing:
            raise PreparationError(f"hidden test file not found: {', '.join(missing)}")
        if not spec.hidden_tests:
            raise PreparationError(f"drill {spec.id!r} lists no hidden tests")
        self.plugin = SubmissionPlugin(module=None)  # type: ignore[arg-type]
        self.collector = ResultCollector()
        # pytest's importlib mode names a module outside a package by its file's stem and reuses
        # whatever sys.modules holds under that name: drop those names, so this drill gets its own
        # files (another content folder may also have a conftest.py or a test_x.py).
        for name in {Path(p).stem for p in spec.hidden_tests} | {"conftest"}:
            sys.modules.pop(name, None)
        old_cwd = os.getcwd()
        os.environ.setdefault("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
        try:
            self.config = _prepareconfig(session_args(list(spec.hidden_tests)), plugins=[self.collector])
            self.config.pluginmanager.register(self.plugin, PLUGIN_NAME)
            self.config.option.tbstyle = "short"
            self.session = Session.from_config(self.config)
            # The terminal reporter binds sys.stdout at configure time: give it a private buffer,
            # so neither the grader's stdout nor the submission's output ever sees pytest's text.
            real_stdout, sys.stdout = sys.stdout, io.StringIO()
            try:
                self.config._do_configure()
            finally:
                sys.stdout = real_stdout
            self.config.hook.pytest_sessionstart(session=self.session)
            self.config.hook.pytest_collection(session=self.session)
        except pytest.UsageError as exc:
            raise PreparationError(f"cannot collect the hidden tests of {spec.id!r}: {exc}") from exc
        finally:
            os.chdir(old_cwd)
        if self.collector.collect_errors or self.session.testsfailed:
            detail = "\n".join(self.collector.collect_errors) or "collection failed"
            raise PreparationError(f"the hidden tests of {spec.id!r} do not collect:\n{detail}")
        self.expected: tuple[str, ...] = tuple(test_name(item.nodeid) for item in self.session.items)
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
            fastrepr.remember(text)
        # inspect.getmodule() maps every loaded module's file on first use (~0.1 s), and
        # pytest calls it for each failure report: build that map here, once, for all runs.
        code = getattr(getattr(self.session.items[0], "obj", None), "__code__", None)
        if code is not None:
            inspect.getmodule(code)  # a code object has no __module__: forces the full scan

    def run_tests(self) -> None:
        """Run the collected tests (in the forked child, after ``plugin.module`` is set)."""
        self.config.hook.pytest_runtestloop(session=self.session)
