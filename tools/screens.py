"""Screenshots of the real app in the states issue 9 asks to compare, at several window sizes.

Drives the App with SDL's dummy video driver (no screen, no sound card) and writes
`<state>-<W>x<H>.png` into --out for each state and size:

    midgame     a two-player game after 15 moves, freestyle
    gameover    the same game won by black with five in a row: the result card
    countdown   30 s a move (5 min a side): white to move with 12 s of its move left
    renju       renju, black to move, with its forbidden points marked
    savedialog  Save pressed in the middle game: the records scene in save mode, 3 saves listed

Games are two players on one screen or set positions, so no engine is needed (its loading is
skipped: nothing compiles). Home, saves, times and the time zone are fixed, so a run on the same
code gives the same pictures.

    .venv/bin/python tools/screens.py --out /tmp/screens [--sizes 640x400,1280x800] [--states midgame,renju]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["TZ"] = "UTC"  # the save list shows file times in local time
time.tzset()

import pygame  # noqa: E402  (the SDL drivers must be chosen first)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gomoku.core import records  # noqa: E402
from gomoku.core.board import Board  # noqa: E402
from gomoku.core.types import Color  # noqa: E402
from gomoku.ui.app import SAMPLE_OPENING, App, AppOptions, parse_size  # noqa: E402

SIZES = ((640, 400), (1280, 800), (2560, 600), (1920, 1080))
HOME = Path(tempfile.gettempdir()) / "gomoku-screens-home"  # fixed: the save dialog shows its path
SETTLE_S = 0.3  # a new stone settles in 0.14 s of real time
SAVE_TIME = 1_790_000_000  # 2026-09-21 (UTC): the listed saves' file times

GAMEOVER_MOVES = (*SAMPLE_OPENING, (10, 8), (10, 9), (11, 10))
"""SAMPLE_OPENING, then white k7, black k6 (h9 i8 j7 k6 in a diagonal), white blocks l5; the
click on g10 that makes black's five comes in `gameover`."""

RENJU_MOVES = (
    (7, 7), (9, 7), (5, 7), (10, 6), (4, 7), (8, 9), (4, 8), (10, 7), (9, 8), (8, 7), (5, 8),
    (8, 4), (4, 6), (7, 2), (8, 5), (7, 3), (6, 7), (3, 10), (6, 3), (5, 10), (1, 10), (8, 10),
)
"""A renju middle game, black to move, with a double four and double threes forbidden."""


def settle(app: App, seconds: float = SETTLE_S) -> None:
    """Run frames for `seconds` of real time (animations use the clock), at about 60 fps."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.frame()
        time.sleep(1 / 120)
    app.frame()


def click(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.frame()


def move_mouse_away(app: App) -> None:
    """The pointer to the window's top-left corner, off the board: no preview stone."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(0, 0), rel=(0, 0), buttons=(0, 0, 0)))
    app.frame()


def start_game(app: App, moves: tuple[tuple[int, int], ...], **data: object) -> None:
    app.switch("board", {"mode": "local", "rule": "freestyle", "moves": [list(p) for p in moves], **data})
    move_mouse_away(app)


def midgame(app: App) -> None:
    start_game(app, SAMPLE_OPENING, time_control={"game_s": 600, "increment_s": 5, "move_s": 0})


def gameover(app: App) -> None:
    start_game(app, GAMEOVER_MOVES)
    scene = app.current
    winning = _five_for_black(scene.game.board)
    click(app, scene.view.geometry.center(winning))
    move_mouse_away(app)
    if not scene.game.is_over:
        raise SystemExit(f"gameover: the click at {winning} did not end the game")


def countdown(app: App) -> None:
    start_game(app, SAMPLE_OPENING, time_control={"game_s": 300, "increment_s": 0, "move_s": 30})
    clock = app.current.game.clock
    now = time.monotonic()
    clock.pause(now)
    clock.resume(now - 17.6)  # white has used 17.6 s of its 30: the card shows 0:12 for a while


def renju(app: App) -> None:
    start_game(app, RENJU_MOVES, rule="renju")
    if not app.current.game.board.forbidden_points():
        raise SystemExit("renju: the position has no forbidden point")


def savedialog(app: App) -> None:
    saves = app.paths.saves_dir
    for index, (black, white, count) in enumerate((("Player", "Computer", 15), ("Ann", "Bo", 9),
                                                    ("Player", "Guest", 12))):
        moves = list(SAMPLE_OPENING[:count])
        record = records.GameRecord(black=black, white=white, moves=moves, times=[2.0] * count,
                                    date="2026-09-21T10:00:00+00:00")
        path = saves / f"{black} vs {white}.gomoku"
        records.save_record(record, path)
        os.utime(path, (SAVE_TIME - index * 86_400, SAVE_TIME - index * 86_400))
    midgame(app)
    click(app, app.current.buttons["save"].rect.center)
    if app.current_name != "records":
        raise SystemExit("savedialog: Save did not open the records scene")
    app.current.name_input.set_text("Player vs Guest 2026-09-22 1830")  # the default has today's date
    while (pygame.time.get_ticks() // 500) % 2:  # the text cursor's visible half-second
        time.sleep(0.01)


STATES: dict[str, Callable[[App], None]] = {
    "midgame": midgame, "gameover": gameover, "countdown": countdown, "renju": renju,
    "savedialog": savedialog,
}


def _five_for_black(board: Board) -> tuple[int, int]:
    """The point that gives black five now (the position is built to have one)."""
    for point in board.legal_moves():
        trial = board.copy()
        outcome = trial.push(*point)
        if outcome is not None and outcome.winner is Color.BLACK:
            return point
    raise SystemExit("gameover: black has no five to make")


def shoot(size: tuple[int, int], states: list[str], out: Path) -> list[Path]:
    """One app at `size` on a fresh home; each state drawn, settled and saved as a PNG."""
    shutil.rmtree(HOME, ignore_errors=True)
    HOME.mkdir(parents=True)
    app = App(AppOptions(windowed=True, size=size, home=HOME))
    written = []
    try:
        for name in states:
            app.notices.clear()
            STATES[name](app)
            settle(app)
            path = out / f"{name}-{size[0]}x{size[1]}.png"
            pygame.image.save(app.screen, str(path))
            written.append(path)
            print(f"wrote {path}")
    finally:
        app.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNG files")
    parser.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES),
                        help="window sizes, comma separated (default %(default)s)")
    parser.add_argument("--states", default=",".join(STATES),
                        help="states to draw, comma separated (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        sizes = [parse_size(text) for text in args.sizes.split(",")]
    except ValueError as error:
        parser.error(str(error))
    states = [name.strip() for name in args.states.split(",")]
    unknown = [name for name in states if name not in STATES]
    if unknown:
        parser.error(f"unknown state(s) {', '.join(unknown)}; choose from {', '.join(STATES)}")
    args.out.mkdir(parents=True, exist_ok=True)
    App._load_engine = lambda self: None  # two-player games only: load (and compile) no engine
    for size in sizes:
        shoot(size, states, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
