"""tools/relay_brain.py: one brain's early moves, another's after, relayed to real brains."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from gomoku.core import Rule

TOOLS = Path(__file__).resolve().parent.parent / "tools"
RELAY = TOOLS / "relay_brain.py"
sys.path.insert(0, str(TOOLS))
import arena  # noqa: E402  (tools/ is not a package)

OPENING = ("BOARD", "7,7,2", "8,8,1", "6,8,2", "DONE")  # we are white, to move


def relay(moves: int) -> arena.BrainProcess:
    """The relay started as the arena starts a brain (clock, rule, probe moves, START again)."""
    brain = arena.BrainProcess([sys.executable, str(RELAY), "--first", "easy", "--moves",
                                str(moves), "--then", "medium"])
    brain.start(15, Rule.FREESTYLE, 0.5)
    return brain


def ask(brain: arena.BrainProcess, *lines: str) -> tuple[tuple[int, int], list[str]]:
    """Our move after `lines`, and the MESSAGE lines that came with it."""
    brain.messages.clear()
    brain.send(*lines)
    move = brain.move(time.monotonic() + 30)
    return move, list(brain.messages)


def test_the_first_brain_plays_the_first_moves_after_the_opening_and_the_second_the_rest():
    brain = relay(2)
    try:
        taken = {(7, 7), (8, 8), (6, 8)}
        replies = [ask(brain, *OPENING), ask(brain, "TURN 9,9"), ask(brain, "TURN 10,10")]
        for index, (move, messages) in enumerate(replies):
            assert move not in taken and all(0 <= v < 15 for v in move)
            taken |= {move, ((9, 9), (10, 10), (0, 0))[index]}
            by = "first" if index < 2 else "second"
            assert f"move {index + 1} after the opening by the {by} brain" in messages[-1]
            # The brain's own report comes through: easy's greedy pick, then medium's.
            report = " ".join(messages[:-1])
            assert " depth " in report and ("(greedy)" in report) == (index < 2)
        # A new game counts from its opening again.
        assert brain._restart()
        move, messages = ask(brain, *OPENING)
        assert "move 1 after the opening by the first brain" in messages[-1]
    finally:
        brain.close()


def test_a_bad_command_gets_an_error_and_the_game_goes_on():
    brain = relay(0)
    try:
        ask(brain, *OPENING)
        for bad, error in [("TURN 99,1", "off the board"), ("TURN 8,8", "is taken"),
                           ("TURN 3", "not a point"), ("x" * 5000, "line too long"),
                           ("START 4000", "not supported"),
                           ("\x1b[2JWHAT", "UNKNOWN '\\x1b[2JWHAT'")]:  # echoed printable
            brain.send(bad)
            assert error in brain.reply(time.monotonic() + 10)
        move, messages = ask(brain, "TURN 9,9")  # the position is as it was
        assert move not in {(7, 7), (8, 8), (6, 8), (9, 9)}
        assert "by the second brain" in messages[-1]
    finally:
        brain.close()
