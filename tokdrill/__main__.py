"""`python -m tokdrill` runs the same entry point as the `tokdrill` console script, and like it
without the current folder on the import path: a content folder's ``reference_impl.py`` or
``pytest.py`` must never stand in for a module tokdrill imports."""

import os
import sys

if sys.path and not sys.flags.safe_path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from tokdrill.cli import main  # after the import path is safe

raise SystemExit(main())
