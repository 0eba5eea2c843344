"""tools/make_openings.py: an opening set the judge brain plays out, kept only where the colour
does not decide the games (a real brain process, a scripted one we control)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"
MAKE_OPENINGS = TOOLS / "make_openings.py"

# The judge. Asked for a move it says "Eval 0" with it. In a game it is strong (builds a five
# on its own edge row: black row 0, white row 14) when its node budget is 80000 or more, or
# when the opening's stones' x+y add up to an even number; else weak (stones two apart on row
# 12, never a line). From an "odd" opening only the larger budget is strong and wins with
# either colour; from an "even" one both are, and white, first to move after three stones,
# wins both games: there the colour decides.
JUDGE_BRAIN = """
import sys
budget, taken, opening, mine, board = 0, {}, None, None, None
def move():
    strong = budget >= 80000 or sum(x + y for x, y in opening) % 2 == 0
    row = (0 if mine == "black" else 14) if strong else 12
    x = next(x for x in range(0, 15, 1 if strong else 2) if (x, row) not in taken)
    taken[(x, row)] = "me"
    print("MESSAGE Eval 0", flush=True)
    print(f"{x},{row}", flush=True)
for line in sys.stdin:
    words = line.strip().replace(",", " ").split()
    word = words[0].upper() if words else ""
    if board is not None:
        if word == "DONE":
            taken = dict(board)
            opening = opening or list(board)
            mine = "black" if len(board) % 2 == 0 else "white"
            board = None
            move()
        else:
            board[(int(words[0]), int(words[1]))] = words[2]
    elif word == "INFO" and words[1] == "max_node":
        budget = int(words[2])
    elif word in ("START", "RESTART"):
        taken, opening = {}, None
        print("OK", flush=True)
    elif word == "BOARD":
        board = {}
    elif word == "TURN":
        taken[(int(words[1]), int(words[2]))] = "them"
        move()
    elif word == "END":
        break
"""


def make_openings(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(MAKE_OPENINGS), *args], capture_output=True,
                          text=True, timeout=240)


def test_openings_whose_games_one_colour_wins_are_left_out(tmp_path):
    judge = tmp_path / "judge.py"
    judge.write_text(JUDGE_BRAIN)
    out = tmp_path / "set.txt"
    done = make_openings("--count", "3", "--depth", "0", "--judge", f"{sys.executable} {judge}",
                         "--judge-time", "0.5", "--play", "--seed", "4", "--out", str(out))
    assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(TOOLS))
    import arena

    from gomoku.core import Rule
    from gomoku.core.notation import parse_moves

    def even(text: str) -> bool:
        return sum(x + y for x, y in parse_moves(text, 15)) % 2 == 0

    left_out = [line.split(": ", 1)[1].split("  #")[0]
                for line in done.stdout.splitlines() if line.startswith("left out")]
    assert left_out and all(even(text) for text in left_out)
    assert all(line.endswith("# games: white, white") for line in done.stdout.splitlines()
               if line.startswith("left out"))
    kept = arena.read_openings(out, 15, Rule.FREESTYLE)  # the arena reads the set
    assert len(kept) == 3
    assert not any(even(arena.opening_text(opening, 15)) for opening in kept)
    text = out.read_text()
    assert "played out by the judge against itself at 100000 and 60000 nodes" in text
    assert text.count("games: black, white") == 3  # the larger budget won with each colour


def test_play_needs_a_judge_and_two_budgets(tmp_path):
    out = str(tmp_path / "set.txt")
    done = make_openings("--play", "--depth", "0", "--out", out)
    assert done.returncode == 2 and "--play needs --judge" in done.stderr
    done = make_openings("--play", "--judge", "x", "--play-nodes", "100000", "--out", out)
    assert done.returncode == 2 and "two positive numbers" in done.stderr
    assert not Path(out).exists()
