"""Open the TUI from the command line (``tokdrill`` with no subcommand)."""

from __future__ import annotations

import argparse


def launch_app(args: argparse.Namespace) -> int:
    """Build the backend from ``--data-dir`` / ``--content`` and run the app; returns 0."""
    from tokdrill.ui.app import TokdrillApp
    from tokdrill.ui.backend import Backend

    backend = Backend.open(data_dir=getattr(args, "data_dir", None), content_dirs=getattr(args, "content", None))
    app = TokdrillApp(backend)
    app.run()
    return 0
