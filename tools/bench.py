"""Engine benchmark: fixed positions, fixed-depth node counts, speed per level, compile times.

Prints tables of figures (nothing is asserted):
  1. first call (compile, or load from numba's cache) and a warm call;
  2. per level and position: nodes, nodes/s and depth reached in a 1 s search;
  3. fixed-depth searches (hard settings, depth 4): node counts, which change only when the
     search changes, so a diff of this table catches unintended changes; with wall and CPU
     seconds (CPU time holds up better on a loaded machine) and the total nodes per CPU second;
  4. compiled vs plain Python (NUMBA_DISABLE_JIT=1 in a subprocess): nodes/s ratio.

Usage: .venv/bin/python tools/bench.py [--time 1.0] [--depth 4] [--skip-python]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from gomoku.core import Board, Rule

# Fixed positions: opening, early middle game, sharp middle games (from engine games).
POSITIONS: dict[str, list[tuple[int, int]]] = {
    "opening-3": [(7, 7), (6, 8), (8, 6)],
    "early-8": [(7, 7), (6, 6), (9, 9), (5, 7), (7, 5), (6, 8), (7, 6), (7, 8)],
    "middle-12": [(7, 7), (6, 6), (9, 9), (5, 7), (7, 5), (6, 8), (7, 6), (7, 8), (8, 8), (5, 8),
                  (8, 7), (7, 4)],
    "middle-16": [(7, 7), (6, 8), (5, 5), (8, 8), (7, 8), (7, 9), (5, 7), (6, 10), (9, 7), (5, 11),
                  (4, 12), (6, 7), (6, 9), (8, 10), (8, 7), (5, 10)],
    "middle-22": [(7, 7), (6, 8), (5, 5), (8, 8), (7, 8), (7, 9), (5, 7), (6, 10), (9, 7), (5, 11),
                  (4, 12), (6, 7), (6, 9), (8, 10), (8, 7), (5, 10), (9, 6), (10, 5), (10, 7),
                  (11, 7), (7, 10), (10, 12)],
    "renju-10": [(7, 7), (8, 8), (6, 8), (8, 6), (8, 7), (6, 7), (9, 8), (5, 8), (7, 9), (9, 7)],
}

PYTHON_POSITION = "middle-12"


def position_for(name: str):
    from gomoku.engine.api import Position

    rule = Rule.RENJU if name.startswith("renju") else Rule.FREESTYLE
    return Position.from_board(Board.from_moves(POSITIONS[name], 15, rule))


def fixed_depth_run(depth: int, names: list[str], level_name: str = "hard") -> dict:
    """Search each position to `depth` at a level on fresh tables; nodes and time.

    The time limit is large (the depth ends the search), and with a depth limit the threat
    checks' node budgets do not depend on it (driver.DEPTH_LIMITED_BUDGET_S): the counts are
    reproducible.
    """
    from gomoku.engine import driver
    from gomoku.engine.api import Level, SearchLimit

    out = {}
    for name in names:
        driver.new_game()
        started = time.perf_counter()
        cpu_started = time.process_time()
        result = driver.think(position_for(name), Level(level_name), SearchLimit(1e6, max_depth=depth))
        elapsed = time.perf_counter() - started
        out[name] = {"nodes": result.nodes, "seconds": elapsed, "move": result.move,
                     "depth": result.depth, "cpu": time.process_time() - cpu_started}
    return out


def python_child(depth: int, names: list[str], tables_file: str) -> None:
    """Runs in the NUMBA_DISABLE_JIT=1 subprocess: the same searches as plain Python."""
    from gomoku.engine import driver

    with np.load(tables_file) as saved:
        for rule in Rule:
            driver._tables[driver.RULE_CODES[rule]] = saved[rule.value]
    driver._ready.set()  # nothing to compile: skip warm-up
    print(json.dumps(fixed_depth_run(depth, names, "medium")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per timed search")
    parser.add_argument("--depth", type=int, default=4, help="depth of the fixed-depth table")
    parser.add_argument("--skip-python", action="store_true", help="skip the plain-Python run")
    parser.add_argument("--python-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = list(POSITIONS)
    if args.python_child:
        python_child(args.depth, [PYTHON_POSITION], args.python_child)
        return

    from gomoku.engine import driver
    from gomoku.engine.api import Level, SearchLimit

    # 1. First call and warm call.
    started = time.perf_counter()
    driver.warm_up()
    first = time.perf_counter() - started
    started = time.perf_counter()
    driver.think(position_for("early-8"), Level.HARD, SearchLimit(0.05))
    warm = time.perf_counter() - started
    print(f"warm_up (compile or cache load): {first:.2f} s; warm 0.05 s-budget call: {warm:.3f} s")

    # 2. Timed searches per level.
    print(f"\n{'level':7} {'position':10} {'move':>8} {'depth':>5} {'nodes':>9} {'nodes/s':>9} {'time':>6}")
    for level in (Level.EASY, Level.MEDIUM, Level.HARD):
        for name in names:
            driver.new_game()
            started = time.perf_counter()
            result = driver.think(position_for(name), level, SearchLimit(args.time))
            elapsed = time.perf_counter() - started
            nps = result.nodes / elapsed if elapsed > 0 else 0.0
            print(f"{level.value:7} {name:10} {str(result.move):>8} {result.depth:5d} "
                  f"{result.nodes:9d} {nps:9.0f} {elapsed:6.2f}")

    # 3. Fixed-depth node counts.
    fixed = fixed_depth_run(args.depth, names)
    print(f"\nfixed depth {args.depth} (hard settings, fresh tables):")
    print(f"{'position':10} {'nodes':>9} {'move':>8} {'seconds':>8} {'cpu s':>8}")
    for name, row in fixed.items():
        print(f"{name:10} {row['nodes']:9d} {str(tuple(row['move'])):>8} {row['seconds']:8.3f} "
              f"{row['cpu']:8.3f}")
    total_nodes = sum(row["nodes"] for row in fixed.values())
    total_cpu = sum(row["cpu"] for row in fixed.values())
    print(f"{'total':10} {total_nodes:9d} {'':>8} {'':>8} {total_cpu:8.3f}  "
          f"({total_nodes / max(total_cpu, 1e-9):.0f} nodes per CPU second)")

    # 4. Compiled vs plain Python on one position (medium's search: no VCT, so it ends soon).
    if args.skip_python:
        return
    with tempfile.TemporaryDirectory() as tmp:
        tables_file = str(Path(tmp) / "tables.npz")
        np.savez(tables_file, **{rule.value: driver.pattern_tables(rule) for rule in Rule})
        depth = 4
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        child = subprocess.run(
            [sys.executable, __file__, "--depth", str(depth), "--python-child", tables_file],
            capture_output=True, text=True, env=env, check=True, timeout=1800)
        python_row = json.loads(child.stdout.strip().splitlines()[-1])[PYTHON_POSITION]
    compiled_row = fixed_depth_run(depth, [PYTHON_POSITION], "medium")[PYTHON_POSITION]
    py_nps = python_row["nodes"] / python_row["seconds"]
    jit_nps = compiled_row["nodes"] / compiled_row["seconds"]
    print(f"\n{PYTHON_POSITION} at depth {depth} (medium): compiled {compiled_row['nodes']} nodes in "
          f"{compiled_row['seconds']:.3f} s ({jit_nps:.0f} nodes/s); plain Python "
          f"{python_row['nodes']} nodes in {python_row['seconds']:.1f} s ({py_nps:.0f} nodes/s); "
          f"speed-up {jit_nps / py_nps:.0f}x")


if __name__ == "__main__":
    main()
