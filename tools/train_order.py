#!/usr/bin/env python3
"""Train hard's move ordering (gomoku/engine/order_weights.py) on a strong engine's moves.

The search tries a node's moves best first and keeps only the first few at a quiet node, so
the ordering decides what it sees. A cell's ordering score is one value for the side to move
and one for the opponent, each by the cell's four line patterns (patterns.py codes, sorted),
as the evaluation's values are. The fit is a softmax over a position's candidate cells that
predicts the move the strong engine played (Rapfi in our arena records): per-line values
plus threat-class values, plus a correction for each combination, with an L2 penalty.

Positions are those the search orders by these scores: a quiet one (no five to make or stop,
no open four for the side to move), or one where the opponent threatens an open four, where
only the fours and the blocks are candidates.

    # 1. Gather the strong engine's games (deduplicated) from arena record folders:
    .venv/bin/python tools/train_order.py collect /path/to/arena/*/ --player rapfi \\
        --out tools/training/rapfi-moves-15.txt.gz
    # 2. Fit, and write the weights module:
    .venv/bin/python tools/train_order.py fit tools/training/rapfi-moves-15.txt.gz \\
        --out gomoku/engine/order_weights.py

A moves file holds one game a line: the colour whose moves are learnt (1 black, 2 white), the
number of opening stones (not learnt), then the moves in notation.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

import numpy as np

from gomoku.core.notation import format_moves, parse_moves
from gomoku.core.records import GameRecord
from gomoku.engine import patterns, state, threats

sys.path.insert(0, str(Path(__file__).resolve().parent))
import arena  # noqa: E402  (tools/ is not a package)
from train_eval import (  # noqa: E402
    COMBOS,
    SIZE,
    _additive,
    _combo_of_word,
    write_games,
    write_table,
)

ORDER_SCALE = 100  # the weights are hundredths of a logit (of the softmax)
TOP = (1, 3, 5, 8, 14)  # the ranks reported: hard tries at most 14 moves at a quiet node


def collect(folders: list[Path], player: str, out: Path) -> None:
    """Write the freestyle 15x15 games of `player` (a name part) in `folders`, each game once."""

    def line_of(record: GameRecord) -> str | None:
        side = 1 if player in record.black else 2 if player in record.white else 0
        if side == 0 or (player in record.black and player in record.white):  # self-play: skip
            return None
        return f"{side} {arena.opening_stones(record)} {format_moves(record.moves, SIZE)}"

    write_games(folders, out, line_of)


def _parse_game(line: str, where: str) -> tuple[int, int, list]:
    """(learnt colour, opening stones, moves) of a moves file line; ValueError naming `where`."""
    try:
        side_text, stones_text, notation = line.split(" ", 2)
        side, stones = int(side_text), int(stones_text)
        points = parse_moves(notation.strip(), SIZE)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    if side not in (1, 2) or not 0 <= stones <= len(points):
        raise ValueError(f"{where}: bad colour {side} or opening stones {stones}")
    if len(set(points)) != len(points):
        raise ValueError(f"{where}: a point is played twice")
    return side, stones, points


def features(moves_file: Path) -> dict[str, np.ndarray]:
    """Per candidate cell of each learnt position: the position, the combos for the side to move
    and the opponent, whether it was played, the hand-set ordering score; per position its game."""
    combo = _combo_of_word()
    entry = threats.THREAT_TABLE.astype(np.int64)
    klass = (entry >> threats.T_CLASS_SHIFT) & 7
    value = entry & threats.T_VALUE
    makes_four = (entry & threats.T_FOUR) != 0
    tables = patterns.build_tables(patterns.RULE_FREESTYLE)
    rows: dict[str, list] = {"position": [], "own": [], "opp": [], "played": [], "hand": []}
    games = []
    with gzip.open(moves_file, "rt", encoding="ascii") as file:
        for number, line in enumerate(file):
            side, stones, points = _parse_game(line, f"{moves_file}: line {number + 1}")
            grid = np.zeros((SIZE, SIZE), dtype=np.int8)
            for k, (x, y) in enumerate(points):
                mover = 1 if k % 2 == 0 else 2
                if k >= stones and mover == side:
                    bd = state.new_state(grid, side, patterns.RULE_FREESTYLE, tables)
                    cells, near, codes = bd[0], bd[2], bd[9]
                    cand = np.flatnonzero((cells == 0) & (near > 0))
                    mine = codes[side - 1, cand].astype(np.int64)
                    theirs = codes[2 - side, cand].astype(np.int64)
                    decided = (klass[mine] >= threats.TC_FLEX4).any() or (klass[theirs] == threats.TC_FIVE).any()
                    if not decided:
                        if (klass[theirs] == threats.TC_FLEX4).any():  # only fours and blocks are tried
                            keep = makes_four[mine] | makes_four[theirs]
                            cand, mine, theirs = cand[keep], mine[keep], theirs[keep]
                        played = cand == state.cell_index(x, y, SIZE)
                        if played.sum() == 1 and len(cand) > 1:
                            rows["position"].append(np.full(len(cand), len(games), dtype=np.int32))
                            rows["own"].append(combo[mine])
                            rows["opp"].append(combo[theirs])
                            rows["played"].append(played)
                            rows["hand"].append(value[mine] * 4 + value[theirs] * 3)
                            games.append(number)
                grid[y, x] = mover
    data = {key: np.concatenate(parts) for key, parts in rows.items()}
    data["game"] = np.array(games)
    return data


def ranks(score: np.ndarray, data: dict[str, np.ndarray], positions: np.ndarray) -> np.ndarray:
    """The rank of the played move among its position's candidates (1: scored highest)."""
    position, played = data["position"], data["played"]
    played_score = np.zeros(len(data["game"]))
    played_score[position[played]] = score[played]
    higher = np.bincount(position, weights=score > played_score[position], minlength=len(played_score))
    return higher[positions] + 1


def fit(data: dict[str, np.ndarray], l2: float, steps: int, seed: int) -> tuple:
    """(own values, opponent values) per combo in logits, and a report on held-out games."""
    rng = np.random.default_rng(seed)
    games = np.unique(data["game"])
    held_games = np.isin(data["game"], rng.choice(games, len(games) // 5, replace=False))
    train = ~held_games[data["position"]]
    position, own, opp = data["position"][train], data["own"][train], data["opp"][train]
    played = data["played"][train].astype(np.float64)
    starts = np.flatnonzero(np.r_[True, position[1:] != position[:-1]])
    segment = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(position)]))
    add = _additive().astype(np.float64)
    n_add, n_combo = add.shape[1], len(COMBOS)
    theta = np.zeros(2 * n_add + 2 * n_combo)
    m, v = np.zeros_like(theta), np.zeros_like(theta)

    def values(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        own_value = add @ theta[:n_add] + theta[2 * n_add:2 * n_add + n_combo]
        opp_value = add @ theta[n_add:2 * n_add] + theta[2 * n_add + n_combo:]
        return own_value, opp_value

    for step in range(1, steps + 1):  # Adam on the softmax cross-entropy
        own_value, opp_value = values(theta)
        score = own_value[own] + opp_value[opp]
        exp = np.exp(score - np.maximum.reduceat(score, starts)[segment])
        prob = exp / np.add.reduceat(exp, starts)[segment]
        g = (prob - played) / len(starts)
        g_own = np.bincount(own, weights=g, minlength=n_combo)
        g_opp = np.bincount(opp, weights=g, minlength=n_combo)
        corrections = theta[2 * n_add:]
        grad = np.concatenate([add.T @ g_own, add.T @ g_opp, np.r_[g_own, g_opp] + 2 * l2 * corrections])
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        theta -= 0.05 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    own_value, opp_value = values(theta)
    held = np.flatnonzero(held_games)
    trained = ranks(own_value[data["own"]] + opp_value[data["opp"]], data, held)
    hand = ranks(data["hand"].astype(np.float64), data, held)
    report = {"positions": len(data["game"]), "held-out positions": len(held)}
    for name, rank in (("hand-set", hand), ("trained", trained)):
        report[f"held-out top {'/'.join(map(str, TOP))}, {name}"] = " ".join(
            f"{(rank <= k).mean():.3f}" for k in TOP)
    return own_value, opp_value, report


def write_weights(own: np.ndarray, opp: np.ndarray, out: Path, source: str) -> int:
    docstring = ['"""The trained move ordering: a cell\'s ordering score by its four line patterns (their codes,',
                 "sorted: see patterns.py), for the side to move and for the opponent, in hundredths of a logit.",
                 f"Written by tools/train_order.py from {source}; do not edit.\"\"\""]
    return write_table(own * ORDER_SCALE, opp * ORDER_SCALE, out, docstring)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gather = sub.add_parser("collect", help="gather a player's games from arena records into a moves file")
    gather.add_argument("folders", nargs="+", type=Path)
    gather.add_argument("--player", default="rapfi", help="a part of the learnt engine's name")
    gather.add_argument("--out", type=Path, required=True)
    train = sub.add_parser("fit", help="fit the ordering to a moves file")
    train.add_argument("moves", type=Path)
    train.add_argument("--out", type=Path, required=True)
    train.add_argument("--l2", type=float, default=1e-4)
    train.add_argument("--steps", type=int, default=600)
    train.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "collect":
        collect(args.folders, args.player, args.out)
        return 0
    own, opp, report = fit(features(args.moves), args.l2, args.steps, args.seed)
    for key, value in report.items():
        print(f"{key}: {value}")
    count = write_weights(own, opp, args.out, args.moves.name)
    print(f"{count} combinations to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
