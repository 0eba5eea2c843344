"""Hard's trained evaluation (eval_weights.py, eval_hidden.py) and the tool that trains it
(tools/train_eval.py)."""

from __future__ import annotations

import gzip
import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from gomoku.core import Board, Rule
from gomoku.core.notation import parse_moves
from gomoku.core.records import GameRecord, format_record
from gomoku.engine import driver, eval_hidden, eval_weights, patterns, state, threats
from gomoku.engine.api import Level, Position

TOOLS = Path(__file__).resolve().parent.parent / "tools"
GAMES = TOOLS / "training" / "freestyle-15.txt.gz"
# A middle game: both sides have threes and twos in every direction.
MOVES = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 5), (10, 4), (6, 7), (7, 8), (9, 8), (5, 8), (4, 8),
         (9, 7), (10, 7), (7, 5)]


def hard_eval(moves: list[tuple[int, int]], level: Level = Level.HARD) -> int:
    """The level's static evaluation of the position after `moves`, for the side to move."""
    position = Position.from_board(Board.from_moves(moves, 15, Rule.FREESTYLE))
    grid = np.ascontiguousarray(position.grid, dtype=np.int8)
    bd = state.new_state(grid, int(position.to_move), patterns.RULE_FREESTYLE,
                         driver.pattern_tables(Rule.FREESTYLE))
    sr = threats.new_search_tables(12, bd[0].shape[0], driver.evaluation(level))
    driver._reset(sr, driver.LEVELS[level], 1)
    threats.analyse(bd, sr, 0)
    return int(sr[5][0][threats.A_EVAL])


def test_hard_uses_the_trained_evaluation() -> None:
    assert driver.LEVELS[Level.HARD].trained_eval
    assert not driver.LEVELS[Level.MEDIUM].trained_eval


def test_the_evaluation_is_the_trained_cell_values_and_the_hidden_layer() -> None:
    """Computed here from WEIGHTS and the hidden layer's inputs, BIAS, OUT and OFFSET by hand:
    each candidate cell's four codes, sorted, give its values and its inputs to the units."""
    board = Board.from_moves(MOVES, 15, Rule.FREESTYLE)
    position = Position.from_board(board)
    grid = np.ascontiguousarray(position.grid, dtype=np.int8)
    me = int(position.to_move)
    bd = state.new_state(grid, me, patterns.RULE_FREESTYLE, driver.pattern_tables(Rule.FREESTYLE))
    cells, near, codes = bd[0], bd[2], bd[9]
    total = 0
    units = np.zeros(eval_hidden.UNITS)
    inputs = threats.hidden_inputs()
    nothing = np.zeros((2, eval_hidden.UNITS))
    for p in np.flatnonzero((cells == 0) & (near > 0)):
        for color, sign, slot in ((me, 1, 0), (3 - me, -1, 1)):
            combo = tuple(sorted((int(codes[color - 1, p]) >> (4 * d)) & 15 for d in range(4)))
            total += sign * eval_weights.WEIGHTS.get(combo, (0, 0))[slot]
            units += sign * inputs.get(combo, nothing)[slot]
    hidden = np.maximum(units + eval_hidden.BIAS, 0) @ np.array(eval_hidden.OUT) - eval_hidden.OFFSET
    assert total != 0 and abs(hidden) > 10
    assert abs(hard_eval(MOVES) - (total + int(hidden))) <= 1  # (the engine sums in float32)


def test_medium_keeps_the_hand_set_pattern_scores() -> None:
    """Its cell scores: pattern scores plus threat bonus, 12/8 of ours against 10/8 of theirs."""
    board = Board.from_moves(MOVES, 15, Rule.FREESTYLE)
    me = int(board.to_move)
    grid = np.ascontiguousarray(Position.from_board(board).grid, dtype=np.int8)
    bd = state.new_state(grid, me, patterns.RULE_FREESTYLE, driver.pattern_tables(Rule.FREESTYLE))
    cells, near, codes = bd[0], bd[2], bd[9]
    free = np.flatnonzero((cells == 0) & (near > 0))
    value = threats.THREAT_TABLE[codes[:, free]] & threats.T_VALUE
    expected = (int(value[me - 1].sum()) * 12 - int(value[2 - me].sum()) * 10) // 8
    assert hard_eval(MOVES, Level.MEDIUM) == expected != hard_eval(MOVES)


def test_the_evaluation_is_the_same_for_a_turned_or_mirrored_board() -> None:
    turned = [(14 - y, x) for x, y in MOVES]
    mirrored = [(14 - x, y) for x, y in MOVES]
    assert hard_eval(MOVES) == hard_eval(turned) == hard_eval(mirrored)


def _train_eval_module():
    spec = importlib.util.spec_from_file_location("train_eval", TOOLS / "train_eval.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_eval", module)
    spec.loader.exec_module(module)
    return module


def _first_games(tmp_path: Path, count: int, name: str = "games.txt.gz") -> tuple[Path, list[str]]:
    """A games file of the first `count` checked-in games, and its lines."""
    with gzip.open(GAMES, "rt", encoding="ascii") as file:
        games = [next(file) for _ in range(count)]
    subset = tmp_path / name
    with gzip.open(subset, "wt", encoding="ascii") as file:
        file.writelines(games)
    return subset, games


def test_a_fit_on_some_games_predicts_held_out_results_better_than_the_cell_scores(tmp_path) -> None:
    """The tool end to end on the first 400 checked-in games: the weights it writes load."""
    tool = _train_eval_module()
    subset, _games = _first_games(tmp_path, 400)
    data = tool.features(subset)
    own, opp, report = tool.fit(data, min_use=50, l2=3e-4, steps=300, seed=1)
    assert report["held-out log loss, trained"] < report["held-out log loss, cell scores"] < 0.6932
    out = tmp_path / "weights.py"
    count = tool.write_weights(own, opp, out, subset.name)
    spec = importlib.util.spec_from_file_location("weights", out)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert len(module.WEIGHTS) == count > 100
    # A four-three to make is worth more than any one line's pattern, to either side.
    four_three = module.WEIGHTS[(0, 0, patterns.F3, patterns.B4)]
    for code in range(1, patterns.F5):
        single = module.WEIGHTS.get((0, 0, 0, code), (0, 0))
        assert four_three[0] > single[0] and four_three[1] > single[1]


def test_a_hidden_layer_fitted_on_some_games_predicts_better_and_its_module_loads(tmp_path) -> None:
    """`fit_hidden` on the first 400 checked-in games, on top of the shipped linear values: it
    predicts the held-out games' results better than they do alone, and the module it writes
    holds every combination it gave inputs to."""
    tool = _train_eval_module()
    subset, _games = _first_games(tmp_path, 400)
    data = tool.features(subset)
    inputs, bias, out_weights, offset, report = tool.fit_hidden(data, units=8, epochs=4, l2=1e-5, seed=1)
    assert (report["held-out log loss, with the hidden layer"]
            < report["held-out log loss, the linear evaluation"] < 0.6932)
    out = tmp_path / "hidden.py"
    count = tool.write_hidden(inputs, bias, out_weights, offset, out, subset.name)
    spec = importlib.util.spec_from_file_location("hidden", out)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.UNITS == 8 == len(module.BIAS) == len(module.OUT)
    written = threats.hidden_inputs(module)
    assert len(written) == count > 100
    for combo, unit_inputs in written.items():  # exactly the fitted values, packed and read back
        assert np.array_equal(unit_inputs, inputs[:, tool.COMBOS.index(combo)].astype(np.float32))


@pytest.mark.parametrize("line", ["0 3 h8 i9 x1", "2 3 h8 i9", "1 3 h8 h8"])
def test_a_bad_games_line_names_its_line(tmp_path, line) -> None:
    tool = _train_eval_module()
    path = tmp_path / "games.txt.gz"
    with gzip.open(path, "wt", encoding="ascii") as file:
        file.write("1 3 h8 i9 h9\n" + line + "\n")
    with pytest.raises(ValueError, match="line 2"):
        tool.features(path)


def test_a_judges_values_label_each_position_and_join_the_fit(tmp_path) -> None:
    """`label` asks a real brain (ours, at 20 ms a position) about each quiet position of six
    games; the fit reads the labels back in `features` order, and refuses another games file's."""
    tool = _train_eval_module()
    subset, games = _first_games(tmp_path, 6)
    labels = tmp_path / "labels.txt.gz"
    tool.label(subset, "hard", nodes=1000, jobs=2, out=labels, turn_ms=20)
    data = tool.features_of([subset], [labels])
    assert len(data["judge"]) == len(data["result"]) > 20
    assert np.isfinite(data["judge"]).any() and (data["judge"] != 0).any()
    own, opp, report = tool.fit(data, min_use=1, l2=3e-4, steps=20, seed=1, mix=0.5)
    assert 20 <= report["judge's scale"] <= 2000 and "held-out log loss, the judge" in report
    other = tmp_path / "other.txt.gz"
    with gzip.open(other, "wt", encoding="ascii") as file:
        file.writelines(games[::-1])
    with pytest.raises(SystemExit, match="does not label"):
        tool.features_of([other], [labels])
    damaged = tmp_path / "damaged.txt.gz"
    with gzip.open(damaged, "wt", encoding="ascii") as file:
        file.write("0 3 -120\n0 4 12x\n")
    with pytest.raises(SystemExit, match="line 2"):
        tool.features_of([subset], [damaged])


def test_collect_cuts_games_after_the_opening_and_label_asks_a_shared_position_once(tmp_path, capsys) -> None:
    """`collect --plies 4` keeps each game's result and its first 4 moves after the opening (and
    the one after, never trained on); `label` asks the judge once about a position two games
    share, and gives both the same value."""
    tool = _train_eval_module()
    folder = tmp_path / "arena"
    folder.mkdir()
    _subset, games = _first_games(tmp_path, 2)
    for number, line in enumerate(games, 1):
        score, stones, *moves = line.split()
        points = parse_moves(" ".join(moves), 15)
        record = GameRecord(moves=points, times=[0.0] * len(points), reason="five",
                            result={"1": "black", "0": "white"}[score],
                            extra={"arena": {"opening_stones": int(stones)}})
        (folder / f"game-{number:03}.gomoku").write_text(format_record(record), encoding="utf-8")
    cut = tmp_path / "cut.txt.gz"
    tool.collect([folder], cut, plies=4)
    with gzip.open(cut, "rt", encoding="ascii") as file:
        lines = file.read().splitlines()
    assert [line.split()[:2] for line in lines] == [line.split()[:2] for line in games]
    for line, full in zip(lines, games, strict=True):
        kept = parse_moves(" ".join(line.split()[2:]), 15)
        assert kept == parse_moves(" ".join(full.split()[2:]), 15)[:3 + 4 + 1]
    twice = tmp_path / "twice.txt.gz"
    with gzip.open(twice, "wt", encoding="ascii") as file:
        file.write("\n".join(lines + lines) + "\n")
    labels = tmp_path / "labels.txt.gz"
    capsys.readouterr()
    tool.label(twice, "hard", nodes=1000, jobs=2, out=labels, turn_ms=20)
    positions = len(list(tool.quiet_positions(twice)))
    asked = re.search(r"(\d+) positions \((\d+) asked\)", capsys.readouterr().out)
    assert int(asked.group(1)) == positions and 0 < int(asked.group(2)) <= positions // 2
    with gzip.open(labels, "rt", encoding="ascii") as file:
        values = [line.split()[2] for line in file.read().splitlines()]
    assert values[:positions // 2] == values[positions // 2:]


def test_the_judges_share_can_differ_by_games_file(tmp_path) -> None:
    """--mix 0.5 1: the second file's target is the judge's chance alone (its results ignored)."""
    tool = _train_eval_module()
    subset, _games = _first_games(tmp_path, 6)
    labels = tmp_path / "labels.txt.gz"
    tool.label(subset, "hard", nodes=1000, jobs=2, out=labels, turn_ms=20)
    out = tmp_path / "weights.py"
    assert tool.main(["fit", str(subset), str(subset), "--labels", str(labels), str(labels),
                      "--mix", "0.5", "1", "--min-use", "1", "--steps", "20", "--out", str(out)]) == 0
    assert "(mix 0.5 1.0)" in out.read_text()
    with pytest.raises(SystemExit):
        tool.main(["fit", str(subset), "--labels", str(labels), "--mix", "0.5", "1", "--out", str(out)])
