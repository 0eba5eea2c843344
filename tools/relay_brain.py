#!/usr/bin/env python3
"""A Gomocup brain that hands its side's first K moves after the opening to one brain and the
rest to another: how much would a game gain if one engine played its early moves?

    # Rapfi plays hard's first 3 moves after each opening, hard the rest, against Rapfi:
    .venv/bin/python tools/arena.py \\
        ".venv/bin/python tools/relay_brain.py --first pbrain-rapfi --moves 3 --then hard" \\
        pbrain-rapfi --games 80 --time 1 --jobs 1 --out DIR

ENGINE is easy, medium or hard (our brain) or a brain command line, as for tools/arena.py.
Each move, the brain whose turn it is gets the whole position (BOARD), so neither needs to
have seen the other's moves; it is started, probed until it searches and restarted exactly as
the arena starts its engines. The count restarts at every BOARD (a new game or a probe): the
stones BOARD brings are the opening. Each brain is told the turn's time less --margin
(relaying costs a few milliseconds, and a brain given BOARD has no search of the last move to
reuse). Its MESSAGE lines pass through, and one more says which brain played.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
import arena  # noqa: E402  (tools/ is not a package)

from gomoku.core import Rule  # noqa: E402

MAX_LINE = 200  # a longer command is not one the protocol has
MIN_SIZE, MAX_SIZE = 5, 32
RULES = {code: rule for rule, code in arena.RULE_CODES.items()}
MOVE_SLACK_S = 5.0  # how long past its time a brain may take before the relay gives up on it


class ProtocolError(ValueError):
    """A command the relay cannot follow; it answers ERROR and goes on."""


class Relay:
    """The protocol state: the position, whose turn it is to think, and the two brains."""

    def __init__(self, first: list[str], then: list[str], moves: int, margin_s: float,
                 out: TextIO) -> None:
        self.commands = (first, then)
        self.brains: list[arena.BrainProcess | None] = [None, None]
        self.moves = moves
        self.margin_s = margin_s
        self.out = out
        self.size = 15
        self.rule = Rule.FREESTYLE
        self.time_s = 1.0
        self.stones: list[tuple[int, int, int]] = []  # (x, y, 1 ours / 2 theirs)
        self.played = 0  # our moves since the last BOARD

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def start(self, size: int) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"board size {size} is not supported")
        self.size = size
        budget = max(self.time_s - self.margin_s, 0.1)
        for index, command in enumerate(self.commands):
            brain = self.brains[index]
            if brain is None:
                brain = self.brains[index] = arena.BrainProcess(command)
            brain.start(size, self.rule, budget)
        self.stones.clear()
        self.played = 0

    def info(self, key: str, value: str) -> None:
        if key == "timeout_turn" and value.isdigit():
            self.time_s = min(int(value), 3_600_000) / 1000
        elif key == "rule" and value.isdigit() and int(value) in RULES:
            self.rule = RULES[int(value)]

    def point(self, text: str) -> tuple[int, int]:
        parts = text.split(",")
        if len(parts) != 2 or not all(part.strip().isdigit() for part in parts):
            raise ProtocolError(f"not a point: {text!r}")
        x, y = (int(part) for part in parts)
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ProtocolError(f"point {x},{y} is off the board")
        if any((x, y) == (sx, sy) for sx, sy, _ in self.stones):
            raise ProtocolError(f"point {x},{y} is taken")
        return x, y

    def board(self, lines: list[str]) -> None:
        self.stones.clear()
        self.played = 0
        for line in lines:
            fields = line.split(",")
            if len(fields) != 3 or fields[2].strip() not in ("1", "2"):
                raise ProtocolError(f"not a BOARD line: {line!r}")
            x, y = self.point(",".join(fields[:2]))
            self.stones.append((x, y, 1 if fields[2].strip() == "1" else 2))

    def play(self) -> None:
        """Ask the brain whose move it is, on the whole position; answer its move."""
        index = 0 if self.played < self.moves else 1
        brain, name = self.brains[index], ("first", "second")[index]
        if brain is None:
            raise ProtocolError("START must come first")
        brain.messages.clear()
        brain.send("BOARD", *(f"{x},{y},{c}" for x, y, c in self.stones), "DONE")
        try:
            x, y = brain.move(time.monotonic() + self.time_s + MOVE_SLACK_S)
        except arena.BrainFailure as failure:
            raise ProtocolError(f"the {name} brain failed: {failure}") from None
        for message in brain.messages:
            self.say(message)
        self.stones.append((x, y, 1))
        self.played += 1
        self.say(f"MESSAGE relay: move {self.played} after the opening by the {name} brain")
        self.say(f"{x},{y}")

    def close(self) -> None:
        for brain in self.brains:
            if brain is not None:
                brain.close()


def bounded_lines(stream: TextIO) -> Iterator[str | None]:
    """The stream's lines, stripped; None for one longer than MAX_LINE (read and dropped)."""
    while True:
        line = stream.readline(MAX_LINE + 2)
        if not line:
            return
        if len(line) == MAX_LINE + 2 and not line.endswith("\n"):
            while line and not line.endswith("\n"):
                line = stream.readline(4096)
            yield None
        else:
            yield line.strip()


def serve(relay: Relay, lines: TextIO) -> None:
    """Follow the protocol on `lines` until END or the end of input."""
    board_lines: list[str] | None = None  # inside BOARD ... DONE
    for line in bounded_lines(lines):
        if line == "":
            continue
        try:
            if line is None:
                raise ProtocolError("line too long")
            if board_lines is not None:
                if line.upper() == "DONE":
                    relay.board(board_lines)
                    board_lines = None
                    relay.play()
                elif len(board_lines) >= relay.size * relay.size:
                    board_lines = None
                    raise ProtocolError("BOARD holds more stones than the board")
                else:
                    board_lines.append(line)
                continue
            word, _, rest = line.partition(" ")
            word = word.upper()
            if word == "START":
                if not rest.strip().isdigit():
                    raise ProtocolError("START needs a board size")
                relay.start(int(rest))
                relay.say("OK")
            elif word == "RESTART":
                relay.start(relay.size)
                relay.say("OK")
            elif word == "INFO":
                key, _, value = rest.strip().partition(" ")
                relay.info(key.lower(), value.strip())
            elif word == "BOARD":
                board_lines = []
            elif word == "TURN":
                x, y = relay.point(rest.strip())
                relay.stones.append((x, y, 2))
                relay.play()
            elif word == "BEGIN":
                relay.stones.clear()
                relay.played = 0
                relay.play()
            elif word == "ABOUT":
                relay.say(f'name="relay", version="1", author="gomoku tools", '
                          f'comment="first {relay.moves} moves by one brain, then another"')
            elif word == "END":
                return
            else:
                relay.say(f"UNKNOWN {line[:40]!r}")  # printable: it echoes outside text
        except ProtocolError as error:
            relay.say(f"ERROR {error}")
        except arena.BrainFailure as failure:
            relay.say(f"ERROR a brain failed: {failure}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", required=True, help="the brain for the first moves")
    parser.add_argument("--moves", type=int, required=True,
                        help="how many of our moves after the opening the first brain plays")
    parser.add_argument("--then", required=True, help="the brain for the rest of the game")
    parser.add_argument("--margin", type=float, default=0.05,
                        help="seconds taken off each brain's time per move (default 0.05)")
    args = parser.parse_args(argv)
    if args.moves < 0 or not 0 <= args.margin < 10:
        parser.error("--moves must be 0 or more and --margin 0 to 10 seconds")
    try:
        commands = [arena.engine_command(args.first), arena.engine_command(args.then)]
    except ValueError as error:
        parser.error(str(error))
    relay = Relay(commands[0], commands[1], args.moves, args.margin, sys.stdout)
    try:
        serve(relay, sys.stdin)
    finally:
        relay.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
