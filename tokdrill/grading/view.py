"""What a submission sees of the machine: one list, kept by both sandbox paths.

Visible, read-only: the interpreter's prefix and every folder it imports from, the system's
programs and libraries, the few files of ``/etc`` the C library and Python read. Besides them
only the sandbox's own scratch folder, devices and ``/proc`` entry. Never the user's home, the
data folder, ``/run`` and its sockets, nor other users' files. The user-namespace path mounts
empty folders over everything else (:func:`namespace_layout`); the Landlock path grants reading
only :func:`visible_paths`.
"""

from __future__ import annotations

import os
import sys

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/mime.types",
)
OWN = ("/proc", "/dev", "/tmp")  # the namespace path mounts its own
SEEN = "sees only the Python installation and system libraries: no home, data folder, /run or other users' files"


def under(path: str, folder: str) -> bool:
    """True if ``path`` is ``folder`` or inside it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def outermost(paths: set[str]) -> tuple[str, ...]:
    """The paths not inside another of them, sorted."""
    ordered = sorted(paths)
    return tuple(p for p in ordered if not any(p != q and under(p, q) for q in ordered))


def _variants(paths: set[str]) -> set[str]:
    """Each existing path as written and as resolved (a link and its target both count)."""
    found: set[str] = set()
    for path in paths:
        for variant in (os.path.abspath(path), os.path.realpath(path)):
            if os.path.lexists(variant) and variant != "/":
                found.add(variant)
    return found


def install_paths() -> tuple[str, ...]:
    """Folders and files that hold the interpreter and the modules it imports (outermost only):
    its prefixes and the entries of ``sys.path``, except the first when no loaded module came
    from it (the folder a command was started in, which ``python -m`` adds)."""
    candidates = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    candidates.update(p for p in sys.path[1:] if p)
    if sys.path and sys.path[0]:
        first = os.path.realpath(sys.path[0])
        files = (getattr(m, "__file__", None) for m in list(sys.modules.values()))
        if any(under(os.path.realpath(f), first) for f in files if f):
            candidates.add(sys.path[0])
    return outermost({p for p in _variants(candidates) if os.path.exists(p)})


def closed_folders(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The first folder on the way to each path that other users may not enter (e.g. /root)."""
    found: set[str] = set()
    for path in paths:
        current = "/"
        for part in path.split("/")[1:-1]:
            current = os.path.join(current, part)
            try:
                if not os.stat(current).st_mode & 0o001:
                    found.add(current)
                    break
            except OSError:
                break
    return tuple(sorted(found))


_visible: tuple[str, ...] | None = None


def visible_paths() -> tuple[str, ...]:
    """Everything a submission may read, outermost paths only (computed once per process)."""
    global _visible
    if _visible is None:
        _visible = outermost(_variants({*install_paths(), *SYSTEM, *ETC}))
    return _visible


_private: tuple[str, ...] | None = None


def private_paths() -> tuple[str, ...]:
    """The user's data folder (and home), which must stay out of reach even when they lie
    inside a visible path (say, a checkout installed in development mode); computed once."""
    global _private
    if _private is None:
        _private = _find_private()
    return _private


def _find_private() -> tuple[str, ...]:
    from tokdrill import locations

    found = {str(locations.data_dir())}
    home = os.environ.get("HOME", "")
    if home:
        found.add(home)
    visible = visible_paths()
    return tuple(
        p
        for p in sorted(_variants(found))
        if os.path.isdir(p) and any(under(p, v) for v in visible) and not any(under(v, p) for v in visible)
    )


def namespace_layout(hidden: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """For the user-namespace path: (covered, kept, private). ``covered`` are the top-level
    entries to hide (every one that is not visible in full): folders under an empty file
    system, files under an empty device;
    ``kept`` the visible paths, and the folders of the hidden tests (read before the seal), that
    lie under a covered folder or ``/tmp`` and are attached again; ``private`` the folders to
    cover inside visible ones."""
    visible = visible_paths()
    covered = []
    for entry in sorted(os.listdir("/")):
        path = "/" + entry
        if path in OWN or os.path.islink(path):
            continue
        if path not in visible:
            covered.append(path)
    replaced = ("/tmp", *covered)
    wanted = outermost({*visible, *(os.path.realpath(h) for h in hidden)})
    kept = tuple(p for p in wanted if any(under(p, f) and p != f for f in replaced))
    return tuple(covered), kept, private_paths()
