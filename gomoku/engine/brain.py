"""`pbrain-gomoku`: the Gomocup (Piskvork) brain protocol over stdin/stdout, on the driver.

`Brain` turns one input line into reply lines and never touches I/O, so the protocol is
testable without a subprocess; `main` is the thin loop around it. Coordinates are x,y,
0-based, x the column. Commands:

- Gomocup: START, RECTSTART (refused: square boards only), RESTART, BEGIN, TURN,
  BOARD...DONE, INFO, END, ABOUT, TAKEBACK.
- Yixin extensions: YXBOARD...DONE (set a position, no reply), YXSHOWFORBID, YXHASHCLEAR
  (forget what the search learnt, no reply) and YXSTOP (no reply: the brain thinks
  synchronously, so nothing is running when it is read).
- INFO keys: timeout_turn, timeout_match, time_left (ms); rule (a bit mask: 0 freestyle,
  1 exactly five, 4 renju; bit 2, continuous game, is accepted and the base rule played,
  since the brain plays one game at a time; caro (8) and other values are refused with
  ERROR and the rule in force is kept); our own `level easy|medium|hard` and `max_depth N`
  (the deepest iteration, as Rapfi reads it; 0: none): with a turn time it is sure to
  finish in, every move is the same whatever the machine's load, for tuning. max_memory is
  accepted and ignored (the largest table, hard's, is 32 MiB), as are game_type, folder
  and any other key.

START, RESTART and YXHASHCLEAR all begin afresh: the transposition tables and history of the
thread that searches (the one calling `handle`) are dropped.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import metadata
from typing import TextIO

from gomoku.core import MAX_SIZE, MIN_SIZE, Board, Color, IllegalMoveError, Point, Rule
from gomoku.core.inputs import InputError, clean_text, parse_clamped_int
from gomoku.engine import driver
from gomoku.engine.api import DEFAULT_BUDGET_S, Level, Position, SearchLimit, SearchResult, StopFlag
from gomoku.engine.prepare import PreparedEngine

BRAIN_NAME = "gomoku"
AUTHOR = "the gomoku team"
COUNTRY = "unknown"

# Time control: what the brain keeps back from the manager's limits, in seconds.
FIXED_OVERHEAD_S = 0.03  # process, pipe and Python work around the search
RELATIVE_OVERHEAD = 0.05  # grows with the budget: scheduling noise on a busy machine
DRIVER_SLACK = 1.0  # none: the driver's own clock stops the search at 95% of its budget
FAST_TURN_S = 0.05  # `timeout_turn 0` means "play as fast as possible"
MIN_THINK_S = 0.01
MIN_MOVES_LEFT = 12  # a move's share of the match clock: over at least this many more moves
MAX_SHARE_MOVES = 7  # a hard move may take up to the match clock over this many moves
WATCHDOG_FACTOR = 1.05  # the stop flag is raised shortly after the budget, as a guard
MAX_DEPTH = driver.LEVELS[Level.HARD].max_depth  # INFO max_depth above this is this
MAX_INFO_NUMBER = 2**31 - 1  # INFO numbers are clamped to a C int, as managers send them
MAX_LINE_CHARS = 4096  # a longer input line is dropped unread (the protocol's longest are paths)
MAX_INFO_KEYS = 64  # INFO keys kept for the record; the protocol and Yixin's have some 20

RULE_BITS = {0: Rule.FREESTYLE, 1: Rule.STANDARD, 4: Rule.RENJU}
"""Gomocup `INFO rule` values we play: 0 freestyle, 1 exactly five, 4 renju."""
CONTINUOUS_BIT = 2  # "continuous game": one game after another; we play each on its own
CARO_BIT = 8

_POINT = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_STONE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*$")

ThinkFunction = Callable[..., SearchResult]


class ProtocolError(ValueError):
    """A command the brain refuses; the message is sent after `ERROR `."""


@dataclass
class TimeControl:
    """The manager's clock settings in milliseconds (None: never sent), and a depth limit."""

    timeout_turn_ms: int | None = None
    timeout_match_ms: int = 0  # 0: no match limit
    time_left_ms: int | None = None
    max_depth: int = 0  # INFO max_depth: the deepest iteration (0: none)

    def _match_left_s(self) -> float | None:
        if self.timeout_match_ms <= 0:
            return None
        left_ms = self.time_left_ms if self.time_left_ms is not None else self.timeout_match_ms
        return max(left_ms, 0) / 1000

    def available_s(self, level: Level, ply: int) -> float:
        """The wall time this move may take at most, before any safety margin: the turn limit
        and, for hard, the match clock over MAX_SHARE_MOVES moves (easy and medium: over the
        moves left, see `share_s`)."""
        limits = []
        if self.timeout_turn_ms is not None:
            limits.append(self.timeout_turn_ms / 1000 if self.timeout_turn_ms > 0 else FAST_TURN_S)
        left_s = self._match_left_s()
        if left_s is not None:
            limits.append(left_s / MAX_SHARE_MOVES if level is Level.HARD else self._share(left_s, ply))
        if not limits:
            return DEFAULT_BUDGET_S[level]
        return min(limits)

    @staticmethod
    def _share(left_s: float, ply: int) -> float:
        return left_s / max(MIN_MOVES_LEFT, 35 - ply // 2)

    def _budget(self, available: float, level: Level) -> float:
        budget = (available - FIXED_OVERHEAD_S - RELATIVE_OVERHEAD * available) / DRIVER_SLACK
        if level is not Level.HARD:  # easy and medium play at their own pace, even in a long game
            budget = min(budget, DEFAULT_BUDGET_S[level])
        return max(budget, MIN_THINK_S)

    def think_s(self, level: Level, ply: int) -> float:
        """The search budget: available time less overhead, capped by the level's own pace."""
        return self._budget(self.available_s(level, ply), level)

    def target_s(self, level: Level, ply: int) -> float | None:
        """What a hard move should take under a match clock: its share of the time left over
        the moves to come (less overhead), so that a move that can stop early saves time for
        later ones; None when that is the whole budget (no match clock: use the turn)."""
        left_s = self._match_left_s()
        if left_s is None or level is not Level.HARD:
            return None
        target = self._budget(self._share(left_s, ply), level)
        return target if target < self.think_s(level, ply) else None


def parse_point(text: str, size: int) -> Point:
    """`"x,y"` as a point on a board of `size`; ProtocolError if malformed or off the board."""
    match = _POINT.match(text)
    if match is None:
        raise ProtocolError(f"expected x,y but got {text.strip()[:40]!r}")
    x, y = (parse_clamped_int(group, -1, MAX_SIZE) for group in match.groups())
    if not (0 <= x < size and 0 <= y < size):
        raise ProtocolError(f"{x},{y} is off the {size}x{size} board")
    return x, y


def parse_rule(text: str) -> Rule:
    """A Gomocup rule bit mask as a Rule; ProtocolError for values we do not play.

    The continuous-game bit (2) is dropped: each game is played on its own under its base rule.
    """
    try:
        value = parse_clamped_int(text, -1, MAX_INFO_NUMBER)
    except InputError:
        raise ProtocolError(f"rule must be a number, not {text[:40]!r}") from None
    base = value & ~CONTINUOUS_BIT
    if base in RULE_BITS:
        return RULE_BITS[base]
    played = "we play 0 freestyle, 1 exactly five or 4 renju, each optionally + 2 continuous"
    if value > 0 and value & CARO_BIT:
        raise ProtocolError(f"rule {value} asks for caro (8), which is not supported; {played}")
    raise ProtocolError(f"rule {value} is not supported; {played}")


def parse_level(text: str) -> Level:
    try:
        return Level(text.strip().lower())
    except ValueError:
        choices = ", ".join(level.value for level in Level)
        raise ProtocolError(f"level must be one of {choices}, not {text[:40]!r}") from None


def board_from_stones(stones: list[tuple[int, int, int]], size: int, rule: Rule) -> Board:
    """The position from BOARD lines (x, y, field: 1 own, 2 opponent), own side to move.

    Stones of each side keep their given order and are interleaved black first.
    """
    own = [(x, y) for x, y, field in stones if field == 1]
    opponent = [(x, y) for x, y, field in stones if field == 2]
    if len(own) == len(opponent):
        black, white = own, opponent
    elif len(opponent) == len(own) + 1:
        black, white = opponent, own
    else:
        raise ProtocolError(
            f"{len(own)} own and {len(opponent)} opponent stones cannot come from alternate "
            "moves with us to play"
        )
    moves: list[Point] = []
    for index, point in enumerate(black):
        moves.append(point)
        if index < len(white):
            moves.append(white[index])
    try:
        board = Board.from_moves(moves, size, rule)
    except IllegalMoveError as error:
        raise ProtocolError(f"the position is not legal: {error}") from None
    return board


def nearest_legal(board: Board) -> Point:
    """A safe fallback: the legal point nearest the last stone (or the centre)."""
    legal = board.legal_moves()
    if not legal:
        raise ProtocolError("no legal move left")
    centre = board.size // 2
    cx, cy = board.last_move or (centre, centre)
    return min(
        legal,
        key=lambda p: (
            max(abs(p[0] - cx), abs(p[1] - cy)),
            abs(p[0] - centre) + abs(p[1] - centre),
            p,
        ),
    )


def about_line() -> str:
    try:
        version = metadata.version("gomoku")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return f'name="{BRAIN_NAME}", version="{version}", author="{AUTHOR}", country="{COUNTRY}"'


_State = tuple[Board | None, int, Rule, Level, TimeControl, dict[str, str]]
"""What a failed command must leave as it was: board (and its ply), rule, level, clock, INFO."""


class Brain:
    """The protocol state machine: `handle(line)` returns the reply lines for one input line.

    Never raises for bad input: a refused command gives `ERROR <reason>`, an unknown one
    `UNKNOWN <text>`, and a command that fails changes nothing (board, rule, level, clock).
    Numbers are clamped (INFO values to 0..MAX_INFO_NUMBER). `finished` turns True after
    END. Not thread-safe.
    """

    def __init__(
        self,
        level: Level = Level.HARD,
        think: ThinkFunction = driver.think,
        warm_up: Callable[[], None] = driver.warm_up,
        new_game: Callable[[], None] = driver.new_game,
    ) -> None:
        self.level = level
        self.rule = Rule.FREESTYLE
        self.clock = TimeControl()
        self.board: Board | None = None
        self.finished = False
        self.info: dict[str, str] = {}  # every INFO key as last sent, for the record
        self._think = think
        self._warm_up = warm_up
        self._new_game = new_game
        self._warmed = False
        self._block: str | None = None  # "BOARD" or "YXBOARD" while reading stone lines
        self._stones: list[tuple[int, int, int]] = []
        self._block_error: str | None = None

    # --- dispatch ----------------------------------------------------------------------

    def handle(self, line: str) -> list[str]:
        """The replies to one line of input (possibly none)."""
        text = line.strip()
        if not text:
            return []
        saved = self._saved_state()
        try:
            if self._block is not None:
                return self._block_line(text)
            command, *rest = text.split(None, 1)
            handler = self._handlers().get(command.upper())
            if handler is None:
                # echoed printable only: a manager or a terminal shows this line as it is
                return [f"UNKNOWN command not understood: {clean_text(text, 80) or '?'}"]
            return handler(rest[0].strip() if rest else "")
        except ProtocolError as error:
            self._restore_state(saved)
            return [f"ERROR {error}"]
        except Exception as error:  # never crash the brain: the manager would score a loss
            self._restore_state(saved)
            return [f"ERROR internal error: {type(error).__name__}: {str(error)[:200]}"]

    def overlong_line(self) -> list[str]:
        """The reply to a line longer than MAX_LINE_CHARS, which `serve` dropped unread: inside
        a BOARD block a bad stone line (reported at DONE), elsewhere an error."""
        reason = f"a line longer than {MAX_LINE_CHARS} characters"
        if self._block is not None:
            if self._block_error is None:
                self._block_error = reason
            return []
        return [f"ERROR {reason} was ignored"]

    def _saved_state(self) -> _State:
        board = self.board
        ply = board.ply if board is not None else 0
        return board, ply, self.rule, self.level, replace(self.clock), dict(self.info)

    def _restore_state(self, saved: _State) -> None:
        """Undo what a failed command changed: a TURN's stone does not stay on the board."""
        board, ply, self.rule, self.level, self.clock, self.info = saved
        self.board = board
        if board is not None:
            while board.ply > ply:
                board.pop()

    def _handlers(self) -> dict[str, Callable[[str], list[str]]]:
        return {
            "START": self._start,
            "RECTSTART": self._rectstart,
            "RESTART": self._restart,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "BOARD": self._open_block,
            "YXBOARD": self._open_block_yx,
            "INFO": self._info,
            "END": self._end,
            "ABOUT": lambda _: [about_line()],
            "TAKEBACK": self._takeback,
            "YXSHOWFORBID": self._show_forbid,
            "YXHASHCLEAR": self._hash_clear,
            "YXSTOP": lambda _: [],  # nothing runs between commands: the search is synchronous
        }

    # --- commands ----------------------------------------------------------------------

    def _start(self, argument: str) -> list[str]:
        try:
            size = parse_clamped_int(argument, 0, MAX_SIZE + 1)
        except InputError:
            raise ProtocolError(f"START needs a board size, not {argument[:40]!r}") from None
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(
                f"unsupported size {size}: boards from {MIN_SIZE} to {MAX_SIZE} only"
            )
        messages = []
        if not self._warmed:  # compile now, so the first move is answered in time
            self._warmed = True
            try:
                self._warm_up()
            except Exception as error:  # moves still come (the search's fallback): play on
                messages.append(f"MESSAGE engine warm-up failed ({type(error).__name__}: {error})")
        self._new_game()
        self.board = Board(size, self.rule)
        return [*messages, "OK"]

    def _rectstart(self, argument: str) -> list[str]:
        raise ProtocolError("rectangular boards are not supported")

    def _restart(self, argument: str) -> list[str]:
        board = self._require_board()
        self._new_game()  # what the search learnt in the last game does not carry over
        self.board = Board(board.size, self.rule)
        return ["OK"]

    def _begin(self, argument: str) -> list[str]:
        board = self._require_board()
        if board.ply:
            raise ProtocolError("BEGIN on a board that already has stones; send RESTART first")
        return self._reply_move(board)

    def _turn(self, argument: str) -> list[str]:
        board = self._require_board()
        x, y = parse_point(argument, board.size)
        self._push(board, x, y)
        return self._reply_move(board)

    def _open_block(self, argument: str) -> list[str]:
        return self._begin_block("BOARD")

    def _open_block_yx(self, argument: str) -> list[str]:
        return self._begin_block("YXBOARD")

    def _begin_block(self, kind: str) -> list[str]:
        self._require_board()
        self._block, self._stones, self._block_error = kind, [], None
        return []

    def _block_line(self, text: str) -> list[str]:
        if text.upper() != "DONE":
            if self._block_error is None:  # report the first bad line at DONE
                self._block_error = self._add_stone(text)
            return []
        kind, stones, error = self._block, self._stones, self._block_error
        self._block, self._stones, self._block_error = None, [], None
        if error is not None:
            raise ProtocolError(f"{kind}: {error}")
        board = self._require_board()
        if any(field == 3 for _, _, field in stones):
            raise ProtocolError(f"{kind}: continuous-game stones (field 3) are not supported")
        self.board = board_from_stones(stones, board.size, self.rule)
        return self._reply_move(self.board) if kind == "BOARD" else []

    def _add_stone(self, text: str) -> str | None:
        """Adds one `x,y,field` line; returns why it is refused, or None."""
        match = _STONE.match(text)
        if match is None:
            return f"expected x,y,field but got {text[:40]!r}"
        x, y, field = (parse_clamped_int(group, -1, MAX_SIZE) for group in match.groups())
        size = self.board.size if self.board is not None else MAX_SIZE
        if not (0 <= x < size and 0 <= y < size):
            return f"{x},{y} is off the {size}x{size} board"
        if field not in (1, 2, 3):
            return f"field must be 1, 2 or 3, not {field}"
        if any((sx, sy) == (x, y) for sx, sy, _ in self._stones):
            return f"{x},{y} is given twice"
        self._stones.append((x, y, field))
        return None

    def _info(self, argument: str) -> list[str]:
        key, *rest = argument.split(None, 1) or [""]
        key, value = key.lower(), (rest[0].strip() if rest else "")
        if key in ("timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "max_depth"):
            try:
                number = parse_clamped_int(value, 0, MAX_INFO_NUMBER)
            except InputError:
                raise ProtocolError(f"INFO {key} needs a number, not {value[:40]!r}") from None
            if key == "timeout_turn":
                self.clock.timeout_turn_ms = number
            elif key == "timeout_match":
                self.clock.timeout_match_ms = number
            elif key == "time_left":
                self.clock.time_left_ms = number
            elif key == "max_depth":
                self.clock.max_depth = min(number, MAX_DEPTH)
        elif key == "rule":
            self._set_rule(parse_rule(value))
        elif key == "level":
            self.level = parse_level(value)
        if key[:40] in self.info or len(self.info) < MAX_INFO_KEYS:
            self.info[key[:40]] = value[:256]  # other keys (folder, evaluate, ...) need nothing from us
        return []

    def _set_rule(self, rule: Rule) -> None:
        self.rule = rule
        if self.board is not None and self.board.rule is not rule:
            try:
                self.board = Board.from_moves(self.board.moves, self.board.size, rule)
            except IllegalMoveError as error:
                raise ProtocolError(
                    f"the stones on the board break rule {rule.value}: {error}"
                ) from None

    def _end(self, argument: str) -> list[str]:
        self.finished = True
        return []

    def _takeback(self, argument: str) -> list[str]:
        board = self._require_board()
        point = parse_point(argument, board.size)
        if board.last_move != point:
            raise ProtocolError(f"TAKEBACK {point[0]},{point[1]} is not the last stone played")
        board.pop()
        return ["OK"]

    def _hash_clear(self, argument: str) -> list[str]:
        self._new_game()  # the search runs on this thread, whose tables new_game drops
        return []

    def _show_forbid(self, argument: str) -> list[str]:
        board = self._require_board()
        points = sorted(board.forbidden_points(), key=lambda p: (p[1], p[0]))
        return ["FORBID " + "".join(f"{x:02d}{y:02d}" for x, y in points) + "."]

    # --- helpers -----------------------------------------------------------------------

    def _require_board(self) -> Board:
        if self.board is None:
            raise ProtocolError("no game yet: send START first")
        return self.board

    @staticmethod
    def _push(board: Board, x: int, y: int) -> None:
        try:
            board.push(x, y)
        except IllegalMoveError as error:
            raise ProtocolError(str(error)) from None

    def _reply_move(self, board: Board) -> list[str]:
        """Think for the side to move, play the move on our board, and reply it."""
        outcome = board.outcome()
        if outcome is not None:
            winner = outcome.winner.label if outcome.winner is not None else "nobody"
            raise ProtocolError(f"the game is already over ({outcome.reason.value}, {winner} won)")
        messages, move = self._search(board)
        board.push(*move)
        return [*messages, f"{move[0]},{move[1]}"]

    def _search(self, board: Board) -> tuple[list[str], Point]:
        budget = self.clock.think_s(self.level, board.ply)
        target = self.clock.target_s(self.level, board.ply)
        stop = StopFlag()
        # The last moment to stop and still answer in time, if the driver overran its budget.
        latest = self.clock.available_s(self.level, board.ply) - FIXED_OVERHEAD_S
        watchdog = threading.Timer(max(min(budget * WATCHDOG_FACTOR, latest), budget), stop.set)
        watchdog.daemon = True
        began = time.monotonic()
        watchdog.start()
        try:
            result = self._think(
                Position.from_board(board), self.level,
                SearchLimit(budget, max_depth=self.clock.max_depth or None, target_s=target),
                stop=stop,
            )
        except (
            Exception
        ) as error:  # a move in time beats an error: the manager scores both as a loss
            return [
                f"MESSAGE engine failed ({type(error).__name__}: {error}); playing a safe move"
            ], nearest_legal(board)
        finally:
            watchdog.cancel()
        elapsed = time.monotonic() - began
        if not board.is_legal(*result.move):
            return [
                f"MESSAGE engine chose illegal {result.move}; playing a safe move"
            ], nearest_legal(board)
        return [describe(result, elapsed, budget, board.to_move)], result.move


def describe(result: SearchResult, elapsed: float, budget: float, color: Color) -> str:
    """One MESSAGE line summing up a search for the manager's log."""
    pv = " ".join(f"{x},{y}" for x, y in result.pv[:8])
    return (
        f"MESSAGE {color.label} depth {result.depth} score {result.score} nodes {result.nodes} "
        f"time {elapsed:.3f}s of {budget:.3f}s ({result.info.get('kind', 'search')})"
        + (f" pv {pv}" if pv else "")
    )


def serve(brain: Brain, stdin: TextIO, stdout: TextIO) -> None:
    """Read lines (a longer one than MAX_LINE_CHARS is dropped unread) until END or end of
    input, writing and flushing the replies to each."""
    while not brain.finished:
        line = stdin.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # the rest, a bounded piece at a time
                line = stdin.readline(MAX_LINE_CHARS + 1)
            replies = brain.overlong_line()
        else:
            replies = brain.handle(line)
        if replies:
            stdout.write("".join(reply + "\n" for reply in replies))
            stdout.flush()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pbrain-gomoku",
        description=(
            "Gomocup/Piskvork brain: speaks the pbrain protocol on stdin/stdout "
            "(START, RESTART, BEGIN, TURN, BOARD, INFO, END, ABOUT, TAKEBACK, YXBOARD, "
            "YXSHOWFORBID, YXHASHCLEAR, YXSTOP)."
        ),
        epilog="The manager's 'INFO level easy|medium|hard' overrides --level.",
    )
    parser.add_argument(
        "--level",
        choices=[level.value for level in Level],
        default=Level.HARD.value,
        help="playing strength (default: hard)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """The `pbrain-gomoku` console script."""
    args = build_parser().parse_args(argv)
    stdout = sys.stdout
    sys.stdout = sys.stderr  # a stray print anywhere must not corrupt the protocol stream
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # a bad byte is a bad command, not a crash
    # A cold cache compiles in child processes; meanwhile moves come from the stand-in.
    engine = PreparedEngine()
    try:
        serve(Brain(level=Level(args.level), think=engine.think, warm_up=engine.start),
              sys.stdin, stdout)
    except KeyboardInterrupt:
        pass
    finally:
        engine.close()
        sys.stdout = stdout
    return 0


if __name__ == "__main__":
    sys.exit(main())
