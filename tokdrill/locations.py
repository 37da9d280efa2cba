"""Every path tokdrill reads or writes, in one place.

Content (drills, decks, hidden tests) ships inside the wheel under ``tokdrill/_content``; in a
source checkout it is read from the repository's top-level folders instead. Progress lives in the
platform's user data dir unless ``TOKDRILL_HOME`` or ``--data-dir`` says otherwise; caches (which
can always be deleted) live in ``cache/`` under that folder, or in the platform's user cache dir.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "tokdrill"
_PACKAGE_DIR = Path(__file__).resolve().parent


def _shipped(name: str) -> Path:
    """The shipped content folder ``name``: inside the wheel, else the source checkout's."""
    installed = _PACKAGE_DIR / "_content" / name
    if installed.is_dir():
        return installed
    return _PACKAGE_DIR.parent / name


def drills_dir() -> Path:
    """Folder with the shipped drill definitions (``*.yaml``)."""
    return _shipped("drills")


def hidden_tests_dir() -> Path:
    """Folder with the shipped hidden test modules the drills name."""
    return drills_dir() / "hidden"


def questions_dir() -> Path:
    """Folder with the shipped flashcard decks (``*.yaml``)."""
    return _shipped("questions")


def extra_content_dirs(
    cli_dirs: list[str] | None = None, data_dir_override: str | os.PathLike[str] | None = None
) -> list[Path]:
    """User content folders: ``--content DIR`` flags first, then ``TOKDRILL_CONTENT`` (os.pathsep
    list), then :func:`user_content_dir` when it exists (``data_dir_override`` is ``--data-dir``)."""
    dirs = [Path(d).expanduser() for d in (cli_dirs or [])]
    env = os.environ.get("TOKDRILL_CONTENT", "")
    dirs += [Path(p).expanduser() for p in env.split(os.pathsep) if p.strip()]
    own = user_content_dir(data_dir_override)
    if own.is_dir():
        dirs.append(own)
    return dirs


def user_content_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The user's own content folder, loaded by default: ``content/`` in :func:`data_dir`.
    `tokdrill import-anki` writes decks here; it is created by the first import."""
    return data_dir(override) / "content"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where progress lives: ``override`` (``--data-dir``), else ``TOKDRILL_HOME``, else the
    platform's user data dir. The folder is created on first use by the store, not here."""
    if override:
        return Path(override).expanduser()
    env = os.environ.get("TOKDRILL_HOME")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_path

    return user_data_path(APP_NAME, appauthor=False)


def database_path(override: str | os.PathLike[str] | None = None) -> Path:
    """The SQLite progress database inside :func:`data_dir`."""
    return data_dir(override) / "progress.sqlite3"


def cache_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where rebuildable caches live: ``<override>/cache`` (``--data-dir``), else
    ``$TOKDRILL_HOME/cache``, else the platform's user cache dir. Created on first write, not here;
    deleting it only costs speed."""
    if override:
        return Path(override).expanduser() / "cache"
    env = os.environ.get("TOKDRILL_HOME")
    if env:
        return Path(env).expanduser() / "cache"
    from platformdirs import user_cache_path

    return user_cache_path(APP_NAME, appauthor=False)
