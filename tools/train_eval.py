#!/usr/bin/env python3
"""Train hard's evaluation (gomoku/engine/eval_weights.py) on finished games: a Texel fit.

The evaluation sums a value over the candidate cells (empty, a stone within 2): the cell's four
line patterns (patterns.py codes, sorted: the directions do not matter) give one value for the
side to move and one, counted against it, for the opponent. The fit finds the values that best
predict the games' results from their quiet positions (no five to make or stop, no open four
for the side to move): a logistic regression, P(win) = 1 / (1 + exp(-K * eval)), where K is
the scale the cell-score evaluation fits best, so search margins keep their meaning.

Each cell value is a sum of per-line values and a threat-class value (an open three, a four, a
four-three, ...), plus a correction of its own for the pattern combinations seen in at least
--min-use training positions.

    # 1. Gather the games (deduplicated) from arena record folders into one small file
    #    (--plies N: each cut N moves after its opening):
    .venv/bin/python tools/train_eval.py collect /path/to/arena/*/ --out tools/training/freestyle-15.txt.gz
    # 2. (Optional) a stronger brain's evaluation of each quiet position, at a fixed node count
    #    (a position met in several games is asked once):
    .venv/bin/python tools/train_eval.py label tools/training/freestyle-15.txt.gz \\
        --judge /path/to/pbrain-rapfi --out tools/training/freestyle-15.labels.gz
    # 3. Fit, and write the weights module (several games files fit as one; --labels: one per
    #    games file, and the target mixes the game's result with the judge's win chance, --mix
    #    the judge's share, one for all or one per games file):
    .venv/bin/python tools/train_eval.py fit tools/training/freestyle-15.txt.gz \\
        tools/training/rapfi-selfplay-15.txt.gz --labels tools/training/freestyle-15.labels.gz \\
        tools/training/rapfi-selfplay-15.labels.gz --mix 0.5 --out gomoku/engine/eval_weights.py
    # 4. Fit the hidden layer (eval_hidden.py) on top of the linear values just written: 16
    #    rectified units on the same combo counts, their output added to the evaluation:
    .venv/bin/python tools/train_eval.py hidden tools/training/freestyle-15.txt.gz \\
        tools/training/rapfi-selfplay-15.txt.gz --labels tools/training/freestyle-15.labels.gz \\
        tools/training/rapfi-selfplay-15.labels.gz --mix 0.5 --out gomoku/engine/eval_hidden.py

The checked-in games: freestyle-15.txt.gz, every finished freestyle 15x15 game of our arena runs
(hard, medium and outside engines against each other); rapfi-selfplay-15.txt.gz, Rapfi
classical against itself at 0.1-0.2 s a move from random 3-stone openings (tools/arena.py
ENGINE ENGINE --openings random), whose results follow from strong play on both sides;
rapfi-selfplay2-15.txt.gz, 800 more such games at 0.1 s a move (--seed 2501 and 2502; not in
the shipped fit: docs/strength.md, "Adaptive ordering and more self-play");
rapfi-selfplay3-15.txt.gz, 800 more (--seed 2801 and 2802; in no shipped fit: docs/strength.md,
"The fourth self-play file");
rapfi-early-15.txt.gz, the first 14 moves after the opening of 3,647 arena games of hard (and
its experiments) against Rapfi (`collect --plies 14`; one 80-game run, s19-main-1s, left out to
judge the fit on), where hard's mistakes are. The *.labels.gz files: Rapfi classical's
evaluation of each of their quiet positions at 10,000 nodes (`label`, its default), about 140
positions a second on two cores; rapfi-early-15's at 100,000 (22,448 positions asked, 21 min).
Its results say who played Rapfi more than what the position is worth: fit it with --mix 1
(`--mix 0.5 0.5 1` after the two above). The shipped weights leave it out: fits with it have
not yet played better (docs/strength.md, "The evaluation on early positions").

A games file holds one game a line: the result for black (1, 0.5, 0), the number of opening
stones (not trained on), then the moves in notation. A labels file holds one quiet position a
line, in the order the fit reads them: the game's line number from 0, the stones on the board,
and the judge's value for the side to move (+M5 / -M4: a mate).
"""

from __future__ import annotations

import argparse
import base64
import gzip
import itertools
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from gomoku.core import Rule
from gomoku.core.notation import format_moves, parse_moves
from gomoku.core.records import GameRecord, RecordError, load_record
from gomoku.engine import patterns, state, threats

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
import arena  # noqa: E402  (tools/ is not a package)

COMBOS = list(itertools.combinations_with_replacement(range(patterns.N_CODES), 4))
N_ADDITIVE = patterns.N_CODES + 7  # per-line codes, then threat classes
SIZE = 15


def _combo_of_word() -> np.ndarray:
    """The COMBOS index of every word of four packed pattern codes (state.py): the engine's
    own grouping of words (threats.combo_keys), so the fit and the lookup agree."""
    position = np.zeros(patterns.N_CODES ** 4, dtype=np.int32)
    for i, combo in enumerate(COMBOS):
        position[threats.combo_key(combo)] = i
    return position[threats.combo_keys()]


def collect(folders: list[Path], out: Path, plies: int | None = None) -> None:
    """Write the finished freestyle 15x15 games of the records in `folders`, each game once;
    with `plies`, each cut to that many moves after its opening (the result kept)."""

    def line_of(record: GameRecord) -> str | None:
        result = {"black": "1", "white": "0", "draw": "0.5"}.get(record.result)
        stones = arena.opening_stones(record)
        moves = record.moves if plies is None else record.moves[:stones + plies + 1]  # (the last: not trained on)
        return None if result is None else f"{result} {stones} {format_moves(moves, SIZE)}"

    write_games(folders, out, line_of)


def write_games(folders: list[Path], out: Path, line_of: Callable[[GameRecord], str | None]) -> None:
    """Write `line_of` each freestyle 15x15 record in `folders` (None: left out), each game once."""
    seen: set[tuple] = set()
    lines = []
    for folder in folders:
        for path in sorted(folder.glob("*.gomoku")):
            try:
                record = load_record(path)
            except (OSError, RecordError):
                continue
            if record.rule != Rule.FREESTYLE or record.size != SIZE or tuple(record.moves) in seen:
                continue
            line = line_of(record)
            if line is not None:
                seen.add(tuple(record.moves))
                lines.append(line)
    with gzip.open(out, "wt", encoding="ascii") as file:
        file.write("\n".join(lines) + "\n")
    print(f"{len(lines)} games to {out}")


def _parse_game(line: str, where: str) -> tuple[float, int, list]:
    """(black's result, opening stones, moves) of a games file line; ValueError naming `where`."""
    try:
        score, stones, *moves = line.split()
        points = parse_moves(" ".join(moves), SIZE)
        if score not in ("0", "0.5", "1") or not 0 <= int(stones) <= len(points):
            raise ValueError("a line is: result (1, 0.5 or 0), opening stones, moves")
        if len(set(points)) != len(points):
            raise ValueError("a point is played twice")
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    return float(score), int(stones), points


def quiet_positions(games_file: Path) -> Iterator[tuple]:
    """Each quiet position of each game (no five to make or stop, no open four for the side to
    move): (game number, moves so far, side to move, black's result, the side to move's and
    the opponent's pattern words at the candidate cells)."""
    entry = threats.THREAT_TABLE.astype(np.int64)
    klass = (entry >> threats.T_CLASS_SHIFT) & 7
    tables = patterns.build_tables(patterns.RULE_FREESTYLE)
    with gzip.open(games_file, "rt", encoding="ascii") as file:
        for number, line in enumerate(file):
            black_result, stones, points = _parse_game(line, f"{games_file}: line {number + 1}")
            grid = np.zeros((SIZE, SIZE), dtype=np.int8)
            for k, (x, y) in enumerate(points[:-1]):  # the last position is decided
                grid[y, x] = 1 if k % 2 == 0 else 2
                if k + 1 < stones:
                    continue
                side = 1 if (k + 1) % 2 == 0 else 2
                bd = state.new_state(grid, side, patterns.RULE_FREESTYLE, tables)
                cells, near, codes = bd[0], bd[2], bd[9]
                cand = np.flatnonzero((cells == 0) & (near > 0))
                mine = codes[side - 1, cand].astype(np.int64)
                theirs = codes[2 - side, cand].astype(np.int64)
                if ((klass[mine] >= threats.TC_FLEX4).any() or (klass[theirs] == threats.TC_FIVE).any()):
                    continue  # not quiet: the search decides these, never the evaluation
                yield number, points[:k + 1], side, black_result, mine, theirs


def features(games_file: Path) -> dict[str, np.ndarray]:
    """Per quiet position: combo counts for the side to move and the opponent, the result for
    the side to move, the game's number, its stones, and the cell-score evaluation (hard's
    weights)."""
    combo = _combo_of_word()
    entry = threats.THREAT_TABLE.astype(np.int64)
    klass = (entry >> threats.T_CLASS_SHIFT) & 7
    own, opp, result, game, stones, old_eval = [], [], [], [], [], []
    for number, moves, side, black_result, mine, theirs in quiet_positions(games_file):
        own.append(np.bincount(combo[mine], minlength=len(COMBOS)).astype(np.int16))
        opp.append(np.bincount(combo[theirs], minlength=len(COMBOS)).astype(np.int16))
        result.append(black_result if side == 1 else 1 - black_result)
        game.append(number)
        stones.append(len(moves))
        bonus = threats.THREAT_BONUS[klass[theirs]]
        theirs_value = ((entry[theirs] & threats.T_VALUE) + bonus * 25 // 100 - bonus).sum()
        old_eval.append(((entry[mine] & threats.T_VALUE).sum() * 12 - theirs_value * 10) // 8)
    return {"own": np.array(own), "opp": np.array(opp), "result": np.array(result),
            "game": np.array(game), "stones": np.array(stones),
            "old_eval": np.array(old_eval, dtype=np.float64)}


JUDGE_EVAL = re.compile(r"(?:Eval|score)\s*[:=]?\s*([+-]?M?\d+)")  # Rapfi's -229, +M5, -M4; ours
JUDGE_TIMEOUT_S = 30.0
LABEL_LINE = re.compile(r"(\d{1,7}) (\d{1,3}) ([+-]?M?\d{1,6})")  # a labels file's line


def label(games_file: Path, judge: str, nodes: int, jobs: int, out: Path, turn_ms: int = 600000) -> None:
    """Write the judge brain's evaluation of every quiet position of `games_file` (the side to
    move's view, at `nodes` nodes, or `turn_ms` for a brain without INFO max_node): one line
    each, in `features` order: game, stones, value. A position met again (games that share
    their first moves) is asked once."""
    positions = [(number, moves, side) for number, moves, side, *_ in quiet_positions(games_file)]
    stones_of = [(frozenset(moves[0::2]), frozenset(moves[1::2])) for _number, moves, _side in positions]
    first_of: dict[tuple, int] = {}
    for i, stones in enumerate(stones_of):
        first_of.setdefault(stones, i)
    asked = sorted(first_of.values())
    values: list[str] = [""] * len(positions)
    command = arena.engine_command(judge)
    started = time.monotonic()

    def work(first: int) -> None:
        brain = None
        for done, i in enumerate(asked[first::jobs]):
            number, moves, side = positions[i]
            board = ["BOARD", *(f"{x},{y},{1 if k % 2 == side - 1 else 2}"
                                for k, (x, y) in enumerate(moves)), "DONE"]
            for _attempt in range(3):  # a lost command or a crash: a fresh brain, at most twice
                try:
                    if brain is None:
                        brain = arena.BrainProcess(command, info=[f"INFO max_node {nodes}"])
                        brain.start(SIZE, Rule.FREESTYLE, turn_ms / 1000)  # (waits until it searches)
                        brain.settle_s = 0.0  # it answers each position before it gets the next
                    brain.messages.clear()
                    brain.send(*board)
                    brain.move(time.monotonic() + JUDGE_TIMEOUT_S)
                except arena.BrainFailure:
                    if brain is not None:
                        brain.close()
                    brain = None
                    continue
                found = [match for match in map(JUDGE_EVAL.search, brain.messages) if match]
                values[i] = found[-1].group(1) if found else "0"  # none: an instant answer
                break
            else:
                failures.append(f"the judge gave no answer for game {number}, {len(moves)} stones")
                break
            if first == 0 and done % 2500 == 0:
                print(f"{done * jobs}/{len(asked)} in {time.monotonic() - started:.0f} s", flush=True)
        if brain is not None:
            brain.close()

    failures: list[str] = []
    workers = [threading.Thread(target=work, args=(first,)) for first in range(jobs)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise SystemExit(failures[0])
    with gzip.open(out, "wt", encoding="ascii") as file:
        for (number, moves, _side), stones in zip(positions, stones_of, strict=True):
            file.write(f"{number} {len(moves)} {values[first_of[stones]]}\n")
    print(f"{len(positions)} positions ({len(asked)} asked) to {out} in {time.monotonic() - started:.0f} s")


def judged(labels_file: Path, data: dict[str, np.ndarray]) -> np.ndarray:
    """The judge's values of `label` for `data`'s positions (a mate: +-inf), checked against them."""
    rows = []
    with gzip.open(labels_file, "rt", encoding="ascii") as file:
        for line_number, line in enumerate(file, 1):
            match = LABEL_LINE.fullmatch(line.strip())
            if match is None:
                raise SystemExit(f"{labels_file}: line {line_number} is not 'game stones value'")
            number, stones, value = match.groups()
            if "M" in value:
                rows.append((int(number), int(stones), np.inf if value.startswith("+") else -np.inf))
            else:
                rows.append((int(number), int(stones), float(value)))
    table = np.array(rows, dtype=np.float64).reshape(-1, 3)
    if len(table) != len(data["game"]) or (table[:, 0] != data["game"]).any() \
            or (table[:, 1] != data["stones"]).any():
        raise SystemExit(f"{labels_file} does not label these games' positions (relabel them)")
    return table[:, 2]


def features_of(games_files: list[Path], labels_files: list[Path] | None = None) -> dict[str, np.ndarray]:
    """`features` of several games files, their games numbered apart; with `labels_files` (one
    per games file, from `label`), the judge's value of each position too."""
    parts = [features(path) for path in games_files]
    for part, labels in zip(parts, labels_files or [], strict=False):
        part["judge"] = judged(labels, part)
    offset = 0
    for part in parts:
        part["game"] = part["game"] + offset
        offset = int(part["game"].max()) + 1 if len(part["game"]) else offset
    joined = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    joined["positions per file"] = np.array([len(part["game"]) for part in parts])
    return joined


def _word(combo: tuple[int, int, int, int]) -> int:
    """The pattern word (state.py: 4 bits a direction) of a combo's codes in their sorted order."""
    return sum(code << (4 * d) for d, code in enumerate(combo))


def _additive() -> np.ndarray:
    """[combo, N_ADDITIVE]: each combo's per-line code counts and its threat class."""
    matrix = np.zeros((len(COMBOS), N_ADDITIVE), dtype=np.float32)
    entry = threats.THREAT_TABLE
    for i, combo in enumerate(COMBOS):
        for code in combo:
            matrix[i, code] += 1
        matrix[i, patterns.N_CODES + ((entry[_word(combo)] >> threats.T_CLASS_SHIFT) & 7)] = 1
    matrix[:, 0] = 0  # a line with no pattern, and a cell with no threat, are worth nothing
    matrix[:, patterns.N_CODES] = 0
    return matrix


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(z, -50, 50)))  # (a mate is +-inf)


def engine_values() -> np.ndarray:
    """float32 [2, combo]: the shipped linear evaluation by COMBOS index, read from hard's own
    table (threats.evaluation_table) as `analyse` reads it: a cell with no pattern is worth nothing."""
    words = np.array([_word(combo) for combo in COMBOS])
    table = threats.evaluation_table(trained=True)[:2, words] // threats.EVAL_SCALE
    return np.where(threats.THREAT_TABLE[words] != 0, table, 0).astype(np.float32)


def fit_hidden(data: dict[str, np.ndarray], units: int, epochs: int, l2: float, seed: int,
               mix: float | np.ndarray = 0.0) -> tuple:
    """A hidden layer of `units` rectified units on the combo counts, its output added to the
    shipped linear evaluation (which stays as it is): P(win) = sigmoid(K x linear + output +
    intercept), fitted by minibatch Adam to the same target and held-out games as `fit`.
    Returns (inputs [2, combo, units] for the side to move and for the opponent, biases,
    output weights in evaluation units, the mean output over the positions, a report)."""
    result = data["result"].astype(np.float32)
    rng = np.random.default_rng(seed)
    held = _held_out_games(data, rng)
    train = ~held
    y, judge_report = _target(data, train, held, mix)
    scale = _scale(data, train)
    own, opp = data["own"].astype(np.float32), data["opp"].astype(np.float32)
    linear = engine_values()
    z_linear = (scale * (own @ linear[0] - opp @ linear[1])).astype(np.float32)
    intercept = np.float32(0)
    for _ in range(200):  # the side to move's tempo, on the linear evaluation alone
        intercept -= np.float32((_sigmoid(z_linear[train] + intercept) - y[train]).mean())
    x = np.concatenate([own, -opp], axis=1)
    w1 = (rng.standard_normal((x.shape[1], units)) * 0.02).astype(np.float32)
    b1 = np.zeros(units, dtype=np.float32)
    w2 = (rng.standard_normal(units) * 0.01).astype(np.float32)
    params = [w1, b1, w2]
    moments = [(np.zeros_like(q), np.zeros_like(q)) for q in params]
    rows = np.flatnonzero(train)
    step = 0
    for _epoch in range(epochs):
        rng.shuffle(rows)
        for start in range(0, len(rows), 2048):
            batch = rows[start:start + 2048]
            xb = x[batch]
            pre = xb @ w1 + b1
            hidden = np.maximum(pre, 0)
            error = (_sigmoid(z_linear[batch] + hidden @ w2 + intercept) - y[batch]) / len(batch)
            back = np.outer(error, w2) * (pre > 0)
            grads = [xb.T @ back + l2 * w1, back.sum(axis=0), hidden.T @ error]
            step += 1
            for q, g, (m, v) in zip(params, grads, moments, strict=True):  # Adam
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                q -= 2e-3 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    n = len(COMBOS)
    seen = ((own[train] > 0).any(axis=0), (opp[train] > 0).any(axis=0))
    inputs = np.stack([w1[:n] * seen[0][:, None], w1[n:] * seen[1][:, None]])
    output = np.maximum(x @ np.concatenate(inputs) + b1, 0) @ w2
    predicted = _sigmoid(z_linear[held] + output[held] + intercept)
    report = {
        "positions": int(len(y)), "held-out positions": int(held.sum()), "scale K": float(scale),
        "held-out log loss, the linear evaluation": _log_loss(_sigmoid(z_linear[held] + intercept), result[held]),
        "held-out log loss, with the hidden layer": _log_loss(predicted, result[held]),
        **judge_report,
        "standard deviation of the output (evaluation units)": float(output.std() / scale),
    }
    return inputs, b1, w2 / scale, float(output.mean() / scale), report


def write_hidden(inputs: np.ndarray, bias: np.ndarray, out_weights: np.ndarray, offset: float,
                 out: Path, source: str) -> int:
    """Write the hidden layer's module (eval_hidden.py); returns the combinations written.

    The combinations' inputs are packed (base64 of little-endian float32): as number literals
    the module would take Python 0.1 s to compile on a first launch, holding the GIL."""
    def numbers(values: np.ndarray) -> str:
        return "(" + ", ".join(f"{float(v):.6g}" for v in values) + ",)"

    def packed(name: str, data: bytes) -> list[str]:
        text = base64.b64encode(data).decode("ascii")
        return [f"{name} = ("] + [f'    "{text[i:i + 96]}"' for i in range(0, len(text), 96)] + [")"]

    kept = [i for i in range(len(COMBOS)) if inputs[0, i].any() or inputs[1, i].any()]
    combos = np.array([COMBOS[i] for i in kept], dtype=np.uint8)
    kept_inputs = np.ascontiguousarray(inputs[:, kept], dtype="<f4")
    lines = ['"""The trained evaluation\'s hidden layer: rectified units on the pattern combinations of',
             "the candidate cells (see eval_weights.py); their output is added to the linear evaluation.",
             f'Written by tools/train_eval.py hidden from {source}; do not edit."""',
             "",
             f"UNITS = {bias.shape[0]}",
             f"BIAS = {numbers(bias)}",
             f"OUT = {numbers(out_weights)}  # evaluation units per unit of output",
             f"OFFSET = {offset:.6g}  # the mean output over the training positions",
             "",
             "# The combinations (uint8 [n, 4], sorted pattern codes) and their inputs to the units",
             "# (little-endian float32 [2, n, UNITS]: for the side to move, for the opponent), in",
             "# base64; threats.hidden_inputs reads them.",
             *packed("COMBOS", combos.tobytes()),
             *packed("INPUTS", kept_inputs.tobytes())]
    out.write_text("\n".join(lines) + "\n", encoding="ascii")
    return len(kept)


def _held_out_games(data: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """Per position: True for the positions of a fifth of the games, drawn by `rng` (held out)."""
    games = np.unique(data["game"])
    return np.isin(data["game"], rng.choice(games, len(games) // 5, replace=False))


def _target(data: dict[str, np.ndarray], train: np.ndarray, held: np.ndarray,
            mix: float | np.ndarray) -> tuple[np.ndarray, dict]:
    """The fits' target per position (see `fit`), and a report on the judge."""
    result = data["result"].astype(np.float32)
    mix = np.broadcast_to(np.asarray(mix, dtype=np.float32), result.shape)
    if not mix.any():
        return result, {}
    value = data["judge"]
    judged_results = train & (mix < 1)  # (a games file whose results say little: mix 1)
    if not judged_results.any():
        judged_results = train
    judge_scale = min(np.geomspace(20, 2000, 120),
                      key=lambda s: _log_loss(_sigmoid(value[judged_results] / s), result[judged_results]))
    chance = _sigmoid(value / judge_scale).astype(np.float32)
    return (1 - mix) * result + mix * chance, {
        "judge's scale": float(judge_scale),
        "held-out log loss, the judge": _log_loss(chance[held], result[held])}


def _scale(data: dict[str, np.ndarray], train: np.ndarray) -> float:
    """K: the logistic scale that fits the hand-set cell scores to the results best, so that
    evaluation units keep their meaning from fit to fit."""
    old, result = data["old_eval"], data["result"]
    return min(np.geomspace(1e-4, 1e-1, 120), key=lambda k: _log_loss(_sigmoid(k * old[train]), result[train]))


def fit(data: dict[str, np.ndarray], min_use: int, l2: float, steps: int, seed: int,
        mix: float | np.ndarray = 0.0) -> tuple:
    """(own values, opponent values) per combo in evaluation units, and a report. With the
    judge's values in `data`, the target is (1 - mix) x the game's result + mix x the judge's
    win chance (its value through the logistic curve that fits the results best); `mix` is one
    share for all, or one a position."""
    result = data["result"].astype(np.float32)
    rng = np.random.default_rng(seed)
    held = _held_out_games(data, rng)
    train = ~held
    y, judge_report = _target(data, train, held, mix)
    old = data["old_eval"]
    scale = _scale(data, train)
    own, opp = data["own"].astype(np.float32), data["opp"].astype(np.float32)
    add = _additive()
    own_kept = (own[train] > 0).sum(axis=0) >= min_use
    opp_kept = (opp[train] > 0).sum(axis=0) >= min_use
    x = np.concatenate([own @ add, -(opp @ add), own[:, own_kept], -opp[:, opp_kept]], axis=1)
    penalty = np.full(x.shape[1], l2, dtype=np.float32)
    penalty[:2 * N_ADDITIVE] = l2 / 100  # the additive part is the backbone: barely held back
    w = np.zeros(x.shape[1], dtype=np.float32)
    bias = np.float32(0)
    m, v = np.zeros_like(w), np.zeros_like(w)
    x_train, y_train = x[train], y[train]
    for step in range(1, steps + 1):  # Adam
        p = _sigmoid(x_train @ w + bias)
        grad = x_train.T @ (p - y_train) / len(y_train) + penalty * w
        bias -= np.float32(0.01) * (p - y_train).mean()
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= np.float32(0.01) * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    own_value = add @ w[:N_ADDITIVE]
    opp_value = add @ w[N_ADDITIVE:2 * N_ADDITIVE]
    own_value[own_kept] += w[2 * N_ADDITIVE:2 * N_ADDITIVE + own_kept.sum()]
    opp_value[opp_kept] += w[2 * N_ADDITIVE + own_kept.sum():]
    predicted = _sigmoid(x[held] @ w + bias)
    report = {
        "positions": int(len(y)), "held-out positions": int(held.sum()), "scale K": float(scale),
        "held-out log loss, a coin": _log_loss(np.full(held.sum(), result[train].mean()), result[held]),
        "held-out log loss, cell scores": _log_loss(_sigmoid(scale * old[held]), result[held]),
        "held-out log loss, trained": _log_loss(predicted, result[held]),
        **judge_report,
        **({"held-out log loss against the target, trained": _log_loss(predicted, y[held])} if judge_report else {}),
        "intercept (left out: a tempo the side to move has)": float(bias),
    }
    return own_value / scale, opp_value / scale, report


def write_weights(own: np.ndarray, opp: np.ndarray, out: Path, source: str) -> int:
    docstring = ['"""The trained evaluation: a cell\'s value by its four line patterns (their codes, sorted: see',
                 "patterns.py), for the side to move and for the opponent, in evaluation units.",
                 f"Written by tools/train_eval.py from {source}; do not edit.\"\"\""]
    return write_table(own, opp, out, docstring)


def write_table(own: np.ndarray, opp: np.ndarray, out: Path, docstring: list[str]) -> int:
    """Write a weights module, `docstring` then WEIGHTS {combo: (own, opponent)}, the values
    rounded and all-zero combinations left out; returns how many it holds."""
    lines = [*docstring, "", "WEIGHTS = {"]
    count = 0
    for combo, mine, theirs in zip(COMBOS, np.rint(own).astype(int), np.rint(opp).astype(int), strict=True):
        if combo != (0, 0, 0, 0) and (mine or theirs):
            lines.append(f"    {combo}: ({mine}, {theirs}),")
            count += 1
    out.write_text("\n".join(lines + ["}"]) + "\n", encoding="ascii")
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gather = sub.add_parser("collect", help="gather arena records into a games file")
    gather.add_argument("folders", nargs="+", type=Path)
    gather.add_argument("--out", type=Path, required=True)
    gather.add_argument("--plies", type=int, help="cut each game this many moves after its opening")
    train = sub.add_parser("fit", help="fit the weights to games files")
    train.add_argument("games", type=Path, nargs="+")
    train.add_argument("--out", type=Path, required=True)
    train.add_argument("--min-use", type=int, default=50, help="positions a combination needs for a value of its own")
    train.add_argument("--l2", type=float, default=3e-4)
    train.add_argument("--steps", type=int, default=2000)
    train.add_argument("--seed", type=int, default=1)
    layer = sub.add_parser("hidden", help="fit a hidden layer on top of the shipped linear evaluation")
    layer.add_argument("games", type=Path, nargs="+")
    layer.add_argument("--out", type=Path, required=True)
    layer.add_argument("--units", type=int, default=16)
    layer.add_argument("--epochs", type=int, default=6)
    layer.add_argument("--l2", type=float, default=1e-5)
    layer.add_argument("--seed", type=int, default=1)
    for command in (train, layer):
        command.add_argument("--labels", type=Path, nargs="+", metavar="FILE",
                             help="the judge's values (from label), one file per games file, in order")
        command.add_argument("--mix", type=float, nargs="+", default=[0.5],
                             help="with --labels: the judge's share of the target (default 0.5), "
                                  "one for all or one per games file")
    judge = sub.add_parser("label", help="a judge brain's value of each quiet position")
    judge.add_argument("games", type=Path)
    judge.add_argument("--judge", required=True, help="the judge's brain command, e.g. /path/to/pbrain-rapfi")
    judge.add_argument("--nodes", type=int, default=10000, help="nodes a position (INFO max_node)")
    judge.add_argument("--turn-ms", type=int, default=600000,
                       help="time a position (INFO timeout_turn), for a judge without max_node")
    judge.add_argument("--jobs", type=int, default=2)
    judge.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "collect":
        if args.plies is not None and args.plies < 1:
            parser.error("--plies must be at least 1")
        collect(args.folders, args.out, args.plies)
        return 0
    if args.command == "label":
        label(args.games, args.judge, args.nodes, args.jobs, args.out, args.turn_ms)
        return 0
    if args.labels is not None and len(args.labels) != len(args.games):
        parser.error("--labels needs one file per games file")
    if len(args.mix) not in (1, len(args.games)) or not all(0 <= mix <= 1 for mix in args.mix):
        parser.error("--mix takes one share, or one per games file, each 0 to 1")
    data = features_of(args.games, args.labels)
    shares = np.repeat(args.mix * (len(args.games) // len(args.mix)), data["positions per file"])
    source = " and ".join(path.name for path in args.games)
    if args.labels:
        source += f",\nwith the judge's values in {' and '.join(path.name for path in args.labels)} (mix {' '.join(map(str, args.mix))})"
    if args.command == "hidden":
        if not 1 <= args.units <= 64 or args.epochs < 1:
            parser.error("--units takes 1 to 64, --epochs at least 1")
        *layer_weights, report = fit_hidden(data, args.units, args.epochs, args.l2, args.seed,
                                            shares if args.labels else 0.0)
    else:
        own, opp, report = fit(data, args.min_use, args.l2, args.steps, args.seed,
                               shares if args.labels else 0.0)
    for key, value in report.items():
        print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")
    if args.command == "hidden":
        count = write_hidden(*layer_weights, args.out, source)
    else:
        count = write_weights(own, opp, args.out, source)
    print(f"{count} combinations to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
