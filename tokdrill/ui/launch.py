"""Open the TUI from the command line (``tokdrill`` with no subcommand)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokdrill.ui.app import TokdrillApp


def build_app(args: argparse.Namespace, start: str | None = None) -> TokdrillApp:
    """The app for ``--data-dir`` / ``--content``, ready to run (the bench starts it the same way);
    ``start`` names an app action to run once it is up (``mock``). Garbage collection stays off
    while the app's modules are imported (:mod:`tokdrill.ui.heap`)."""
    from tokdrill.ui.heap import imports_done, launch_failed, pause_collection

    paused = pause_collection()
    try:
        from tokdrill.backend import Backend
        from tokdrill.ui.app import TokdrillApp

        imports_done(paused)
        backend = Backend.open(data_dir=getattr(args, "data_dir", None), content_dirs=getattr(args, "content", None))
        return TokdrillApp(backend, start_action=start, collection_paused=paused)
    except BaseException:
        launch_failed(paused)
        raise


def launch_app(args: argparse.Namespace, start: str | None = None) -> int:
    """Run the app until the user quits; returns the exit code (0). Changes that could not be
    saved are named on stderr (they are kept in a side file and saved on the next start)."""
    import sys

    from tokdrill.ui.text import printable

    app = build_app(args, start)
    try:
        app.run()
    finally:
        app.heap.release()  # collection is back on even if the app ended before its first frame
    status = app.final_store_status
    if status is not None and status.pending:
        print(f"tokdrill: {printable(status.message)}", file=sys.stderr)
    return 0
