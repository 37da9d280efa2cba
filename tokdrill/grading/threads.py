"""How many threads this process runs, as the kernel counts them.

Forking is safe only with one: the child gets a copy of every lock another thread may hold at
that moment, and nothing to release it. ``threading.active_count()`` does not see threads
started with ``_thread`` or by C code; Linux's ``/proc/self/stat`` does (as Python 3.12's
warning about forking a threaded process does).
"""

from __future__ import annotations

import threading

_NUM_THREADS = 17  # field 20 of /proc/PID/stat, counted from the state field (3)


def thread_count() -> int:
    """This process's threads (Python's own count where ``/proc`` cannot say)."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            return int(fh.read().rsplit(b")", 1)[1].split()[_NUM_THREADS])
    except (OSError, IndexError, ValueError):
        return threading.active_count()


def may_fork() -> bool:
    """True when this process runs no other thread, so a forked child cannot deadlock."""
    return thread_count() == 1
