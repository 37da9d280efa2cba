"""Grade in this process's children: prepare a drill's tests once, start a sandbox per submission.

Forking is only safe from a single-threaded process, so this is what the warm grading server
and a cold ``tokdrill check`` use; a threaded app goes through :class:`WarmGrader` instead.
:class:`LocalGrader` refuses to fork while other threads run (its verdict says so).
"""

from __future__ import annotations

import gc
import os
import time

from tokdrill.grading import mechanisms
from tokdrill.grading.decide import decide, internal_error
from tokdrill.grading.limits import Limits, default_limits
from tokdrill.grading.prepared import PreparationError, PreparedDrill, hidden_files
from tokdrill.grading.sandbox import NamespaceRefused, Standby, reap_pending
from tokdrill.grading.spec import DrillSpec
from tokdrill.grading.submission import SUBMISSION_FILENAME
from tokdrill.grading.threads import may_fork
from tokdrill.grading.verdict import Verdict

THREADED = "this process runs other threads, so it may not fork a sandbox: grade with WarmGrader"


def _stamps(spec: DrillSpec) -> tuple[int, ...]:
    stamps = []
    for path in hidden_files(spec):
        try:
            stamps.append(os.stat(path).st_mtime_ns)
        except OSError:
            stamps.append(-1)
    return tuple(stamps)


class LocalGrader:
    """Caches one :class:`PreparedDrill` per drill and grades submissions against it."""

    def __init__(self, keep_standby: bool = False) -> None:
        self._prepared: dict[tuple[DrillSpec, tuple[int, ...]], PreparedDrill] = {}
        self.keep_standby = keep_standby
        self._standby: tuple[DrillSpec, Standby] | None = None

    def prepare(self, spec: DrillSpec) -> PreparedDrill:
        """Collect the drill's tests (once) and freeze the heap so forks share it copy-on-write."""
        key = (spec, _stamps(spec))  # an edited hidden test file is collected afresh
        prepared = self._prepared.get(key)
        if prepared is None:
            import reference_impl  # noqa: F401 - load before freezing, so children start warm

            prepared = PreparedDrill(spec)
            self._prepared = {k: v for k, v in self._prepared.items() if k[0] != spec}
            self._prepared[key] = prepared
            gc.collect()
            gc.freeze()
        return prepared

    def refill(self, spec: DrillSpec, limits: Limits | None = None) -> None:
        """Reap finished runs, then start a standby sandbox for ``spec`` (replacing any other)
        if standbys are kept. The server calls this after answering, off the critical path."""
        reap_pending(block=True)
        if not self.keep_standby or not may_fork():
            return
        limits = limits or default_limits()
        current = self._standby
        if current is not None:
            if self._usable(current, spec, limits, SUBMISSION_FILENAME):
                return
            current[1].discard()
            self._standby = None
        try:
            self._standby = (spec, self._start(self.prepare(spec), limits, SUBMISSION_FILENAME))
        except Exception:  # noqa: BLE001 - a standby is an optimisation; grade() reports problems
            self._standby = None

    def _usable(self, entry: tuple[DrillSpec, Standby], spec: DrillSpec, limits: Limits, filename: str) -> bool:
        held, standby = entry
        return (
            held == spec
            and standby.limits == limits
            and standby.filename == filename
            and standby.mode == _current_mode()
            and standby.alive()
            and self._prepared.get((spec, _stamps(spec))) is standby.prepared
        )

    def _take_standby(self, spec: DrillSpec, limits: Limits, filename: str) -> Standby | None:
        current, self._standby = self._standby, None
        if current is None:
            return None
        if self._usable(current, spec, limits, filename):
            return current[1]
        current[1].discard()
        return None

    @staticmethod
    def _start(prepared: PreparedDrill, limits: Limits, filename: str) -> Standby:
        """A new standby; if the namespaces are refused after all, the fallback from now on."""
        try:
            return Standby(prepared, limits, filename)
        except NamespaceRefused as exc:
            mechanisms.mark_userns_broken(str(exc))
            return Standby(prepared, limits, filename)

    def close(self) -> None:
        if self._standby is not None:
            self._standby[1].discard()
            self._standby = None

    def grade(
        self, spec: DrillSpec, source: str, limits: Limits | None = None, filename: str = SUBMISSION_FILENAME
    ) -> Verdict:
        limits = limits or default_limits()
        if not may_fork():  # a forked child could deadlock on a lock another thread held
            return internal_error(spec.id, (), THREADED)
        reap_pending(block=False)
        start = time.perf_counter()
        notice = mechanisms.notice(mechanisms.detect())
        try:
            prepared = self.prepare(spec)
        except PreparationError as exc:
            return internal_error(spec.id, (), str(exc), time.perf_counter() - start, notice=notice)
        except Exception as exc:  # noqa: BLE001 - a broken hidden test or reference is ours to own
            message = f"preparing the hidden tests failed: {type(exc).__name__}: {exc}"
            return internal_error(spec.id, (), message, time.perf_counter() - start, notice=notice)
        try:
            standby = self._take_standby(spec, limits, filename) or self._start(prepared, limits, filename)
            record = standby.run(source)
        except OSError as exc:
            message = f"could not start the sandbox: {exc}"
            return internal_error(spec.id, prepared.expected, message, time.perf_counter() - start, notice=notice)
        return decide(spec.id, record)


def _current_mode() -> str:
    from tokdrill.grading.sandbox import choose_mode

    return choose_mode(mechanisms.detect())
