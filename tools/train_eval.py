#!/usr/bin/env python3
"""Train hard's evaluation (gomoku/engine/eval_weights.py) on finished games: a Texel fit.

The evaluation sums a value over the candidate cells (empty, a stone within 2): the cell's four
line patterns (patterns.py codes, sorted: the directions do not matter) give one value for the
side to move and one, counted against it, for the opponent. The fit finds the values that best
predict the games' results from their quiet positions (no five to make or stop, no open four
for the side to move): a logistic regression, P(win) = 1 / (1 + exp(-K * eval)), where K is
the scale the cell-score evaluation fits best, so search margins keep their meaning.

Each cell value is a sum of per-line values and a threat-class value (an open three, a four, a
four-three, ...), plus a correction of its own for the pattern combinations seen in at least
--min-use training positions.

    # 1. Gather the games (deduplicated) from arena record folders into one small file:
    .venv/bin/python tools/train_eval.py collect /path/to/arena/*/ --out tools/training/freestyle-15.txt.gz
    # 2. Fit, and write the weights module (several games files fit as one):
    .venv/bin/python tools/train_eval.py fit tools/training/freestyle-15.txt.gz \\
        tools/training/rapfi-selfplay-15.txt.gz --out gomoku/engine/eval_weights.py

The checked-in games: freestyle-15.txt.gz, every finished freestyle 15x15 game of our arena runs
(hard, medium and outside engines against each other); rapfi-selfplay-15.txt.gz, Rapfi
classical against itself at 0.1-0.2 s a move from random 3-stone openings (tools/arena.py
ENGINE ENGINE --openings random), whose results follow from strong play on both sides.

A games file holds one game a line: the result for black (1, 0.5, 0), the number of opening
stones (not trained on), then the moves in notation.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gomoku.core import Rule
from gomoku.core.notation import format_moves, parse_moves
from gomoku.core.records import GameRecord, RecordError, load_record
from gomoku.engine import patterns, state, threats

COMBOS = list(itertools.combinations_with_replacement(range(patterns.N_CODES), 4))
N_ADDITIVE = patterns.N_CODES + 7  # per-line codes, then threat classes
SIZE = 15


def _combo_of_word() -> np.ndarray:
    """The COMBOS index of every word of four packed pattern codes (state.py): the engine's
    own grouping of words (threats.combo_keys), so the fit and the lookup agree."""
    position = np.zeros(patterns.N_CODES ** 4, dtype=np.int32)
    for i, combo in enumerate(COMBOS):
        position[threats.combo_key(combo)] = i
    return position[threats.combo_keys()]


def collect(folders: list[Path], out: Path) -> None:
    """Write the finished freestyle 15x15 games of the records in `folders`, each game once."""

    def line_of(record: GameRecord) -> str | None:
        result = {"black": "1", "white": "0", "draw": "0.5"}.get(record.result)
        return None if result is None else f"{result} {opening_stones(record)} {format_moves(record.moves, SIZE)}"

    write_games(folders, out, line_of)


def write_games(folders: list[Path], out: Path, line_of: Callable[[GameRecord], str | None]) -> None:
    """Write `line_of` each freestyle 15x15 record in `folders` (None: left out), each game once."""
    seen: set[tuple] = set()
    lines = []
    for folder in folders:
        for path in sorted(folder.glob("*.gomoku")):
            try:
                record = load_record(path)
            except (OSError, RecordError):
                continue
            if record.rule != Rule.FREESTYLE or record.size != SIZE or tuple(record.moves) in seen:
                continue
            line = line_of(record)
            if line is not None:
                seen.add(tuple(record.moves))
                lines.append(line)
    with gzip.open(out, "wt", encoding="ascii") as file:
        file.write("\n".join(lines) + "\n")
    print(f"{len(lines)} games to {out}")


def opening_stones(record: GameRecord) -> int:
    """The stones the arena placed before the engines played (3 if the record does not say)."""
    arena = record.extra.get("arena", {}) if isinstance(record.extra, dict) else {}
    return int(arena.get("opening_stones", 3)) if isinstance(arena, dict) else 3


def _parse_game(line: str, where: str) -> tuple[float, int, list]:
    """(black's result, opening stones, moves) of a games file line; ValueError naming `where`."""
    try:
        score, stones, *moves = line.split()
        points = parse_moves(" ".join(moves), SIZE)
        if score not in ("0", "0.5", "1") or not 0 <= int(stones) <= len(points):
            raise ValueError("a line is: result (1, 0.5 or 0), opening stones, moves")
        if len(set(points)) != len(points):
            raise ValueError("a point is played twice")
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    return float(score), int(stones), points


def features(games_file: Path) -> dict[str, np.ndarray]:
    """Per quiet position: combo counts for the side to move and the opponent, the result for
    the side to move, the game's number, and the cell-score evaluation (hard's weights)."""
    combo = _combo_of_word()
    entry = threats.THREAT_TABLE.astype(np.int64)
    klass = (entry >> threats.T_CLASS_SHIFT) & 7
    tables = patterns.build_tables(patterns.RULE_FREESTYLE)
    own, opp, result, game, old_eval = [], [], [], [], []
    with gzip.open(games_file, "rt", encoding="ascii") as file:
        for number, line in enumerate(file):
            black_result, stones, points = _parse_game(line, f"{games_file}: line {number + 1}")
            grid = np.zeros((SIZE, SIZE), dtype=np.int8)
            for k, (x, y) in enumerate(points[:-1]):  # the last position is decided
                grid[y, x] = 1 if k % 2 == 0 else 2
                if k + 1 < stones:
                    continue
                side = 1 if (k + 1) % 2 == 0 else 2
                bd = state.new_state(grid, side, patterns.RULE_FREESTYLE, tables)
                cells, near, codes = bd[0], bd[2], bd[9]
                cand = np.flatnonzero((cells == 0) & (near > 0))
                mine = codes[side - 1, cand].astype(np.int64)
                theirs = codes[2 - side, cand].astype(np.int64)
                if ((klass[mine] >= threats.TC_FLEX4).any() or (klass[theirs] == threats.TC_FIVE).any()):
                    continue  # not quiet: the search decides these, never the evaluation
                own.append(np.bincount(combo[mine], minlength=len(COMBOS)).astype(np.int16))
                opp.append(np.bincount(combo[theirs], minlength=len(COMBOS)).astype(np.int16))
                result.append(black_result if side == 1 else 1 - black_result)
                game.append(number)
                bonus = threats.THREAT_BONUS[klass[theirs]]
                theirs_value = ((entry[theirs] & threats.T_VALUE) + bonus * 25 // 100 - bonus).sum()
                old_eval.append(((entry[mine] & threats.T_VALUE).sum() * 12 - theirs_value * 10) // 8)
    return {"own": np.array(own), "opp": np.array(opp), "result": np.array(result),
            "game": np.array(game), "old_eval": np.array(old_eval, dtype=np.float64)}


def features_of(games_files: list[Path]) -> dict[str, np.ndarray]:
    """`features` of several games files, their games numbered apart."""
    parts = [features(path) for path in games_files]
    offset = 0
    for part in parts:
        part["game"] = part["game"] + offset
        offset = int(part["game"].max()) + 1 if len(part["game"]) else offset
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def _additive() -> np.ndarray:
    """[combo, N_ADDITIVE]: each combo's per-line code counts and its threat class."""
    matrix = np.zeros((len(COMBOS), N_ADDITIVE), dtype=np.float32)
    entry = threats.THREAT_TABLE
    for i, combo in enumerate(COMBOS):
        for code in combo:
            matrix[i, code] += 1
        word = sum(code << (4 * d) for d, code in enumerate(combo))
        matrix[i, patterns.N_CODES + ((entry[word] >> threats.T_CLASS_SHIFT) & 7)] = 1
    matrix[:, 0] = 0  # a line with no pattern, and a cell with no threat, are worth nothing
    matrix[:, patterns.N_CODES] = 0
    return matrix


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-z))


def fit(data: dict[str, np.ndarray], min_use: int, l2: float, steps: int, seed: int) -> tuple:
    """(own values, opponent values) per combo in evaluation units, and a report."""
    y = data["result"].astype(np.float32)
    rng = np.random.default_rng(seed)
    games = np.unique(data["game"])
    held = np.isin(data["game"], rng.choice(games, len(games) // 5, replace=False))
    train = ~held
    old = data["old_eval"]
    scale = min(np.geomspace(1e-4, 1e-1, 120), key=lambda k: _log_loss(_sigmoid(k * old[train]), y[train]))
    own, opp = data["own"].astype(np.float32), data["opp"].astype(np.float32)
    add = _additive()
    own_kept = (own[train] > 0).sum(axis=0) >= min_use
    opp_kept = (opp[train] > 0).sum(axis=0) >= min_use
    x = np.concatenate([own @ add, -(opp @ add), own[:, own_kept], -opp[:, opp_kept]], axis=1)
    penalty = np.full(x.shape[1], l2, dtype=np.float32)
    penalty[:2 * N_ADDITIVE] = l2 / 100  # the additive part is the backbone: barely held back
    w = np.zeros(x.shape[1], dtype=np.float32)
    bias = np.float32(0)
    m, v = np.zeros_like(w), np.zeros_like(w)
    x_train, y_train = x[train], y[train]
    for step in range(1, steps + 1):  # Adam
        p = _sigmoid(x_train @ w + bias)
        grad = x_train.T @ (p - y_train) / len(y_train) + penalty * w
        bias -= np.float32(0.01) * (p - y_train).mean()
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= np.float32(0.01) * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    own_value = add @ w[:N_ADDITIVE]
    opp_value = add @ w[N_ADDITIVE:2 * N_ADDITIVE]
    own_value[own_kept] += w[2 * N_ADDITIVE:2 * N_ADDITIVE + own_kept.sum()]
    opp_value[opp_kept] += w[2 * N_ADDITIVE + own_kept.sum():]
    report = {
        "positions": int(len(y)), "held-out positions": int(held.sum()), "scale K": float(scale),
        "held-out log loss, a coin": _log_loss(np.full(held.sum(), y[train].mean()), y[held]),
        "held-out log loss, cell scores": _log_loss(_sigmoid(scale * old[held]), y[held]),
        "held-out log loss, trained": _log_loss(_sigmoid(x[held] @ w + bias), y[held]),
        "intercept (left out: a tempo the side to move has)": float(bias),
    }
    return own_value / scale, opp_value / scale, report


def write_weights(own: np.ndarray, opp: np.ndarray, out: Path, source: str) -> int:
    docstring = ['"""The trained evaluation: a cell\'s value by its four line patterns (their codes, sorted: see',
                 "patterns.py), for the side to move and for the opponent, in evaluation units.",
                 f"Written by tools/train_eval.py from {source}; do not edit.\"\"\""]
    return write_table(own, opp, out, docstring)


def write_table(own: np.ndarray, opp: np.ndarray, out: Path, docstring: list[str]) -> int:
    """Write a weights module, `docstring` then WEIGHTS {combo: (own, opponent)}, the values
    rounded and all-zero combinations left out; returns how many it holds."""
    lines = [*docstring, "", "WEIGHTS = {"]
    count = 0
    for combo, mine, theirs in zip(COMBOS, np.rint(own).astype(int), np.rint(opp).astype(int), strict=True):
        if combo != (0, 0, 0, 0) and (mine or theirs):
            lines.append(f"    {combo}: ({mine}, {theirs}),")
            count += 1
    out.write_text("\n".join(lines + ["}"]) + "\n", encoding="ascii")
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gather = sub.add_parser("collect", help="gather arena records into a games file")
    gather.add_argument("folders", nargs="+", type=Path)
    gather.add_argument("--out", type=Path, required=True)
    train = sub.add_parser("fit", help="fit the weights to games files")
    train.add_argument("games", type=Path, nargs="+")
    train.add_argument("--out", type=Path, required=True)
    train.add_argument("--min-use", type=int, default=50, help="positions a combination needs for a value of its own")
    train.add_argument("--l2", type=float, default=3e-4)
    train.add_argument("--steps", type=int, default=2000)
    train.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "collect":
        collect(args.folders, args.out)
        return 0
    data = features_of(args.games)
    own, opp, report = fit(data, args.min_use, args.l2, args.steps, args.seed)
    for key, value in report.items():
        print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")
    count = write_weights(own, opp, args.out, " and ".join(path.name for path in args.games))
    print(f"{count} combinations to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
