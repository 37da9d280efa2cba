"""Run hidden test files in this process against a given module (no sandbox).

This is the child side's core; the sandbox wraps it with isolation and limits. Tests that prove
the hidden tests strong and fair also call it directly, since the code they grade is our own.
"""

from __future__ import annotations

import os
import re
import types
from collections.abc import Sequence
from pathlib import Path

import pytest

from tokdrill.grading.verdict import Outcome, TestResult

PLUGIN_NAME = "tokdrill-submission"
MESSAGE_LIMIT = 2000


class SubmissionPlugin:
    """Registered under :data:`PLUGIN_NAME`; the hidden tests' ``impl`` fixture reads ``module``."""

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module


class ResultCollector:
    """Pytest plugin that records one outcome per test node, setup/teardown errors included."""

    def __init__(self) -> None:
        self.results: dict[str, TestResult] = {}
        self.collect_errors: list[str] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        name = report.nodeid.rsplit("/", 1)[-1]
        if report.when == "call" or report.failed or name not in self.results:
            outcome: Outcome
            if report.passed:
                outcome = "passed"
            elif report.when == "call":
                outcome = "failed"
            else:
                outcome = "error"
            if report.skipped:
                outcome = "error"
            message = "" if report.passed else _short(report.longreprtext)
            previous = self.results.get(name)
            if previous is None or previous.outcome == "passed":
                self.results[name] = TestResult(name, outcome, message)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors.append(_short(report.longreprtext))


_TEST_FILE_PATH = re.compile(r"(?:[A-Za-z]:)?[\\/][^\s:'\"]*[\\/](test_\w+\.py)")


def _short(text: str) -> str:
    """A report's text for a person: test files named without their folder, capped in size."""
    text = _TEST_FILE_PATH.sub(r"\1", text.strip())
    if len(text) <= MESSAGE_LIMIT:
        return text
    return text[: MESSAGE_LIMIT - 60].rstrip() + f"\n... (message cut at {MESSAGE_LIMIT} characters)"


def pytest_args(test_files: Sequence[Path], extra: Sequence[str] = ()) -> list[str]:
    """The pytest command line the harness uses: quiet, no cache, no user config files."""
    files = [str(Path(f)) for f in test_files]
    rootdir = str(Path(files[0]).parent) if files else os.getcwd()
    return [
        *files,
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "--import-mode=importlib",
        "-o",
        "addopts=",
        "-o",
        "python_files=test_*.py",
        "--rootdir",
        rootdir,
        "--no-header",
        "-W",
        "ignore::pytest.PytestAssertRewriteWarning",
        *extra,
    ]


def run_hidden_tests(
    test_files: Sequence[Path], module: types.ModuleType, extra_args: Sequence[str] = ()
) -> tuple[list[TestResult], list[str]]:
    """Run ``test_files`` with ``impl`` bound to ``module``; return (results, collection errors)."""
    collector = ResultCollector()
    plugin = SubmissionPlugin(module)

    class _Register:
        def pytest_configure(self, config: pytest.Config) -> None:
            config.pluginmanager.register(plugin, PLUGIN_NAME)

    pytest.main(pytest_args(test_files, extra_args), plugins=[_Register(), collector])
    return list(collector.results.values()), collector.collect_errors
