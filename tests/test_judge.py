"""tools/judge.py: our engine's moves rated by another brain, a real one in a subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from gomoku.core import Board, Rule
from gomoku.core.notation import parse_point

JUDGE = Path(__file__).resolve().parent.parent / "tools" / "judge.py"


def cap(value: int) -> int:
    return max(-2000, min(2000, value))


def test_each_position_is_judged_before_and_after_our_move_and_kept_for_the_next_run(tmp_path):
    cache = tmp_path / "judged.json"
    args = [sys.executable, str(JUDGE), "--judge", "medium", "--judge-eval", r"score (-?\d+)",
            "--count", "2", "--time", "0.3", "--level", "medium", "--cache", str(cache)]
    first = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    # Two openings, each asked as it is and after the judge's reply: four positions.
    rows = [line for line in first.stdout.splitlines() if " ours " in line]
    assert len(rows) == 4
    kept = json.loads(cache.read_text())
    assert [len(item["moves"]) for item in kept] == [3, 4, 3, 4]
    for item, row in zip(kept, rows, strict=True):
        board = Board.from_moves([tuple(p) for p in item["moves"]], 15, Rule.FREESTYLE)
        ours = parse_point(row.split(" ours ")[1].split()[0], 15)
        assert board.grid[ours[1], ours[0]] == 0  # our move is a legal one of that position
        before, after, loss = map(int, re.findall(r"[-+]\d+", row.split(" eval ")[1]))
        assert loss == cap(before) - cap(after)  # a mate counts as 2000
    summary = first.stdout.splitlines()[-1]
    assert summary.startswith("4 positions: mean loss ")
    # A second run reads the judged positions instead of asking the judge again.
    second = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "positions" not in second.stderr  # no "N positions" progress: nothing re-judged
    assert json.loads(cache.read_text()) == kept
