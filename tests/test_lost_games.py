"""tools/lost_games.py on real records: the first move that lets the opponent win by force,
and with --alternatives whether another move there would have held."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gomoku.core.records import GameRecord, save_record

LOST_GAMES = Path(__file__).resolve().parent.parent / "tools" / "lost_games.py"

# Black ("hard") plays on the edges, never two stones near one line (no threat to gain a
# tempo with); white builds on rows 7 and 11 of the x, y grid.
BLACK_EDGE = [(0, 0), (14, 0), (0, 14), (14, 14), (0, 7), (14, 7), (7, 0), (7, 14)]
ROW_7 = [(7, 7), (8, 7), (9, 7)]
ROW_11 = [(7, 11), (8, 11), (9, 11)]
FINISH = [(10, 7), (6, 7), (11, 7)]  # white's open four, black's block, white's five


def _lost_game(folder: Path, name: str, white: list, opening: int) -> None:
    """A game hard (black) lost by a five, its first `opening` stones given to both sides."""
    moves: list = []
    for black, white_move in zip(BLACK_EDGE[: len(white)], white, strict=True):
        moves += [black, white_move]
    moves += [BLACK_EDGE[len(white)], *FINISH]
    record = GameRecord(black="hard", white="rapfi", moves=moves, times=[0.0] * len(moves),
                        result="white", reason="five",
                        extra={"arena": {"opening_stones": opening}})
    save_record(record, folder / name)


def test_alternatives_tell_a_saveable_move_from_a_game_already_lost(tmp_path: Path) -> None:
    # One open three for white: the edge move lets it win, a block would have held.
    _lost_game(tmp_path, "game-001.gomoku", ROW_7, 6)
    # Two open threes: whatever black plays, white makes an open four on the other.
    _lost_game(tmp_path, "game-002.gomoku", ROW_7 + ROW_11, 12)
    done = subprocess.run([sys.executable, str(LOST_GAMES), str(tmp_path), "--alternatives",
                           "--nodes", "100000"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    saveable = next(line for line in lines if line.startswith("game-001"))
    doomed = next(line for line in lines if line.startswith("game-002"))
    assert "move 7 " in saveable and "the opponent wins in" in saveable
    saving = int(saveable.split("; ")[-1].split(" of ")[0])
    assert saving >= 1, saveable  # blocking the three holds
    assert "move 13 " in doomed and "; 0 of " in doomed, doomed
    assert lines[-2].startswith("2 games lost by a five")
    assert lines[-1].startswith("in 1 every other move left the opponent a VCT too")
