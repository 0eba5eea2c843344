#!/usr/bin/env python3
"""How well does a search predict the game? Log loss against the results of finished games.

For every quiet position of a games file (tools/train_eval.py's format and positions), each
predictor gives a value for the side to move, turned into a win chance by the logistic curve
that fits the results best (one scale per predictor, fitted on the same positions); the log
loss of those chances against the results says how much the predictor knows (0.693: a coin).

Predictors: hard's static evaluation (the trained table) and the hand-set cell scores; hard's
search at fixed depths (`--depth`, the brain's whole move: threat checks and all, with its mean
nodes a position) or in a fixed time (`--time`, as in a match: the depth it reaches depends on
the machine and its load); and a judge's values of the same positions (`--labels NAME=FILE`, from
`train_eval.py label`, e.g. Rapfi at 100, 1,000 and 10,000 nodes). Together they show where
our engine's knowledge stands against the judge's at a given effort, without playing a game.

    .venv/bin/python tools/predict.py tools/training/rapfi-selfplay-15.txt.gz --games 300 \\
        --depth 2 4 --every 4 --labels "rapfi 10k=tools/training/rapfi-selfplay-15.labels.gz"
    .venv/bin/python tools/predict.py tools/training/rapfi-selfplay3-15.txt.gz --games 300 \\
        --time 1 --every 16  # hard's 1 s move, on games no shipped fit has seen

A labels file must label the first --games games of the games file (its lines in order): a
whole file made by `label` for the whole games file does.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
import train_eval  # noqa: E402  (tools/ is not a package)

from gomoku.core import Color, Rule  # noqa: E402
from gomoku.engine import driver, patterns, search, state, threats  # noqa: E402
from gomoku.engine.api import Level, Position, SearchLimit  # noqa: E402

DECIDED = 3000  # a value beyond this (a forced win or loss, a judge's mate) counts as this
DEPTH_TIME_S = 60.0  # a fixed-depth search's time limit: never the limit in practice
MAX_TIME_S = 60.0  # --time at most this: a move's search, and 727 of them take 12 h at that


def log_loss(values: np.ndarray, result: np.ndarray) -> float:
    """The log loss of `values` through the logistic curve with the scale that fits best."""
    values = np.clip(values, -DECIDED, DECIDED)
    scales = np.geomspace(1e-5, 1.0, 241)
    return min(train_eval._log_loss(train_eval._sigmoid(k * values), result) for k in scales)


def first_lines(source: Path, count: int, out: Path) -> Path:
    """The first `count` lines of the gzipped text file `source`, written to `out`."""
    with gzip.open(source, "rt", encoding="ascii") as file:
        lines = [line for _, line in zip(range(count), file, strict=False)]
    with gzip.open(out, "wt", encoding="ascii") as file:
        file.writelines(lines)
    return out


def grid_of(moves: list, size: int = train_eval.SIZE) -> np.ndarray:
    grid = np.zeros((size, size), dtype=np.int8)
    for k, (x, y) in enumerate(moves):
        grid[y, x] = 1 if k % 2 == 0 else 2
    return grid


def static_values(games_file: Path) -> np.ndarray:
    """hard's static evaluation (the trained table) of each quiet position."""
    tables = patterns.build_tables(patterns.RULE_FREESTYLE)
    evaluation = driver.evaluation(Level.HARD)
    values = []
    sr = None
    for _number, moves, side, *_ in train_eval.quiet_positions(games_file):
        bd = state.new_state(grid_of(moves), side, patterns.RULE_FREESTYLE, tables)
        if sr is None:
            sr = threats.new_search_tables(10, bd[0].shape[0], evaluation)
            driver._reset(sr, driver.LEVELS[Level.HARD], 1)  # hard's parameters: its hidden layer
        values.append(search.analysis_summary(bd, sr)[3])
    return np.array(values, dtype=np.float64)


def search_values(games_file: Path, depth: int | None, every: int, time_s: float | None = None,
                  ) -> tuple[np.ndarray, float, float, float]:
    """hard's score of every `every`-th quiet position at `depth` (or in `time_s`, any depth),
    its mean nodes, seconds and depth reached."""
    limit = SearchLimit(DEPTH_TIME_S, max_depth=depth) if time_s is None else SearchLimit(time_s)
    driver.warm_up()  # compiled first: a cold engine answers a timed search with its stand-in
    values, nodes, depths = [], [], []
    started = time.monotonic()
    for i, (_number, moves, side, *_) in enumerate(train_eval.quiet_positions(games_file)):
        if i % every:
            continue
        driver.new_game()  # each position on its own: no table from the one before
        position = Position(grid=grid_of(moves), moves=tuple(moves), to_move=Color(side),
                            rule=Rule.FREESTYLE)
        found = driver.think(position, Level.HARD, limit)
        values.append(found.score)  # (a mate score: log_loss counts it as DECIDED)
        nodes.append(found.nodes)
        depths.append(found.depth)
    seconds = (time.monotonic() - started) / max(len(values), 1)
    return np.array(values, dtype=np.float64), float(np.mean(nodes)), seconds, float(np.mean(depths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, help="a games file (tools/train_eval.py collect)")
    parser.add_argument("--games", dest="count", type=int, help="the first N games only")
    parser.add_argument("--depth", type=int, nargs="*", default=[], help="hard's search at these depths")
    parser.add_argument("--time", type=float, nargs="*", default=[], metavar="SECONDS",
                        help="hard's search in these times (its budget: a brain keeps some of a turn for overhead)")
    parser.add_argument("--every", type=int, default=1,
                        help="the searches take every N-th position (the others: all of them)")
    parser.add_argument("--labels", nargs="*", default=[], metavar="NAME=FILE",
                        help="a judge's values of the same positions (train_eval.py label)")
    args = parser.parse_args(argv)
    if args.count is not None and args.count < 1:
        parser.error("--games must be at least 1")
    if args.every < 1 or any(not 1 <= depth <= 20 for depth in args.depth):
        parser.error("--every must be at least 1 and --depth 1 to 20")
    if any(not 0.01 <= seconds <= MAX_TIME_S for seconds in args.time):  # (also refuses nan)
        parser.error(f"--time must be 0.01 to {MAX_TIME_S:g} seconds")
    labels = []
    for item in args.labels:
        name, _, path = item.partition("=")
        if not name or not path:
            parser.error(f"--labels takes NAME=FILE, not {item!r}")
        labels.append((name, Path(path)))

    try:
        rows = predictors(args.games, args.count, args.depth, args.every, labels, args.time)
    except (OSError, EOFError, ValueError) as error:  # a missing or damaged file: say which
        print(f"predict: {error}", file=sys.stderr)
        return 1
    print(f"{'predictor':<28} {'positions':>9}  log loss")
    for name, count, loss, note in rows:
        print(f"{name:<28} {count:>9}  {loss:.4f}  {note}".rstrip())
    return 0


def predictors(games_file: Path, count: int | None, depths: list[int], every: int,
               labels: list[tuple[str, Path]], times: list[float] | None = None,
               ) -> list[tuple[str, int, float, str]]:
    """The table's rows: (predictor, positions, log loss, note)."""
    with tempfile.TemporaryDirectory() as folder:
        games = games_file
        if count is not None:
            games = first_lines(games_file, count, Path(folder) / "games.txt.gz")
        data = train_eval.features(games)
        result = data["result"].astype(np.float64)
        picked = np.arange(len(result)) % every == 0  # the positions the searches take
        whole = [("a coin", np.zeros(len(result))),  # (a constant: the scale fit gives ln 2)
                 ("hand-set cell scores", data["old_eval"]),
                 ("hard's static evaluation", static_values(games))]
        for index, (name, path) in enumerate(labels):  # each cut to these positions
            cut = first_lines(path, len(result), Path(folder) / f"labels-{index}.txt.gz")
            values = train_eval.judged(cut, data)
            whole.append((name, values))  # (a mate, +-inf: log_loss counts it as DECIDED)
        rows = [(name, len(values), log_loss(values, result),
                 f"{log_loss(values[picked], result[picked]):.4f} on the searched positions"
                 if (depths or times) and every > 1 else "") for name, values in whole]
        for depth in depths:
            values, nodes, seconds, _ = search_values(games, depth, every)
            rows.append((f"hard at depth {depth}", len(values), log_loss(values, result[picked]),
                         f"{nodes:,.0f} nodes, {seconds * 1000:.0f} ms a position"))
        for time_s in times or []:
            values, nodes, seconds, reached = search_values(games, None, every, time_s)
            rows.append((f"hard at {time_s:g} s", len(values), log_loss(values, result[picked]),
                         f"{nodes:,.0f} nodes, {seconds * 1000:.0f} ms a position, depth {reached:.1f}"))
    return rows


if __name__ == "__main__":
    sys.exit(main())
