#!/usr/bin/env python3
"""Play N games between two Gomocup brains and print who won, by colour, and how fast.

Each engine is a level name (easy, medium, hard: our `pbrain-gomoku` at that level) or any
brain command line, e.g. "/path/to/pbrain-rapfi" or "pbrain-gomoku --level easy". Games
start from the fixed, balanced opening set of tools/openings for the rule and size (or
--openings FILE), else from random openings near the centre that our hard engine judges
balanced (its depth-6 score within --balance); each opening is played twice with colours
swapped. A move later than the time per move (plus --tolerance), a malformed reply or an
illegal move loses. --time2 gives the second engine its own time per move (e.g. an engine that
searches to a fixed depth and ignores the clock); the first is still held to --time. --nodes2 N
also sends the second engine `INFO max_node N` (Rapfi stops its search there): a node-limited
opponent plays the same on a busy machine as on an idle one, and in milliseconds. --depth1 N
sends the first engine `INFO max_depth N`: a move it finishes within --time repeats exactly
whatever the load, so two versions of ours meet the same replies where they agree.
Every game is saved in --out (gomoku.core.records format and .psq), with a summary.json.

    .venv/bin/python tools/arena.py hard medium --games 20 --time 0.3 --out arena-out
"""

from __future__ import annotations

import argparse
import json
import math
import queue
import random
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO

from gomoku.core import Board, Color, IllegalMoveError, Point, Rule
from gomoku.core.inputs import clean_text
from gomoku.core.notation import NotationError, format_moves, parse_moves
from gomoku.core.records import PSQ_SUFFIX, RECORD_SUFFIX, GameRecord, save_record

LEVELS = ("easy", "medium", "hard")
RULE_CODES = {Rule.FREESTYLE: 0, Rule.STANDARD: 1, Rule.RENJU: 4}
"""Gomocup `INFO rule` values."""
START_TIMEOUT_S = 180.0  # START may compile an engine from a cold cache
PROBE_SLACK_S = 5.0  # a probe move may take this much longer than a game's move
SETTLE_S = 0.03  # no command reaches a brain sooner than this after its move (see settle)
START_MESSAGES = 3  # the report shows this many of an engine's first messages (said_at_start)
START_MESSAGE_CHARS = 160
OPENING_RADIUS = 2  # opening stones fall in the 5x5 square around the centre
BALANCE_DEPTH = 6  # the fixed search depth that judges whether an opening is balanced
OPENINGS_DIR = Path(__file__).resolve().parent / "openings"
"""The checked-in opening sets, `<rule>-<size>.txt` (see tools/make_openings.py)."""
EVAL_PATTERN = r"Eval\s*[:=]?\s*([+-]?M?\d+)"  # a judge's evaluation in its MESSAGE (Rapfi's: -229, +M5)
MATE_VALUE = 30000  # a judge's mate (+M5, -M4) read as a number
GAME_MARK = "arena: game "  # the line each engine log gets before a game, with its number
_MOVE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


def evaluation_in(messages: list[str], pattern: re.Pattern[str]) -> int | None:
    """Group 1 of the latest message matching `pattern` (a judge's evaluation), a mate (M: +M5,
    -M4) as +-MATE_VALUE; None if none matches. Read as digits only, a mate was skipped and an
    earlier, shallower evaluation taken instead."""
    for line in reversed(messages):
        match = pattern.search(line)
        if match:
            text = match.group(1)
            if "M" in text:
                return -MATE_VALUE if text.startswith("-") else MATE_VALUE
            return int(text)
    return None


def said_at_start(name: str, messages: Sequence[str]) -> str:
    """A report line: what an engine said before its first START reply, so a set-up gone wrong
    shows at the top of a run (Rapfi names the config it loaded; without one it plays on its
    built-in evaluation and says nothing). Outside text: the project's one rule (clean_text)."""
    said = []
    for message in messages[:START_MESSAGES]:  # each line begins with MESSAGE (`reply`)
        text = clean_text(message[len("MESSAGE"):], START_MESSAGE_CHARS)
        if text is not None:
            said.append(text)
    return f"{name} at START: " + (" | ".join(said) if said else "(no message)")


def opening_stones(record: GameRecord) -> int:
    """The stones the arena placed before the engines played, by its record (3 if it does not say)."""
    extra = record.extra.get("arena", {}) if isinstance(record.extra, dict) else {}
    return int(extra.get("opening_stones", 3)) if isinstance(extra, dict) else 3


class BrainFailure(Exception):
    """An engine broke the protocol: silent past its time, a bad reply, or a dead process."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def engine_command(spec: str) -> list[str]:
    """A level name means our brain at that level; anything else is a command line."""
    if spec in LEVELS:
        return [sys.executable, "-m", "gomoku.engine.brain", "--level", spec]
    command = shlex.split(spec)
    if not command:
        raise ValueError("an engine command is empty")
    if shutil.which(command[0]) is None:
        beside_python = Path(sys.executable).parent / command[0]  # e.g. pbrain-gomoku in the venv
        if shutil.which(str(beside_python)) is None:
            raise ValueError(f"cannot find the engine program {command[0]!r}")
        command[0] = str(beside_python)
    return command


def engine_names(specs: Sequence[str]) -> list[str]:
    """Short distinct names for the summary: the level, or the program name and its flags."""
    names = []
    for spec in specs:
        if spec in LEVELS:
            names.append(spec)
        else:
            words = shlex.split(spec)
            names.append(" ".join([Path(words[0]).name, *words[1:]]))
    if len(set(names)) < len(names):
        names = [f"{name}#{index + 1}" for index, name in enumerate(names)]
    return names


class BrainProcess:
    """One brain in a subprocess: send lines, read its move with a deadline. Not thread-safe."""

    def __init__(self, command: list[str], log: IO[str] | None = None,
                 info: Sequence[str] = ()) -> None:
        self.command = command
        self.info = tuple(info)  # more INFO lines sent with the clock at START
        self.settle_s = SETTLE_S  # see settle (0 for a judge that is asked one position at a time)
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log if log is not None else subprocess.DEVNULL,
            text=True,
            bufsize=1,
            errors="replace",
        )
        self._log = log
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.started = False  # has START been accepted (so RESTART will do for the next game)?
        self.messages: list[str] = []  # the MESSAGE lines read so far (a judge's evaluation)
        self.start_messages: tuple[str, ...] = ()  # what it said up to its first START reply
        self._replied = 0.0  # monotonic time of its last move
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)  # end of output: the process died

    def send(self, *lines: str) -> None:
        self.settle()  # any command, also RESTART right after a probe move or a game's last move
        try:
            assert self.process.stdin is not None
            self.process.stdin.write("".join(line + "\r\n" for line in lines))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise BrainFailure("crash", f"cannot write to the engine: {error}") from None

    def reply(self, deadline: float) -> str:
        """The next line that is not MESSAGE/DEBUG, before the monotonic `deadline`."""
        while True:
            try:
                line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                raise BrainFailure("timeout", "no reply in time") from None
            if line is None:
                raise BrainFailure("crash", f"the engine exited (code {self.process.poll()})")
            if line.upper().startswith("MESSAGE"):
                self.messages.append(line)
                del self.messages[:-100]  # only the latest matter
                if self._log is not None:  # beside its stderr: what it thought, move by move
                    self._log.write(line + "\n")
                    self._log.flush()
                continue
            if not line.strip() or line.upper().startswith("DEBUG"):
                continue
            return line.strip()

    def evaluation(self, pattern: re.Pattern[str]) -> int | None:
        """The judge's latest evaluation in its MESSAGE lines (`evaluation_in`), else None."""
        return evaluation_in(self.messages, pattern)

    def settle(self) -> None:
        """Wait until SETTLE_S after this brain's last move. Some brains (Rapfi) still count
        as thinking for a moment after printing a move and drop a command that comes then
        (`TURN` lost, its `x,y` read as an unknown command): an opponent's instant reply
        must not forfeit them. Every send waits for it; a game calls it before the clock starts."""
        time.sleep(max(self._replied + self.settle_s - time.monotonic(), 0.0))

    def move(self, deadline: float) -> Point:
        line = self.reply(deadline)
        self._replied = time.monotonic()
        match = _MOVE.match(line)
        if match is None:
            raise BrainFailure("bad reply", repr(line))
        return int(match.group(1)), int(match.group(2))

    def start(self, size: int, rule: Rule, time_s: float) -> None:
        """Start a game: START the first time (after the clock and rule; then probe moves
        until it searches, and START again to clear the probe's stone), RESTART after that.

        A brain that refuses RESTART gets START again. Raises BrainFailure unless it says OK.
        """
        if self.started and self._restart():
            return
        self._start(size, rule, time_s)
        if not self.started:
            self.started = True
            self.start_messages = tuple(self.messages)
            self._wait_ready(size, time_s)
            # START again: the probe's stone must not stay (by the protocol's letter BOARD adds to
            # the board), and every brain answers START, where some ignore RESTART.
            self._start(size, rule, time_s)

    def _restart(self) -> bool:
        self.send("RESTART")
        return self.reply(time.monotonic() + START_TIMEOUT_S).upper() == "OK"

    def _start(self, size: int, rule: Rule, time_s: float) -> None:
        self.send(
            f"INFO timeout_turn {round(time_s * 1000)}",
            "INFO timeout_match 0",
            "INFO game_type 1",
            f"INFO rule {RULE_CODES[rule]}",
            *self.info,
            f"START {size}",
        )
        line = self.reply(time.monotonic() + START_TIMEOUT_S)
        if line.upper() != "OK":
            raise BrainFailure("refused START", line)

    def _wait_ready(self, size: int, time_s: float) -> None:
        """Our brain answers START at once and plays a greedy stand-in while its engine
        compiles (a cold cache, e.g. a fresh tools/ab.py revision): ask it for a move on a
        probe position until it searches, so no game is played by the stand-in. Another
        brain passes the first probe. Raises BrainFailure if it is not ready in time, or
        does not answer a probe (the game is then lost on time)."""
        centre = size // 2
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            self.messages.clear()
            self.send("BOARD", f"{centre},{centre},2", "DONE")
            try:
                self.move(time.monotonic() + time_s + PROBE_SLACK_S)
            except BrainFailure as failure:
                raise BrainFailure(failure.reason, f"{failure.detail} (a probe move)") from None
            stand_in = any("(fallback)" in m or " depth 0 score 0 nodes 0 " in m
                           for m in self.messages)
            if not stand_in:
                return
            if time.monotonic() > deadline:
                raise BrainFailure("refused START", "the engine was not ready in time")
            time.sleep(2.0)

    def close(self) -> None:
        """END, then kill if it does not leave within a second."""
        if self.process.poll() is None:
            try:
                self.send("END")
            except BrainFailure:
                pass
            try:
                self.process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass(frozen=True)
class GameResult:
    """One finished game; `winner` is an engine index (0 or 1) or None for a draw."""

    index: int
    black: int
    opening: tuple[Point, ...]
    moves: tuple[Point, ...]
    times: tuple[float | None, ...]  # seconds per move, None for opening stones
    winner: int | None
    reason: str  # five, full board, timeout, illegal, bad reply, crash, refused START
    detail: str = ""


def random_opening(rng: random.Random, size: int, stones: int) -> tuple[Point, ...]:
    """`stones` distinct points near the centre, played black first (at most 5: never a five)."""
    centre = size // 2
    square = [
        (x, y)
        for y in range(centre - OPENING_RADIUS, centre + OPENING_RADIUS + 1)
        for x in range(centre - OPENING_RADIUS, centre + OPENING_RADIUS + 1)
    ]
    return tuple(rng.sample(square, stones))


def opening_score(opening: tuple[Point, ...], size: int, rule: Rule,
                  depth: int = BALANCE_DEPTH) -> int | None:
    """Our hard engine's score of `opening` for the side to move, at a fixed depth (so a seed
    gives the same openings on every run of the same engine); None if the engine answered
    without a search (a threat win or a forced move): such an opening is not balanced."""
    from gomoku.engine import driver
    from gomoku.engine.api import Level, Position, SearchLimit

    driver.warm_up()
    driver.new_game()
    position = Position.from_board(Board.from_moves(opening, size, rule))
    result = driver.think(position, Level.HARD, SearchLimit(1e6, max_depth=depth))
    return result.score if result.info.get("kind") == "search" else None


def balanced_openings(rng: random.Random, size: int, stones: int, rule: Rule, count: int,
                      limit: int) -> tuple[list[tuple[Point, ...]], int]:
    """`count` random openings whose |opening_score| is at most `limit` (neither side is
    clearly winning); also returns how many were drawn. Raises ValueError if too few pass."""
    kept: list[tuple[Point, ...]] = []
    drawn = 0
    while len(kept) < count:
        if drawn >= 50 * count + 50:
            raise ValueError(f"only {len(kept)} of {drawn} openings scored within {limit}")
        opening = random_opening(rng, size, stones)
        drawn += 1
        score = opening_score(opening, size, rule)
        if score is not None and abs(score) <= limit:
            kept.append(opening)
    return kept, drawn


def default_openings_file(rule: Rule, size: int) -> Path | None:
    """The checked-in opening set for `rule` and `size`, if there is one."""
    path = OPENINGS_DIR / f"{rule.value}-{size}.txt"
    return path if path.is_file() else None


def read_openings(path: Path, size: int, rule: Rule) -> list[tuple[Point, ...]]:
    """The openings of an opening file: one a line in move notation ("h8 i9 j7", black
    first), `#` starts a comment. A `# rule R size N` header, if present, must match.

    Raises ValueError naming the line of a bad or illegal opening, or a header that differs.
    """
    openings = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text, _, comment = raw.partition("#")
        header = re.match(r"\s*rule\s+(\w+)\s+size\s+(\d+)", comment) if not text.strip() else None
        if header and (header.group(1) != rule.value or int(header.group(2)) != size):
            raise ValueError(f"{path}: the openings are for {header.group(1)} on "
                             f"{header.group(2)}x{header.group(2)}, not {rule.value} on {size}x{size}")
        if not text.strip():
            continue
        try:
            moves = tuple(parse_moves(text, size))
            Board.from_moves(moves, size, rule)
        except (NotationError, IllegalMoveError) as error:
            raise ValueError(f"{path}:{number}: {error}") from None
        openings.append(moves)
    if not openings:
        raise ValueError(f"{path} holds no opening")
    return openings


def opening_text(opening: tuple[Point, ...], size: int) -> str:
    return " ".join(format_moves([point], size) for point in opening)


def board_lines(board: Board, color: Color) -> list[str]:
    """BOARD ... DONE for the engine playing `color`: 1 own stones, 2 the opponent's."""
    lines = ["BOARD"]
    for x, y in board.moves:
        lines.append(f"{x},{y},{1 if board[(x, y)] == color else 2}")
    lines.append("DONE")
    return lines


def play_game(
    index: int,
    engines: Sequence[BrainProcess],
    black: int,
    opening: tuple[Point, ...],
    rule: Rule,
    size: int,
    times_s: Sequence[float],
    tolerance_s: float,
) -> GameResult:
    """One game from `opening`, engine `black` playing black; engines must be started.
    Engine i must answer within `times_s[i]` plus `tolerance_s`."""
    board = Board.from_moves(opening, size, rule)
    times: list[float | None] = [None] * len(opening)
    synced = [False, False]  # has each engine seen the position (BOARD) yet?

    def finish(winner: int | None, reason: str, detail: str = "") -> GameResult:
        return GameResult(
            index, black, opening, tuple(board.moves), tuple(times), winner, reason, detail
        )

    while True:
        mover = black if board.to_move is Color.BLACK else 1 - black
        engine = engines[mover]
        if synced[mover]:
            lines = [f"TURN {board.moves[-1][0]},{board.moves[-1][1]}"]
        else:
            lines = board_lines(board, board.to_move)
            synced[mover] = True
        engine.settle()
        began = time.monotonic()
        try:
            engine.send(*lines)
            move = engine.move(began + times_s[mover] + tolerance_s)
        except BrainFailure as failure:
            return finish(1 - mover, failure.reason, failure.detail)
        elapsed = time.monotonic() - began
        try:
            outcome = board.push(*move)
        except IllegalMoveError as error:
            return finish(1 - mover, "illegal", str(error))
        times.append(elapsed)
        if outcome is not None:
            if outcome.winner is None:
                return finish(None, outcome.reason.value)
            return finish(mover, outcome.reason.value)


@dataclass
class Tally:
    """Wins, losses and draws, overall and by colour, and move times, for one engine."""

    name: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    by_color: dict[str, list[int]] = field(
        default_factory=lambda: {"black": [0, 0, 0], "white": [0, 0, 0]}
    )  # colour -> [wins, losses, draws]
    losses_by_reason: dict[str, int] = field(default_factory=dict)
    move_times: list[float] = field(default_factory=list)

    @property
    def average_time(self) -> float:
        return sum(self.move_times) / len(self.move_times) if self.move_times else 0.0

    @property
    def max_time(self) -> float:
        return max(self.move_times, default=0.0)


def tally(results: Sequence[GameResult], names: Sequence[str]) -> list[Tally]:
    tallies = [Tally(name) for name in names]
    for result in results:
        for engine in (0, 1):
            mine = tallies[engine]
            color = "black" if engine == result.black else "white"
            if result.winner is None:
                mine.draws += 1
                mine.by_color[color][2] += 1
            elif result.winner == engine:
                mine.wins += 1
                mine.by_color[color][0] += 1
            else:
                mine.losses += 1
                mine.by_color[color][1] += 1
                if result.reason != "five":
                    mine.losses_by_reason[result.reason] = (
                        mine.losses_by_reason.get(result.reason, 0) + 1
                    )
            first_own = 0 if color == "black" else 1
            mine.move_times += [
                t for ply, t in enumerate(result.times) if t is not None and ply % 2 == first_own
            ]
    return tallies


def elo_difference(score: float) -> float | None:
    """The Elo difference a score fraction (0..1) implies; None at 0 or 1 (unbounded)."""
    if not 0 < score < 1:
        return None
    return -400 * math.log10(1 / score - 1)


def wilson_interval(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a score fraction over `games` (draws count half)."""
    if games <= 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * games)) / (1 + z * z / games)
    half = (
        z
        * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games))
        / (1 + z * z / games)
    )
    return max(0.0, centre - half), min(1.0, centre + half)


def summary_text(tallies: Sequence[Tally], games: int, times_s: Sequence[float],
                 rule: Rule) -> str:
    pace = f"{times_s[0]:g} s per move"
    if times_s[1] != times_s[0]:
        pace += f" for {tallies[0].name}, {times_s[1]:g} s for {tallies[1].name}"
    lines = [f"{games} games, {pace}, rule {rule.value}"]
    header = f"{'engine':<28} {'W':>4} {'L':>4} {'D':>4}  {'as black W/L/D':>15}  {'as white W/L/D':>15}  {'avg s':>6} {'max s':>6}"
    lines.append(header)
    for t in tallies:
        black = "/".join(map(str, t.by_color["black"]))
        white = "/".join(map(str, t.by_color["white"]))
        lines.append(
            f"{t.name:<28} {t.wins:>4} {t.losses:>4} {t.draws:>4}  {black:>15}  {white:>15}  "
            f"{t.average_time:>6.3f} {t.max_time:>6.3f}"
        )
        if t.losses_by_reason:
            reasons = ", ".join(
                f"{reason} {count}" for reason, count in sorted(t.losses_by_reason.items())
            )
            lines.append(f"{'':<28} lost without a five: {reasons}")
    first = tallies[0]
    if games:
        score = (first.wins + first.draws / 2) / games
        elo = elo_difference(score)
        elo_text = f"{round(elo):+d}" if elo is not None else ("+inf" if score >= 1 else "-inf")
        low, high = wilson_interval(score, games)
        lines.append(
            f"{first.name} scores {100 * score:.1f}% (Elo difference {elo_text}; "
            f"95% interval {100 * low:.1f}-{100 * high:.1f}%)"
        )
    return "\n".join(lines)


def record_of(
    result: GameResult, names: Sequence[str], rule: Rule, size: int, times_s: Sequence[float]
) -> GameRecord:
    """The game as a gomoku.core.records GameRecord; the arena's own reason sits in `extra`.

    A loss by timeout keeps Reason "timeout"; an illegal move, a bad reply, a crash or a
    refused START is recorded as a forfeit ("resign").
    """
    if result.winner is None:
        verdict = "draw"
    else:
        verdict = "black" if result.winner == result.black else "white"
    reason = result.reason if result.reason in ("five", "full_board", "timeout") else "resign"
    return GameRecord(
        rule=rule,
        size=size,
        black=names[result.black],
        white=names[1 - result.black],
        moves=list(result.moves),
        times=[0.0 if seconds is None else seconds for seconds in result.times],
        result=verdict,
        reason=reason,
        date=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        extra={
            "arena": {
                "game": result.index + 1,
                "reason": result.reason,
                "detail": result.detail,
                "opening_stones": len(result.opening),
                "time_per_move_s": times_s[0],  # engine 1's
                "time2_per_move_s": times_s[1],  # engine 2's
            }
        },
    )


def save_game(
    result: GameResult, names: Sequence[str], rule: Rule, size: int, times_s: Sequence[float],
    out: Path,
) -> Path:
    """Saves one game in the project's record format, and as Piskvork .psq beside it."""
    record = record_of(result, names, rule, size, times_s)
    path = out / f"game-{result.index + 1:03d}{RECORD_SUFFIX}"
    save_record(record, path)
    save_record(record, path.with_suffix(PSQ_SUFFIX))
    return path


@dataclass(frozen=True)
class ArenaConfig:
    engines: tuple[str, str]
    games: int
    time_s: float
    rule: Rule
    size: int
    seed: int
    out: Path
    jobs: int
    opening_stones: int
    tolerance_s: float
    balance: int = 0  # keep openings our engine scores within +-balance (0: any random one)
    openings_file: Path | None = None  # a fixed opening set; None: random openings
    time2_s: float | None = None  # engine 2's time per move; None: time_s
    nodes2: int | None = None  # engine 2's node limit (INFO max_node); None: its clock only
    depth1: int | None = None  # engine 1's depth limit (INFO max_depth); None: its clock only

    @property
    def times_s(self) -> tuple[float, float]:
        """Each engine's time per move: its INFO timeout_turn and the limit it forfeits past."""
        return self.time_s, self.time_s if self.time2_s is None else self.time2_s

    @property
    def infos(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Each engine's INFO lines beyond the clock and the rule."""
        first = () if self.depth1 is None else (f"INFO max_depth {self.depth1}",)
        return first, () if self.nodes2 is None else (f"INFO max_node {self.nodes2}",)


def run_arena(config: ArenaConfig, report: IO[str] = sys.stdout) -> list[GameResult]:
    """Plays every game (in `jobs` parallel pairs of processes), saves them, prints a summary."""
    config.out.mkdir(parents=True, exist_ok=True)
    names = engine_names(config.engines)
    commands = [engine_command(spec) for spec in config.engines]
    rng = random.Random(config.seed)
    count = (config.games + 1) // 2
    if config.openings_file is not None:
        chosen = read_openings(config.openings_file, config.size, config.rule)
        openings = [chosen[i % len(chosen)] for i in range(count)]  # wraps if too few
        print(f"openings: {min(count, len(chosen))} of the {len(chosen)} in "
              f"{config.openings_file}, in order", file=report, flush=True)
    elif config.balance > 0 and config.opening_stones > 0:
        openings, drawn = balanced_openings(rng, config.size, config.opening_stones, config.rule,
                                            count, config.balance)
        print(f"openings: {count} kept of {drawn} drawn (hard's depth-{BALANCE_DEPTH} score "
              f"within +-{config.balance})", file=report, flush=True)
    else:
        openings = [random_opening(rng, config.size, config.opening_stones) for _ in range(count)]
    if config.nodes2 is not None:
        print(f"{names[1]} is sent INFO max_node {config.nodes2}", file=report, flush=True)
    if config.depth1 is not None:
        print(f"{names[0]} is sent INFO max_depth {config.depth1}", file=report, flush=True)
    pending: queue.Queue[int] = queue.Queue()
    for index in range(config.games):
        pending.put(index)
    results: list[GameResult] = []
    lock = threading.Lock()
    announced: set[int] = set()  # the engines whose START words are in the report

    def job(slot: int) -> None:
        logs = [
            open(config.out / f"engine{e + 1}-job{slot + 1}.log", "a", encoding="utf-8")
            for e in (0, 1)
        ]
        engines: list[BrainProcess | None] = [None, None]
        try:
            while True:
                try:
                    index = pending.get_nowait()
                except queue.Empty:
                    return
                result = _play_one(index, engines, commands, logs, openings[index // 2], config)
                save_game(result, names, config.rule, config.size, config.times_s, config.out)
                with lock:
                    for number, engine in enumerate(engines):
                        if engine is not None and engine.started and number not in announced:
                            announced.add(number)
                            print(said_at_start(names[number], engine.start_messages),
                                  file=report, flush=True)
                    results.append(result)
                    print(_game_line(result, names), file=report, flush=True)
        finally:
            for engine in engines:
                if engine is not None:
                    engine.close()
            for log in logs:
                log.close()

    with ThreadPoolExecutor(max_workers=max(1, config.jobs)) as pool:
        for future in [pool.submit(job, slot) for slot in range(max(1, config.jobs))]:
            future.result()
    results.sort(key=lambda r: r.index)
    tallies = tally(results, names)
    print(summary_text(tallies, len(results), config.times_s, config.rule), file=report, flush=True)
    summary = {
        "engines": dict(zip(names, config.engines, strict=True)),
        "games": len(results),
        "time_per_move_s": config.time_s,
        "time2_per_move_s": config.times_s[1],
        "nodes2": config.nodes2,
        "depth1": config.depth1,
        "rule": config.rule.value,
        "size": config.size,
        "seed": config.seed,
        "balance": config.balance,
        "openings_file": str(config.openings_file) if config.openings_file else None,
        "openings": [opening_text(opening, config.size) for opening in openings],
        "tallies": [
            {
                **asdict(t),
                "average_time": t.average_time,
                "max_time": t.max_time,
                "move_times": None,
            }
            for t in tallies
        ],
    }
    (config.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return results


def _play_one(
    index: int,
    engines: list[BrainProcess | None],
    commands: list[list[str]],
    logs: list[IO[str]],
    opening: tuple[Point, ...],
    config: ArenaConfig,
) -> GameResult:
    """One game on this job's processes, (re)starting an engine whose state is unknown."""
    black = index % 2  # each opening is played twice, colours swapped
    for number in (0, 1):
        try:
            if engines[number] is None:
                engines[number] = BrainProcess(commands[number], logs[number],
                                               config.infos[number])
            engines[number].start(config.size, config.rule, config.times_s[number])
        except (BrainFailure, OSError) as failure:
            if engines[number] is not None:
                engines[number].close()
            engines[number] = None
            if isinstance(failure, OSError):
                failure = BrainFailure("crash", f"cannot start the engine: {failure}")
            return GameResult(
                index,
                black,
                opening,
                opening,
                (None,) * len(opening),
                1 - number,
                failure.reason,
                failure.detail,
            )
    for log in logs:  # where each game's lines begin (tools/advantage.py reads them)
        log.write(f"{GAME_MARK}{index + 1}\n")
        log.flush()
    result = play_game(
        index, engines, black, opening, config.rule, config.size, config.times_s, config.tolerance_s
    )
    if result.reason not in ("five", "full_board"):
        for number in (0, 1):  # a late or broken engine may still be talking: start afresh
            engines[number].close()
            engines[number] = None
    return result


def _game_line(result: GameResult, names: Sequence[str]) -> str:
    black, white = names[result.black], names[1 - result.black]
    if result.winner is None:
        verdict = "draw"
    else:
        verdict = f"{names[result.winner]} wins"
    detail = f" ({result.detail})" if result.detail else ""
    plies = len(result.moves)
    return f"game {result.index + 1}: {black} (black) vs {white} (white): {verdict} by {result.reason}{detail}, {plies} stones"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Play games between two Gomocup brains and print the score.",
        epilog="ENGINE is easy, medium or hard (our pbrain-gomoku at that level) or a brain command line.",
    )
    parser.add_argument("engine1", metavar="ENGINE1")
    parser.add_argument("engine2", metavar="ENGINE2")
    parser.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    parser.add_argument("--time", type=float, default=0.3, help="seconds per move (default 0.3)")
    parser.add_argument(
        "--time2",
        type=float,
        metavar="SECONDS",
        help="seconds per move for ENGINE2 (its INFO timeout_turn, and it forfeits past it plus "
        "--tolerance), e.g. for an engine that searches to a fixed depth; ENGINE1 keeps --time "
        "(default: --time)",
    )
    parser.add_argument(
        "--nodes2",
        type=int,
        metavar="N",
        help="send ENGINE2 `INFO max_node N` too (Rapfi stops searching at N nodes): an opponent "
        "whose strength does not depend on the machine's load",
    )
    parser.add_argument(
        "--depth1",
        type=int,
        metavar="N",
        help="send ENGINE1 `INFO max_depth N` (ours and Rapfi stop deepening there): a move "
        "it finishes within --time repeats exactly whatever the machine's load, so two "
        "versions meet the same opponent moves where they agree, for tuning",
    )
    parser.add_argument("--rule", choices=[rule.value for rule in RULE_CODES], default="freestyle")
    parser.add_argument("--size", type=int, default=15, help="board size (default 15)")
    parser.add_argument(
        "--seed", type=int, default=1, help="random seed for the openings (default 1)"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("arena-out"), help="folder for the records"
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument(
        "--opening-stones", type=int, default=3, help="random stones to start from (default 3)"
    )
    parser.add_argument(
        "--openings",
        metavar="FILE",
        help="play the openings of FILE in order (one a line in move notation, see "
        "tools/openings); default: tools/openings/<rule>-<size>.txt if it exists, else random "
        "openings; 'random' for random ones (--opening-stones, --balance, --seed)",
    )
    parser.add_argument(
        "--balance",
        type=int,
        default=450,
        help="keep only openings our hard engine scores within +-N at depth 6, so neither side "
        "starts clearly winning (default 450; 0: any random opening)",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=0.1,
        help="seconds allowed over the time per move (default 0.1)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.time <= 0:
        parser.error("--time must be positive")
    if args.time2 is not None and args.time2 <= 0:
        parser.error("--time2 must be positive")
    if args.nodes2 is not None and args.nodes2 < 1:
        parser.error("--nodes2 must be at least 1")
    if args.depth1 is not None and args.depth1 < 1:
        parser.error("--depth1 must be at least 1")
    if not 15 <= args.size <= 20:
        parser.error("--size must be 15 to 20")
    if args.balance < 0:
        parser.error("--balance must be 0 or more")
    if not 0 <= args.opening_stones <= 2 * OPENING_RADIUS + 1:
        parser.error(f"--opening-stones must be 0 to {2 * OPENING_RADIUS + 1}")
    rule = Rule(args.rule)
    if args.openings == "random":
        openings_file = None
    elif args.openings is not None:
        openings_file = Path(args.openings)
        if not openings_file.is_file():
            parser.error(f"no opening file {args.openings}")
    else:
        openings_file = default_openings_file(rule, args.size)
    if openings_file is not None:
        try:
            read_openings(openings_file, args.size, rule)
        except ValueError as error:
            parser.error(str(error))
    try:
        engines = (args.engine1, args.engine2)
        for spec in engines:
            engine_command(spec)
    except ValueError as error:
        parser.error(str(error))
    config = ArenaConfig(
        engines=engines,
        games=args.games,
        time_s=args.time,
        rule=rule,
        size=args.size,
        seed=args.seed,
        out=args.out,
        jobs=args.jobs,
        opening_stones=args.opening_stones,
        tolerance_s=args.tolerance,
        balance=args.balance,
        openings_file=openings_file,
        time2_s=args.time2,
        nodes2=args.nodes2,
        depth1=args.depth1,
    )
    try:
        run_arena(config)
    except ValueError as error:  # too few balanced openings
        parser.error(f"{error}; raise --balance or use fewer --opening-stones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
