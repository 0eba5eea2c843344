#!/usr/bin/env python3
"""Make a fixed set of balanced openings for the arena (tools/openings/<rule>-<size>.txt).

Random openings of --stones stones in the 5x5 square around the centre (black first, no
two the same up to the board's 8 symmetries) are kept when our hard engine's score at a
fixed --depth is within +-balance for the side to move and, with --judge, when another
brain (e.g. Rapfi) thinking --judge-time seconds evaluates it within +-judge-limit (its
last MESSAGE matching --judge-eval). With --play, the judge then plays the opening out
against itself twice, at two node budgets (--play-nodes, Rapfi's `INFO max_node`), the larger
budget black in one game and white in the other, and the opening is kept only when the colour
did not decide: not both games won by black, nor both by white. A deep search's score near
zero is not enough there: from 24 of 50 renju openings Rapfi judged within +-120 at 1 s, Rapfi
against itself won both such games as white. The file holds one opening a line in move
notation, with the scores and the games' winners in a comment:

    .venv/bin/python tools/make_openings.py --rule freestyle --size 15 --count 50 \\
        --judge /path/to/pbrain-rapfi --out tools/openings/freestyle-15.txt
"""

from __future__ import annotations

import argparse
import random
import re
import shlex
import sys
import time
from pathlib import Path

import arena  # tools/arena.py, beside this file

from gomoku.core import Board, Point, Rule

PLAY_MOVE_S = 30.0  # a move's time in the judge's own games: its node budget ends the search


def canonical(opening: tuple[Point, ...], size: int) -> tuple:
    """The same key for an opening and its 7 mirror images and rotations."""
    keys = []
    for swap in (False, True):
        for flip_x in (False, True):
            for flip_y in (False, True):
                moved = []
                for x, y in opening:
                    if swap:
                        x, y = y, x
                    moved.append((size - 1 - x if flip_x else x, size - 1 - y if flip_y else y))
                keys.append((tuple(sorted(moved[0::2])), tuple(sorted(moved[1::2]))))
    return min(keys)


def judge_score(judge: arena.BrainProcess, opening: tuple[Point, ...], size: int, rule: Rule,
                time_s: float, pattern: re.Pattern[str]) -> int | None:
    """The judge brain's evaluation for the side to move: the last MESSAGE matching `pattern`."""
    judge.start(size, rule, time_s)
    board = Board.from_moves(opening, size, rule)
    judge.messages.clear()
    judge.send(*arena.board_lines(board, board.to_move))
    judge.move(time.monotonic() + time_s + 5.0)
    return judge.evaluation(pattern)


def plays_even(players: list[arena.BrainProcess], opening: tuple[Point, ...], size: int,
               rule: Rule) -> tuple[bool, str]:
    """Play `opening` out twice, players[0] black in the first game and white in the second;
    (is it kept: not both games won by one colour, both ended on the board; the winners for
    the opening's comment). A game lost on time or by a crash leaves the opening out."""
    winners = []
    for black in (0, 1):
        for player in players:
            player.start(size, rule, PLAY_MOVE_S)
        game = arena.play_game(0, players, black, opening, rule, size, [PLAY_MOVE_S] * 2, 1.0)
        if game.reason not in ("five", "full_board"):
            return False, f"a game ended by {game.reason} {game.detail}".strip()
        winners.append("draw" if game.winner is None
                       else "black" if game.winner == game.black else "white")
    return not (winners[0] == winners[1] != "draw"), f"games: {winners[0]}, {winners[1]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule", choices=[rule.value for rule in arena.RULE_CODES],
                        default="freestyle")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--count", type=int, default=50, help="openings to keep (default 50)")
    parser.add_argument("--stones", type=int, default=3, help="stones an opening (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=8,
                        help="our search depth (default 8; 0: no score of ours)")
    parser.add_argument("--balance", type=int, default=300,
                        help="largest |score| of ours kept (default 300)")
    parser.add_argument("--judge", help="a second brain's command line that must agree")
    parser.add_argument("--judge-time", type=float, default=2.0)
    parser.add_argument("--judge-limit", type=int, default=150,
                        help="largest |evaluation| of the judge kept (default 150)")
    parser.add_argument("--judge-eval", default=arena.EVAL_PATTERN,
                        help="regex whose group 1 is the evaluation in the judge's MESSAGE")
    parser.add_argument("--play", action="store_true",
                        help="keep only openings where the judge, playing itself, does not win "
                        "both games with one colour")
    parser.add_argument("--play-nodes", default="100000,60000",
                        help="the judge's two node budgets a move in those games "
                        "(default 100000,60000)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        budgets = [int(n) for n in args.play_nodes.split(",")]
    except ValueError:
        budgets = []
    if len(budgets) != 2 or min(budgets) < 1:
        parser.error("--play-nodes takes two positive numbers: 100000,60000")
    if args.play and not args.judge:
        parser.error("--play needs --judge, the brain that plays the games")
    rule, size = Rule(args.rule), args.size
    rng = random.Random(args.seed)
    pattern = re.compile(args.judge_eval)
    judge = arena.BrainProcess(arena.engine_command(args.judge)) if args.judge else None
    players = [arena.BrainProcess(arena.engine_command(args.judge), info=[f"INFO max_node {n}"])
               for n in budgets] if args.play else []
    seen: set[tuple] = set()
    kept: list[str] = []
    drawn = 0
    try:
        while len(kept) < args.count and drawn < 100 * args.count:
            opening = arena.random_opening(rng, size, args.stones)
            drawn += 1
            key = canonical(opening, size)
            if key in seen:
                continue
            seen.add(key)
            notes = []
            if args.depth > 0:
                ours = arena.opening_score(opening, size, rule, args.depth)
                if ours is None or abs(ours) > args.balance:
                    continue
                notes.append(f"hard depth {args.depth}: {ours:+d}")
            if judge is not None:
                theirs = judge_score(judge, opening, size, rule, args.judge_time, pattern)
                if theirs is None or abs(theirs) > args.judge_limit:
                    continue
                notes.append(f"judge: {theirs:+d}")
            if players:
                even, games = plays_even(players, opening, size, rule)
                if not even:
                    print(f"left out (of {drawn} drawn): {arena.opening_text(opening, size)}  "
                          f"# {games}", flush=True)
                    continue
                notes.append(games)
            kept.append(f"{arena.opening_text(opening, size)}  # {', '.join(notes)}")
            print(f"{len(kept)}/{args.count} (of {drawn} drawn): {kept[-1]}", flush=True)
    finally:
        for brain in [judge, *players]:
            if brain is not None:
                brain.close()
    judged = (f"; judged by {Path(shlex.split(args.judge)[0]).name} at {args.judge_time:g} s "
              f"within +-{args.judge_limit}") if args.judge else ""
    header = [
        f"# rule {rule.value} size {size}",
        f"# {len(kept)} balanced openings of {args.stones} stones (black first), kept of "
        f"{len(seen)} distinct random ones in the 5x5 centre square (seed {args.seed}, {drawn} "
        "drawn), no two alike up to symmetry",
        f"# scores for the side to move: hard at depth {args.depth} within +-{args.balance}"
        f"{judged}" if args.depth > 0 else f"# scores for the side to move{judged}",
        *([f"# played out by the judge against itself at {budgets[0]} and {budgets[1]} nodes a "
           "move, each budget once as black: kept when not both games went to one colour"]
          if players else []),
        "# made by tools/make_openings.py; the arena plays each opening twice, colours swapped",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(header + kept) + "\n", encoding="utf-8")
    print(f"wrote {len(kept)} openings to {args.out}")
    return 0 if len(kept) == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
