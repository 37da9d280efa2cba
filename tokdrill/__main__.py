"""`python -m tokdrill` runs the same entry point as the `tokdrill` console script."""

from tokdrill.cli import main

raise SystemExit(main())
