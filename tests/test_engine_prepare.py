"""Preparing the engine in child processes: the parts reach the cache, failures are reported,
and the brain answers on an empty cache without compiling in its own process."""

from __future__ import annotations

import os
import select
import subprocess
import sys

import pytest

from gomoku.engine import driver, prepare
from gomoku.engine.api import Level


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    driver.warm_up()  # the children then load from this cache instead of compiling for minutes


@pytest.mark.parametrize("jobs, first", [(1, Level.EASY), (1, Level.MEDIUM), (2, Level.EASY)])
def test_the_children_prepare_every_part_and_mark_the_cache_complete(jobs: int, first: Level) -> None:
    preparer = prepare.Preparer(jobs=jobs, first=first)
    preparer.start()
    try:
        assert preparer.wait(timeout=180)
    finally:
        preparer.close()
    state = preparer.state()
    assert state.finished and state.error is None
    assert sorted(state.done) == sorted(driver.WARM_TASKS)
    if jobs == 1:
        done = list(state.done)
        # The level asked for is ready before any part it does not need but easy's small scorer,
        # which comes before the searches: on one core an easy game waited for all of them.
        needed = set(driver.LEVEL_TASKS[first])
        needed.update(*(driver.TASK_NEEDS.get(part, ()) for part in tuple(needed)))
        ready_at = max(done.index(part) for part in needed)
        assert all(part in needed or part == "easy" for part in done[: ready_at + 1]), done
        assert done.index("easy") < done.index("vcf") < done.index("search"), done
    assert prepare.is_prepared()


def test_two_children_prepare_wherever_two_cores_may_be_used(monkeypatch) -> None:
    # Not fewer on a busy machine: the load average lags, and two finish no later than one.
    monkeypatch.delenv("GOMOKU_PREPARE_JOBS", raising=False)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert prepare.Preparer().jobs == min(2, cores)
    monkeypatch.setenv("GOMOKU_PREPARE_JOBS", "1")
    assert prepare.Preparer().jobs == 1


COMPILED_NAMES = """
import sys
from numba.core import event
from gomoku.engine import driver
names = set()
class Names(event.Listener):
    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        if function.__module__.startswith("gomoku."):  # not numba's own helpers
            names.add(function.__name__)
    def on_end(self, ev): pass
event.register("numba:compile", Names())
for part in sys.argv[1:]:
    driver.warm_task(part)
print(" ".join(sorted(names)))
"""


def test_no_function_is_compiled_by_both_children(tmp_path) -> None:
    # A part compiled for other argument types than its callers pass would be compiled again
    # by the other child, and every first launch would wait for it. In the order the two
    # children of prepare.SPLIT reach them: the shared callees, the main search's ordering,
    # the moves and the VCF, the analysis, then the main search and the threat searches.
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))

    def compiled(*parts: str) -> set[str]:
        child = subprocess.run([sys.executable, "-c", COMPILED_NAMES, *parts], env=env,
                               capture_output=True, text=True, timeout=300, check=True)
        return set(child.stdout.split())

    shared = compiled("tables", "shared")
    ordering = compiled("tables", "ordering")
    moves_and_vcf = compiled("tables", "core", "vcf")
    analysis = compiled("tables", "analysis")
    searched = compiled("tables", "search")
    threat_searches = compiled("tables", "easy", "threats", "hard")
    assert {"sorted_moves", "_tt_probe", "_tt_store"} <= shared
    assert {"make", "is_forbidden", "vcf"} <= moves_and_vcf
    assert analysis == {"analyse"}
    assert ordering == {"_node_moves"}
    assert "negamax" in searched
    assert "vct" in threat_searches
    parts = [shared, ordering, moves_and_vcf, analysis, searched, threat_searches]
    for i, first in enumerate(parts):
        for second in parts[i + 1:]:
            assert not first & second


@pytest.mark.parametrize("how", ["told", "input ends"])
def test_a_child_waits_for_a_need_another_makes_until_told_or_its_input_ends(how: str) -> None:
    child = subprocess.Popen([sys.executable, "-m", "gomoku.engine.prepare", "tables", "threats"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().startswith("done tables")
        waiting, _, _ = select.select([child.stdout], [], [], 1.0)
        assert not waiting  # "threats" needs "core" and more, which this child does not make
        if how == "told":
            for need in ("shared", "core", "analysis"):
                child.stdin.write(need + "\n")
                child.stdin.flush()
            waiting, _, _ = select.select([child.stdout], [], [], 1.0)
            assert not waiting  # told of three needs of four, it waits for the last ("vcf")
            child.stdin.write("vcf\n")
            child.stdin.flush()
        else:
            child.stdin.close()
        out = child.stdout.read()
        assert child.wait(timeout=120) == 0
    finally:
        child.kill()
    assert out.startswith("done threats")


def test_a_failing_child_is_reported_and_the_cache_not_marked(tmp_path) -> None:
    preparer = prepare.Preparer(jobs=1, plan=[["tables", "no-such-part"]])
    preparer.start()
    assert not preparer.wait(timeout=120)
    state = preparer.state()
    assert state.finished and "unknown part" in (state.error or "")


def test_the_brain_answers_at_once_on_an_empty_cache(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # a first launch: nothing compiled
    brain = subprocess.Popen([sys.executable, "-m", "gomoku.engine.brain"], env=env, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        # Compiling here would take half a minute or more; the stand-in answers in milliseconds.
        replies, _ = brain.communicate("START 15\nBEGIN\nTURN 0,0\nTURN 0,1\nEND\n", timeout=30)
    finally:
        brain.kill()
    lines = [line for line in replies.splitlines() if not line.startswith("MESSAGE")]
    assert lines[0] == "OK"
    assert lines[1] == "7,7"
    moves = [tuple(int(v) for v in line.split(",")) for line in lines[2:4]]
    assert len(set(moves) | {(7, 7), (0, 0), (0, 1)}) == 5  # two more moves, on empty points


def damaged_copy_of_the_cache(folder, damage: str = "damaged", marked: bool = True) -> None:
    """This process's complete cache copied into `folder` and marked prepared (if `marked`),
    then "damaged": one compiled function's file cut in half and another function's index
    overwritten with noise; "flipped": one byte of a function's machine code changed (numba
    reads the file as before); or "incomplete": a function's files deleted (as a cache made
    on another processor lacks its code for this one)."""
    import shutil

    import numba

    from gomoku import engine_cache

    shutil.copytree(numba.config.CACHE_DIR, folder)
    if marked:
        (folder / prepare.marker_path().name).write_text(
            engine_cache.marker_text(folder, prepare.source_stamp()))
    if damage == "flipped":
        for path in folder.glob("*/search.negamax-*.nbc"):
            code = bytearray(path.read_bytes())
            code[len(code) // 2] ^= 0xFF
            path.write_bytes(bytes(code))
        return
    if damage == "incomplete":
        gone = sorted(folder.glob("*/search._noise-*.nb[ic]"))
        assert gone  # (the files of a function the warm-up loads)
        for path in gone:
            path.unlink()
        return
    cut = sorted(folder.glob("*/search._tt_probe-*.nbc"))
    noise = sorted(folder.glob("*/threats.five_cells_through-*.nbi"))
    assert cut and noise
    for path in cut:
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    for path in noise:
        path.write_bytes(b"\x80\x05noise")


def brain_until_it_searches(env: dict[str, str], positions: int = 240) -> tuple[str, str]:
    """Run the brain with `env` and ask it for a move again and again (stand-in moves come in
    milliseconds while children prepare the engine) until one is searched; that move's MESSAGE
    ("" if none came) and the brain's stderr."""
    brain = subprocess.Popen([sys.executable, "-m", "gomoku.engine.brain"], env=env, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    searched = ""
    try:
        assert brain.stdin is not None and brain.stdout is not None
        brain.stdin.write("START 15\nINFO timeout_turn 500\n")
        for _ in range(positions):
            brain.stdin.write("BOARD\n7,7,2\n8,8,1\nDONE\n")
            brain.stdin.flush()
            line = brain.stdout.readline()
            while line.startswith(("OK", "MESSAGE")):
                searched = line if "(search)" in line else searched
                line = brain.stdout.readline()
            assert line.count(",") == 1, f"not a move: {line!r}"
            if searched:
                break
            select.select([], [], [], 0.5)  # (a pause between positions)
        brain.stdin.write("END\n")
        brain.stdin.flush()
        errors = brain.communicate(timeout=30)[1]
    finally:
        brain.kill()
    return searched, errors


NEXT_START = """
from gomoku.engine import prepare
if not prepare.is_prepared():  # the brain ended before its children marked the cache complete:
    preparer = prepare.Preparer()  # they go on where they stopped (on a busy machine)
    preparer.start()
    preparer.wait(240)
print(prepare.is_prepared(), prepare.load_cache())
"""


@pytest.mark.parametrize("damage", ["damaged", "flipped", "incomplete"])
def test_a_damaged_cache_is_prepared_again_and_the_brain_searches(tmp_path, damage: str) -> None:
    """numba raises on a cache file it cannot unpickle, at every start: the computer player was
    gone for good (the brain played only its stand-in). A function missing from the cache was
    compiled at START in the brain itself, seconds of it. Now the children compile what is
    damaged or missing, the brain searches, and the next start loads the cache."""
    damaged_copy_of_the_cache(tmp_path / "cache", damage)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    searched, errors = brain_until_it_searches(env)
    assert searched, "the brain never searched"
    assert "the engine cache is damaged or incomplete" in errors, errors[-2000:]
    assert "Traceback" not in errors, errors[-2000:]
    again = subprocess.run([sys.executable, "-c", NEXT_START], env=env, capture_output=True,
                           text=True, timeout=300)
    assert again.stdout.split() == ["True", "True"], again.stderr[-2000:]
    assert "damaged" not in again.stderr


def test_where_the_engine_may_compile_a_damaged_file_compiles_again(tmp_path) -> None:
    """`gomoku serve` and the children load and compile in one go: a file numba cannot read
    is compiled again and written anew, with a warning, where numba raised."""
    damaged_copy_of_the_cache(tmp_path / "cache", marked=False)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    load = ("from gomoku.engine import driver, prepare; driver.warm_up(); prepare.write_marker(); "
            "print(prepare.load_cache())")
    first = subprocess.run([sys.executable, "-c", load], env=env, capture_output=True, text=True,
                           timeout=300)
    assert first.stdout.strip() == "True", first.stderr[-2000:]
    assert "a damaged engine cache file" in first.stderr, first.stderr[-2000:]
    again = subprocess.run([sys.executable, "-c", load], env=env, capture_output=True, text=True,
                           timeout=120)
    assert again.stdout.strip() == "True" and again.stderr == "", again.stderr[-2000:]
