"""A cache of per-file parse results, so a warm load skips YAML parsing and field checks.

What is cached: for each content file, its :class:`~tokdrill.content.schema.results.FileResult` (the
parsed, field-checked drill, deck or concept list, and that file's own errors); for each hidden
test file, what its concept markers say (:class:`~tokdrill.content.hidden_tests.HiddenTestFile`).
Nothing that depends on other files is cached: the loader checks hidden tests, reference symbols,
concepts and id uniqueness on every load, so a cached file can never hide a newly broken reference.

Layout: one file per content folder ("root"), ``<cache dir>/content/<hash of the root>.pickle``,
holding an entry per content file. One combined file per root measured faster than one file per
content file (fewer opens and reads; see ``tokdrill bench --only content``). After a header line
(:data:`MAGIC` and :func:`fingerprint`) and the number of entries, each entry is its own pickle
of ``(key, entry)``, preceded by its length and CRC-32. Pickling entry by entry keeps what a
write holds at once to one entry (pickling the whole folder at once held its bytes and a memo
of every object, over a megabyte on a first start).

Invalidation: an entry is used only when the file's absolute path, the path as given (errors and
origins name it), its device and inode (which file the path really reaches), its ``mtime_ns`` and
its size all match; a cache file only when its header matches :func:`fingerprint` (format version,
tokdrill version, Python's cache tag, and the size and mtime of the modules that build the cached
objects and of PyYAML) and every entry's length and CRC-32 check out. Like make, this trusts mtime:
an edit that keeps the size and lands within the file system's timestamp granularity of the previous
write (milliseconds on Linux file systems, 2 s on FAT) goes unseen until the next edit.

Trust boundary: cache files are unpickled, so they are only ever read from the cache dir the
caller names (the CLI and app pass the user's own, ``tokdrill.locations.cache_dir()``), and only
if the file is a regular file (not a symlink) owned by the current user and not writable by group
or others; content folders, and anything else that may come from someone else, are only ever
parsed as YAML with the safe loader. A damaged, foreign or unreadable cache file is ignored and
rebuilt, an unwritable cache dir just means no caching: neither is ever shown to the user.

Writes are atomic (a private temporary file, then ``os.replace``), so concurrent tokdrill
processes at worst redo each other's work.
"""

from __future__ import annotations

import os
import pickle
import stat
import struct
import sys
import zlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

FORMAT_VERSION = 3
"""Bump when the cache file layout or the meaning of a cached result changes."""

MAGIC = b"tokdrill content cache\n"
_COUNT = struct.Struct("<Q")
_LENGTH_CRC = struct.Struct("<QI")
_SUBFOLDER = "content"
_PROTOCOL = pickle.HIGHEST_PROTOCOL
# Modules whose code shapes a cached FileResult: editing one (a dev checkout) invalidates the cache.
_CODE_MODULES = (
    "cache.py",
    "files.py",
    "hidden_tests.py",
    "model.py",
    "yaml_reading.py",
    "schema/concepts.py",
    "schema/deck.py",
    "schema/drill.py",
    "schema/fields.py",
    "schema/file.py",
    "schema/results.py",
)

Entry = tuple[str, int, int, int, int, object]  # (path as given, device, inode, mtime_ns, size, result)
R = TypeVar("R")


def _stamp(path: Path | str | None) -> str:
    if path is None:
        return "-"
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_mtime_ns}:{st.st_size}"


@lru_cache(maxsize=1)
def fingerprint() -> bytes:
    """What a cache file must have been written by to be used (one ASCII line, no newline)."""
    from importlib.util import find_spec

    from tokdrill import __version__

    here = Path(__file__).resolve().parent
    code = ",".join(_stamp(here / name) for name in _CODE_MODULES)
    try:
        spec = find_spec("yaml")
        yaml_origin = spec.origin if spec is not None else None
    except (ImportError, ValueError):
        yaml_origin = None
    parts = (
        f"format={FORMAT_VERSION}",
        f"tokdrill={__version__}",
        f"python={sys.implementation.cache_tag}",
        f"pickle={_PROTOCOL}",
        f"code={code}",
        f"yaml={_stamp(yaml_origin)}",
    )
    return ";".join(parts).encode("ascii", "replace")


def _file_key(st: os.stat_result) -> tuple[int, int, int, int]:
    return st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size


def _safe_owner(st: os.stat_result) -> bool:
    """A regular file owned by this user that nobody else may write (always True on Windows)."""
    if not stat.S_ISREG(st.st_mode):
        return False
    if os.name == "nt":
        return True
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read_cache_file(path: Path) -> dict[str, Entry]:
    """The entries stored in ``path``; empty when it is missing, foreign, damaged or unsafe."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return {}
    try:
        with os.fdopen(fd, "rb") as handle:
            if not _safe_owner(os.fstat(handle.fileno())):
                return {}
            data = handle.read()
    except OSError:
        return {}
    return _entries(data)


def _entries(data: bytes) -> dict[str, Entry]:
    """The entries of a cache file's ``data``; empty unless every part of it checks out."""
    head = MAGIC + fingerprint() + b"\n"
    if not data.startswith(head):
        return {}
    view = memoryview(data)
    try:
        (count,) = _COUNT.unpack_from(data, len(head))
        offset = len(head) + _COUNT.size
        entries: dict[str, Entry] = {}
        for _ in range(count):
            length, crc = _LENGTH_CRC.unpack_from(data, offset)
            offset += _LENGTH_CRC.size
            payload = view[offset : offset + length]
            offset += length
            if len(payload) != length or zlib.crc32(payload) != crc:
                return {}
            key, entry = pickle.loads(payload)
            entries[key] = entry
    except Exception:  # noqa: BLE001 - anything wrong with the cache only means a rebuild
        return {}
    return entries if offset == len(data) else {}


def write_cache_file(path: Path, entries: dict[str, Entry]) -> bool:
    """Atomically replace ``path`` with ``entries``; False (and nothing changed) on any failure."""
    import tempfile  # only when writing: a warm load never does

    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")  # mode 0600
        with os.fdopen(fd, "wb") as handle:
            handle.write(MAGIC + fingerprint() + b"\n" + _COUNT.pack(len(entries)))
            for item in entries.items():
                payload = pickle.dumps(item, protocol=_PROTOCOL)
                handle.write(_LENGTH_CRC.pack(len(payload), zlib.crc32(payload)))
                handle.write(payload)
        os.replace(tmp, path)
        tmp = None
    except Exception:  # noqa: BLE001 - an unwritable folder or an unpicklable value: then just do not cache
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return True


def _root_name(real_path: str) -> str:
    """A file name for a root's cache: two 32-bit checksums of its real path. (Importing hashlib
    would cost a warm `tokdrill stats` a few ms; a collision only makes two roots share one cache
    file, whose entries are keyed by absolute path anyway.)"""
    data = real_path.encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


class _Root:
    """The cache file of one content folder, read on first use."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.entries = read_cache_file(file)
        self.used: set[str] = set()
        self.dirty = False


class ContentCache:
    """Per-file results by content folder; :meth:`result` gives a file's result, cached or fresh.

    ``folder=None`` disables caching (every file is parsed). Call :meth:`save` after loading to
    write back what changed.
    """

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._roots: dict[str, _Root] = {}

    def _root(self, root: Path) -> _Root:
        given = str(root)
        found = self._roots.get(given)
        if found is None:
            assert self.folder is not None
            try:
                real = os.path.realpath(root)
            except (OSError, ValueError):
                real = os.path.abspath(root)
            name = _root_name(real)
            file = self.folder / _SUBFOLDER / f"{name}.pickle"
            found = next((r for r in self._roots.values() if r.file == file), None) or _Root(file)
            self._roots[given] = found
        return found

    def result(
        self, path: Path, info: os.stat_result | None, root: Path, parse: Callable[[Path], R], kind: type[R]
    ) -> R:
        """``parse(path)`` for file ``path`` in content folder ``root``, or the cached result of an
        earlier call if it is a ``kind`` and the file is unchanged; ``info`` is ``os.stat(path)``
        taken before (None if that failed: then it is parsed, not cached)."""
        if self.folder is None or info is None:
            return parse(path)  # the parser reports why a file cannot be read
        before = _file_key(info)
        cache = self._root(root)
        given = str(path)
        key = os.path.abspath(given)
        cache.used.add(key)
        entry: object = cache.entries.get(key)  # unpickled: checked, never trusted to be an Entry
        if type(entry) is tuple and len(entry) == 6 and entry[0] == given and entry[1:5] == before:
            found = entry[5]
            if type(found) is kind and isinstance(found, kind):
                return found
        result = parse(path)
        try:
            after = _file_key(os.stat(path))
        except OSError:
            after = None
        if after == before:  # not changed while being read: safe to keep
            cache.entries[key] = (given, *before, result)
            cache.dirty = True
        elif key in cache.entries:
            del cache.entries[key]
            cache.dirty = True
        return result

    def save(self) -> None:
        """Write every root whose entries changed; entries of files that are gone are dropped."""
        for root in self._roots.values():
            if not root.dirty:
                continue
            entries = {key: entry for key, entry in root.entries.items() if key in root.used or os.path.exists(key)}
            write_cache_file(root.file, entries)
            root.dirty = False
