#!/usr/bin/env python3
"""When did the game turn? The evaluations one engine printed with its moves in an arena
folder (its MESSAGE lines, kept in the arena's engine logs): in the games it won, the move at
which its evaluation first reached --threshold and the move at which it first announced a
forced win.

    .venv/bin/python tools/advantage.py arena-out --engine 2 --threshold 300

Moves are the engine's own, counted from 1 after the opening. The engine must print one
evaluation a move that --pattern matches: Rapfi prints one at every depth of its search
(`Depth 5-6 | Eval 26 | ...`) and one line when it moves (`Speed 827K | Depth 17-32 | Eval -255
| ...`, `Eval +M9`), which the default --pattern takes (until 2026-11-27 every depth's line
counted as a move); ours: --pattern 'score (-?\\d+)'. A value of MATE_VALUE - 1000 or more (our
wins: 30000 less the plies) counts as a forced win, as does Rapfi's `+M`. Logs of an arena
from before 2026-11-26 have no game marks and are refused.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
import arena  # noqa: E402  (tools/ is not a package)

from gomoku.core.records import RECORD_SUFFIX, load_record  # noqa: E402

MATE_FROM = arena.MATE_VALUE - 1000
MOVE_EVAL_PATTERN = r"\bSpeed\b.*\bEval\s*[:=]?\s*([+-]?M?\d+)"  # Rapfi's line as it moves
MAX_LOG_BYTES = 50_000_000  # a log larger than this is not one an arena of ours wrote


def evaluations_by_game(log: Path, pattern: re.Pattern[str]) -> dict[int, list[int]]:
    """Each game's evaluations in one engine log, by game number (from the arena's marks)."""
    if log.stat().st_size > MAX_LOG_BYTES:
        raise SystemExit(f"advantage.py: {log} is larger than {MAX_LOG_BYTES} bytes")
    games: dict[int, list[int]] = {}
    current: list[int] | None = None
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(arena.GAME_MARK):
            number = line[len(arena.GAME_MARK):].strip()
            current = games.setdefault(int(number), []) if number.isdigit() else None
        elif current is not None:
            value = arena.evaluation_in([line], pattern)
            if value is not None:
                current.append(value)
    return games


def first_at_least(values: list[int], bound: int) -> int | None:
    """The move (from 1) of the first value at or above `bound`, None if none is."""
    return next((i + 1 for i, value in enumerate(values) if value >= bound), None)


def quartiles(values: list[int]) -> str:
    if len(values) < 2:
        return ", ".join(map(str, values)) or "none"
    low, middle, high = statistics.quantiles(values, n=4, method="inclusive")
    return f"median {middle:g} (quartiles {low:g}-{high:g}; {len(values)} games)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="an arena --out folder")
    parser.add_argument("--engine", type=int, choices=(1, 2), default=2,
                        help="whose evaluations (the arena's engine 1 or 2)")
    parser.add_argument("--threshold", type=int, default=300, help="a clear advantage")
    parser.add_argument("--pattern", default=MOVE_EVAL_PATTERN,
                        help="regex whose group 1 is the evaluation in a MESSAGE line")
    args = parser.parse_args(argv)
    try:
        pattern = re.compile(args.pattern)
        summary = json.loads((args.folder / "summary.json").read_text(encoding="utf-8"))
        name = summary["tallies"][args.engine - 1]["name"]
    except (OSError, ValueError, KeyError, IndexError, TypeError, re.error) as error:
        raise SystemExit(f"advantage.py: {args.folder} is not an arena folder ({error})") from None
    games: dict[int, list[int]] = {}
    for log in sorted(args.folder.glob(f"engine{args.engine}-job*.log")):
        games.update(evaluations_by_game(log, pattern))
    if not games:
        raise SystemExit(f"advantage.py: no game marks in {args.folder}'s engine logs "
                         "(an arena from before they were written?)")
    ahead, mates, lead = [], [], []
    won = 0
    for number in sorted(games):
        path = args.folder / f"game-{number:03d}{RECORD_SUFFIX}"
        if not path.exists():
            continue
        record = load_record(path)
        if record.result not in ("black", "white") or getattr(record, record.result) != name:
            continue
        won += 1
        values = games[number]
        first, mate = first_at_least(values, args.threshold), first_at_least(values, MATE_FROM)
        print(f"{path.name}: {len(values)} evaluations; >= {args.threshold} at move {first}, "
              f"a forced win announced at move {mate}")
        if first is not None:
            ahead.append(first)
        if mate is not None:
            mates.append(mate)
        if first is not None and mate is not None:
            lead.append(mate - first)
    print(f"{name} won {won} of the {len(games)} games")
    print(f"its evaluation first >= {args.threshold} at its move: {quartiles(ahead)}")
    print(f"a forced win first announced at its move: {quartiles(mates)}")
    print(f"moves from the one to the other: {quartiles(lead)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
