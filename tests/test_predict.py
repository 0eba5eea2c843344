"""tools/predict.py: how well evaluations and searches predict finished games."""

from __future__ import annotations

import gzip
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parent.parent
TRAINING = REPO / "tools" / "training"
GAMES = TRAINING / "rapfi-selfplay-15.txt.gz"
LABELS = TRAINING / "rapfi-selfplay-15.labels.gz"


def load_predict():
    spec = importlib.util.spec_from_file_location("tools_predict", REPO / "tools" / "predict.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


predict = load_predict()


def test_log_loss_rewards_knowing_the_result():
    result = np.array([1.0, 0.0] * 50)
    assert predict.log_loss(np.zeros(100), result) == pytest.approx(np.log(2), abs=1e-6)
    knowing = predict.log_loss(np.where(result > 0, 2000.0, -2000.0), result)
    half_right = predict.log_loss(np.where(np.arange(100) % 4 < 3, 1.0, -1.0) * (2 * result - 1), result)
    assert knowing < 0.01 < half_right < np.log(2)


def test_a_table_of_predictors_on_the_first_games(capsys):
    code = predict.main([str(GAMES), "--games", "3", "--depth", "1", "--every", "5",
                         "--labels", f"rapfi 10k={LABELS}"])
    assert code == 0
    rows = {line[:28].strip(): line[28:].split() for line in capsys.readouterr().out.splitlines()[1:]}
    assert list(rows) == ["a coin", "hand-set cell scores", "hard's static evaluation", "rapfi 10k",
                          "hard at depth 1"]
    positions = int(rows["a coin"][0])
    assert positions > 50 and int(rows["rapfi 10k"][0]) == positions
    assert int(rows["hard at depth 1"][0]) == len(range(0, positions, 5))
    for name, (_count, loss, *_note) in rows.items():
        assert 0 < float(loss) <= 0.7, name
    # Rapfi's 10,000-node judgement of its own games knows more than a coin does.
    assert float(rows["rapfi 10k"][1]) < float(rows["a coin"][1]) - 0.05
    assert rows["hard at depth 1"][3] == "nodes,"  # its mean nodes a position


def test_a_timed_search_is_a_row_of_its_own(capsys):
    code = predict.main([str(GAMES), "--games", "3", "--time", "0.05", "--every", "5"])
    assert code == 0
    rows = {line[:28].strip(): line[28:].split() for line in capsys.readouterr().out.splitlines()[1:]}
    assert list(rows)[-1] == "hard at 0.05 s"
    positions = int(rows["a coin"][0])
    assert int(rows["hard at 0.05 s"][0]) == len(range(0, positions, 5))
    assert 0 <= float(rows["hard at 0.05 s"][1]) < float(rows["a coin"][1])  # (a few: can be 0)
    note = " ".join(rows["hard at 0.05 s"][2:])
    # Searched, not answered by the stand-in a cold engine plays while it compiles.
    assert "ms a position, depth" in note and float(note.split()[-1]) >= 1


def test_labels_of_other_games_are_refused_in_plain_words():
    other = TRAINING / "freestyle-15.labels.gz"
    with pytest.raises(SystemExit, match="does not label these games' positions"):
        predict.main([str(GAMES), "--games", "2", "--labels", f"other={other}"])


def test_a_damaged_or_missing_games_file_is_named_not_a_traceback(tmp_path, capsys):
    damaged = tmp_path / "damaged.txt.gz"
    with gzip.open(damaged, "wt", encoding="ascii") as file:
        file.write("1 3 h8 i9 j7 zz99\n")
    assert predict.main([str(damaged)]) == 1
    assert f"predict: {damaged}: line 1" in capsys.readouterr().err
    assert predict.main([str(tmp_path / "missing.txt.gz")]) == 1
    assert "missing.txt.gz" in capsys.readouterr().err


def test_bad_arguments_are_refused(capsys):
    for argv in (["--games", "0"], ["--depth", "0"], ["--every", "0"], ["--labels", "nameless"],
                 ["--time", "0"], ["--time", "nan"], ["--time", "1e9"]):
        with pytest.raises(SystemExit) as stop:
            predict.main([str(GAMES), *argv])
        assert stop.value.code == 2
    assert "--labels takes NAME=FILE" in capsys.readouterr().err
