"""Which isolation mechanisms this machine grants, and what to tell a person when it grants none.

Three mechanisms, strongest first:

* user namespaces (with mount, PID, network, IPC and UTS namespaces): the same path for root and
  ordinary users; the submission sees a read-only system, a private ``/tmp``, its own ``/proc``
  and a minimal ``/dev``, and its whole process tree dies with the grader;
* Landlock (Linux >= 5.13), where user namespaces are refused: read-only files except the scratch
  folder, no TCP, and (with seccomp) no new processes;
* seccomp alone: no dangerous system calls, but the files of the account are not protected.

``TOKDRILL_SANDBOX_REFUSE`` (comma-separated ``userns``, ``landlock``, ``seccomp``) makes the
grader act as if a mechanism were missing. It is read in the grading process, never in the
sandbox, and exists to exercise the fallbacks without changing the machine.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

REFUSE_ENV = "TOKDRILL_SANDBOX_REFUSE"
KNOWN = ("userns", "landlock", "seccomp")
INSIDE_UID = 1000  # the id a submission has inside its user namespace
NOBODY = 65534  # the outside id root's sandboxes run as


@dataclass(frozen=True)
class Mechanisms:
    """What a sandbox may use on this machine (after any refusal)."""

    userns: bool
    landlock: int  # Landlock ABI version, 0 if unavailable
    seccomp: bool
    why_not_userns: str = ""

    @property
    def files_protected(self) -> bool:
        return self.userns or self.landlock > 0


def refused(environ: dict[str, str] | None = None) -> frozenset[str]:
    """The mechanisms ``TOKDRILL_SANDBOX_REFUSE`` names (unknown names are ignored)."""
    value = (os.environ if environ is None else environ).get(REFUSE_ENV, "")
    return frozenset(name.strip() for name in value.split(",") if name.strip() in KNOWN)


_detected: dict[frozenset[str], Mechanisms] = {}


def detect() -> Mechanisms:
    """Probe the machine once per process (a throwaway child tries the namespace set-up)."""
    refuse = refused()
    if refuse not in _detected:
        from tokdrill.grading import landlock, seccomp

        if not sys.platform.startswith("linux"):
            _detected[refuse] = Mechanisms(False, 0, False, "this is not Linux")
        else:
            userns, why = (False, "refused by TOKDRILL_SANDBOX_REFUSE") if "userns" in refuse else _probe_userns()
            _detected[refuse] = Mechanisms(
                userns=userns,
                landlock=0 if "landlock" in refuse else landlock.abi_version(),
                seccomp="seccomp" not in refuse and seccomp.library() is not None,
                why_not_userns=why,
            )
    return _detected[refuse]


def mark_userns_broken(reason: str) -> None:
    """Called when a real sandbox could not set up its namespaces after the probe said it could:
    later sandboxes of this process use the fallback."""
    refuse = refused()
    current = detect()
    _detected[refuse] = Mechanisms(False, current.landlock, current.seccomp, reason)


def _probe_userns() -> tuple[bool, str]:
    """Fork a child that makes the namespaces, gets its ids mapped, and has its own child mount
    a private /tmp and /proc and make the rest read-only, as a real sandbox does."""
    from tokdrill.grading import kernel

    flags = kernel.CLONE_NEWUSER | kernel.CLONE_NEWNS | kernel.CLONE_NEWPID
    go_r, go_w = os.pipe()
    ack_r, ack_w = os.pipe()
    uid, gid = os.geteuid(), os.getegid()
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            os.close(go_r)
            os.close(ack_w)
            code = _probe_child(flags, go_w, ack_r)
        finally:
            os._exit(code)
    os.close(go_w)
    os.close(ack_r)
    try:
        answer = os.read(go_r, 1)
        if answer == b"u":
            try:
                kernel.write_id_maps(pid, INSIDE_UID, NOBODY if uid == 0 else uid, NOBODY if gid == 0 else gid)
                os.write(ack_w, b"m")
            except OSError:
                pass
    finally:
        os.close(go_r)
        os.close(ack_w)
        _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    reasons = {
        0: "",
        1: "this system does not allow unprivileged user namespaces",
        2: "user namespaces are allowed but may not mount (e.g. restricted by AppArmor)",
    }
    return code == 0, reasons.get(code, "the user-namespace set-up failed")


def _probe_child(flags: int, go_w: int, ack_r: int) -> int:
    """In the probe's child: 0 if everything worked, 1 if unshare was refused, 2 if mounting was."""
    from tokdrill.grading import kernel

    try:
        kernel.unshare(flags)
    except OSError:
        os.write(go_w, b"n")
        return 1
    os.write(go_w, b"u")
    if os.read(ack_r, 1) != b"m":
        return 3
    inner = os.fork()
    if inner == 0:
        ok = 2
        try:
            kernel.set_mount_attributes("/", private=True, recursive=True)
            kernel.mount("tmpfs", "/tmp", "tmpfs", kernel.MS_NOSUID | kernel.MS_NODEV, "size=64k")
            kernel.mount("proc", "/proc", "proc", kernel.MS_NOSUID | kernel.MS_NODEV | kernel.MS_NOEXEC)
            kernel.set_mount_attributes("/", add=kernel.MOUNT_ATTR_RDONLY, recursive=True)
            ok = 0
        finally:
            os._exit(ok)
    _, status = os.waitpid(inner, 0)
    return os.waitstatus_to_exitcode(status)


def notice(mechanisms: Mechanisms) -> str:
    """One paragraph for a person when a protection is missing on this machine, else ""."""
    if mechanisms.files_protected:
        return "" if mechanisms.seccomp else _without_seccomp(mechanisms)
    reason = mechanisms.why_not_userns or "user namespaces are not available"
    return (
        "The sandbox is weak on this machine: "
        f"{reason}, and Landlock (Linux 5.13 or newer) is not available either. "
        "Code you grade runs in a separate process with time, memory and output limits"
        + (" and without dangerous system calls" if mechanisms.seccomp else "")
        + ", but it can read and change any file your account can and write to your terminals. "
        "Grade only code you wrote "
        "yourself. To fix it, allow unprivileged user namespaces (on Debian: "
        "sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later: "
        "sysctl kernel.apparmor_restrict_unprivileged_userns=0) or use a kernel with Landlock."
    )


def _without_seccomp(mechanisms: Mechanisms) -> str:
    """What is missing where files are protected but seccomp is not."""
    lost = [
        "reach local services through Unix sockets" + ("" if mechanisms.userns else " and the network through UDP"),
        "watch files with inotify",
        "clear its parent-death signal and outlive the grader if the grader is killed",
    ]
    if not mechanisms.userns:
        lost += [
            "change the mode, times and attributes of your files",
            "start processes and signal, limit or reprioritise your other processes",
        ]
    return (
        "The sandbox is incomplete on this machine: libseccomp (libseccomp.so.2) is not available, "
        "so code you grade can " + ", ".join(lost[:-1]) + " and " + lost[-1] + ". Files outside its "
        "scratch folder stay unreadable or read-only. To fix it, install libseccomp "
        "(on Debian and Ubuntu: apt install libseccomp2)."
    )
