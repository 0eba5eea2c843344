"""tools/judge.py: our engine's moves rated by another brain, a real one in a subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from gomoku.core import Board, Rule
from gomoku.core.notation import parse_point
from gomoku.core.records import load_record

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
    rows = [line for line in first.stdout.splitlines() if " ours " in line and " eval " in line]
    assert len(rows) == 4
    kept = json.loads(cache.read_text())
    assert [len(item["moves"]) for item in kept] == [3, 4, 3, 4]
    for item, row in zip(kept, rows, strict=True):
        board = Board.from_moves([tuple(p) for p in item["moves"]], 15, Rule.FREESTYLE)
        ours = parse_point(row.split(" ours ")[1].split()[0], 15)
        assert board.grid[ours[1], ours[0]] == 0  # our move is a legal one of that position
        before, after, loss = map(int, re.findall(r"[-+]\d+", row.split(" eval ")[1]))
        assert loss == cap(before) - cap(after)  # a mate counts as 2000
    summary = first.stdout.splitlines()[-2]
    assert summary.startswith("4 positions: mean loss ")
    assert first.stdout.splitlines()[-1].startswith(("where ours is not the judge's move (",
                                                     "our move is the judge's in every"))
    # A second run reads the judged positions instead of asking the judge again.
    second = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "positions" not in second.stderr  # no "N positions" progress: nothing re-judged
    assert json.loads(cache.read_text()) == kept


def test_a_mate_in_the_judges_message_counts_as_a_mate():
    """Rapfi writes a mate as +M5 or -M4; read as digits only, it was skipped and an earlier,
    shallower evaluation taken instead."""
    sys.path.insert(0, str(JUDGE.parent))
    import arena

    pattern = re.compile(arena.EVAL_PATTERN)
    messages = ["Depth 8 | Eval 37 | Node 900", "Speed 681K | Depth 9-2 | Eval +M5 | Node 2044"]
    assert arena.evaluation_in(messages, pattern) == arena.MATE_VALUE
    assert arena.evaluation_in(["Depth 12 | Eval -M4 | Node 9"], pattern) == -arena.MATE_VALUE
    assert arena.evaluation_in(["Depth 1 | Eval 37", "Depth 2 | Eval -229 | Node 5"], pattern) == -229
    assert arena.evaluation_in(["Bestline h8"], pattern) is None


def test_middle_game_positions_come_from_arena_records_and_two_runs_compare(tmp_path):
    """Real games (hard against medium, 0.05 s a move), then medium's turns in them judged twice:
    the second run reads the kept positions and prints the paired difference."""
    games = tmp_path / "games"
    arena = JUDGE.parent / "arena.py"
    played = subprocess.run([sys.executable, str(arena), "hard", "medium", "--games", "2",
                             "--time", "0.05", "--out", str(games)],
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    cache, first_results = tmp_path / "middle.json", tmp_path / "first.json"
    args = [sys.executable, str(JUDGE), "--judge", "medium", "--judge-eval", r"score (-?\d+)",
            "--games", str(games), "--engine", "medium", "--per-game", "3", "--time", "0.05",
            "--level", "medium", "--cache", str(cache)]
    first = subprocess.run(args + ["--results", str(first_results)], capture_output=True,
                           text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    kept = json.loads(cache.read_text())
    assert 1 <= len(kept) <= 6
    records = [load_record(path) for path in sorted(games.glob("*.gomoku"))]
    for item in kept:  # medium's turns: after the opening, before the end
        moves = [tuple(p) for p in item["moves"]]
        # Both games open the same way with colours swapped, so a short prefix can fit both records.
        fitting = [r for r in records if list(r.moves[:len(moves)]) == moves]
        assert any((len(moves) % 2 == 0) == (r.black == "medium")
                   and 3 <= len(moves) <= len(r.moves) - 6 for r in fitting), moves
    results = json.loads(first_results.read_text())
    assert [item["moves"] for item in results] == [item["moves"] for item in kept]
    second = subprocess.run(args + ["--compare", str(first_results)], capture_output=True,
                            text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "positions" not in second.stderr  # nothing asked of the judge again
    if len(kept) >= 2:
        assert f"compare with first.json on {len(kept)} positions: mean loss " in second.stdout


def test_nonsense_limits_are_refused_with_a_message(tmp_path):
    for option in (["--depth", "0"], ["--per-game", "0"]):
        done = subprocess.run([sys.executable, str(JUDGE), "--judge", "medium", *option],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and "must be at least 1" in done.stderr, option


def test_a_move_beside_an_open_three_builds_it_for_one_side_and_blocks_it_for_the_other():
    sys.path.insert(0, str(JUDGE.parent))
    import judge

    # Black f8 g8 h8, white j8 (and two stones in the corners), black to move; i8 between.
    board = Board.from_moves([(5, 7), (9, 7), (6, 7), (0, 0), (7, 7), (0, 14)], 15, Rule.FREESTYLE)
    assert judge.line_reach(board, (8, 7), 1) == 3  # black there: three of its stones in a window
    assert judge.line_reach(board, (8, 7), 2) == 1  # white there: only j8 beside it, blocked left
    assert judge.line_reach(board, (4, 7), 1) == 3  # e8 extends the three the other way
    assert judge.line_reach(board, (12, 2), 1) == judge.line_reach(board, (12, 2), 2) == 0
    text = judge.style([(board, (12, 2), (8, 7)), (board, (4, 7), (4, 7))])
    # Black to move: m13 builds and blocks nothing, i8 builds 3 and blocks j8's 1.
    assert text.startswith("where ours is not the judge's move (1): ours builds 0.00 and blocks "
                           "0.00, the judge's 3.00 and 1.00")
    assert text.endswith("ours builds more in 0, blocks less in 1")


def test_compare_also_leaves_out_decided_positions_and_caps_each_loss(tmp_path):
    """One position already lost (a mate after our move) would decide the mean on its own."""
    sys.path.insert(0, str(JUDGE.parent))
    import judge

    def item(k, value, ours, loss):
        return {"moves": [[k, 0]], "eval": value, "ours": ours, "loss": loss}

    earlier = tmp_path / "earlier.json"
    earlier.write_text(json.dumps([item(1, 0, [1, 1], 40), item(2, 100, [2, 2], 10),
                                   item(3, -900, [3, 3], 100), item(4, 50, [4, 4], 700)]))
    now = [item(1, 0, [1, 1], 20), item(2, 100, [5, 5], 30), item(3, -900, [3, 3], 2000),
           item(4, 50, [6, 6], 900)]
    text = judge.compare(now, earlier)
    # All four: (-20 + 20 + 1900 + 200) / 4; without the lost one and capped at 600: (-20 + 20 + 0) / 3
    assert text.startswith("compare with earlier.json on 4 positions: mean loss +525.0 (")
    assert "the same move in 2" in text
    assert text.splitlines()[1].startswith("  where neither side led by more than 400 (3 positions),"
                                           " each loss capped at 600: +0.0 (standard error ")
