"""Time renju.forbidden_points on typical 40-stone renju positions and print the figures.

Positions come from seeded random play near the stones already down (legal renju moves only),
so the numbers are reproducible: `.venv/bin/python tools/bench_renju.py [--stones 40] [--games 30]`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gomoku.core import Board, Rule, renju


def clustered_game(seed: int, stones: int, size: int = 15) -> Board:
    """A renju game of `stones` moves, each a random legal point within two of a stone."""
    rng = random.Random(seed)
    board = Board(size, Rule.RENJU)
    board.push(size // 2, size // 2)
    while board.ply < stones and not board.is_game_over():
        near = [
            (x, y)
            for x, y in board.legal_moves()
            if any(
                board.on_board(x + dx, y + dy) and board[(x + dx, y + dy)] != 0
                for dx in range(-2, 3)
                for dy in range(-2, 3)
            )
        ]
        board.push(*rng.choice(near))
    return board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stones", type=int, default=40)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=20, help="timed calls per position (warm)")
    args = parser.parse_args()

    boards = [clustered_game(seed, args.stones) for seed in range(args.games)]
    cold, warm, found = [], [], []
    for board in boards:
        renju._shapes.clear()  # cold: the line-shape memo starts empty, as in a fresh process
        start = time.perf_counter()
        points = renju.forbidden_points(board.grid)
        cold.append(time.perf_counter() - start)
        found.append(len(points))
        start = time.perf_counter()
        for _ in range(args.repeat):
            renju.forbidden_points(board.grid)
        warm.append((time.perf_counter() - start) / args.repeat)

    def ms(values: list[float]) -> str:
        return f"median {statistics.median(values) * 1e3:.2f} ms, max {max(values) * 1e3:.2f} ms"

    plies = [board.ply for board in boards]
    print(f"positions: {len(boards)}, stones: median {statistics.median(plies)}, min {min(plies)} "
          f"(a game may end in a five first); forbidden points found: max {max(found)}")
    print(f"forbidden_points cold (empty memo): {ms(cold)}")
    print(f"forbidden_points warm (memo filled): {ms(warm)}")
    print(f"line shapes memoised: {len(renju._shapes)}")


if __name__ == "__main__":
    main()
