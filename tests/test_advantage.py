"""tools/advantage.py on an arena folder: when the winner's own evaluation turned."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gomoku.core.records import GameRecord, save_record

ADVANTAGE = Path(__file__).resolve().parent.parent / "tools" / "advantage.py"
MOVES = [(7, 7), (8, 8), (7, 8), (8, 7), (7, 9), (8, 9), (7, 10), (8, 10), (7, 11)]  # black's five


def _arena_folder(folder: Path, evaluations: dict[int, list[str]], winners: dict[int, str]) -> None:
    """A folder as tools/arena.py leaves it: a summary, records, engine 2's log with the marks
    and Rapfi-style MESSAGE lines (Rapfi itself cannot run here)."""
    tallies = [{"name": "hard"}, {"name": "rapfi"}]
    (folder / "summary.json").write_text(json.dumps({"tallies": tallies}))
    log = []
    for number, values in evaluations.items():
        log.append(f"arena: game {number}")
        for v in values:  # Rapfi prints each depth's evaluation, then its move's
            log += ["MESSAGE OptiTime 727ms | MaxTime 970ms",
                    "MESSAGE Depth 5-6 | Eval 999 | Time 1ms",  # not a move: not counted
                    f"MESSAGE Speed 900K | Depth 20-30 | Eval {v} | Node 800K"]
        log.append("MESSAGE Bestline H8 I9")  # no evaluation: not counted
        black = winners[number]
        record = GameRecord(black=black, white="hard" if black == "rapfi" else "rapfi",
                            moves=MOVES, times=[0.0] * len(MOVES), result="black", reason="five")
        save_record(record, folder / f"game-{number:03d}.gomoku")
    (folder / "engine2-job1.log").write_text("\n".join(log) + "\n")


def test_it_finds_when_the_winner_saw_its_advantage_and_its_win(tmp_path: Path) -> None:
    _arena_folder(tmp_path, {1: ["20", "150", "320", "+M9", "+M7"],
                             2: ["-40", "310", "500", "900", "+M5"],
                             3: ["0", "400", "+M3"]},  # a game rapfi lost: left out
                  {1: "rapfi", 2: "rapfi", 3: "hard"})
    done = subprocess.run([sys.executable, str(ADVANTAGE), str(tmp_path), "--threshold", "300"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "game-001.gomoku: 5 evaluations; >= 300 at move 3, a forced win announced at move 4" in lines
    assert "game-002.gomoku: 5 evaluations; >= 300 at move 2, a forced win announced at move 5" in lines
    assert not any(line.startswith("game-003") for line in lines)
    assert "rapfi won 2 of the 3 games" in lines
    assert lines[-2] == "a forced win first announced at its move: median 4.5 (quartiles 4.25-4.75; 2 games)"


def test_a_folder_without_game_marks_is_refused_with_a_message(tmp_path: Path) -> None:
    (tmp_path / "summary.json").write_text(json.dumps({"tallies": [{"name": "a"}, {"name": "b"}]}))
    (tmp_path / "engine2-job1.log").write_text("MESSAGE Eval 10\n")
    done = subprocess.run([sys.executable, str(ADVANTAGE), str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "no game marks" in done.stderr
    assert "Traceback" not in done.stderr
