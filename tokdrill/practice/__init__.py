"""The practice service: starts, graded outcomes, give-ups and drafts, the mistake log, what is
due and in what order, the stats, and mock-round selection, for the app and the CLI alike.

No Textual here. The entry point is :class:`tokdrill.practice.service.Practice`; the modules
are named for what they hold (``due``, ``blame``, ``mistakes``, ``mock``, ``own_editor``,
``stats``, ``series``, ``keeper``, ``recording``).
"""
