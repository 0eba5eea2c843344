#!/usr/bin/env python3
"""The arena's summary of a run folder from its saved games: also for a run stopped early.

    .venv/bin/python tools/run_summary.py /work/runs/s50-main
    .venv/bin/python tools/run_summary.py /work/runs/s50-main --games 40

tools/arena.py prints its table and writes summary.json only when every game is played; a run
stopped once its goal was out of reach (docs/strength.md does this often) leaves just its
records. This reads the game-NNN records in the folder (gomoku.core.records, each checked as
it loads), takes the first --games of them by game number, and prints the same table:
wins-losses-draws, by colour, each side's mean and longest time a move, the score with its 95%
interval. The first game's black is the arena's first engine (it plays black in odd games).
The records keep each move's time to the millisecond, so a mean time may differ from the
arena's own in its last digit.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
import arena  # noqa: E402  (tools/ is not a package)

from gomoku.core.records import RECORD_SUFFIX, GameRecord, RecordError, load_record  # noqa: E402

GAME_NAME = re.compile(r"game-(\d{1,6})" + re.escape(RECORD_SUFFIX))
MAX_GAMES = 100_000  # far above any run here; a folder with more is not an arena run


def game_records(folder: Path, limit: int | None) -> list[tuple[int, GameRecord]]:
    """(game number, record) of the folder's first `limit` games (all: None), in order."""
    numbered = sorted(
        (int(match.group(1)), path)
        for path in folder.iterdir()
        if (match := GAME_NAME.fullmatch(path.name))
    )
    if len(numbered) > MAX_GAMES:
        raise ValueError(f"{folder}: {len(numbered)} game files, more than an arena run holds")
    if limit is not None:
        numbered = numbered[:limit]
    records = []
    for number, path in numbered:
        try:
            records.append((number, load_record(path)))
        except (RecordError, OSError) as error:
            raise ValueError(f"{path.name}: {error}") from None
    return records


def arena_info(record: GameRecord) -> dict:
    """The arena's own fields of a saved game (opening stones, reason, times), or {}."""
    info = record.extra.get("arena") if isinstance(record.extra, dict) else None
    return info if isinstance(info, dict) else {}


def result_of(number: int, record: GameRecord, names: list[str]) -> arena.GameResult:
    """The arena's GameResult of a saved game (its engine indices by the players' names)."""
    if {record.black, record.white} != set(names):
        raise ValueError(f"game {number} is between {record.black} and {record.white}, "
                         f"not the run's {names[0]} and {names[1]}")
    info = arena_info(record)
    stones = info.get("opening_stones", 0)
    stones = stones if isinstance(stones, int) and 0 <= stones <= len(record.moves) else 0
    reason = info.get("reason", record.reason)
    black = names.index(record.black)
    winner = None if record.result == "draw" else (
        black if record.result == "black" else 1 - black)
    times = tuple(None if ply < stones else seconds for ply, seconds in enumerate(record.times))
    return arena.GameResult(
        index=number - 1, black=black, opening=tuple(record.moves[:stones]),
        moves=tuple(record.moves), times=times, winner=winner,
        reason=reason if isinstance(reason, str) else record.reason,
    )


def summary(folder: Path, limit: int | None) -> str:
    """The arena's summary table of the folder's first `limit` games."""
    records = game_records(folder, limit)
    if not records:
        raise ValueError(f"{folder}: no game records (game-NNN{RECORD_SUFFIX})")
    first = records[0][1]
    if first.black == first.white:
        raise ValueError(f"game {records[0][0]}: one engine on both sides ({first.black})")
    names = [first.black, first.white]
    if records[0][0] % 2 == 0:  # the first engine plays black in odd games
        names.reverse()
    results = [result_of(number, record, names) for number, record in records]
    info = arena_info(first)
    times_s = [info.get("time_per_move_s"), info.get("time2_per_move_s")]
    times_s = [t if isinstance(t, (int, float)) and t > 0 else 0.0 for t in times_s]
    return arena.summary_text(arena.tally(results, names), len(results), times_s, first.rule)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="an arena --out folder")
    parser.add_argument("--games", type=int, help="only the first N games (by game number)")
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if not args.folder.is_dir():
        parser.error(f"no folder {args.folder}")
    try:
        print(summary(args.folder, args.games))
    except ValueError as error:
        print(f"run_summary: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
