#!/usr/bin/env python3
"""How much does our engine's move lose, by a stronger engine's evaluation?

    .venv/bin/python tools/judge.py --judge /path/to/pbrain-rapfi --time 1 --cache judge.json

    # middle games: positions from arena records where hard was to move; paired with a
    # results file an earlier version wrote on the same positions
    .venv/bin/python tools/judge.py --judge /path/to/pbrain-rapfi --games arena-out \
        --cache middle.json --results new.json --compare old.json

A quicker measure than a match while tuning: for each position of the opening set (the
opening's three stones, then the judge's own reply, so both colours are asked), our engine
(this work tree, in this process) chooses a move at --time seconds, and the judge evaluates
the position before it and after it. The loss is the judge's evaluation before minus after, for
the side that moved (a mate counts as +-MATE_CAP, so one lost position weighs like a few bad
moves, not like a hundred). Prints each position and the mean loss, the share of moves losing
more than 200, how often our move is the judge's, and, where it is not, how much each of the two
builds (our stones in the lines through it) and blocks (the opponent's): a search that attacks
where the judge defends shows as ours building more and blocking less.

The judge runs with a node limit (INFO max_node, which Rapfi honours), so its evaluations repeat
exactly from run to run; --cache keeps the positions and their evaluations before our move, so
a later run (another engine version) asks the judge only about our moves.

With --games, the positions are the middle games of arena records instead: up to --per-game
of the turns ENGINE (--engine) had in each game, spread over the game (the opening stones and
the last moves left out), and only where the judge sees no forced win for either side: there
every move wins or every move loses. Matches between versions are noisy (100 games give
+-10%); here both versions answer the same positions, so --compare (another run's --results
file) prints the paired difference of the mean loss with its standard error, and again over the
positions neither side leads by more than 400 with each loss capped at 600: a few positions
already lost (a mate counts 2000) otherwise decide the mean.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
import arena  # noqa: E402  (tools/ is not a package)

from gomoku.core import Board, Rule  # noqa: E402
from gomoku.core.board import DIRECTIONS  # noqa: E402
from gomoku.core.notation import format_point  # noqa: E402
from gomoku.core.records import RECORD_SUFFIX, RecordError, load_record  # noqa: E402
from gomoku.engine import driver  # noqa: E402
from gomoku.engine.api import Level, Position, SearchLimit  # noqa: E402

MATE_CAP = 2000  # what a mate (arena.MATE_VALUE) counts as in the mean loss
BIG_LOSS = 200
# --compare's steadier figure: positions neither side leads by more than this before the move,
# each loss capped, so a few already-lost positions do not decide the mean.
OPEN_EVAL = 400
OPEN_LOSS_CAP = 600
END_MOVES = 6  # a game's last moves, left out of --games: the game is decided by then


class Judge:
    """A Gomocup brain asked for its evaluation and best move at a fixed node count. Each
    question starts the brain afresh: a brain keeps its hash table between games, and what it
    searched before would change its answer."""

    def __init__(self, command: str, nodes: int, rule: Rule, size: int, pattern: str = arena.EVAL_PATTERN) -> None:
        self.command = arena.engine_command(command)
        self.nodes, self.rule, self.size = nodes, rule, size
        self.pattern = re.compile(pattern)

    def ask(self, moves: list[tuple[int, int]]) -> tuple[int, tuple[int, int]]:
        """(evaluation for the side to move, its move) after `moves`."""
        brain = arena.BrainProcess(self.command)
        try:
            brain.send("INFO timeout_turn 120000", f"INFO max_node {self.nodes}",
                       f"INFO rule {arena.RULE_CODES[self.rule]}", f"START {self.size}")
            if brain.reply(time.monotonic() + 30.0).upper() != "OK":
                raise arena.BrainFailure("refused START", "the judge did not start")
            board = Board.from_moves(moves, self.size, self.rule)
            brain.send(*arena.board_lines(board, board.to_move))
            move = brain.move(time.monotonic() + 120.0)
        finally:
            brain.close()
        value = brain.evaluation(self.pattern)
        return (0 if value is None else value), move  # None: an instant answer (a five, a block)


def capped(value: int) -> int:
    return max(-MATE_CAP, min(MATE_CAP, value))


def line_reach(board: Board, point: tuple[int, int], colour: int) -> int:
    """Over the four lines through `point`, the most stones of `colour` in a five-cell window
    holding none of the other colour, summed: for the mover's colour, how much a move builds;
    for the opponent's, how much it blocks."""
    x, y = point
    total = 0
    for dx, dy in DIRECTIONS:
        best = 0
        for start in range(-4, 1):
            cells = [(x + (start + k) * dx, y + (start + k) * dy) for k in range(5)]
            if not all(board.on_board(cx, cy) for cx, cy in cells):
                continue
            stones = [int(board.grid[cy, cx]) for cx, cy in cells]
            if 3 - colour not in stones:
                best = max(best, stones.count(colour))
        total += best
    return total


def style(rows: list[tuple[Board, tuple[int, int], tuple[int, int]]]) -> str:
    """Where our move is not the judge's: how much each builds and blocks (line_reach), on
    average, and how often ours builds more or blocks less than the judge's."""
    differing = [(board, ours, best) for board, ours, best in rows if ours != best]
    if not differing:
        return "our move is the judge's in every position"
    sums = [0, 0, 0, 0]
    builds_more = blocks_less = 0
    for board, ours, best in differing:
        mover = int(board.to_move)
        reach = [line_reach(board, ours, mover), line_reach(board, ours, 3 - mover),
                 line_reach(board, best, mover), line_reach(board, best, 3 - mover)]
        sums = [a + b for a, b in zip(sums, reach, strict=True)]
        builds_more += reach[0] > reach[2]
        blocks_less += reach[1] < reach[3]
    n = len(differing)
    return (f"where ours is not the judge's move ({n}): ours builds {sums[0] / n:.2f} and blocks "
            f"{sums[1] / n:.2f}, the judge's {sums[2] / n:.2f} and {sums[3] / n:.2f} (stones in "
            f"the lines through the move); ours builds more in {builds_more}, blocks less in "
            f"{blocks_less}")


def judged_positions(judge: Judge, cache: Path | None, ask_all: Callable[[], list[dict]]) -> list[dict]:
    """The positions to ask about, with the judge's evaluation and move: from the cache if kept,
    else from `ask_all` (then kept in the cache)."""
    if cache is not None and cache.exists():
        try:
            kept = json.loads(cache.read_text())
            for item in kept:  # each: moves [[x, y], ...], the judge's eval and best move
                Board.from_moves([tuple(p) for p in item["moves"]], judge.size, judge.rule)
                int(item["eval"]), tuple(item["best"])
            return kept
        except (OSError, ValueError, TypeError, KeyError) as error:
            raise SystemExit(f"judge.py: {cache} is not a cache this tool wrote ({error}); "
                             "delete it to judge the positions again") from None
    found = ask_all()
    if cache is not None:
        cache.write_text(json.dumps(found))
    return found


def opening_positions(judge: Judge, openings: list) -> list[dict]:
    """Each opening, and the position after the judge's reply to it: both colours move."""
    found = []
    for opening in openings:
        moves = [list(p) for p in opening]
        for _ in range(2):
            value, move = judge.ask([tuple(p) for p in moves])
            found.append({"moves": [list(p) for p in moves], "eval": value, "best": list(move)})
            moves = moves + [list(move)]
        print(f"{len(found)} positions", file=sys.stderr, flush=True)
    return found


def game_positions(judge: Judge, folder: Path, engine: str, per_game: int) -> list[dict]:
    """Up to `per_game` positions a game where `engine` was to move, in the arena records of
    `folder`; those the judge calls won or lost are left out."""
    found = []
    for path in sorted(folder.glob(f"*{RECORD_SUFFIX}")):
        try:
            record = load_record(path)
        except (OSError, RecordError):
            continue
        if record.rule != judge.rule or record.size != judge.size or engine not in (record.black, record.white):
            continue
        first = 0 if record.black == engine else 1
        stones = arena.opening_stones(record)
        turns = [i for i in range(first, len(record.moves) - END_MOVES, 2) if i >= stones]
        picked = [turns[round(k * (len(turns) - 1) / max(per_game - 1, 1))]
                  for k in range(min(per_game, len(turns)))] if turns else []
        for turn in dict.fromkeys(picked):
            moves = [list(p) for p in record.moves[:turn]]
            value, move = judge.ask([tuple(p) for p in moves])
            if abs(value) < arena.MATE_VALUE:
                found.append({"moves": moves, "eval": value, "best": list(move)})
        print(f"{len(found)} positions", file=sys.stderr, flush=True)
    return found


def compare(results: list[dict], earlier_file: Path) -> str:
    """The paired difference of the mean loss against an earlier run's results file."""
    try:
        earlier = {json.dumps(item["moves"]): (int(item["loss"]), list(item["ours"]))
                   for item in json.loads(earlier_file.read_text())}
    except (OSError, ValueError, TypeError, KeyError) as error:
        raise SystemExit(f"judge.py: {earlier_file} is not a results file this tool wrote ({error})") from None
    pairs = [(item, earlier[key]) for item in results if (key := json.dumps(item["moves"])) in earlier]
    if len(pairs) < 2:
        return f"compare: only {len(pairs)} positions in common with {earlier_file}"
    diff = [item["loss"] - before for item, (before, _ours) in pairs]
    same = sum(item["ours"] == ours for item, (_before, ours) in pairs)
    mean, error = _mean_and_error(diff)
    text = (f"compare with {earlier_file.name} on {len(diff)} positions: mean loss {mean:+.1f} "
            f"(standard error {error:.1f}; negative: this run loses less), the same move in {same}")
    open_diff = [min(item["loss"], OPEN_LOSS_CAP) - min(before, OPEN_LOSS_CAP)
                 for item, (before, _ours) in pairs if abs(item["eval"]) <= OPEN_EVAL]
    if len(open_diff) >= 2:
        mean, error = _mean_and_error(open_diff)
        text += (f"\n  where neither side led by more than {OPEN_EVAL} ({len(open_diff)} "
                 f"positions), each loss capped at {OPEN_LOSS_CAP}: {mean:+.1f} (standard error "
                 f"{error:.1f})")
    return text


def _mean_and_error(diff: list[int]) -> tuple[float, float]:
    mean = sum(diff) / len(diff)
    spread = (sum((d - mean) ** 2 for d in diff) / (len(diff) - 1)) ** 0.5
    return mean, spread / len(diff) ** 0.5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--judge", required=True, help="the judge brain's command line")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="judge's nodes a position")
    parser.add_argument("--time", type=float, default=1.0, help="our seconds a move")
    parser.add_argument("--depth", type=int, help="our deepest iteration: a move we finish "
                        "within --time repeats exactly whatever the load")
    parser.add_argument("--level", choices=["medium", "hard"], default="hard")
    parser.add_argument("--openings", type=Path, help="default: the arena's set for rule and size")
    parser.add_argument("--rule", choices=[rule.value for rule in arena.RULE_CODES],
                        default="freestyle")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--count", type=int, default=50, help="openings used (default 50)")
    parser.add_argument("--cache", type=Path, help="JSON file keeping the judged positions")
    parser.add_argument("--judge-eval", default=arena.EVAL_PATTERN,
                        help="regex whose group 1 is the evaluation in the judge's MESSAGE (M: a mate)")
    parser.add_argument("--games", type=Path, metavar="FOLDER",
                        help="positions from the arena records in FOLDER instead of the openings")
    parser.add_argument("--engine", default="hard", help="with --games: whose turns to take")
    parser.add_argument("--per-game", type=int, default=5, help="with --games: positions a game")
    parser.add_argument("--results", type=Path, help="write each position's move and loss (JSON)")
    parser.add_argument("--compare", type=Path, metavar="FILE",
                        help="an earlier run's --results on the same positions: the paired difference")
    args = parser.parse_args(argv)
    if args.depth is not None and args.depth < 1:
        parser.error("--depth must be at least 1")
    if args.per_game < 1:
        parser.error("--per-game must be at least 1")
    rule = Rule(args.rule)
    judge = Judge(args.judge, args.nodes, rule, args.size, args.judge_eval)
    driver.warm_up()

    def ask_all() -> list[dict]:
        if args.games is not None:
            return game_positions(judge, args.games, args.engine, args.per_game)
        path = args.openings or arena.default_openings_file(rule, args.size)
        return opening_positions(judge, arena.read_openings(path, args.size, rule)[: args.count])

    asked = judged_positions(judge, args.cache, ask_all)
    losses, big, same, results, chosen = [], 0, 0, [], []
    for item in asked:
        moves = [tuple(p) for p in item["moves"]]
        board = Board.from_moves(moves, args.size, rule)
        driver.new_game()
        ours = driver.think(Position.from_board(board), Level(args.level),
                            SearchLimit(args.time, max_depth=args.depth)).move
        after, _ = judge.ask(moves + [ours])
        loss = capped(item["eval"]) - capped(-after)
        losses.append(loss)
        results.append({"moves": item["moves"], "eval": item["eval"], "ours": list(ours),
                        "loss": loss})
        chosen.append((board, ours, tuple(item["best"])))
        big += loss > BIG_LOSS
        same += ours == tuple(item["best"])
        print(f"{' '.join(format_point(p, args.size) for p in moves):<24} ours "
              f"{format_point(ours, args.size):<4} judge {format_point(tuple(item['best']), args.size):<4}"
              f" eval {item['eval']:+6d} -> {-after:+6d}  loss {loss:+d}", flush=True)
    n = max(len(losses), 1)
    print(f"{len(losses)} positions: mean loss {sum(losses) / n:.0f} (mates count "
          f"{MATE_CAP}), losing > {BIG_LOSS}: {big} ({100 * big / n:.0f}%), the judge's move: "
          f"{same} ({100 * same / n:.0f}%)")
    print(style(chosen))
    if args.results is not None:
        args.results.write_text(json.dumps(results))
    if args.compare is not None:
        print(compare(results, args.compare))
    return 0


if __name__ == "__main__":
    sys.exit(main())
