"""The engine's three levels through driver.think: legal moves, easy's greedy duties, time control."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from gomoku.core import Board, Color, Rule
from gomoku.core.notation import parse_moves
from gomoku.engine import driver
from gomoku.engine.api import Level, Position, SearchLimit, StopFlag
from gomoku.engine.diagram import parse_diagram


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    driver.warm_up()


def random_board(rule: Rule, plies: int, seed: int) -> Board:
    """A legal game of `plies` random moves near the centre that nobody has won yet."""
    rng = np.random.default_rng(seed)
    board = Board(15, rule)
    while board.ply < plies:
        legal = [p for p in board.legal_moves() if abs(p[0] - 7) <= 4 and abs(p[1] - 7) <= 4]
        x, y = legal[rng.integers(len(legal))]
        board.push(x, y)
        if board.is_game_over():
            board.pop()
    return board


@pytest.mark.parametrize("rule", list(Rule))
@pytest.mark.parametrize("level", list(Level))
def test_every_level_plays_legal_moves_under_every_rule(rule: Rule, level: Level) -> None:
    for seed in range(3):
        board = random_board(rule, 12 + 5 * seed, seed)
        result = driver.think(Position.from_board(board), level, SearchLimit(0.2))
        assert board.is_legal(*result.move), (board, result)


@pytest.mark.parametrize("level", list(Level))
def test_empty_board_gets_the_centre(level: Level) -> None:
    result = driver.think(Position.from_board(Board(15)), level, SearchLimit(0.2))
    assert result.move == (7, 7)


EASY_WIN = """
. . . . . . . . .
* X X X X * . . .
. O O O O . . . .
. . . . . . . . .
"""


def test_easy_takes_a_five_before_blocking_one() -> None:
    position, answers = parse_diagram(EASY_WIN, offset=(3, 3))
    for seed in range(5):
        # The same position under a different history seed: the answer must not vary.
        result = driver.think(position, Level.EASY, SearchLimit(0.1))
        assert result.move in answers, seed


EASY_BLOCK = """
. . . . . . . . .
X O O O O * . . .
. . . X . . . . .
. . X . . . . . .
. . . . . . . . .
"""


def test_easy_blocks_a_five() -> None:
    position, answers = parse_diagram(EASY_BLOCK, offset=(3, 3), to_move=Color.BLACK)
    assert driver.think(position, Level.EASY, SearchLimit(0.1)).move in answers


def test_easy_is_reproducible_for_a_position() -> None:
    board = random_board(Rule.FREESTYLE, 10, 7)
    moves = {driver.think(Position.from_board(board), Level.EASY, SearchLimit(0.1)).move
             for _ in range(3)}
    assert len(moves) == 1


def test_stop_flag_ends_a_long_search_early() -> None:
    board = random_board(Rule.FREESTYLE, 16, 3)
    stop = StopFlag()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    started = time.perf_counter()
    result = driver.think(Position.from_board(board), Level.HARD, SearchLimit(30.0), stop=stop)
    elapsed = time.perf_counter() - started
    timer.cancel()
    assert elapsed < 5.0  # generous: the budget was 30 s
    assert board.is_legal(*result.move)


def test_progress_reports_rising_depths_within_the_budget() -> None:
    board = random_board(Rule.FREESTYLE, 14, 11)
    seen = []
    started = time.perf_counter()
    result = driver.think(Position.from_board(board), Level.HARD, SearchLimit(1.0),
                          on_progress=seen.append)
    assert time.perf_counter() - started < 1.1 + 0.5  # budget plus slack for a loaded machine
    depths = [p.depth for p in seen]
    if result.info.get("kind") == "search":
        assert len(depths) >= 2
        assert depths == sorted(depths) and len(set(depths)) == len(depths)
        assert result.depth == depths[-1]
        assert all(p.nodes > 0 for p in seen)


def test_hard_uses_its_turn_but_stops_near_a_target_when_time_can_be_saved() -> None:
    # A turn's time cannot be saved for later: hard thinks to its deadline. Under a match
    # clock (target_s) it stops once an iteration past the target, or one unlikely to
    # finish in time, would start.
    board = Board.from_moves(parse_moves("j10 i7 j6 g7 j8 h7 f7 g6", 15), 15)  # a quiet middle
    position = Position.from_board(board)
    started = time.perf_counter()
    whole = driver.think(position, Level.HARD, SearchLimit(1.0))
    whole_s = time.perf_counter() - started
    started = time.perf_counter()
    early = driver.think(position, Level.HARD, SearchLimit(1.0, target_s=0.1))
    early_s = time.perf_counter() - started
    assert whole.info["kind"] == early.info["kind"] == "search"
    # The iterations pause at 80% of the budget for the last check and resume only if another
    # one can finish: the whole turn ends between 0.75 and 0.95 of it.
    assert whole_s > 0.7 * driver.DEADLINE_SHARE
    # Stopped earlier: measured against the whole turn, not a fixed bound (the checks after
    # the last iteration take several times longer on a busy machine: 0.76 s seen in CI).
    # No depth floor: on a busy machine depth 1 alone can outlast the target (seen in CI).
    assert early_s < 0.8 * whole_s
    assert 1 <= early.depth <= whole.depth and board.is_legal(*early.move)


def test_a_board_with_no_empty_point_is_a_clear_error() -> None:
    grid = np.ones((15, 15), dtype=np.int8)
    position = Position(grid, (), Color.WHITE, Rule.FREESTYLE)
    with pytest.raises(ValueError, match="no legal move"):
        driver.think(position, Level.HARD, SearchLimit(0.1))


def test_medium_and_hard_answer_within_their_budget() -> None:
    board = random_board(Rule.STANDARD, 20, 5)
    for level, budget in ((Level.MEDIUM, 0.5), (Level.HARD, 0.6)):
        started = time.perf_counter()
        driver.think(Position.from_board(board), level, SearchLimit(budget))
        assert time.perf_counter() - started < budget * 1.1 + 0.3  # slack for a shared machine


LOST = """
. . . . . . . . .
. . O O O O . . .
. . . X X X . . .
. . . X . . . . .
. . . . . . . . .
"""


@pytest.mark.parametrize("level", [Level.MEDIUM, Level.HARD])
def test_a_lost_position_still_gets_a_legal_block(level: Level) -> None:
    # White's open four cannot be stopped; black still blocks one end rather than resign.
    position, _ = parse_diagram(LOST, offset=(3, 3), to_move=Color.BLACK)
    result = driver.think(position, level, SearchLimit(0.3))
    assert result.move in {(4, 4), (9, 4)}


def test_the_compile_fallback_is_legal_and_takes_a_five() -> None:
    # Before the engine has compiled, think answers in plain Python: still a real move.
    position, answers = parse_diagram(EASY_WIN, offset=(3, 3))
    assert driver.stand_in_move(position, time.perf_counter()).move in answers
    board = random_board(Rule.RENJU, 24, 2)
    if board.to_move is Color.WHITE:
        board.push(*next(iter(board.legal_moves())))
    move = driver.stand_in_move(Position.from_board(board), time.perf_counter()).move
    assert board.is_legal(*move)


@pytest.mark.parametrize("level", list(Level))
def test_black_never_blocks_on_a_forbidden_point(level: Level) -> None:
    # From an easy-vs-medium game: white's four ends on black's double-three point (7, 4).
    moves = [(7, 7), (7, 6), (8, 6), (8, 7), (9, 5), (10, 4), (5, 9), (6, 8), (6, 5), (10, 5),
             (9, 6), (9, 4), (8, 5), (11, 6), (5, 5), (7, 5), (8, 3), (8, 4), (11, 4), (6, 4)]
    board = Board.from_moves(moves, 15, Rule.RENJU)
    assert (7, 4) in board.forbidden_points()
    result = driver.think(Position.from_board(board), level, SearchLimit(0.2))
    assert board.is_legal(*result.move)


def test_a_depth_limited_move_is_the_same_whatever_time_it_is_given() -> None:
    # The arena's --depth1 and judge.py --depth pair games move for move: the threat checks'
    # node budgets must not grow with a longer time (they did: 194,343 nodes at 2 s, 266,004
    # at 6 s here), or a change could not be told from the time given.
    board = Board.from_moves([(7, 7), (6, 6), (9, 9), (5, 7), (7, 5), (6, 8), (7, 6), (7, 8)], 15)
    results = []
    for time_s in (2.0, 6.0):
        driver.new_game()
        result = driver.think(Position.from_board(board), Level.HARD,
                              SearchLimit(time_s, max_depth=6))
        results.append((result.move, result.score, result.depth, result.nodes))
    assert results[0][2] == 6
    assert results[0] == results[1]


STOPPED_SEARCH = """
import sys, time
from gomoku.core import Board
from gomoku.core.notation import parse_moves
from gomoku.engine import driver
from gomoku.engine.api import Level, Position, SearchLimit
driver.warm_up()
board = Board.from_moves(parse_moves("j10 i7 j6 g7 j8 h7 f7 g6", 15), 15)
started = time.perf_counter()
result = driver.think(Position.from_board(board), Level.HARD, SearchLimit(3.0),
                      on_progress=lambda progress: print("depth", progress.depth, flush=True))
print("done", time.perf_counter() - started, result.elapsed_s, result.depth, flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs POSIX job control")
def test_a_search_stopped_with_ctrl_z_thinks_on_after_fg() -> None:
    """Ctrl-Z while the computer thinks, `fg` later: the game's clocks leave the stop out, and
    so must the search, or it finds its time gone and returns a shallow move at once."""
    child = subprocess.Popen([sys.executable, "-c", STOPPED_SEARCH], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()  # the first iteration ended: the search is running
        assert line.startswith("depth"), line
        child.send_signal(signal.SIGSTOP)
        time.sleep(3.0)
        child.send_signal(signal.SIGCONT)
        lines = child.stdout.read().splitlines()
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
    _, wall, elapsed, depth = lines[-1].split()
    # Before, the search returned right after `fg`: 3 s of wall time and a shallow move.
    assert float(wall) - 3.0 > 1.5  # it went on for most of its 3 s budget
    assert float(elapsed) < 3.0  # and reports the time it ran, not the time it stood still
    assert int(depth) >= 4
