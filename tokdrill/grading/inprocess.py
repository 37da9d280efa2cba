"""Pytest plugins that turn test reports into results, and running hidden tests in this process.

:class:`ResultCollector` is the child side's record of each test's outcome. :func:`run_hidden_tests`
runs hidden test files against a module in this very process, with no sandbox: tests that prove
the hidden tests strong and fair use it, since the code they grade is the project's own. It runs
pytest with the grader's own options (:func:`~tokdrill.grading.pytest_session.session_args`).
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from pathlib import Path

import pytest

from tokdrill.grading.pytest_session import SUBMISSION_PLUGIN, SubmissionPlugin, session_args
from tokdrill.grading.report import short_message
from tokdrill.grading.spec import test_name
from tokdrill.grading.verdict import Outcome, TestResult


class ResultCollector:
    """Pytest plugin that records one outcome per test node, setup/teardown errors included."""

    def __init__(self) -> None:
        self.results: dict[str, TestResult] = {}
        self.collect_errors: list[str] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        name = test_name(report.nodeid)
        previous = self.results.get(name)
        if report.passed and previous is not None:
            return  # a passing teardown changes nothing
        if report.passed:
            outcome: Outcome = "passed"
        elif report.when == "call" and report.failed:
            outcome = "failed"
        else:
            outcome = "error"  # setup or teardown failed, or the test was skipped
        if previous is None or previous.outcome == "passed":
            message = "" if report.passed else short_message(report.longreprtext)
            self.results[name] = TestResult(name, outcome, message)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors.append(short_message(report.longreprtext))


def pytest_args(test_files: Sequence[Path], extra: Sequence[str] = ()) -> list[str]:
    """The pytest command line for an in-process run: the grader's own options (one list, in
    :func:`~tokdrill.grading.pytest_session.session_args`), no header, then ``extra``."""
    files = [str(Path(f)) for f in test_files]
    return [*session_args(files), "--no-header", "-W", "ignore::pytest.PytestAssertRewriteWarning", *extra]


def run_hidden_tests(
    test_files: Sequence[Path], module: types.ModuleType, extra_args: Sequence[str] = ()
) -> tuple[list[TestResult], list[str]]:
    """Run ``test_files`` with ``impl`` bound to ``module``; return (results, collection errors)."""
    collector = ResultCollector()
    plugin = SubmissionPlugin()
    plugin.module = module

    class _Register:
        def pytest_configure(self, config: pytest.Config) -> None:
            config.pluginmanager.register(plugin, SUBMISSION_PLUGIN)

    pytest.main(pytest_args(test_files, extra_args), plugins=[_Register(), collector])
    return list(collector.results.values()), collector.collect_errors
