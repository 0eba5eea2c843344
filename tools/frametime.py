"""Frame times of the real app while the hard AI thinks: is the UI still smooth at 60 fps?

Runs the app with SDL's dummy video driver in a board game against the hard AI; the human side
is scripted (a click near the stones, through real mouse events). Each frame runs the real
loop (`App.frame` then `App.pacer.wait()`, as `App.run` does; `--pacing tick` uses pygame's
`Clock.tick(60)` instead, for comparison). Prints the median and 99th percentile of the frame
interval (what a player sees; 16.7 ms is a perfect 60 fps) and of the work inside a frame,
over all frames and over the frames while the AI was thinking. Target: p99 interval < 20 ms.

    .venv/bin/python tools/frametime.py [--ai-moves 20] [--level hard] [--size 1280x800]
    .venv/bin/python tools/frametime.py --menu   # the menu's attract game at hard level instead
    .venv/bin/python tools/frametime.py --new-games 5 --size 3840x2160   # the pause a new game costs
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (the SDL drivers must be chosen first)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gomoku.core import Board, Color  # noqa: E402
from gomoku.engine.api import DEFAULT_BUDGET_S, Level  # noqa: E402
from gomoku.ui.app import FPS, App, AppOptions, parse_size  # noqa: E402

HUMAN_DELAY_S = 0.4
"""The scripted human waits this long after the AI's move before clicking."""


PACING = {"pacer": "App.pacer.wait(), as App.run does", "tick": "pygame's Clock.tick(60)"}
pacing_choice = "pacer"


def pace(app: App) -> float:
    """Wait for the next frame as the chosen pacing does; returns the interval in seconds."""
    if pacing_choice == "tick":
        return app.clock.tick(FPS) / 1000
    return app.pacer.wait()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def scripted_move(board: Board, rng: random.Random) -> tuple[int, int]:
    """A legal point next to the stones (the centre on an empty board)."""
    if not board.moves:
        return (board.size // 2, board.size // 2)
    near = set()
    for x, y in board.moves:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if board.on_board(x + dx, y + dy) and board.is_legal(x + dx, y + dy):
                    near.add((x + dx, y + dy))
    return rng.choice(sorted(near)) if near else board.legal_moves()[0]


def click(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def report(name: str, intervals: list[float], work: list[float]) -> None:
    if not intervals:
        print(f"{name}: no frames")
        return
    ms = [v * 1000 for v in intervals]
    work_ms = [v * 1000 for v in work]
    print(
        f"{name}: {len(ms)} frames; interval median {statistics.median(ms):.1f} ms, "
        f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms; "
        f"work median {statistics.median(work_ms):.1f} ms, p99 {percentile(work_ms, 0.99):.1f} ms"
    )


def run_board(app: App, level: str, ai_moves_wanted: int, time_limit_s: float, seed: int, worst: int = 0) -> None:
    rng = random.Random(seed)
    data = {"mode": "ai", "level": level, "human_color": "black", "rule": "freestyle", "size": 15,
            "time_control": {"game_s": 0, "increment_s": 0, "move_s": 0}}
    app.switch("board", data)
    if app.current_name != "board":
        raise SystemExit("the board scene is not available")
    intervals: list[float] = []
    work: list[float] = []
    thinking_intervals: list[float] = []
    thinking_work: list[float] = []
    ai_moves = games = 0
    last_ply = 0
    last_change = time.monotonic()
    started = time.monotonic()
    dt = 1 / FPS
    while ai_moves < ai_moves_wanted and time.monotonic() - started < time_limit_s:
        scene = app.current
        game = scene.game
        if game.is_over:
            games += 1
            app.switch("board", data)
            last_ply = 0
            continue
        board = game.board
        if board.ply != last_ply:
            if board.ply > last_ply and board.ply % 2 == 0:  # white (the AI) just moved
                ai_moves += 1
            last_ply = board.ply
            last_change = time.monotonic()
        ai_to_move = game.to_move is Color.WHITE
        if not ai_to_move and time.monotonic() - last_change > HUMAN_DELAY_S:
            click(scene.view.geometry.center(scripted_move(board, rng)))
            last_change = time.monotonic()
        begin = time.perf_counter()
        app.frame(dt)
        spent = time.perf_counter() - begin
        dt = pace(app)
        intervals.append(dt)
        work.append(spent)
        if ai_to_move:
            thinking_intervals.append(dt)
            thinking_work.append(spent)
    print(f"board scene, {level} AI: {ai_moves} AI moves in {games + 1} game(s), "
          f"{time.monotonic() - started:.1f} s, window {app.screen_size[0]}x{app.screen_size[1]}")
    report("all frames", intervals[1:], work[1:])
    report("while the AI thinks", thinking_intervals, thinking_work)
    print(f"frames presented to the display: {app.frames_presented} of {len(intervals)} "
          "(an unchanged frame is not presented again)")
    if worst:
        print(f"the {worst} longest intervals (ms): interval = work + sleep and scheduling")
        ranked = sorted(range(1, len(intervals)), key=lambda i: intervals[i], reverse=True)[:worst]
        for i in ranked:
            print(f"  frame {i}: interval {intervals[i] * 1000:.1f}, work {work[i] * 1000:.1f}")


def run_menu(app: App, ai_moves_wanted: int, time_limit_s: float) -> None:
    from gomoku.ui.scenes.menu import AttractGame

    menu = app.current
    menu.attract = AttractGame(black=Level.HARD, white=Level.HARD, move_interval_s=0.0,
                               budget_s=dict(DEFAULT_BUDGET_S))
    intervals: list[float] = []
    work: list[float] = []
    started = time.monotonic()
    dt = 1 / FPS
    while menu.attract.moves_played < ai_moves_wanted and time.monotonic() - started < time_limit_s:
        begin = time.perf_counter()
        app.frame(dt)
        work.append(time.perf_counter() - begin)
        dt = pace(app)
        intervals.append(dt)
    print(f"menu, hard vs hard behind it: {menu.attract.moves_played} AI moves, "
          f"{time.monotonic() - started:.1f} s")
    report("all frames", intervals[1:], work[1:])


def run_new_games(app: App, count: int) -> None:
    """Start `count` two-player games one after the other, each up to its first drawn frame."""
    spent: list[float] = []
    for _ in range(count):
        begin = time.perf_counter()
        app.switch("board", {"mode": "local"})
        app.frame()
        spent.append(time.perf_counter() - begin)
    ms = [v * 1000 for v in spent]
    print(f"new game to first frame, window {app.screen_size[0]}x{app.screen_size[1]}: "
          f"first {ms[0]:.0f} ms, then median {statistics.median(ms[1:] or ms):.0f} ms, max {max(ms[1:] or ms):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description="frame times while the AI thinks")
    parser.add_argument("--ai-moves", type=int, default=20)
    parser.add_argument("--level", default="hard", choices=["easy", "medium", "hard"])
    parser.add_argument("--size", default="1280x800", help="window size WxH")
    parser.add_argument("--menu", action="store_true", help="measure the menu with hard vs hard behind it")
    parser.add_argument("--new-games", type=int, default=0, metavar="N",
                        help="instead: time N new games up to their first frame")
    parser.add_argument("--time-limit", type=float, default=300.0, help="give up after this many seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pacing", choices=sorted(PACING), default="pacer",
                        help="how frames are paced: " + "; ".join(f"{k}: {v}" for k, v in PACING.items()))
    parser.add_argument("--worst", type=int, default=0, metavar="N", help="also list the N longest frames")
    args = parser.parse_args()
    global pacing_choice
    pacing_choice = args.pacing
    with tempfile.TemporaryDirectory(prefix="gomoku-frametime-") as home:
        app = App(AppOptions(windowed=True, size=parse_size(args.size), home=Path(home)))
        try:
            if args.new_games:
                run_new_games(app, args.new_games)
                return
            deadline = time.monotonic() + 60
            while not app.engine_loaded and time.monotonic() < deadline:  # let the engine load first
                app.frame()
                app.clock.tick(FPS)
            app.engine  # noqa: B018  (waits for the loader and raises if the engine failed)
            while not app.engine.ready and time.monotonic() < deadline:
                app.frame()
                app.clock.tick(FPS)
            if args.menu:
                run_menu(app, args.ai_moves, args.time_limit)
            else:
                run_board(app, args.level, args.ai_moves, args.time_limit, args.seed, args.worst)
        finally:
            app.close()


if __name__ == "__main__":
    main()
