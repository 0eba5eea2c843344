"""The engine's threat rules: double threats that win outright, the check that a move
does not leave the opponent a forced win by continuous threats (VCT), and where a leaf of the
search looks for a win by continuous fours (VCF)."""

from __future__ import annotations

import gzip
import itertools
from pathlib import Path

import numba
import numpy as np
import pytest

from gomoku.core import Board, Color, IllegalMoveError, Rule
from gomoku.core.notation import parse_moves
from gomoku.engine import driver, search, state, threats
from gomoku.engine.api import Level, Position, SearchLimit
from gomoku.engine.diagram import parse_diagram


def engine_state(position: Position) -> tuple[tuple, tuple]:
    """The compiled board state and fresh hard search tables for `position`."""
    grid = np.ascontiguousarray(position.grid, dtype=np.int8)
    bd = state.new_state(grid, int(position.to_move), driver.RULE_CODES[position.rule],
                         driver.pattern_tables(position.rule))
    sr = threats.new_search_tables(16, bd[0].shape[0], driver.evaluation(Level.HARD))
    driver._reset(sr, driver.LEVELS[Level.HARD], 1)
    return bd, sr


# Python entry points for two engine functions that compiled code alone calls (they have none,
# so as not to compile a Python wrapper on every first launch).
@numba.njit
def analyse_fours(bd: tuple, sr: tuple, ply: int) -> int:
    return threats.analyse_fours(bd, sr, ply)


@numba.njit
def double_threat_wins(bd: tuple, an: np.ndarray) -> bool:
    return threats.double_threat_wins(bd, an)


def double_threat(diagram: str, rule: Rule, to_move: Color) -> bool:
    position, _ = parse_diagram(diagram, rule=rule, to_move=to_move, offset=(4, 4))
    bd, sr = engine_state(position)
    threats.analyse(bd, sr, 0)
    return bool(double_threat_wins(bd, sr[5][0]))


# White to move can play * for two open threes; black's stones make no four anywhere.
DOUBLE_THREE = """
. . . . . . . .
. . O . . . . .
. . O . . X . .
. . * O O . . .
. . . . . . X .
. X . . . . . .
. . . . . . . .
"""


def test_a_double_three_wins_when_the_opponent_has_no_four() -> None:
    assert double_threat(DOUBLE_THREE, Rule.FREESTYLE, Color.WHITE)
    assert double_threat(DOUBLE_THREE, Rule.RENJU, Color.WHITE)


def test_a_double_three_does_not_win_when_the_opponent_can_make_a_four() -> None:
    # Black's three on the bottom row can become a four, which gains the tempo to defend.
    with_black_three = DOUBLE_THREE.replace(". X . . . . . .", ". X X X . . . .")
    assert not double_threat(with_black_three, Rule.FREESTYLE, Color.WHITE)


def test_black_double_three_is_no_win_under_renju() -> None:
    as_black = DOUBLE_THREE.replace("O", "x").replace("X", "O").replace("x", "X")
    assert double_threat(as_black, Rule.FREESTYLE, Color.BLACK)
    assert not double_threat(as_black, Rule.RENJU, Color.BLACK)  # forbidden for black


# A position from a game that hard lost to Wine as black: after (6, 4), white has a VCT of
# seven threats (Wine found it at once); (5, 6), Wine's own choice, leaves none.
WINE_GAME = [(7, 6), (5, 9), (8, 8), (8, 7), (6, 6), (7, 7), (6, 7), (6, 8), (8, 6), (9, 6),
             (8, 5), (5, 8)]


@pytest.mark.parametrize(("move", "refuted"), [((6, 4), True), ((5, 6), False)])
def test_a_move_that_leaves_the_opponent_a_slow_vct_is_refuted(move, refuted) -> None:
    bd, sr = engine_state(Position.from_board(Board.from_moves(WINE_GAME, 15, Rule.FREESTYLE)))
    cell = state.cell_index(*move, 15)
    assert search.move_refuted(bd, sr, cell, 9, 400_000) is refuted


# White to move has a win by continuous fours (four of them at most) and no four on the board
# yet; its evaluation is below zero. From a freestyle game of the arena.
VCF_GAME = [(8, 5), (6, 6), (5, 9), (6, 7), (4, 8), (7, 7), (5, 5), (8, 6), (6, 8), (7, 6), (5, 6),
            (5, 7), (8, 7), (7, 5), (7, 4), (9, 7), (6, 4)]


def test_a_leaf_looks_for_a_vcf_win_only_where_its_evaluation_is_below_beta() -> None:
    bd, sr = engine_state(Position.from_board(Board.from_moves(VCF_GAME, 15, Rule.FREESTYLE)))
    threats.analyse(bd, sr, 0)
    static = int(sr[5][0][threats.A_EVAL])
    assert search.vcf(bd, sr, driver.LEVELS[Level.HARD].leaf_vcf) > threats.WIN_MIN

    def leaf(alpha: int, beta: int, pv_node: int) -> int:
        return int(search.negamax(bd, sr, np.int64(0), np.int64(alpha), np.int64(beta),
                                  np.int64(pv_node)))

    assert leaf(static, static + 1, 0) > threats.WIN_MIN  # below beta: the win is searched
    assert leaf(-search.INF, search.INF, 1) > threats.WIN_MIN  # the principal variation: always
    # At or above beta off the principal variation: it fails high as it is, no VCF searched.
    nodes = sr[9][threats.C_NODES]
    assert leaf(static - 2, static - 1, 0) == static
    assert sr[9][threats.C_NODES] == nodes + 1


GAMES = Path(__file__).resolve().parents[1] / "tools" / "training" / "freestyle-15.txt.gz"


def game_positions(games: int, rule: Rule) -> list[Position]:
    """Every position of the first `games` checked-in arena games (freestyle games: under renju,
    up to a move forbidden there), under `rule`."""
    positions = []
    with gzip.open(GAMES, "rt") as lines:
        for line in itertools.islice(lines, games):
            moves = parse_moves(" ".join(line.split()[2:]), 15)
            for k in range(1, len(moves)):
                try:
                    board = Board.from_moves(moves[:k], 15, rule)
                except IllegalMoveError:
                    break
                positions.append(Position.from_board(board))
    return positions


@pytest.mark.parametrize("rule", [Rule.FREESTYLE, Rule.RENJU])
def test_the_vcf_scan_finds_the_fives_and_fours_the_full_analysis_finds(rule) -> None:
    # The VCF reads only fives and fours, from a lighter scan than the search's analysis; a
    # four it missed or a forbidden point it allowed would be a wrong win or a missed one.
    checked = forbidden_fours = 0
    for position in game_positions(12, rule):
        bd, sr = engine_state(position)
        n = threats.analyse(bd, sr, 0)
        an = sr[5][0].copy()
        moves, flags = sr[2][0][:n], sr[4][0][:n]
        fours = {int(p) for p, f in zip(moves, flags, strict=True)
                 if f & threats.FL_OWN_FOUR and not f & threats.FL_FORBIDDEN}
        own_codes = bd[9][int(bd[3][state.I_SIDE]) - 1]
        forbidden_fours += sum(1 for p, f in zip(moves, flags, strict=True)
                               if f & threats.FL_FORBIDDEN
                               and threats.THREAT_TABLE[own_codes[p]] & threats.T_FOUR)
        m = analyse_fours(bd, sr, 0)
        light = sr[5][0]
        assert {int(p) for p in sr[2][0][:m]} == fours
        for slot in (threats.A_OWN5, threats.A_OPP5N, threats.A_OPP5, threats.A_OWNF4):
            assert light[slot] == an[slot]
        checked += bool(fours)
    assert checked > 50  # positions with fours to find
    assert rule is Rule.FREESTYLE or forbidden_fours > 0  # and black fours renju forbids


def test_the_ui_reads_scores_with_the_search_own_win_values() -> None:
    # The review's words ("five in 3 moves") come from api's copies of these: they must agree.
    from gomoku.engine import api

    assert (api.WIN_SCORE, api.FORCED_SCORE) == (threats.WIN, threats.WIN_MIN)


def test_a_block_of_an_open_four_is_reported_as_the_loss_it_is() -> None:
    # The review's analysis reads the score: a block that only delays a five must not look even.
    driver.warm_up()  # (a cache load: the suite compiled it already)
    board = Board(15)
    for point in [(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7)]:  # h8-k8 open
        board.push(*point)
    lost = driver.think(Position.from_board(board), Level.HARD, SearchLimit(time_s=0.5))
    assert lost.info["kind"] == "block" and lost.move in [(6, 7), (11, 7)]
    assert lost.score < -threats.WIN_MIN
    board = Board(15)
    for point in [(7, 7), (6, 7), (8, 7), (0, 0), (9, 7), (0, 2), (10, 7)]:  # g8 closes one end
        board.push(*point)
    block = driver.think(Position.from_board(board), Level.HARD, SearchLimit(time_s=0.5))
    assert block.info["kind"] == "block" and block.move == (11, 7) and block.score == 0
