"""Suite-wide safety: no test ever touches the real user's progress or content settings, none
leaves the garbage collector's heap frozen for the tests after it, and none forks a process
while other threads run in it. Also the markers of the special kinds of test (given here by
folder and fixture), and the skips of tests that need an ordinary account this machine cannot
give them."""

from __future__ import annotations

import gc
import os
import signal
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tokdrill.grading.threads import may_fork

# Property-based tests (hypothesis) run a few hundred examples each; a longer run sets
# TOKDRILL_FUZZ_EXAMPLES higher (e.g. 1000 before a release). Tests that state their own
# max_examples keep it.
FUZZ_EXAMPLES = int(os.environ.get("TOKDRILL_FUZZ_EXAMPLES", "200"))
settings.register_profile("tokdrill", max_examples=FUZZ_EXAMPLES)
settings.load_profile("tokdrill")

# Checks against the texts the content was researched from need those texts, which live outside
# the repository: .ci/run points TOKDRILL_SOURCE_TEXTS at them when they are present.
collect_ignore = [] if os.environ.get("TOKDRILL_SOURCE_TEXTS") else ["source_texts"]


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("tokdrill-home")
    monkeypatch.setenv("TOKDRILL_HOME", str(home))
    monkeypatch.delenv("TOKDRILL_CONTENT", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(home / "no-hugging-face-cache"))  # the machine's own cache is not the test's
    return home


@pytest.fixture(autouse=True)
def _unfrozen_after() -> Iterator[None]:
    yield
    gc.unfreeze()  # what a test, or the app it ran, left frozen is not kept for the rest of the suite


_forks_with_threads: list[str] = []


def _note_fork() -> None:
    if not may_fork():
        _forks_with_threads.append("".join(traceback.format_stack(limit=6)[:-1]))


os.register_at_fork(before=_note_fork)


@pytest.fixture(autouse=True)
def _no_fork_with_threads() -> Iterator[None]:
    """A fork while other threads run may deadlock the child (Python 3.12+ warns, but clears the
    warning even when filters make it an error): the test that does it fails, on any version."""
    _forks_with_threads.clear()
    yield
    assert not _forks_with_threads, "forked while other threads ran, at:\n" + _forks_with_threads[0]


@pytest.fixture(scope="session")
def ordinary_python() -> None:
    """Skips the test when an ordinary account cannot run this interpreter on this checkout
    (see ``ordinary_account.run_python``, which the test then uses)."""
    import ordinary_account

    reason = ordinary_account.unreachable_reason()
    if reason:
        pytest.skip(reason)


def _ordinary_user_can_run_this_python() -> bool:
    """Whether tests that drop to an ordinary account can run this Python version there: this
    interpreter itself, or the system's python3 of the same minor version (the packages these
    tests copy for that account are built for this version)."""
    import subprocess
    import sys

    if os.geteuid() != 0:
        return True
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    check = f"import sys; sys.exit(sys.version_info[:2] != {tuple(sys.version_info[:2])!r})"
    for python in (sys.executable, "/usr/bin/python3"):
        try:
            if subprocess.run([*drop, python, "-c", check], capture_output=True, timeout=30).returncode == 0:
                return True
        except (OSError, subprocess.SubprocessError):
            continue
    return False


# The kinds of test that are slow or need something special (a sandbox, the app, tmux, an ordinary
# account), each a marker registered in pyproject.toml so that the inner loop can leave them out:
#     python -m pytest -m "not (sandbox or ui or snapshot or tmux or fuzz or ordinary_user or slow)"
# Markers come from where a test lives and what it uses, so a new test gets them without thought;
# a slow test elsewhere says @pytest.mark.slow itself.
TESTS = Path(__file__).resolve().parent
# Grading tests run submissions in the sandbox, apart from these modules of pure functions.
SANDBOX_FOLDERS = (TESTS / "grading",)
SANDBOX_FREE_MODULES = frozenset(
    {
        "test_decide.py",
        "test_import_cycles.py",
        "test_messages.py",
        "test_pytest_internals.py",
        "test_report.py",
        "test_submission.py",
    }
)
SANDBOX_MODULES = frozenset(
    {
        TESTS / "cli" / "test_check.py",
        TESTS / "cli" / "test_own_editor.py",
        TESTS / "cli" / "test_mistakes_cmd.py",
        TESTS / "bench" / "test_grading.py",
        TESTS / "bench" / "test_grading_users.py",
        TESTS / "bench" / "test_interactions.py",
        TESTS / "content" / "test_retype_text.py",
        TESTS / "reference_impl" / "test_submissions.py",
    }
)
SANDBOX_FIXTURES = frozenset({"grader", "warm_grader", "check_grader"})
SNAPSHOT_FIXTURES = frozenset({"snap_compare"})
TMUX_MODULES = frozenset({TESTS / "ui" / "test_tmux_drive.py"})
# Modules whose tests all drop to an ordinary account, each with an interpreter it can run (a
# private mount namespace shows it this one); other such tests say @pytest.mark.ordinary_user.
ORDINARY_USER_MODULES = frozenset({TESTS / "grading" / "test_ordinary_user.py"})
# Modules that drive the app or a Textual app headless: what they import says so, or they use
# the benchmark's probes, which drive it.
UI_PACKAGES = ("textual", "tokdrill.ui")
UI_MODULES = frozenset({TESTS / "bench" / "test_interactions.py", TESTS / "bench" / "test_probes.py"})


def _kinds(item: pytest.Item) -> set[str]:
    """The special kinds of ``item``: the markers it gets from its place and its fixtures."""
    path = Path(item.path)
    fixtures = set(getattr(item, "fixturenames", ()))
    kinds = set()
    in_sandbox_folder = any(folder in path.parents for folder in SANDBOX_FOLDERS)
    if (in_sandbox_folder and path.name not in SANDBOX_FREE_MODULES) or path in SANDBOX_MODULES:
        kinds.add("sandbox")
    if fixtures & SANDBOX_FIXTURES:
        kinds.add("sandbox")
    if fixtures & SNAPSHOT_FIXTURES:
        kinds.add("snapshot")
    if path in TMUX_MODULES:
        kinds.add("tmux")
    if path in ORDINARY_USER_MODULES:
        kinds.add("ordinary_user")
    if path in UI_MODULES or _drives_textual(item):
        kinds.add("ui")
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        kinds.add("fuzz")
    return kinds


def _drives_textual(item: pytest.Item) -> bool:
    module = getattr(item, "module", None)
    if module is None:
        return False
    for value in vars(module).values():
        name = getattr(value, "__module__", None) if not isinstance(value, type(module)) else value.__name__
        if isinstance(name, str) and name.startswith(UI_PACKAGES):
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for kind in sorted(_kinds(item)):
            if not item.get_closest_marker(kind):
                item.add_marker(kind)
    marked = [
        item for item in items if item.get_closest_marker("ordinary_user") and item.path not in ORDINARY_USER_MODULES
    ]
    if marked and not _ordinary_user_can_run_this_python():
        skip = pytest.mark.skip(
            reason="no interpreter of this Python version can be run by an ordinary account here "
            "(these run on the version of the system's python3)"
        )
        for item in marked:
            item.add_marker(skip)


def pytest_configure(config: pytest.Config) -> None:
    """Before collection: anything a test module does at import time stays out of the real home,
    and the processes tests start get a terminal's signal dispositions."""
    import tempfile

    _terminal_signal_dispositions()
    base = tempfile.mkdtemp(prefix="tokdrill-suite-")
    os.environ["TOKDRILL_HOME"] = os.path.join(base, "home")
    os.environ["XDG_CACHE_HOME"] = os.path.join(base, "xdg-cache")
    os.environ["XDG_DATA_HOME"] = os.path.join(base, "xdg-data")


def _terminal_signal_dispositions() -> None:
    """Give the processes the tests start the signal dispositions a terminal gives. A suite run
    in the background (``nohup``, or ``&`` in a script) inherits SIGINT and SIGHUP ignored, and
    ignored signals stay ignored in every child: the tests that press Ctrl-C or close a terminal
    on ``tokdrill check`` would then wait for nothing."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for number in (signal.SIGHUP, signal.SIGQUIT, signal.SIGTERM):
        if signal.getsignal(number) is signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)
