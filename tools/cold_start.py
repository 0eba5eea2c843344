"""Cold start: a new player's first launch, with an empty numba cache and an empty home.

Prints, each measured in a fresh interpreter on fresh temporary folders:
  1. launch to the first drawn (interactive) menu frame;
  2. in the real app (SDL's dummy drivers, frames paced as `App.run` does): when each level is
     ready, the first hard move (1 s budget) on a middle-game position, and the frame interval
     (median, p99, max) while the engine is prepared;
  3. `pbrain-gomoku`: the START reply, the first moves (stand-in or search), and the first
     move that is a real search.

    .venv/bin/python tools/cold_start.py [--jobs N] [--skip-app] [--skip-brain] [--source DIR]

`--jobs` sets the preparing processes (GOMOKU_PREPARE_JOBS; default: 2 when two cores may be used).
`--source DIR` measures another copy of the game (e.g. `git worktree add /tmp/old <rev>`): the
editable install's import finder is dropped first, as tools/ab.py does, so DIR's code runs. An
older game without per-level readiness counts every level ready when its worker is.
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

ROOT = Path(__file__).resolve().parent.parent
APP_TIME_LIMIT_S = 240.0
PRELUDE = """
import importlib.machinery, runpy, sys
root = sys.argv[1]
def elsewhere(finder):
    try:
        spec = finder.find_spec("gomoku", None)
    except Exception:
        return False
    return spec is not None and not str(spec.origin).startswith(root)
sys.meta_path[:] = [f for f in sys.meta_path
                    if f is importlib.machinery.PathFinder or not elsewhere(f)]
sys.path.insert(0, root)
module, sys.argv = sys.argv[2], sys.argv[2:]
if module.endswith(".py"):
    runpy.run_path(module, run_name="__main__")
else:
    runpy.run_module(module, run_name="__main__", alter_sys=True)
"""
source: Path | None = None  # --source: the copy of the game to measure


def command(module: str, *args: str) -> list[str]:
    """The command line running `module` (or a .py file) from the measured copy of the game."""
    if source is None:
        return [sys.executable, module, *args] if module.endswith(".py") else \
            [sys.executable, "-m", module, *args]
    return [sys.executable, "-c", PRELUDE, str(source), module, *args]


def game_folder() -> Path:
    """Where the game's processes start: `python -m` puts this folder first on the import path,
    so the engine's preparing children (`python -m gomoku.engine.prepare`) import this copy."""
    return source or ROOT


def cold_env(jobs: int | None) -> dict[str, str]:
    """The environment of a first launch: empty cache and home folders, no screen."""
    env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="gomoku-cold-cache-"),
               GOMOKU_HOME=tempfile.mkdtemp(prefix="gomoku-cold-home-"),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("NUMBA_CACHE_DIR", None)
    if jobs:
        env["GOMOKU_PREPARE_JOBS"] = str(jobs)
    return env


def menu_time(jobs: int | None) -> float:
    """Seconds from launching `python -m gomoku` to its first drawn menu frame."""
    env = dict(cold_env(jobs), GOMOKU_STARTUP_PROBE="1")
    launched = time.time()
    result = subprocess.run(command("gomoku", "--windowed"), cwd=game_folder(), env=env,
                            capture_output=True, text=True, timeout=120)
    for line in result.stdout.splitlines():
        if line.startswith("first_frame_epoch "):
            return float(line.split()[1]) - launched
    raise RuntimeError(f"no first frame time:\n{result.stdout}\n{result.stderr}")


def inner_app() -> None:
    """Runs in the child interpreter: the app from creation to its first hard move (JSON out)."""
    began = time.monotonic()
    from gomoku.core import Board
    from gomoku.engine.api import Level, Position, SearchLimit, SearchResult
    from gomoku.ui.app import App, AppOptions

    app = App(AppOptions(windowed=True, size=(1280, 800)))
    ready: dict[str, float] = {}
    intervals: list[float] = []
    request = None
    move_at = None
    dt = 1 / 60
    try:
        while time.monotonic() - began < APP_TIME_LIMIT_S:
            app.frame(min(dt, 0.1))
            dt = app.pacer.wait()
            if len(ready) < 3:
                intervals.append(dt)
            for level in Level:
                if level.value not in ready and level_ready(app, level):
                    ready[level.value] = time.monotonic() - began
            if request is None and "hard" in ready:
                board = Board.from_moves([(7, 7), (8, 8), (8, 7), (6, 7), (7, 8), (7, 6)], 15)
                request = app.engine.start(Position.from_board(board), Level.HARD, SearchLimit(1.0))
            elif request is not None:
                while not app.engine.results.empty():
                    rid, item = app.engine.results.get_nowait()
                    if rid == request and isinstance(item, SearchResult):
                        move_at = time.monotonic() - began
                if move_at is not None:
                    break
    finally:
        app.close()
    ms = sorted(v * 1000 for v in intervals[1:]) or [0.0]
    print(json.dumps({"ready": ready, "first_hard_move": move_at, "frames": len(ms),
                      "median_ms": ms[len(ms) // 2], "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))],
                      "max_ms": ms[-1]}))


def level_ready(app: object, level: object) -> bool:
    """`app.engine_ready(level)`; in an older game, whether its worker is warm."""
    if hasattr(app, "engine_ready"):
        return bool(app.engine_ready(level))
    return bool(app.engine_loaded and app.engine.ready)


def app_figures(jobs: int | None) -> dict:
    result = subprocess.run(command(__file__, "--inner-app"), cwd=game_folder(), env=cold_env(jobs),
                            capture_output=True, text=True, timeout=APP_TIME_LIMIT_S + 60)
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"the app run printed no figures:\n{result.stdout}\n{result.stderr}")
    return json.loads(lines[-1])


def brain_figures(jobs: int | None, turns: int = 200) -> list[tuple[str, float, str]]:
    """(command, seconds to its reply, the reply's MESSAGE) for START and the first moves."""
    brain = subprocess.Popen(command("gomoku.engine.brain"), cwd=game_folder(),
                             env=cold_env(jobs), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    assert brain.stdin is not None and brain.stdout is not None
    began = time.monotonic()
    out: list[tuple[str, float, str]] = []

    def ask(command: str) -> tuple[str, str]:
        brain.stdin.write(command + "\n")
        brain.stdin.flush()
        message = ""
        while True:
            line = brain.stdout.readline().strip()
            if line.startswith("MESSAGE"):
                message = line
                continue
            return line, message

    try:
        t = time.monotonic()
        reply, _ = ask("START 15")
        out.append(("START 15", time.monotonic() - t, reply))
        brain.stdin.write("INFO timeout_turn 5000\nINFO timeout_match 0\n")  # no replies
        taken: set[tuple[int, int]] = set()
        far = [(x, y) for y in range(15) for x in (0, 14, 1, 13)]  # away from the centre

        def note(reply: str) -> None:
            x, _, y = reply.partition(",")
            if x.isdigit() and y.isdigit():
                taken.add((int(x), int(y)))

        t = time.monotonic()
        reply, message = ask("BEGIN")
        note(reply)
        out.append(("BEGIN", time.monotonic() - t, message or reply))
        for _ in range(turns):
            x, y = next(p for p in far if p not in taken)
            taken.add((x, y))
            t = time.monotonic()
            reply, message = ask(f"TURN {x},{y}")
            if reply.startswith("ERROR") and "over" in reply:  # the brain won: a new game
                taken.clear()
                ask("RESTART")
                reply, message = ask("BEGIN")
                note(reply)
                continue
            note(reply)
            out.append((f"TURN {x},{y} at {t - began:.1f} s", time.monotonic() - t, message or reply))
            if " depth 0 " not in message:
                break
            time.sleep(1.0)  # an opponent thinking
        ask("END")
    finally:
        brain.kill()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="first-launch figures on an empty cache")
    parser.add_argument("--jobs", type=int, default=None, help="preparing processes (default: 2 when two cores may be used)")
    parser.add_argument("--skip-app", action="store_true")
    parser.add_argument("--skip-brain", action="store_true")
    parser.add_argument("--source", type=Path, default=None, help="measure the game in this folder")
    parser.add_argument("--inner-app", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global source
    source = args.source.resolve() if args.source else None
    if args.inner_app:
        inner_app()
        return
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"game from {source or ROOT}")
    if not args.skip_app:
        print(f"launch to interactive menu: {menu_time(args.jobs):.2f} s")
        figures = app_figures(args.jobs)
        ready = ", ".join(f"{level} {at:.1f} s" for level, at in figures["ready"].items())
        print(f"levels ready after launch: {ready}")
        move = figures["first_hard_move"]
        print(f"first hard move (1 s budget) answered at: {move:.1f} s" if move else "no hard move")
        print(f"frame interval while preparing ({figures['frames']} frames): median "
              f"{figures['median_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, max {figures['max_ms']:.1f} ms")
    if not args.skip_brain:
        rows = brain_figures(args.jobs)
        for command, seconds, reply in rows[:2]:
            print(f"brain {command}: {seconds:.2f} s  {reply[:90]}")
        stand_ins = [seconds for _, seconds, reply in rows[2:] if " depth 0 " in reply]
        if stand_ins:
            print(f"brain stand-in moves while preparing: {len(stand_ins)}, "
                  f"the slowest in {max(stand_ins):.2f} s")
        for command, seconds, reply in rows[2:]:
            if " depth 0 " not in reply:
                print(f"brain first searched move, {command}: {seconds:.2f} s  {reply[:90]}")


if __name__ == "__main__":
    main()
