"""The arena: real brains in subprocesses, a summary that adds up, records that replay."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from gomoku.core import Board

ARENA = Path(__file__).resolve().parent.parent / "tools" / "arena.py"

LAZY_BRAIN = """
import sys
for line in sys.stdin:
    word = line.strip().split(" ")[0].upper()
    if word == "START":
        print("OK", flush=True)
    elif word == "END":
        break
    # never answers a move: it must lose on time
"""

STUBBORN_BRAIN = """
import sys
for line in sys.stdin:
    word = line.strip().split(" ")[0].upper()
    if word == "START":
        print("OK", flush=True)
    elif word in ("TURN", "DONE", "BEGIN"):
        print("MESSAGE always the corner", flush=True)
        print("0,0", flush=True)
    elif word == "END":
        break
"""


def run_arena(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ARENA), *args], capture_output=True, text=True, timeout=timeout
    )


def read_record(path: Path) -> tuple[dict[str, str], list[tuple[int, int]]]:
    header: dict[str, str] = {}
    moves = []
    for line in path.read_text(encoding="utf-8").splitlines():
        move = re.match(r"^\d+ (\d+),(\d+) ", line)
        if move:
            moves.append((int(move.group(1)), int(move.group(2))))
        elif ": " in line:
            key, value = line.split(": ", 1)
            header[key] = value
    return header, moves


def test_two_games_between_our_levels_add_up_and_replay(tmp_path):
    done = run_arena(
        "easy", "medium", "--games", "2", "--time", "0.2", "--seed", "7", "--out", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    rows = {
        words[0]: words
        for words in map(str.split, done.stdout.splitlines())
        if words[:1] in (["easy"], ["medium"]) and words[1].isdigit()
    }
    assert set(rows) == {"easy", "medium"}
    for name, row in rows.items():
        wins, losses, draws = map(int, row[1:4])
        assert wins + losses + draws == 2, name
        # Each engine had black once and white once.
        assert sum(map(int, row[4].split("/"))) == 1 and sum(map(int, row[5].split("/"))) == 1
        assert 0 < float(row[7]) < 0.3  # max seconds per move, within the limit
    assert int(rows["easy"][1]) == int(rows["medium"][2])  # easy's wins are medium's losses

    records = sorted(tmp_path.glob("game-*.txt"))
    assert [p.name for p in records] == ["game-001.txt", "game-002.txt"]
    openings = []
    for path in records:
        header, moves = read_record(path)
        board = Board.from_moves(moves)  # every stone legal, in order
        outcome = board.outcome()
        assert outcome is not None, path.name
        winner_colour = header["result"].split(" ")[0]
        assert outcome.winner is not None and outcome.winner.label == winner_colour
        openings.append(moves[: int(header["opening stones"])])
    assert openings[0] == openings[1]  # the same opening with colours swapped
    assert read_record(records[0])[0]["black"] == read_record(records[1])[0]["white"]

    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 2 and summary["time_per_move_s"] == 0.2


def test_a_silent_engine_loses_on_time(tmp_path):
    lazy = tmp_path / "lazy.py"
    lazy.write_text(LAZY_BRAIN)
    stubborn = tmp_path / "stubborn.py"
    stubborn.write_text(STUBBORN_BRAIN)
    out = tmp_path / "out"
    done = run_arena(
        f"{sys.executable} {lazy}", f"{sys.executable} {stubborn}",
        "--games", "2", "--time", "0.1", "--tolerance", "0.05", "--opening-stones", "2", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for path in sorted(out.glob("game-*.txt")):
        header, moves = read_record(path)
        assert "stubborn.py" in header["result"] and "timeout" in header["result"], header
    lazy_tally, stubborn_tally = json.loads((out / "summary.json").read_text())["tallies"]
    assert lazy_tally["losses_by_reason"] == {"timeout": 2} and stubborn_tally["wins"] == 2


def test_an_illegal_move_loses(tmp_path):
    stubborn = tmp_path / "stubborn.py"
    stubborn.write_text(STUBBORN_BRAIN)
    engine = f"{sys.executable} {stubborn}"
    done = run_arena(
        engine,
        engine,
        "--games",
        "2",
        "--time",
        "0.5",
        "--opening-stones",
        "2",
        "--out",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    # Black takes 0,0; white asks for it again and loses: once with each engine as white.
    for path in sorted(tmp_path.glob("game-*.txt")):
        header, moves = read_record(path)
        assert header["result"].startswith("black ") and "illegal" in header["result"]
        assert moves[-1] == (0, 0)
    assert "stubborn.py#1" in done.stdout and "stubborn.py#2" in done.stdout
    assert "stubborn.py#1 scores 50.0% (Elo difference +0)" in done.stdout


def test_bad_arguments_are_refused_with_a_message(tmp_path):
    done = run_arena("easy", "/no/such/pbrain-x", "--out", str(tmp_path), timeout=60)
    assert done.returncode == 2 and "cannot find" in done.stderr
    done = run_arena("easy", "medium", "--games", "0", "--out", str(tmp_path), timeout=60)
    assert done.returncode == 2 and "--games" in done.stderr
