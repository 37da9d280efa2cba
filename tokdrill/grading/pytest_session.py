"""How the grader drives pytest: collect a drill's hidden tests once, run them in each sandbox.

:class:`CollectedSession` configures pytest and collects the tests in the grading process
(through pytest's private API, all of it in :mod:`tokdrill.grading.pytest_internals`); each
forked sandbox then runs only the test loop, which is most of what makes a warm verdict fast. It
also parses each test file once, so that a failing test's report does not parse the file again,
and answers the file and source lookups a report repeats from a memo (replacing functions of
``_pytest._code``). If those private names change in a future pytest,
:func:`open_session` falls back to :class:`PublicSession`:
``pytest.main`` collects in the grading process to learn the test names and again inside each
sandbox, before the submission is loaded. Slower, equally correct.

``TOKDRILL_PYTEST_PRIVATE=0`` forces the fallback (read in the grading process).

Both collect in the grading process, so they are for tokdrill's own (shipped) hidden tests only.
:class:`SandboxSession` is for tests of any other origin: the grading process only holds their
files' text; the sandbox, once sealed, writes them into its scratch folder, and collects and runs
them there, where their code (conftest, test modules, reference cases) can do no harm.
"""

from __future__ import annotations

import ast
import inspect
import io
import linecache
import os
import shutil
import sys
import tokenize
import types
import warnings
from bisect import bisect_right
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import pytest

from tokdrill.grading import pytest_internals
from tokdrill.grading.divergence import CallRecorder, sentence
from tokdrill.grading.report import short_message
from tokdrill.grading.spec import bare_name, test_name

if TYPE_CHECKING:
    from tokdrill.grading.pytest_internals import Code, Source

T = TypeVar("T")
PRIVATE_ENV = "TOKDRILL_PYTEST_PRIVATE"
SUBMISSION_PLUGIN = "tokdrill-submission"
UNUSED_PLUGINS = ("doctest", "junitxml", "pastebin", "setuponly", "setupplan", "debugging", "nose", "legacypath")
# Plugins that wrap every test phase (warning capture, unraisable- and thread-exception hooks):
# a grading run does not report what they collect, and they are most of pytest's per-test cost.
PER_TEST_PLUGINS = ("warnings", "unraisableexception", "threadexception")
# Plugins that wrap every test phase for the sake of a few fixtures: left out of a run whose
# collected tests use none of them (about a sixth of pytest's per-test cost).
FIXTURE_PLUGINS = {
    "capturemanager": frozenset({"capsys", "capsysbinary", "capfd", "capfdbinary", "capteesys"}),
    "tmpdir": frozenset({"tmp_path", "tmpdir", "tmp_path_factory", "tmpdir_factory"}),
}
# Called in the sandbox: ``Seal`` completes the lock-down; ``Load`` then reads and loads the
# submission, right before the tests run (None when it could not be loaded, already reported:
# the tests are not run).
Seal = Callable[[], None]
Load = Callable[[], types.ModuleType | None]
HIDDEN_COPY = ".tokdrill-hidden"  # the sandbox's copy of third-party hidden tests, in its scratch


class PreparationError(Exception):
    """The hidden tests themselves could not be collected: a tokdrill problem, not the user's."""


class SubmissionPlugin:
    """Registered under :data:`SUBMISSION_PLUGIN`; the hidden tests' ``impl`` fixture reads ``module``.

    Setting ``module`` also records the calls of its traced functions, so that a failed test's
    report leads with where the submission first left the reference (:mod:`.divergence`).
    """

    def __init__(self) -> None:
        self._module: types.ModuleType | None = None
        self.recorder = CallRecorder()

    @property
    def module(self) -> types.ModuleType | None:
        return self._module

    @module.setter
    def module(self, module: types.ModuleType | None) -> None:
        if module is not None:
            self.recorder.install(module)
        self._module = module

    def pytest_runtest_setup(self) -> None:
        self.recorder.calls.clear()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if report.when == "call" and report.failed and self.recorder.calls:
            found = self.recorder.explain()
            if found:
                report.longrepr = f"{sentence(found)}\n{report.longreprtext}"
        return report


@dataclass(eq=False)  # registered as a pytest plugin, which must be hashable
class Collection:
    """What collecting found: test names (``file::test``) and the concepts each one checks."""

    names: tuple[str, ...] = ()
    concepts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        names = []
        for item in session.items:
            name = test_name(item.nodeid)
            names.append(name)
            found = [str(arg) for mark in item.iter_markers(name="concept") for arg in mark.args]
            self.concepts[name] = tuple(dict.fromkeys(found))
        self.names = tuple(names)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.errors.append(short_message(report.longreprtext))


class TestSession(Protocol):
    """A drill's tests, collected, ready to run in a sandbox (see :func:`open_session`)."""

    collection: Collection
    uses_private_api: bool

    def run(self, seal: Seal, load: Load, plugins: Sequence[object]) -> bool:
        """In the sandbox: ``seal``, ``load``, then run the tests with ``plugins`` reporting;
        False if ``load`` gave no module (nothing ran)."""
        ...


def session_args(files: Sequence[str]) -> list[str]:
    """Pytest options for grading: no capture, no cache, no autoloaded plugins, no ini file."""
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
        *[arg for name in (*UNUSED_PLUGINS, *PER_TEST_PLUGINS) for arg in ("-p", f"no:{name}")],
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
        "-o",
        "markers=concept(*ids): the concepts a hidden test checks",
    ]


def open_session(files: Sequence[str], submission: SubmissionPlugin) -> TestSession:
    """Collect ``files`` in this process: with pytest's private API where it is as expected,
    else with ``pytest.main``. Raises :class:`PreparationError` for tests that do not collect."""
    os.environ.setdefault("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    # pytest's importlib mode names a module outside a package by its file's stem and reuses
    # whatever sys.modules holds under that name: drop those names, so this drill gets its own
    # files (another content folder may also have a conftest.py or a test_x.py).
    for name in {Path(p).stem for p in files} | {"conftest"}:
        sys.modules.pop(name, None)
    if os.environ.get(PRIVATE_ENV, "1") != "0" and pytest_internals.private_api_present():
        try:
            return CollectedSession(files, submission)
        except (AttributeError, TypeError, ImportError):
            pass  # a private name or signature changed: the public way below still works
    return PublicSession(files, submission)


class CollectedSession:
    """Configured and collected in the grading process; a forked sandbox runs the test loop."""

    uses_private_api = True

    def __init__(self, files: Sequence[str], submission: SubmissionPlugin) -> None:
        self.collection = Collection()
        self.submission = submission
        old_cwd = os.getcwd()
        # Warnings while collecting (pytest's own about assertion rewriting or marks, or from the
        # test modules) concern the content's author, not the person grading: kept off stderr.
        with warnings.catch_warnings(record=True):
            try:
                config = pytest_internals.prepare_config(session_args(files), [self.collection])
                config.pluginmanager.register(submission, SUBMISSION_PLUGIN)
                config.option.tbstyle = "short"
                session = pytest_internals.configured_session(config)
                config.hook.pytest_sessionstart(session=session)
                config.hook.pytest_collection(session=session)
            except pytest.UsageError as exc:
                raise PreparationError(f"cannot collect the hidden tests: {exc}") from exc
            finally:
                os.chdir(old_cwd)
        self.config = config
        self.session = session
        if session.testsfailed and not self.collection.errors:
            self.collection.errors.append("collection failed")
        for item in session.items:
            item.location  # noqa: B018 - computed once here (cached), not in every sandbox
        drop_unused_plugins(config, session.items)

    def run(self, seal: Seal, load: Load, plugins: Sequence[object]) -> bool:
        seal()
        module = load()
        if module is None:
            return False
        self.submission.module = module
        for plugin in plugins:
            self.config.pluginmanager.register(plugin)
        self.config.hook.pytest_runtestloop(session=self.session)
        return True


class PublicSession:
    """Only ``pytest.main``: collects here for the names, and again in each sandbox."""

    uses_private_api = False

    def __init__(self, files: Sequence[str], submission: SubmissionPlugin) -> None:
        self.files = list(files)
        self.submission = submission
        self.collection = Collection()
        real_stdout, sys.stdout = sys.stdout, io.StringIO()
        old_cwd = os.getcwd()
        try:
            with warnings.catch_warnings(record=True):  # see CollectedSession
                code = pytest.main([*session_args(self.files), "--collect-only"], plugins=[self.collection])
        finally:
            sys.stdout = real_stdout
            os.chdir(old_cwd)
        if code not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED) and not self.collection.errors:
            self.collection.errors.append(f"collection failed (pytest exit code {int(code)})")

    def run(self, seal: Seal, load: Load, plugins: Sequence[object]) -> bool:
        os.chdir("/")  # the grader's folder may be hidden in the sandbox
        return run_main(self.files, self.submission, seal, load, plugins)


class SandboxSession:
    """Hidden tests of unknown origin: only their text is held here; :meth:`run`, in the sealed
    sandbox, writes them into the scratch folder and collects and runs them there.

    ``files`` maps each test file's path to its text, and ``conftests`` each of their folders'
    ``conftest.py`` (when there is one); the copies keep the folders' places relative to one
    another. What collecting finds is not trusted: the grader expects the names it was given.
    """

    uses_private_api = False

    def __init__(
        self, files: dict[str, str], conftests: dict[str, str], submission: SubmissionPlugin, expected: Sequence[str]
    ) -> None:
        self.files = files
        self.conftests = conftests
        self.submission = submission
        self.expected = tuple(expected)
        self.collection = Collection()

    def run(self, seal: Seal, load: Load, plugins: Sequence[object]) -> bool:
        seal()  # from here on nothing the copied files do reaches past the sandbox
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # the sealed environment was cleared
        sys.dont_write_bytecode = True  # no __pycache__ beside the copies
        copy = Path.cwd() / HIDDEN_COPY
        files = self._write(copy)
        for name in {Path(p).stem for p in files} | {"conftest"}:
            sys.modules.pop(name, None)  # see open_session

        def load_after_collecting() -> types.ModuleType | None:
            shutil.rmtree(copy, ignore_errors=True)  # collected: the submission does not find them
            return load()

        plugins = [self.collection, *plugins]
        try:
            return run_main(files, self.submission, _sealed, load_after_collecting, plugins, self._vet)
        except PreparationError as exc:  # named by the files' own places, not the copies'
            text = str(exc).replace(str(copy), self._root()).replace(HIDDEN_COPY + "/", self._root() + "/")
            raise PreparationError(text) from None

    def _vet(self, session: pytest.Session) -> str:
        """Why these tests cannot grade a submission: they do not collect, or a declared test is
        not among those collected ("" if neither). Only words for the drill's author: whatever
        this says, the grader expects results for exactly the declared tests."""
        if self.collection.errors or session.testsfailed:
            detail = "\n".join(self.collection.errors) or "collection failed"
            return f"the hidden tests do not collect in the sandbox:\n{detail}"
        collected = {bare_name(name) for name in self.collection.names}
        absent = [name for name in self.expected if name not in collected]
        if absent:
            listed = ", ".join(absent[:5]) + (f" and {len(absent) - 5} more" if len(absent) > 5 else "")
            return f"pytest does not collect these declared tests: {listed}"
        return ""

    def _root(self) -> str:
        """The folder holding every file (the copies keep their places below it)."""
        return os.path.commonpath([str(Path(p).parent) for p in [*self.files, *self.conftests]])

    def _write(self, copy: Path) -> list[str]:
        """Write the files under ``copy`` (their text in ``linecache`` too, for tracebacks once
        the copies are gone, and parsed once for failure reports); returns the copied test files'
        paths."""
        root = self._root()
        written: list[str] = []
        for original, text in [*self.conftests.items(), *self.files.items()]:
            target = copy / os.path.relpath(original, root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            linecache.cache[str(target)] = (len(text), None, text.splitlines(keepends=True), str(target))
            remember_source(text)
            if original in self.files:
                written.append(str(target))
        return written


def _sealed() -> None:
    """Nothing to do: the sandbox was sealed before collecting."""


def run_main(
    files: Sequence[str],
    submission: SubmissionPlugin,
    seal: Seal,
    load: Load,
    plugins: Sequence[object],
    vet: Callable[[pytest.Session], str] | None = None,
) -> bool:
    """In the sandbox: ``pytest.main`` over ``files``, with ``seal`` and ``load`` called between
    collection (and the reference answers built at its end) and the test loop. ``vet`` says
    what is wrong with the collected tests, if anything: then nothing is loaded or run, and
    :class:`PreparationError` is raised with its words, as it is when pytest stops before
    collection ends (a conftest that does not import, say)."""
    started: list[bool] = []
    collected: list[bool] = []
    refused: list[str] = []
    interrupted: list[BaseException] = []

    class Gate:
        """Registers the submission plugin under its name (the hidden tests look it up), then
        seals and loads the submission once collection is finished."""

        def pytest_configure(self, config: pytest.Config) -> None:
            config.pluginmanager.register(submission, SUBMISSION_PLUGIN)

        def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
            interrupted.append(excinfo.value)  # pytest.main swallows it: raised again below

        @pytest.hookimpl(trylast=True)
        def pytest_collection_finish(self, session: pytest.Session) -> None:
            sys.stdout, sys.stderr = real_stdout, real_stderr  # from here on: the submission's output
            collected.append(True)
            problem = vet(session) if vet is not None else ""
            if problem:
                refused.append(problem)
                session.items.clear()
                return
            seal()
            module = load()
            if module is None:
                session.items.clear()
                return
            submission.module = module
            drop_unused_plugins(session.config, session.items)
            started.append(True)

    real_stdout, real_stderr = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = said = io.StringIO()  # pytest's words while it collects
    try:
        code = pytest.main([*session_args(files), "--tb=short"], plugins=[Gate(), *plugins])
    finally:
        sys.stdout, sys.stderr = real_stdout, real_stderr
    if not collected:
        words = said.getvalue().strip()[-2000:]
        raise PreparationError(
            f"pytest stopped before the hidden tests were collected (exit code {int(code)})\n{words}"
        )
    if refused:
        raise PreparationError(refused[0])
    if interrupted:
        raise interrupted[0]  # as the private-API run lets it out: the harness says who stopped the run
    return bool(started)


def drop_unused_plugins(config: pytest.Config, items: Sequence[pytest.Item]) -> list[str]:
    """Unregister the plugins of :data:`FIXTURE_PLUGINS` that no collected test needs (an
    item's ``fixturenames`` holds every fixture it uses, directly or not), and pytest's
    unittest support when no test is a ``unittest.TestCase`` method. Returns their names."""
    used: set[str] = set()
    for item in items:
        used.update(getattr(item, "fixturenames", ()))
    unused = [name for name, fixtures in FIXTURE_PLUGINS.items() if not used & fixtures]
    if not any(pytest_internals.is_unittest_item(item) for item in items):
        unused.append("unittest")
    dropped = []
    for name in unused:
        plugin = config.pluginmanager.get_plugin(name)
        if plugin is not None:
            config.pluginmanager.unregister(plugin)
            dropped.append(name)
    return dropped


def remember_source(text: str) -> None:
    """Parse a hidden test file's (or conftest's) source now, for the failure reports of later runs."""
    _FailureReports.remember(text)


class _FailureReports:
    """Cheaper failure reports: to show the failing statement, pytest parses the whole test file
    again for every failing test. Parse each hidden test file once, while preparing, and answer
    pytest's statement-range lookups from that tree. Files not seen here go through pytest. The
    path and source of a traceback's files are looked up once per process, not per entry."""

    trees: dict[str, ast.AST] = {}  # noqa: RUF012 - source text (as pytest joins it) -> tree
    starts: dict[int, list[int]] = {}  # noqa: RUF012 - id(tree) -> sorted first lines of statements
    installed = False

    @classmethod
    def remember(cls, text: str) -> None:
        key = "\n".join(line.rstrip("\n") for line in io.StringIO(text).readlines())
        if key in cls.trees:
            return
        try:
            tree = ast.parse(key, "source", "exec")
        except SyntaxError:
            return
        cls.trees[key] = tree
        cls.starts[id(tree)] = _statement_starts(tree)
        cls.install()

    @classmethod
    def install(cls) -> None:
        if cls.installed:
            return
        # pytest finds where a failing statement ends with tokenize, whose pattern Python
        # compiles on first use (over 10 ms): compile it here, before any sandbox is forked.
        list(tokenize.generate_tokens(io.StringIO("pass\n").readline))
        originals = pytest_internals.report_lookups()
        if originals is None:
            cls.installed = True  # pytest changed: its own (slower) way stays
            return

        def getstatementrange_ast(
            lineno: int, source: Source, assertion: bool = False, astnode: ast.AST | None = None
        ) -> tuple[ast.AST, int, int]:
            if astnode is None:
                astnode = cls.trees.get(str(source))
            return originals.getstatementrange_ast(lineno, source, assertion, astnode)

        def get_statement_startend2(lineno: int, node: ast.AST) -> tuple[int, int | None]:
            starts = cls.starts.get(id(node))
            if starts is None:  # not a tree of ours (ours stay alive, so their ids are never reused)
                return originals.get_statement_startend2(lineno, node)
            index = bisect_right(starts, lineno)
            return starts[index - 1], (starts[index] if index < len(starts) else None)

        # A failure report asks for the path of each traceback entry's file about twenty times
        # (each a stat) and reads the whole file into a new Source for each entry: answer the
        # repeats from a memo. Files do not change during a run; a forked sandbox sees them
        # differently (hidden tests are covered there), so the memo starts empty in each process.
        memo = _ProcessMemo()

        def path(code: Code) -> Path | str:
            return memo.get(("path", code.raw.co_filename), lambda: originals.path(code))

        def findsource(obj: object) -> tuple[Source | None, int]:
            """pytest's ``findsource``, sharing one Source per file between its functions."""
            if not isinstance(obj, types.CodeType):
                return originals.findsource(obj)
            try:
                lines, lineno = inspect.findsource(obj)
            except Exception:  # noqa: BLE001 - as pytest: no source
                return None, -1
            kept_lines, source = memo.get(
                ("source", obj.co_filename), lambda: (lines, pytest_internals.new_source(lines))
            )
            if kept_lines is not lines:  # the file's lines changed (linecache read it again)
                source = pytest_internals.new_source(lines)
            return source, lineno

        pytest_internals.replace_report_lookups(
            pytest_internals.ReportLookups(getstatementrange_ast, get_statement_startend2, findsource, path)
        )
        cls.installed = True


class _ProcessMemo:
    """Computed values by key, forgotten when read from a different process than the one that
    stored them (a forked child starts with an empty memo)."""

    def __init__(self) -> None:
        self._pid = os.getpid()
        self._values: dict[object, Any] = {}

    def get(self, key: object, compute: Callable[[], T]) -> T:
        if self._pid != os.getpid():
            self._pid, self._values = os.getpid(), {}
        if key not in self._values:
            self._values[key] = compute()
        return cast(T, self._values[key])


def _statement_starts(tree: ast.AST) -> list[int]:
    """Where each statement (or except clause, decorator, else/finally block) begins, 0-based;
    the same boundaries pytest uses to cut a statement out of a file."""
    starts: list[int] = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.stmt, ast.ExceptHandler)):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            starts.extend(d.lineno - 1 for d in node.decorator_list)
        starts.append(node.lineno - 1)
        for block in ("finalbody", "orelse"):
            body = getattr(node, block, None)
            if body:
                starts.append(body[0].lineno - 2)
    starts.sort()
    return starts
