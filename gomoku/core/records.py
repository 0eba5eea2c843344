"""Game records: the project's own readable text format, and Piskvork's `.psq`.

Own format (UTF-8 text, suffix `.gomoku`), one header line per field, then one move per line:

    Gomoku record 1
    Rule: freestyle
    Size: 15
    Black: Ann
    White: Computer
    Result: black
    Reason: five
    Date: 2026-11-22T06:10:00+00:00
    Extra: {"players": {"black": {"kind": "human", "level": null}, ...}}
    Move count: 2

    Moves:
    1. h8 2.350
    2. i9 0.512

- The first line names the format and its version. Header keys are case-insensitive; unknown
  keys are ignored; Rule and Size are required. A value that would not survive a line of its
  own (leading/trailing spaces, control characters, a leading quote) is written as a JSON string.
- `Result` is black, white, draw or empty (unfinished); `Reason` is five, resign, timeout,
  disconnect, full_board or empty. `Extra` is one line of JSON (free-form data for the UI's
  autosave; `players`, `time_control` and `clock` are filled by `from_game`).
- `Move count` (written since this header was added; optional on reading) lets a file cut
  short after a line be reported as truncated; so does a missing `Moves:` line.
- Move lines: number, point in "h8" notation (column letter from the left, row from the
  bottom), seconds the move took (optional). Lines starting with `#` are comments.

Piskvork `.psq`: a header `Piskvorky 15x15, 0:0, 0`, one line `x,y,time_ms` per move (1-based,
x from the left, y from the top), then the two players' names and a code. The rule is not
stored (a Gomocup line such as `0,Renju` is recognised on import); the result is read off the
board. Loading replays every move through Board.push, so an illegal move is an error too.

Both readers follow gomoku.core.inputs: a regular file of at most MAX_RECORD_BYTES, no raw
control characters (a NUL is an error naming its line), JSON of bounded nesting and numbers,
names cleaned to printable text of at most MAX_RECORD_NAME characters. Whatever the bytes,
loading raises RecordError (or OSError for a file that cannot be read), nothing else.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from gomoku.core.board import Board
from gomoku.core.clock import Clock, ClockState, TimeControl
from gomoku.core.files import write_atomic
from gomoku.core.game import OFF_BOARD_REASONS, Game, PlayerInfo, fits_board
from gomoku.core.inputs import InputError, clean_text, load_json, read_bounded
from gomoku.core.notation import NotationError, counted, format_point, parse_point
from gomoku.core.types import (
    MAX_SIZE,
    MIN_SIZE,
    Color,
    IllegalMoveError,
    Outcome,
    Point,
    Reason,
    Rule,
)

FORMAT_LINE = "Gomoku record"
FORMAT_VERSION = 1
RECORD_SUFFIX = ".gomoku"
PSQ_SUFFIX = ".psq"
MAX_RECORD_BYTES = 1024 * 1024  # a 20x20 game with long names is a few KiB
MAX_RECORD_NAME = 256  # room for an arena's engine command lines; a screen shows about 30
MAX_DIGITS = 9  # move numbers, coordinates and milliseconds: nothing real is longer
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")  # tab, CR, LF are fine; JSON escapes the rest
RESULTS = ("black", "white", "draw", "")
REASONS = tuple(reason.value for reason in Reason) + ("",)


class RecordError(ValueError):
    """A record that cannot be read or written; the message names the line and the problem."""

    def __init__(self, problem: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {problem}" if line is not None else problem)
        self.line = line
        self.problem = problem


@dataclass
class GameRecord:
    """One game as data: rule, size, names, moves with seconds taken, result, free-form extra."""

    rule: Rule = Rule.FREESTYLE
    size: int = 15
    black: str = "Black"
    white: str = "White"
    moves: list[Point] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # seconds per move, same length as moves
    result: str = ""  # "black", "white", "draw" or "" while unfinished
    reason: str = ""  # a Reason value, or "" while unfinished
    date: str = ""  # ISO 8601
    extra: dict[str, Any] = field(default_factory=dict)

    def replay(self) -> Board:
        """The board after all moves; RecordError naming the move if one is illegal or the
        stored result contradicts the board."""
        board = _new_board(self.size, self.rule, None)
        for index, point in enumerate(self.moves):
            _push(board, point, index, None)
        _check_result(board, self.result, self.reason, None)
        return board


# --- games <-> records ---------------------------------------------------------------------


def from_game(game: Game, now: float | None = None, date: str | None = None) -> GameRecord:
    """A record of `game` so far. With `now`, the clock state is kept in extra["clock"].

    A contested declared result (a LAN host's that the board does not bear out) is kept in
    extra["declared"]; the record's own result is the board's, so that the file loads again.
    """
    result, reason = _result_words(game.recorded_result)
    control = game.clock.control
    extra: dict[str, Any] = {
        "players": {
            color.label: {"kind": game.player(color).kind, "level": game.player(color).level}
            for color in Color
        },
        "time_control": {
            "game_s": control.game_s,
            "increment_s": control.increment_s,
            "move_s": control.move_s,
        },
    }
    if now is not None:
        extra["clock"] = game.clock.snapshot(now).to_dict()
    if game.contested:
        declared, declared_reason = _result_words(game.result)
        extra["declared"] = {"result": declared, "reason": declared_reason}
    return GameRecord(
        rule=game.board.rule,
        size=game.board.size,
        black=game.player(Color.BLACK).name,
        white=game.player(Color.WHITE).name,
        moves=list(game.board.moves),
        times=list(game.move_times),
        result=result,
        reason=reason,
        date=date if date is not None else datetime.now(timezone.utc).isoformat(timespec="seconds"),
        extra=extra,
    )


def _result_words(outcome: Outcome | None) -> tuple[str, str]:
    """(result, reason) as a record writes them: ("", "") while the game is open."""
    if outcome is None:
        return "", ""
    return (outcome.winner.label if outcome.winner is not None else "draw"), outcome.reason.value


def to_game(record: GameRecord) -> Game:
    """A Game in the record's position, players, clock and result (clock not started).

    Raises RecordError for illegal moves, a contradicting result or bad player/clock data.
    """
    board = record.replay()
    players = record.extra.get("players", {}) if isinstance(record.extra, dict) else {}
    infos = {}
    try:
        for color, name in ((Color.BLACK, record.black), (Color.WHITE, record.white)):
            data = players.get(color.label, {}) if isinstance(players, dict) else {}
            level = clean_text(data.get("level"), 16) if data.get("level") is not None else None
            infos[color] = PlayerInfo(name, data.get("kind", "human"), level)
        control = TimeControl(**record.extra.get("time_control", {}))
        if "clock" in record.extra:
            clock = Clock.restore(control, ClockState.from_dict(record.extra["clock"]))
        else:
            clock = Clock(control, board.to_move)
    except (TypeError, ValueError, AttributeError) as error:
        raise RecordError(f"bad player or clock data: {str(error)[:200]}") from None
    if clock.to_move is not board.to_move:
        raise RecordError(
            f"the saved clock has {clock.to_move.label} to move but the moves give {board.to_move.label}"
        )
    times = list(record.times) if len(record.times) == len(record.moves) else None
    game = Game(board, infos[Color.BLACK], infos[Color.WHITE], clock, times)
    if record.result and board.outcome() is None:
        loser = Color.WHITE if record.result == "black" else Color.BLACK
        if record.reason == Reason.RESIGN.value:
            game.resign(loser, 0.0)
        elif record.reason == Reason.TIMEOUT.value:
            game.timeout(loser)
        else:
            game.disconnect(loser)
    return game


# --- own format ----------------------------------------------------------------------------


def format_record(record: GameRecord) -> str:
    """The record as text in the own format (see the module docstring). Does not validate.

    Names and date are written cleaned (as loading would give them back), so the text always
    encodes as UTF-8: a lone surrogate in the extra data is written as a JSON escape.
    """
    extra = json.dumps(record.extra, ensure_ascii=False, sort_keys=True)
    if not _encodes(extra):
        extra = json.dumps(record.extra, sort_keys=True)
    lines = [
        f"{FORMAT_LINE} {FORMAT_VERSION}",
        f"Rule: {record.rule.value}",
        f"Size: {record.size}",
        f"Black: {_quote(clean_text(record.black, MAX_RECORD_NAME) or 'Black')}",
        f"White: {_quote(clean_text(record.white, MAX_RECORD_NAME) or 'White')}",
        f"Result: {record.result}",
        f"Reason: {record.reason}",
        f"Date: {_quote(clean_text(record.date, MAX_RECORD_NAME) or '')}",
        f"Extra: {extra}",
        f"Move count: {len(record.moves)}",
        "",
        "Moves:",
    ]
    for index, point in enumerate(record.moves):
        seconds = record.times[index] if index < len(record.times) else 0.0
        lines.append(f"{index + 1}. {format_point(point, record.size)} {seconds:.3f}")
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> GameRecord:
    """Read the own format; RecordError naming the line on anything damaged or illegal."""
    _check_characters(text)
    # Only "\n" ends a line: a name may hold other line separators (U+2028 and the like).
    lines = [line.removesuffix("\r") for line in text.removeprefix("\ufeff").split("\n")]
    if not lines[0].strip().lower().startswith(FORMAT_LINE.lower()):
        raise RecordError(
            f'not a Gomoku record (the first line should be "{FORMAT_LINE} {FORMAT_VERSION}")', 1
        )
    version_text = lines[0].strip()[len(FORMAT_LINE) :].strip()
    if not (version_text.isascii() and version_text.isdigit() and len(version_text) <= 6):
        raise RecordError("the format line lacks a version number", 1)
    if int(version_text) > FORMAT_VERSION:
        raise RecordError(f"made by a newer version of the game (format {version_text})", 1)

    headers: dict[str, tuple[str, int]] = {}
    number = 1
    moves_line = False
    for number in range(2, len(lines) + 1):
        line = lines[number - 1].strip()
        if not line or line.startswith("#"):
            continue
        if line.lower().rstrip(":") == "moves":
            moves_line = True
            break
        key, colon, value = line.partition(":")
        if not colon or not key.strip():
            raise RecordError(
                f"expected a header like 'Rule: freestyle' or 'Moves:', found {line[:40]!r}", number
            )
        headers[key.strip().lower()] = (value.strip(), number)
    else:
        number = len(lines) + 1  # no "Moves:" line: checked below, after the headers

    record = _record_from_headers(headers, number)
    if not moves_line:
        raise RecordError("the file looks truncated: it ends before the 'Moves:' line", number)
    board = _new_board(record.size, record.rule, headers["size"][1])
    for move_line in range(number + 1, len(lines) + 1):
        line = lines[move_line - 1].strip()
        if not line or line.startswith("#"):
            continue
        point, seconds = _parse_move_line(line, len(record.moves) + 1, record.size, move_line)
        _push(board, point, len(record.moves), move_line)
        record.moves.append(point)
        record.times.append(seconds)
    if "move count" in headers:
        count_text, count_line = headers["move count"]
        if not (count_text.isascii() and count_text.isdigit() and len(count_text) <= MAX_DIGITS):
            raise RecordError(f"the move count must be a whole number, not {count_text[:20]!r}", count_line)
        if int(count_text) != len(record.moves):
            raise RecordError(
                f"the file looks truncated or edited: the header counts {counted(int(count_text), 'move')} "
                f"but {len(record.moves)} follow",
                count_line,
            )
    result_line = headers.get("result", headers.get("reason", ("", number)))[1]
    _check_result(board, record.result, record.reason, result_line)
    return record


_MOVE_LINE = re.compile(r"(\d+)(?:\s*[.)]\s*|\s+)(\S+)(?:\s+(\S+?)s?)?")


def _parse_move_line(line: str, expected: int, size: int, number: int) -> tuple[Point, float]:
    match = _MOVE_LINE.fullmatch(line)
    if match is None:
        raise RecordError(
            f"expected a move like '{expected}. h8 1.250', found {line[:40]!r}", number
        )
    if len(match.group(1)) > MAX_DIGITS or int(match.group(1)) != expected:
        raise RecordError(f"expected move number {expected}, found {match.group(1)[:20]}", number)
    try:
        point = parse_point(match.group(2), size)
    except NotationError as error:
        raise RecordError(str(error), number) from None
    seconds = 0.0
    if match.group(3) is not None:
        try:
            seconds = float(match.group(3))
        except ValueError:
            seconds = math.nan
        if not math.isfinite(seconds) or seconds < 0:
            raise RecordError(f"the time {match.group(3)!r} is not a number of seconds", number)
    return point, seconds


def _record_from_headers(headers: dict[str, tuple[str, int]], end_line: int) -> GameRecord:
    for required in ("rule", "size"):
        if required not in headers:
            raise RecordError(
                f"the {required.capitalize()} header is missing before this line", end_line
            )
    rule_text, line = headers["rule"]
    try:
        rule = Rule(rule_text.lower())
    except ValueError:
        raise RecordError(
            f"unknown rule {rule_text[:20]!r} (freestyle, standard or renju)", line
        ) from None
    size_text, line = headers["size"]
    if not (size_text.isascii() and size_text.isdigit() and len(size_text) <= 3) or not (
        MIN_SIZE <= int(size_text) <= MAX_SIZE
    ):
        raise RecordError(f"the size must be {MIN_SIZE} to {MAX_SIZE}, not {size_text[:20]!r}", line)
    record = GameRecord(rule=rule, size=int(size_text))
    for key, default in (("black", record.black), ("white", record.white), ("date", "")):
        if key in headers:
            cleaned = clean_text(_unquote(*headers[key]), MAX_RECORD_NAME)
            setattr(record, key, cleaned if cleaned is not None else default)
    result, result_line = headers.get("result", ("", None))
    if result.lower() not in RESULTS:
        raise RecordError(
            f"the result must be black, white, draw or empty, not {result[:20]!r}", result_line
        )
    reason, reason_line = headers.get("reason", ("", None))
    if reason.lower() not in REASONS:
        raise RecordError(f"unknown reason {reason[:20]!r}", reason_line)
    record.result, record.reason = result.lower(), reason.lower()
    if "extra" in headers:
        text, line = headers["extra"]
        try:
            extra = load_json(text) if text else {}
        except InputError as error:
            raise RecordError(f"the Extra header cannot be read: {error}", line) from None
        if not isinstance(extra, dict):
            raise RecordError("the Extra header must be a JSON object", line)
        record.extra = extra
    return record


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _quote(value: str) -> str:
    if (
        value != value.strip()
        or value.startswith('"')
        or any(ord(c) < 32 or ord(c) == 127 for c in value)
    ):
        return json.dumps(value, ensure_ascii=False)
    return value


def _unquote(value: str, line: int) -> str:
    if not value.startswith('"'):
        return value
    try:
        decoded = json.loads(value)
    except json.JSONDecodeError:
        raise RecordError(f"badly quoted text {value[:40]!r}", line) from None
    if not isinstance(decoded, str):
        raise RecordError(f"badly quoted text {value[:40]!r}", line)
    return decoded


# --- shared checks -------------------------------------------------------------------------


def _check_characters(text: str) -> None:
    """RecordError naming the line of the first raw control character (NUL and the like):
    neither format writes one, and a reader that skipped it would misread the line."""
    found = _CONTROL.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise RecordError(
            f"a control character (code {ord(found.group())}) where text should be: the file is damaged",
            line,
        )


def _number(text: str, line: int) -> int:
    """A short decimal number from a record; RecordError for one with too many digits."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"the number {text[:12]}... is out of range (too many digits)", line)
    return int(text)


def _new_board(size: int, rule: Rule, line: int | None) -> Board:
    try:
        return Board(size, rule)
    except ValueError as error:
        raise RecordError(str(error), line) from None


def _push(board: Board, point: Point, index: int, line: int | None) -> None:
    x, y = point
    try:
        board.push(x, y)
    except IllegalMoveError as error:
        where = format_point(point, board.size) if board.on_board(x, y) else f"{point}"
        raise RecordError(
            f"move {index + 1} ({where}) is illegal: {error.reason.value}", line
        ) from None


def _check_result(board: Board, result: str, reason: str, line: int | None) -> None:
    """The stored result must agree with the board: a five or full board is the result."""
    if result not in RESULTS or reason not in REASONS:
        raise RecordError(f"unknown result {result!r} or reason {reason!r}", line)
    outcome = board.outcome()
    if not result:
        if reason and outcome is None:
            raise RecordError(f"a reason ({reason}) is given for an unfinished game", line)
        return
    winner = None if result == "draw" else Color[result.upper()]
    if reason and fits_board(board, Outcome(winner, Reason(reason))):
        return
    if (outcome is not None and outcome.reason is Reason.FULL_BOARD and board.ply < board.size ** 2
            and winner is not None and reason and Reason(reason) in OFF_BOARD_REASONS):
        return  # renju, no point left for black: saved before that was a draw, the moves still load
    if outcome is not None:
        ends = "end in {} ({})".format(*_result_words(outcome))
    else:
        ends = "do not end the game"
    raise RecordError(f"the result says {result} ({reason or 'no reason'}) but the moves {ends}", line)


# --- Piskvork .psq -------------------------------------------------------------------------


def export_psq(record: GameRecord) -> str:
    """The record as Piskvork `.psq` text (both players written as humans, error code 0).

    A standard or renju game gets a last trailer line naming its rule, which `import_psq`
    reads back: under freestyle its moves may be illegal (play goes on after an overline).
    """
    lines = [f"Piskvorky {record.size}x{record.size}, 0:0, 0"]
    for index, (x, y) in enumerate(record.moves):
        millis = round(record.times[index] * 1000) if index < len(record.times) else 0
        lines.append(f"{x + 1},{y + 1},{millis}")
    lines += [_one_line(record.black), _one_line(record.white), "0"]
    if record.rule is not Rule.FREESTYLE:
        lines.append(f"rule {record.rule.value}")
    return "\n".join(lines) + "\n"


_PSQ_HEADER = re.compile(
    r"piskvorky\s*(\d+)\s*x\s*(\d+)\s*(?:,\s*(-?\d+)\s*[:\-]\s*(-?\d+)\s*(?:,\s*(-?\d+))?)?.*", re.I
)
_PSQ_MOVE = re.compile(r"(-?\d+)\s*,\s*(-?\d+)\s*(?:,\s*(-?\d+)\s*)?")
_PSQ_NUMBERED = re.compile(r"-?\d+(\s*,.*)?")  # a trailer line that is no player's name
_PSQ_RULE_LINE = re.compile(r"rule\s+(\w+)|-?\d+\s*,\s*(\S+)", re.I)
_PSQ_PARTIAL = re.compile(r"-?\d+\s*,\s*(?:-?\d+\s*,\s*)?")  # a move line cut short: "8," or "8,9,"


def import_psq(text: str, rule: Rule | None = None) -> GameRecord:
    """Read Piskvork `.psq` text (and the common variants: spaces, no times, no header,
    `-1` end marker, Gomocup trailer). The rule comes from `rule`, else from a trailer line
    naming it (ours, `rule renju`, or Gomocup's, `0,Renju_1`; never a player's name), else
    freestyle. RecordError naming the line on anything wrong."""
    _check_characters(text)
    lines = [line.strip() for line in text.lstrip("\ufeff").splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise RecordError("the file is empty", 1)
    first = 0
    while first < len(lines) and not lines[first]:
        first += 1
    header = _PSQ_HEADER.fullmatch(lines[first])
    black_first = True
    if header is not None:
        width, height = _number(header.group(1), first + 1), _number(header.group(2), first + 1)
        if width != height:
            raise RecordError(f"only square boards are supported, not {width}x{height}", first + 1)
        if not MIN_SIZE <= width <= MAX_SIZE:
            raise RecordError(
                f"the board must be {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}, not {width}x{height}",
                first + 1,
            )
        size = width
        black_first = header.group(5) != "1"  # 1: the second player listed began
        move_start = first + 1
    elif _PSQ_MOVE.fullmatch(lines[first]):
        size = None  # no header: the size is guessed from the moves
        move_start = first
    else:
        raise RecordError(
            f"not a Piskvork file (expected a header like 'Piskvorky 15x15, 11:11, 0'), found {lines[first][:40]!r}",
            first + 1,
        )

    raw_moves: list[tuple[int, int, int, int]] = []  # x, y, ms, line number
    index = move_start
    while index < len(lines):
        line = lines[index]
        match = _PSQ_MOVE.fullmatch(line)
        if not line:
            index += 1
            continue
        if match is None:
            break
        x, y = _number(match.group(1), index + 1), _number(match.group(2), index + 1)
        millis = _number(match.group(3), index + 1) if match.group(3) is not None else 0
        raw_moves.append((x, y, millis, index + 1))
        index += 1
    trailer = [line for line in lines[index:] if line]
    for offset, line in enumerate(lines[index:]):
        if _PSQ_PARTIAL.fullmatch(line):
            raise RecordError(
                f"the file looks truncated or damaged: {line[:20]!r} is half a move", index + offset + 1
            )

    if size is None:
        largest = max((max(x, y) for x, y, _, _ in raw_moves), default=MIN_SIZE)
        size = MIN_SIZE if largest <= MIN_SIZE else MAX_SIZE
    # The first two lines that are not numbers are the players' names: never read as the rule.
    name_lines = [i for i, line in enumerate(trailer) if not _PSQ_NUMBERED.fullmatch(line)][:2]
    chosen_rule = rule if rule is not None else _rule_from_trailer(
        [line for i, line in enumerate(trailer) if i not in name_lines]
    )
    board = _new_board(size, chosen_rule, first + 1)
    record = GameRecord(rule=chosen_rule, size=size, black="Black", white="White")
    for x, y, millis, number in raw_moves:
        if not (1 <= x <= size and 1 <= y <= size):
            raise RecordError(
                f"the move {x},{y} is off a {size}x{size} board (coordinates start at 1)", number
            )
        if millis < 0:
            millis = 0  # some tools write -1 for an unknown time
        point = (x - 1, y - 1)
        _push(board, point, len(record.moves), number)
        record.moves.append(point)
        record.times.append(millis / 1000)
    names = [trailer[i] for i in name_lines]
    if len(names) == 2:
        first_name, second_name = (clean_text(name, MAX_RECORD_NAME) for name in names)
        black_name, white_name = (
            (first_name, second_name) if black_first else (second_name, first_name)
        )
        record.black, record.white = black_name or record.black, white_name or record.white
    outcome = board.outcome()
    if outcome is not None:
        record.result = outcome.winner.label if outcome.winner is not None else "draw"
        record.reason = outcome.reason.value
    return record


def _rule_from_trailer(lines: list[str]) -> Rule:
    """The rule a trailer line names: ours (`rule renju`) or Gomocup's (`0,Renju_1`)."""
    for line in lines:
        match = _PSQ_RULE_LINE.fullmatch(line)
        word = (match.group(1) or match.group(2)).lower() if match else ""
        if "renju" in word:
            return Rule.RENJU
        if "standard" in word:
            return Rule.STANDARD
    return Rule.FREESTYLE


def _one_line(name: str) -> str:
    cleaned = " ".join((clean_text(name, MAX_RECORD_NAME) or "").split())
    return (
        cleaned
        if cleaned and not re.fullmatch(r"-?\d+.*", cleaned)
        else f"player {cleaned}".strip()
    )


# --- files ---------------------------------------------------------------------------------


def save_record(
    record: GameRecord, path: str | os.PathLike[str], *, check_moves: bool = True
) -> None:
    """Write `record` atomically: `.psq` paths in Piskvork's format, others in the own format.

    The record is checked first (legal moves, a result the board agrees with, JSON-able extra,
    one time per move); on RecordError or OSError the file at `path` is left untouched.
    `check_moves=False` skips replaying the moves (about 1 ms per 50 moves under renju): only
    for records made by `from_game`, whose moves the live Board already checked.
    """
    if check_moves:
        record.replay()
    elif record.result not in RESULTS or record.reason not in REASONS:
        raise RecordError(f"unknown result {record.result!r} or reason {record.reason!r}")
    if len(record.times) != len(record.moves):
        raise RecordError(f"{len(record.times)} move times for {len(record.moves)} moves")
    bad_times = [t for t in record.times if not (isinstance(t, (int, float)) and 0 <= t < math.inf)]
    if bad_times:
        raise RecordError(f"move times must be seconds >= 0, not {bad_times[0]!r}")
    try:
        json.dumps(record.extra)
    except (TypeError, ValueError) as error:
        raise RecordError(f"the extra data cannot be saved as JSON: {error}") from None
    target = Path(path)
    text = export_psq(record) if target.suffix.lower() == PSQ_SUFFIX else format_record(record)
    write_atomic(target, text)


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read a record file in either format (told apart by content, not by suffix).

    RecordError for a damaged, foreign or illegal record (the message names the line), a file
    over MAX_RECORD_BYTES or not a regular file (a FIFO, a device: never opened for reading);
    OSError if the file cannot be read. Never writes anything.
    """
    try:
        data = read_bounded(path, MAX_RECORD_BYTES)  # e.g. a renamed video: never read it whole
    except InputError as error:
        raise RecordError(f"not a game record: {error}") from None
    try:
        return _parse_any(data)
    except RecordError:
        raise
    except (ValueError, OverflowError, RecursionError) as error:  # a guard: the checks should come first
        raise RecordError(f"a value in it is out of range ({type(error).__name__})") from None


def _parse_any(data: bytes) -> GameRecord:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1250")  # Piskvork is a Czech Windows program
        except UnicodeDecodeError:
            raise RecordError("not a text file", 1) from None
    head = text.lstrip("\ufeff \t\r\n")[:40].lower()
    if head.startswith(FORMAT_LINE.lower()):
        return parse_record(text)
    if head.startswith("piskvorky") or _PSQ_MOVE.match(head.splitlines()[0] if head else ""):
        return import_psq(text)
    first_line = text.strip().splitlines()[0][:40] if text.strip() else ""
    raise RecordError(
        f"not a game record (neither a Gomoku record nor a Piskvork .psq): {first_line!r}", 1
    )
