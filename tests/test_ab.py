"""tools/ab.py: each side runs the code of its own revision, proven by the process itself."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
AB = REPO / "tools" / "ab.py"


def load_ab():
    spec = importlib.util.spec_from_file_location("tools_ab", AB)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


ab = load_ab()


def ask(runner: Path, script: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(runner), "--level", "easy"], input=script, capture_output=True, text=True, timeout=60
    )


def test_a_revision_runs_from_its_extracted_copy_not_the_work_tree(tmp_path):
    side = ab.prepare("HEAD", REPO, tmp_path)
    assert side.sha == ab.git(REPO, "rev-parse", "HEAD") and side.label != "work"
    assert side.root == tmp_path / side.sha and (side.package / "engine" / "brain.py").is_file()
    assert ab.prepare("HEAD", REPO, tmp_path) == side  # the extracted copy is reused

    done = ask(side.runner, "ABOUT\nEND\n")  # no START: nothing compiles
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('name="gomoku"')
    (origin,) = [line for line in done.stderr.splitlines() if line.startswith(ab.ORIGIN_TAG)]
    assert origin.startswith(f"{ab.ORIGIN_TAG}{side.package} (")
    assert str(REPO / "gomoku") not in origin


def test_the_work_side_runs_the_installed_work_tree(tmp_path):
    side = ab.prepare("work", REPO, tmp_path)
    assert side.sha is None and side.package == REPO / "gomoku"
    done = ask(side.runner, "ABOUT\n")
    assert done.returncode == 0 and done.stdout.startswith('name="gomoku"'), done.stderr
    assert f"{ab.ORIGIN_TAG}{REPO / 'gomoku'} (" in done.stderr


def test_a_copy_on_the_path_alone_is_caught_and_refused(tmp_path):
    """The old mistake: the editable install's finder beats sys.path and PYTHONPATH."""
    side = ab.prepare("HEAD", REPO, tmp_path)
    naive = subprocess.run(
        [sys.executable, "-c", "import gomoku.engine.brain as b; print(b.__file__)"],
        env={**os.environ, "PYTHONPATH": str(side.root)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert naive.stdout.strip() == str(REPO / "gomoku" / "engine" / "brain.py")
    # A runner that puts the copy first on sys.path but keeps the finder refuses to play.
    runner = ab.write_runner(tmp_path / "naive" / "naive", side.root, "naive", isolate=False)
    done = ask(runner, "ABOUT\n")
    assert done.returncode == ab.REFUSED_EXIT and done.stdout == ""
    assert "REFUSED" in done.stderr and str(REPO / "gomoku") in done.stderr


def test_bad_revisions_and_bad_arena_flags_stop_before_any_game(tmp_path):
    done = subprocess.run(
        [sys.executable, str(AB), "no-such-rev", "work", "--cache", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "'no-such-rev' is not a commit" in done.stderr
    done = subprocess.run(
        [sys.executable, str(AB), "work", "work", "--games", "x", "--cache", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--games" in done.stderr
    for extra in ([], ["work", "--against", "pbrain-gomoku"]):  # neither, or both
        done = subprocess.run(
            [sys.executable, str(AB), "work", *extra, "--cache", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2 and "give REV_B or --against CMD" in done.stderr


def test_work_against_head_plays_two_games_and_sums_up(tmp_path):
    """The real thing, in the default cache: a cold compile of HEAD's copy takes ~25 s once."""
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            str(AB),
            "work",
            "HEAD",
            "--level",
            "easy",
            "--games",
            "2",
            "--time",
            "0.2",
            "--jobs",
            "1",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    head = ab.git(REPO, "rev-parse", "--short", "HEAD")
    sha = ab.git(REPO, "rev-parse", "HEAD")
    assert f"gomoku imported from {REPO / 'gomoku'};" in done.stdout
    assert f"gomoku imported from {ab.DEFAULT_CACHE / sha / 'gomoku'};" in done.stdout
    rows = [line.split() for line in done.stdout.splitlines()]
    names = {row[0] for row in rows if len(row) > 3 and row[3].isdigit()}
    assert names == {"work", head}
    assert "work --level easy scores" in done.stdout
    assert len(list(out.glob("game-*.gomoku"))) == 2
    logs = "".join(path.read_text() for path in out.glob("engine*.log"))
    assert f"{ab.ORIGIN_TAG}{ab.DEFAULT_CACHE / sha / 'gomoku'} (" in logs


def test_a_revision_against_an_outside_brain(tmp_path):
    """--against: one revision's copy plays a brain command line (here our own brain, run as
    an outside program would be), with the arena's second-engine flags."""
    out = tmp_path / "out"
    outside = f"{sys.executable} -m gomoku.engine.brain --level easy"
    done = subprocess.run(
        [sys.executable, str(AB), "HEAD", "--against", outside, "--level", "easy",
         "--games", "2", "--time", "0.2", "--time2", "0.3", "--jobs", "1", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sha = ab.git(REPO, "rev-parse", "HEAD")
    head = ab.git(REPO, "rev-parse", "--short", "HEAD")
    assert f"gomoku imported from {ab.DEFAULT_CACHE / sha / 'gomoku'};" in done.stdout
    assert f"b: {outside} (an outside brain)" in done.stdout
    assert f"0.2 s per move for {head} --level easy, 0.3 s for" in done.stdout
    assert len(list(out.glob("game-*.gomoku"))) == 2
