"""Hard's trained move ordering (order_weights.py) and the tool that trains it (tools/train_order.py)."""

from __future__ import annotations

import gzip
import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from gomoku.core import Board, Rule
from gomoku.engine import driver, order_weights, patterns, state, threats
from gomoku.engine.api import Level, Position

TOOLS = Path(__file__).resolve().parent.parent / "tools"
MOVES_FILE = TOOLS / "training" / "rapfi-moves-15.txt.gz"
# A middle game: both sides have threes and twos in every direction.
MOVES = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 5), (10, 4), (6, 7), (7, 8), (9, 8), (5, 8), (4, 8),
         (9, 7), (10, 7), (7, 5)]


def ordering(level: Level, config: driver.LevelConfig | None = None) -> tuple[dict[int, int], tuple]:
    """{cell: ordering score} of the candidates after MOVES (no history yet), and the board;
    with the level's settings, or `config`."""
    position = Position.from_board(Board.from_moves(MOVES, 15, Rule.FREESTYLE))
    grid = np.ascontiguousarray(position.grid, dtype=np.int8)
    bd = state.new_state(grid, int(position.to_move), patterns.RULE_FREESTYLE,
                         driver.pattern_tables(Rule.FREESTYLE))
    sr = threats.new_search_tables(12, bd[0].shape[0], driver.evaluation(level))
    driver._reset(sr, config or driver.LEVELS[level], 1)
    n = threats.analyse(bd, sr, 0)
    return {int(p): int(s) for p, s in zip(sr[2][0][:n], sr[3][0][:n], strict=True)}, bd


def makes_four_or_open_three(bd: tuple, color: int, p: int) -> bool:
    """Whether `color` makes a four or an open three by playing at cell p."""
    return bool(threats.THREAT_TABLE[bd[9][color - 1, p]] & (threats.T_FOUR | threats.T_THREE))


def test_hard_orders_its_moves_by_the_trained_scores() -> None:
    """Computed here from WEIGHTS by hand: a cell's codes for each side, sorted; a cell where
    the side to move makes a four or an open three gets the level's threat bonus on top."""
    scores, bd = ordering(Level.HARD)
    me = int(bd[3][state.I_SIDE])
    codes = bd[9]
    bonus = driver.LEVELS[Level.HARD].threat_bonus
    threats_seen = 0
    for p, score in scores.items():
        expected = 0
        for color, slot in ((me, 0), (3 - me, 1)):
            combo = tuple(sorted((int(codes[color - 1, p]) >> (4 * d)) & 15 for d in range(4)))
            expected += order_weights.WEIGHTS.get(combo, (0, 0))[slot]
        if makes_four_or_open_three(bd, me, p):
            expected += bonus
            threats_seen += 1
        assert score == expected
    assert len(set(scores.values())) > 10
    assert bonus > 0 and threats_seen > 0


def test_hard_moves_its_fours_and_open_threes_up_the_order() -> None:
    """With the bonus, moves that make a four or an open three for the side to move pass other
    moves they trailed on the trained scores alone: in the search they refute most often."""
    with_bonus, bd = ordering(Level.HARD)
    without, _ = ordering(Level.HARD, replace(driver.LEVELS[Level.HARD], threat_bonus=0))
    me = int(bd[3][state.I_SIDE])
    attacking = [p for p in with_bonus if makes_four_or_open_three(bd, me, p)]
    others = [p for p in with_bonus if p not in attacking]
    passed = [(a, q) for a in attacking for q in others
              if without[a] < without[q] and with_bonus[a] > with_bonus[q]]
    assert passed


def test_medium_keeps_the_hand_set_ordering() -> None:
    """Four times our pattern scores plus three times the opponent's."""
    scores, bd = ordering(Level.MEDIUM)
    me = int(bd[3][state.I_SIDE])
    for p, score in scores.items():
        value = threats.THREAT_TABLE[bd[9][:, p]] & threats.T_VALUE
        assert score == int(value[me - 1]) * 4 + int(value[2 - me]) * 3
    assert ordering(Level.HARD)[0] != scores


def _train_order_module():
    sys.path.insert(0, str(TOOLS))
    spec = importlib.util.spec_from_file_location("train_order", TOOLS / "train_order.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_order", module)
    spec.loader.exec_module(module)
    return module


def test_a_fit_on_some_games_finds_the_strong_engines_moves_more_often(tmp_path) -> None:
    """The tool end to end on the first 300 checked-in games: on held-out games the engine's
    move is more often among the first 14 (all a quiet node tries) than by the hand-set
    scores, and the weights it writes load."""
    tool = _train_order_module()
    with gzip.open(MOVES_FILE, "rt", encoding="ascii") as file:
        games = [next(file) for _ in range(300)]
    subset = tmp_path / "moves.txt.gz"
    with gzip.open(subset, "wt", encoding="ascii") as file:
        file.writelines(games)
    data = tool.features(subset)
    own, opp, report = tool.fit(data, l2=1e-4, steps=300, seed=1)
    hand, trained = (report[f"held-out top 1/3/5/8/14, {name}"].split() for name in ("hand-set", "trained"))
    assert float(trained[-1]) > float(hand[-1]) > 0.5
    out = tmp_path / "weights.py"
    count = tool.write_weights(own, opp, out, subset.name)
    spec = importlib.util.spec_from_file_location("weights", out)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert len(module.WEIGHTS) == count > 100
    # Making a four-three comes before making a lone two.
    assert module.WEIGHTS[(0, 0, patterns.F3, patterns.B4)][0] > module.WEIGHTS[(0, 0, 0, patterns.F2)][0]


@pytest.mark.parametrize("line", ["1 3 h8 i9 x1", "3 3 h8 i9", "1 3 h8 h8"])
def test_a_bad_moves_line_names_its_line(tmp_path, line) -> None:
    tool = _train_order_module()
    path = tmp_path / "moves.txt.gz"
    with gzip.open(path, "wt", encoding="ascii") as file:
        file.write("1 3 h8 i9 h9\n" + line + "\n")
    with pytest.raises(ValueError, match="line 2"):
        tool.features(path)
