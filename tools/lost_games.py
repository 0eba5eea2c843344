#!/usr/bin/env python3
"""Where did our engine lose? For each game an arena folder holds that ENGINE lost by a five,
the first of its moves after which the opponent has a forced win by continuous threats (VCT)
that our threat search finds when allowed --depth threats and --nodes nodes, and whether
hard's own check (its VCT depth, the nodes it spends at --time seconds a move) finds it too.

    .venv/bin/python tools/lost_games.py arena-out --engine hard --time 1

A game whose losing move the deep search finds but hard's check misses was lost to a VCT
beyond hard's reach; "none found" means a win by a longer or quieter attack.

With --alternatives, each other move at that point (the engine's candidates: empty, a stone
within 2 along a line) is tried the same way: if every one also leaves the opponent a VCT,
the game was lost earlier, in a position where the opponent had no VCT yet (a quiet mistake,
not a missed VCT).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from gomoku.core import Board, IllegalMoveError
from gomoku.core.notation import format_point
from gomoku.core.records import RECORD_SUFFIX, GameRecord, load_record
from gomoku.engine import driver, search, state, threats
from gomoku.engine.api import Level


def opponent_vct(board: Board, depth: int, nodes: int) -> int:
    """Plies to the win of the side to move's VCT found within the limits, else 0."""
    grid = np.ascontiguousarray(board.grid, dtype=np.int8)
    bd = state.new_state(grid, int(board.to_move), driver.RULE_CODES[board.rule],
                         driver.pattern_tables(board.rule))
    sr = threats.new_search_tables(18, bd[0].shape[0], driver.evaluation(Level.HARD))
    driver._reset(sr, driver.LEVELS[Level.HARD], 1)
    found = int(search.vct_deepening(bd, sr, int(board.to_move), depth, nodes))
    return threats.WIN - found if found > 0 else 0  # the search counts plies from its root


def saving_moves(record: GameRecord, ply: int, depth: int, nodes: int) -> tuple[int, int]:
    """(saving, tried): of the other moves at `ply` (the engine's candidates: empty, a stone
    within 2 along a line), how many leave the opponent no VCT within the limits, and how
    many were tried."""
    before = Board.from_moves(record.moves[:ply], record.size, record.rule)
    bd = state.new_state(np.ascontiguousarray(before.grid, dtype=np.int8), int(before.to_move),
                         driver.RULE_CODES[before.rule], driver.pattern_tables(before.rule))
    cells, near = bd[0], bd[2]
    saving = tried = 0
    for cell in np.flatnonzero((cells == 0) & (near > 0)):
        point = state.cell_point(int(cell), record.size)
        if point == tuple(record.moves[ply]):
            continue
        after = before.copy()
        try:
            after.push(*point)
        except IllegalMoveError:  # renju: a point forbidden to black is no alternative
            continue
        tried += 1
        saving += opponent_vct(after, depth, nodes) == 0
    return saving, tried


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="an arena --out folder")
    parser.add_argument("--engine", default="hard", help="the engine's name in the records")
    parser.add_argument("--depth", type=int, default=14, help="threats of the deep search")
    parser.add_argument("--nodes", type=int, default=500_000, help="nodes of the deep search")
    parser.add_argument("--time", type=float, default=1.0, help="the games' seconds a move")
    parser.add_argument("--alternatives", action="store_true",
                        help="also try every other move at the losing point (slower)")
    args = parser.parse_args(argv)
    driver.warm_up()
    hard = driver.LEVELS[Level.HARD]
    # The deepest check hard makes of the move it plays (the last check, where it has one).
    per_s = max(hard.verify_nodes_per_s, hard.final_check_nodes_per_s)
    check_nodes = max(int(per_s * args.time), 2_000)
    lost = beyond = doomed = 0
    for path in sorted(args.folder.glob(f"game-*{RECORD_SUFFIX}")):
        record = load_record(path)
        ours_black = record.black == args.engine
        if args.engine not in (record.black, record.white) or record.reason != "five":
            continue
        if record.result == ("black" if ours_black else "white") or record.result == "draw":
            continue
        lost += 1
        start = record.extra.get("arena", {}).get("opening_stones", 0)
        verdict = "none found"
        for ply in range(start, len(record.moves)):
            if (ply % 2 == 0) != ours_black:
                continue
            board = Board.from_moves(record.moves[: ply + 1], record.size, record.rule)
            plies = opponent_vct(board, args.depth, args.nodes)
            if plies:
                seen = opponent_vct(board, hard.vct_depth, check_nodes) > 0
                beyond += not seen
                move = format_point(record.moves[ply], record.size)
                verdict = (f"move {ply + 1} {move}: the opponent wins in {plies} plies; hard's "
                           f"check (depth {hard.vct_depth}, {check_nodes} nodes) "
                           f"{'finds it' if seen else 'misses it'}")
                if args.alternatives:
                    saving, tried = saving_moves(record, ply, args.depth, args.nodes)
                    doomed += saving == 0
                    verdict += f"; {saving} of {tried} other moves avoid a VCT"
                break
        print(f"{path.name}: {len(record.moves)} stones; {verdict}", flush=True)
    print(f"{lost} games lost by a five; in {beyond} the losing move left a VCT beyond hard's check")
    if args.alternatives:
        print(f"in {doomed} every other move left the opponent a VCT too: lost before that move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
