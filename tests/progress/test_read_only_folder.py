"""A read-only data folder, as an ordinary user (root ignores permissions, so the test drops to
one when run as root): progress still shows, new work is kept in a side file elsewhere, and it
is saved on the first start after the folder is writable again."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

TEST_USER = "tokdrill-test"

STEP = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from tokdrill.clock import SystemClock
    from tokdrill.progress.store import Store
    from tokdrill.practice.keeper import ProgressKeeper

    step, path = sys.argv[1], Path(sys.argv[2])
    clock = SystemClock()
    if step == "create":
        keeper, problems = ProgressKeeper.open(path, clock)
        keeper.rate_card("bpe-why", 3, 2.0)
        out = {"problems": problems, "reviews": keeper.store.count("reviews")}
        keeper.close()
    elif step == "work":
        from tokdrill.progress.transfer import export_document
        from tokdrill.scheduling.catalog import Catalog
        from tokdrill.scheduling.planner import Planner
        from tokdrill.practice.series import chart_series
        from tokdrill.practice.stats import compute_stats

        with Store.open_for_reading(path) as store:  # what `tokdrill stats` and `export` open
            catalog = Catalog({}, {"d": ("bpe-why",)})
            stats_reviews = compute_stats(store, catalog).total_reviews
            chart_reviews = sum(chart_series(store, catalog, Planner(store)).deck.reviews)  # stats --plot
            exported = len(export_document(store)["reviews"])
        keeper, problems = ProgressKeeper.open(path, clock)
        reviews = keeper.reader.count("reviews")
        keeper.rate_card("bpe-when", 4, 1.0)
        keeper.save_draft(__import__("tokdrill.progress.records", fromlist=["Draft"]).Draft(
            "bpe-train", "recall", "typed in a read-only folder", 3.0, clock.now()))
        status = keeper.close(grace=1.0)
        out = {"problems": problems, "reviews": reviews, "pending": status.pending,
               "stats_reviews": stats_reviews, "chart_reviews": chart_reviews, "exported": exported,
               "journal": str(status.journal), "message": status.message, "problem": status.problem}
    else:
        keeper, problems = ProgressKeeper.open(path, clock)
        store = keeper.store
        draft = store.draft("bpe-train", "recall")
        out = {"problems": problems, "reviews": store.count("reviews"), "draft": draft and draft.text}
        keeper.close()
    print(json.dumps(out))
    """
)


def _user_ids() -> tuple[int, int] | None:
    """(uid, gid) of an ordinary user to run as, created if needed; None when not root."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(TEST_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", TEST_USER], check=True)
        entry = pwd.getpwnam(TEST_USER)
    return entry.pw_uid, entry.pw_gid


@pytest.fixture
def sandbox() -> Iterator[Path]:
    """A folder every user can read, holding a copy of tokdrill and the packages it needs."""
    root = Path(tempfile.mkdtemp(prefix="tokdrill-ro-test-"))
    os.chmod(root, 0o755)
    site = root / "site"
    import fsrs
    import msgspec
    import platformdirs
    import typing_extensions

    import tokdrill

    site.mkdir()
    for module in (tokdrill, msgspec, fsrs, platformdirs, typing_extensions):
        source = Path(module.__file__)  # type: ignore[arg-type]
        if source.name == "__init__.py":
            shutil.copytree(source.parent, site / source.parent.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, site / source.name)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            os.chmod(os.path.join(dirpath, name), 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def run_step(sandbox: Path, step: str, db: Path) -> dict[str, object]:
    ids = _user_ids()
    python = "/usr/bin/python3" if ids is not None else sys.executable
    prefix = (
        []
        if ids is None
        else ["setpriv", f"--reuid={ids[0]}", f"--regid={ids[1]}", "--clear-groups", "--inh-caps=-all"]
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(sandbox / "site"),
        "HOME": str(sandbox),
        "TMPDIR": str(sandbox / "tmp"),
    }
    done = subprocess.run(
        [*prefix, python, "-c", STEP, step, str(db)],
        capture_output=True,
        text=True,
        env=env,
        cwd=sandbox,
        timeout=120,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.ordinary_user
def test_a_read_only_data_folder_as_an_ordinary_user(sandbox: Path) -> None:
    ids = _user_ids()
    data = sandbox / "data"
    data.mkdir()
    (sandbox / "tmp").mkdir(mode=0o1777)
    os.chmod(sandbox / "tmp", 0o1777)
    if ids is not None:
        os.chown(data, *ids)
    db = data / "progress.sqlite3"
    assert run_step(sandbox, "create", db)["reviews"] == 1

    os.chmod(data, 0o555)
    os.chmod(db, 0o444)
    if ids is None:  # an ordinary user running the suite: the same permissions apply to them
        assert not os.access(data, os.W_OK)
    work = run_step(sandbox, "work", db)
    assert any("read-only" in str(p) or "readonly" in str(p) for p in work["problems"])  # type: ignore[union-attr]
    assert work["reviews"] == 1  # progress still shows
    assert work["stats_reviews"] == 1 and work["exported"] == 1  # stats and export still work
    assert work["chart_reviews"] == 1  # and so do the charts' series
    assert work["pending"] == 2 and work["problem"] in ("readonly", "unavailable")
    journal = Path(str(work["journal"]))
    assert journal.parent != data and journal.exists()  # kept where it could be written
    assert "writable" in str(work["message"]) or "folder" in str(work["message"])

    os.chmod(data, 0o755)
    os.chmod(db, 0o644)
    after = run_step(sandbox, "after", db)
    assert after["reviews"] == 2 and after["draft"] == "typed in a read-only folder"
    assert not journal.exists()
