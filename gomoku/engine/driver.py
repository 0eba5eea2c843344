"""The Python side of the search: levels, iterative deepening, time control.

`think` is the one entry point the worker, the brain and the tools call. The compiled search
(numba, `nogil`) runs on the calling thread; a small clock thread sets the search's stop flag
at the deadline or when the caller's StopFlag is set, and the search unwinds within a few
milliseconds. Until the engine is compiled (see `warm_up`), `think` answers from a plain
Python greedy move so that no call ever overruns its budget.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from gomoku.core import Color, Point, Rule
from gomoku.core import renju as core_renju
from gomoku.engine import easy, patterns, search, state, threats
from gomoku.engine.api import Level, Position, Progress, SearchLimit, SearchResult, StopFlag

RULE_CODES = {Rule.FREESTYLE: patterns.RULE_FREESTYLE, Rule.STANDARD: patterns.RULE_STANDARD,
              Rule.RENJU: patterns.RULE_RENJU}

DEPTH_LIMITED_BUDGET_S = 1.0
"""With a depth limit (the brain's INFO max_depth: a measuring harness) the threat checks'
node budgets are counted on this many seconds, not on the move's time: a move that finishes
within its time is then the same however much time it was given, or how busy the machine."""
DEADLINE_SHARE = 0.95  # the clock stops the search at this share of the budget
OVERHEAD_S = 0.01  # set-up and result building after the flag is set
ITERATION_GROWTH = 2.0  # a deeper iteration takes about this many times the last one


@dataclass(frozen=True)
class LevelConfig:
    """How one level searches; tuning constants sit together here."""

    width: int  # moves tried at a quiet node
    max_depth: int  # deepest iteration
    leaf_vcf: int  # attacker fours a VCF at a leaf may use (0: none)
    root_vcf: int  # attacker fours the root VCF may use
    defend_vcf: int  # depth of the check that root moves stop the opponent's VCF (0: none)
    vct_depth: int  # attacker threats the root VCT may use (0: none); hard's 10 reaches the
    # forced wins Rapfi won most lost games with (8 to 12 threats; 7 missed them)
    vct_width: int  # attacker moves tried at a VCT node
    vct_nodes_per_s: int  # node budget of the root VCT, per second of the move's budget
    lmr: bool  # late move reductions
    noise: int  # +- jitter of leaf evaluations (a human-like level)
    tt_bits: int  # transposition table entries = 2**tt_bits, 16 bytes each
    next_depth_share: float  # start another iteration only before this share of the budget
    # The hand-set evaluation (threats.evaluation_table; not used with trained_eval): weights
    # (eighths) of our and the opponent's cell scores, and the share of the opponent's bonuses.
    own_weight: int = 12
    opp_weight: int = 10
    opp_bonus: int = 100  # percent
    futility: int = 0  # evaluation margin per ply above beta that fails high at once (0: off)
    singular_depth: int = 0  # singular extensions of the hash move from this depth on (0: off)
    stop_vct: bool = True  # at the root, drop the checked moves that leave an opponent VCT
    verify_nodes_per_s: int = 0  # VCT nodes to check each new best move, per second of budget
    # The last check: the share of the budget kept from the iterations for a deep VCT check of
    # the move to be played (and, if it loses, of the next root moves), and its nodes a second.
    final_check_share: float = 0.0
    final_check_nodes_per_s: int = 0
    trained_eval: bool = False  # the trained evaluation (eval_weights.py) instead of the cell scores
    threat_bonus: int = 0  # ordering bonus of our fours and open threes (threats.P_THREAT_BONUS)


LEVELS = {
    Level.MEDIUM: LevelConfig(width=8, max_depth=4, leaf_vcf=3, root_vcf=8, defend_vcf=8,
                              vct_depth=0, vct_width=0, vct_nodes_per_s=0, lmr=False, noise=60,
                              tt_bits=18, next_depth_share=0.5),
    Level.HARD: LevelConfig(width=14, max_depth=60, leaf_vcf=4, root_vcf=30, defend_vcf=20,
                            vct_depth=10, vct_width=12, vct_nodes_per_s=40_000, lmr=True, noise=0,
                            tt_bits=21, next_depth_share=0.9, verify_nodes_per_s=20_000,
                            futility=100, singular_depth=4, trained_eval=True, final_check_share=0.2,
                            final_check_nodes_per_s=200_000, threat_bonus=300),
}
"""Hard's table: 2**21 entries x 16 bytes = 32 MiB per thread; medium's 4 MiB."""

_tables: dict[int, np.ndarray] = {}
_tables_lock = threading.Lock()
_warm_lock = threading.Lock()
_ready = threading.Event()
_warm_thread: threading.Thread | None = None
_local = threading.local()


def pattern_tables(rule: Rule) -> np.ndarray:
    """The pattern tables of `rule`, built once per process (numpy, well under 0.1 s)."""
    code = RULE_CODES[rule]
    with _tables_lock:
        if code not in _tables:
            _tables[code] = patterns.build_tables(code)
        return _tables[code]


@functools.cache
def evaluation(level: Level) -> np.ndarray:
    """`level`'s evaluation table (threats.evaluation_table), built once per process."""
    config = LEVELS[level]
    return threats.evaluation_table(config.own_weight, config.opp_weight, config.opp_bonus,
                                    config.trained_eval)


def _search_tables(level: Level, n_cells: int) -> tuple:
    """This thread's search tables for `level` (kept between moves: the TT helps the next)."""
    cache = getattr(_local, "tables", None)
    if cache is None:
        cache = _local.tables = {}
    key = (level, n_cells)
    if key not in cache:
        cache[key] = threats.new_search_tables(LEVELS[level].tt_bits, n_cells, evaluation(level))
    return cache[key]


def new_game() -> None:
    """Forget what this thread's searches learnt (transposition tables, history): a new game."""
    _local.tables = {}


def _reset(sr: tuple, config: LevelConfig | None, seed: int) -> None:
    sr[8][0] = 0
    sr[9][:] = 0
    sr[7][:, :] = -1
    sr[6][:, :] //= 4  # history fades between moves
    params = sr[10]
    params[:] = 0
    if config is not None:
        params[threats.P_WIDTH] = config.width
        params[threats.P_VCF_LEAF] = config.leaf_vcf
        params[threats.P_LMR] = int(config.lmr)
        params[threats.P_VCT_WIDTH] = config.vct_width
        params[threats.P_EVAL_NOISE] = config.noise
        params[threats.P_FUTILITY] = config.futility
        params[threats.P_SINGULAR] = config.singular_depth
        params[threats.P_HIDDEN] = int(config.trained_eval)
        params[threats.P_THREAT_BONUS] = config.threat_bonus
    params[threats.P_SEED] = seed


STOOD_STILL_S = 2.0  # the clock thread waits 3 ms: a poll this late means the process did not run


class _Clock:
    """Sets the search's stop flag at the deadline or as soon as the caller's flag is set.

    Its time (`now`) is the search's running time: perf_counter's seconds less any stretch in
    which this process did not run at all (stopped with Ctrl-Z, a sleep the system clock
    counts). The game's clocks leave such a stretch out too, so the search resumes with the
    time it had instead of returning a shallow move."""

    def __init__(self, flag: np.ndarray, deadline: float, outer: StopFlag | None) -> None:
        self._flag = flag
        self._deadline = deadline
        self._outer = outer
        self._lock = threading.Lock()
        self._seen = time.perf_counter()  # the last time this process was seen running
        self._stood_still = 0.0  # seconds left out so far
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="engine-clock", daemon=True)
        self._thread.start()

    def now(self) -> float:
        """perf_counter's seconds less the stretches this process stood still."""
        with self._lock:
            wall = time.perf_counter()
            if wall - self._seen > STOOD_STILL_S:
                self._stood_still += wall - self._seen
            self._seen = wall
            return wall - self._stood_still

    def restart(self, deadline: float) -> None:
        """Clear the stop flag (unless the caller's is set) and watch a new deadline."""
        self.close()
        if self._outer is not None and self._outer.is_set():
            return
        self._flag[0] = 0
        self._deadline = deadline
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="engine-clock", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._done.is_set():
            now = self.now()
            if now >= self._deadline or (self._outer is not None and self._outer.is_set()):
                self._flag[0] = 1
                return
            self._done.wait(min(0.003, self._deadline - now))

    def close(self) -> None:
        self._done.set()
        self._thread.join()


WARM_TASKS = ("tables", "shared", "core", "analysis", "vcf", "ordering", "easy", "threats",
              "search", "hard")
"""The parts of the engine to compile (or load), each after the parts it calls into."""
_SEARCHES_NEED = ("shared", "core", "analysis", "vcf")
LEVEL_TASKS = {Level.EASY: ("tables", "easy"),
               Level.MEDIUM: ("tables", *_SEARCHES_NEED, "ordering", "threats", "search"),
               Level.HARD: ("tables", *_SEARCHES_NEED, "ordering", "threats", "search", "hard")}
"""The parts each level searches with (the searching levels never use easy's greedy scorer)."""
TASK_NEEDS = {"analysis": ("core",), "vcf": ("shared", "core"), "ordering": ("shared",),
              "easy": ("core", "analysis"), "threats": _SEARCHES_NEED,
              "search": (*_SEARCHES_NEED, "ordering"), "hard": _SEARCHES_NEED}
"""The parts each part calls into: a process compiling a part without one of its needs itself
waits for another to have it in the cache, rather than compiling it a second time at once."""
_warmed: set[str] = set()


def warm_task(name: str) -> None:
    """Compile (or load from the cache) one part of the engine: each compiled entry point is
    called once with the argument types `think` uses, so no call compiles anything later.

    Every part builds the pattern tables first. Safe from any thread; a part already done
    returns at once. Raises KeyError for an unknown part.
    """
    run = _TASK_RUNNERS[name]
    with _warm_lock:
        if name in _warmed:
            return
        bd, sr, grid = _warm_state()
        run(bd, sr, grid)
        _warmed.add(name)
        if _warmed.issuperset(WARM_TASKS):
            _ready.set()


def level_ready(level: Level) -> bool:
    """True once every part `level` needs is compiled or loaded in this process."""
    return _ready.is_set() or _warmed.issuperset(LEVEL_TASKS[level])


def warm_up() -> None:
    """Compile (or load from the cache) every numba function, so the first move is fast.

    Safe to call from any thread, any number of times; later calls return at once.
    """
    for name in WARM_TASKS:
        warm_task(name)


def _warm_state() -> tuple:
    """A middle-game position (state and search tables) to call the compiled functions on."""
    grid = np.zeros((15, 15), dtype=np.int8)
    for x, y, c in ((7, 7, 1), (8, 7, 2), (8, 8, 1), (6, 6, 2), (9, 9, 1), (7, 8, 2)):
        grid[y, x] = c
    bd = state.new_state(grid, int(Color.BLACK), patterns.RULE_FREESTYLE,
                         pattern_tables(Rule.FREESTYLE))
    sr = threats.new_search_tables(12, bd[0].shape[0])
    _reset(sr, LEVELS[Level.HARD], 1)
    return bd, sr, grid


def _warm_tables(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    for rule in Rule:
        pattern_tables(rule)
    for level in LEVELS:  # (built at a first move, they took 10-40 ms of its time)
        evaluation(level)


def _warm_shared(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    # The small callees the main search and the threat searches share, none calling another.
    # The threat searches' child compiles them first; the main search's child (the longest)
    # then finds them in the cache when it gets to them, instead of compiling them too.
    # The argument types are the ones their callers pass (a different type would compile anew).
    tables, search_tables = numba.typeof(bd), numba.typeof(sr)
    row, i64, u64 = numba.typeof(sr[13][0]), numba.int64, numba.uint64
    keys, data = numba.typeof(sr[0]), numba.typeof(sr[1])  # the transposition table
    moves, scores, flags = (numba.typeof(sr[k][0]) for k in (2, 3, 4))  # a ply's candidates
    for function, signature in (
        (threats.double_threat_wins, (tables, row)),
        (search._tt_probe, (keys, data, u64, i64)),
        (search._noise, (search_tables, u64)),
        (threats._fail_probe, (search_tables, u64, i64)),
        (threats.sorted_moves, (moves, scores, flags, i64, i64, row, row, i64)),
        (threats.five_cells_through, (tables, i64, i64)),
        (threats._fail_store, (search_tables, u64, i64)),
        (search._to_front, (row, row, i64, i64, i64)),
        (search._tt_store, (keys, data, u64, i64, i64, i64, i64, i64)),
    ):
        function.compile(signature)


def _warm_core(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    # Moves on the board and renju's forbidden points: what everything else calls.
    tables, search_tables, i64 = numba.typeof(bd), numba.typeof(sr), numba.int64
    threats.poll.compile((search_tables,))
    state.make.compile((tables, i64))
    threats.is_forbidden.compile((tables, i64, i64))  # and unmake, which it calls


def _warm_analysis(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    # The analysis of a position; another process compiles the VCF meanwhile (neither calls
    # the other), so the main search's chain of compiles is shorter by this one.
    threats.analyse.compile((numba.typeof(bd), numba.typeof(sr), numba.int64))


def _warm_vcf(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    threats.vcf.compile((numba.typeof(bd), numba.typeof(sr), numba.int64))


def _warm_ordering(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    # The main search's moves at a node: compiled apart, in the other child, so that the main
    # search itself compiles quicker.
    tables, search_tables, i64 = numba.typeof(bd), numba.typeof(sr), numba.int64
    search._node_moves.compile((tables, search_tables, i64, i64, i64))


def _warm_easy(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    _think_easy(bd, sr, grid, int(Color.BLACK), grid.shape[0], time.perf_counter(), 1)


def _warm_root(bd: tuple, sr: tuple) -> tuple[np.ndarray, int]:
    root = np.zeros(threats.MAX_MOVES, dtype=np.int64)
    count, _ = search.root_moves(bd, sr, root, LEVELS[Level.MEDIUM].defend_vcf)
    # With a four to block, root_moves moves the block to the front from Python: these types.
    flags = np.zeros(max(int(count), 1), dtype=np.int64)
    search._to_front(root, flags, np.int64(count), np.int64(root[0]), np.int64(0))
    return root, int(count)


def _warm_threats(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    _warm_root(bd, sr)
    search.threat_win(bd, sr, LEVELS[Level.HARD].root_vcf, LEVELS[Level.HARD].vct_depth)


def _warm_search(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    # Root moves without root_moves: a part compiled in another process need not be here.
    cells = np.flatnonzero(bd[0] == 0)[:8].astype(np.int64)
    root = np.zeros(threats.MAX_MOVES, dtype=np.int64)
    root[: len(cells)] = cells
    count = len(cells)
    scores = np.zeros(count, dtype=np.int64)
    search.root_search(bd, sr, 2, root, scores, count)
    search.principal_variation(bd, sr, int(root[0]), np.zeros(64, dtype=np.int64))
    # (forbidden_points is not warmed: no level uses it, the game marks points by the rules core)


def _warm_hard(bd: tuple, sr: tuple, grid: np.ndarray) -> None:
    cells = np.flatnonzero(bd[0] == 0)[:4].astype(np.int64)
    root = np.zeros(threats.MAX_MOVES, dtype=np.int64)
    root[: len(cells)] = cells
    config = LEVELS[Level.HARD]
    search.stop_opponent_vct(bd, sr, root, len(cells), config.vct_depth, 500)
    search.move_refuted(bd, sr, int(root[0]), config.vct_depth, 2_000)
    _longest_defence(bd, sr, root[: len(cells)], 0.05)


_TASK_RUNNERS: dict[str, Callable[[tuple, tuple, np.ndarray], None]] = {
    "tables": _warm_tables, "shared": _warm_shared, "core": _warm_core,
    "analysis": _warm_analysis, "vcf": _warm_vcf, "ordering": _warm_ordering,
    "easy": _warm_easy, "threats": _warm_threats, "search": _warm_search, "hard": _warm_hard,
}


def forbidden_points(grid: np.ndarray) -> set[Point]:
    """The empty points black may not play on `grid` under renju, by the compiled check."""
    grid = np.ascontiguousarray(grid, dtype=np.int8)
    bd = state.new_state(grid, int(Color.BLACK), patterns.RULE_RENJU, pattern_tables(Rule.RENJU))
    out = np.zeros(grid.size, dtype=np.int64)
    count = threats.forbidden_cells(bd, out)
    return {state.cell_point(int(c), grid.shape[0]) for c in out[:count]}


def _start_background_warm_up() -> None:
    global _warm_thread
    with _tables_lock:
        if _warm_thread is None:
            _warm_thread = threading.Thread(target=warm_up, name="engine-warm-up", daemon=True)
            _warm_thread.start()


def think(
    position: Position,
    level: Level,
    limit: SearchLimit,
    stop: StopFlag | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> SearchResult:
    """Choose a move for `position.to_move`; returns within `limit.time_s` (plus 10%).

    Raises ValueError if the grid is not a square board or has no empty point.
    """
    started = time.perf_counter()
    grid = np.asarray(position.grid)
    if grid.ndim != 2 or grid.shape[0] != grid.shape[1] or not 5 <= grid.shape[0] <= state.MAX_SIZE:
        raise ValueError(f"the engine needs a square board of 5 to {state.MAX_SIZE} points")
    if not (grid == 0).any():
        raise ValueError("no legal move in this position")
    if not (grid != 0).any():
        centre = grid.shape[0] // 2
        return SearchResult(move=(centre, centre), info={"kind": "centre"})
    if not level_ready(level):
        _start_background_warm_up()
        wait = limit.time_s * 0.8 - (time.perf_counter() - started)
        if not _ready.wait(max(wait, 0.0)):
            return stand_in_move(position, started)
    return _think_compiled(position, level, limit, stop, on_progress, started)


def stand_in_move(position: Position, started: float) -> SearchResult:
    """A plain-Python greedy move (a few ms, nothing compiled) for while the engine is prepared.

    Takes a five, else the best window score (renju: never a point forbidden to black); the
    centre on an empty board."""
    grid = np.asarray(position.grid, dtype=np.int8)
    if not grid.any():
        centre = grid.shape[0] // 2
        return SearchResult(move=(centre, centre), info={"kind": "centre"})
    color = int(position.to_move)
    scores = np.zeros(grid.shape, dtype=np.int64)
    easy.window_scores_py(grid, color, easy.OWN_WINDOW, easy.OPP_WINDOW, scores)
    order = np.argsort(-scores, axis=None, kind="stable")
    for flat in order:
        y, x = divmod(int(flat), grid.shape[0])
        if scores[y, x] < 0:
            break
        if position.rule is Rule.RENJU and color == Color.BLACK:
            if core_renju.forbidden_reason(grid, x, y) is not None:
                continue
        return SearchResult(move=(x, y), elapsed_s=time.perf_counter() - started,
                            info={"kind": "fallback"})
    ys, xs = np.nonzero(grid == 0)
    return SearchResult(move=(int(xs[0]), int(ys[0])), info={"kind": "fallback"})


def _think_compiled(position: Position, level: Level, limit: SearchLimit, stop: StopFlag | None,
                    on_progress: Callable[[Progress], None] | None, started: float) -> SearchResult:
    tables = pattern_tables(position.rule)
    grid = np.ascontiguousarray(position.grid, dtype=np.int8)
    bd = state.new_state(grid, int(position.to_move), RULE_CODES[position.rule], tables)
    size = grid.shape[0]
    seed = int(np.uint64(bd[4][0]) & np.uint64(0x7FFFFFFF))
    if level is Level.EASY:
        sr = _search_tables(Level.MEDIUM, bd[0].shape[0])
        _reset(sr, None, seed)
        return _think_easy(bd, sr, grid, int(position.to_move), size, started, seed)
    config = LEVELS[level]
    sr = _search_tables(level, bd[0].shape[0])
    _reset(sr, config, seed)
    # The iterations stop early enough to leave the last check its share of the budget.
    iterations = _shortened(limit, 1.0 - config.final_check_share)
    clock = _Clock(sr[8], started + _deadline_s(iterations), stop)
    try:
        return _think_search(bd, sr, config, iterations, limit, size, started, on_progress, clock)
    finally:
        clock.close()


def _deadline_s(limit: SearchLimit) -> float:
    """When the clock stops the search, in seconds from its start."""
    return max(limit.time_s * DEADLINE_SHARE - OVERHEAD_S, 0.001)


def _shortened(limit: SearchLimit, share: float) -> SearchLimit:
    """`limit` with its time (and target) cut to `share`."""
    if share >= 1.0:
        return limit
    target = None if limit.target_s is None else limit.target_s * share
    return SearchLimit(limit.time_s * share, limit.max_depth, target)


def _think_easy(bd: tuple, sr: tuple, grid: np.ndarray, color: int, size: int, started: float,
                seed: int) -> SearchResult:
    """Greedy: take a five, block a five, else a random one of the best window scores."""
    n, _, _, _ = search.analysis_summary(bd, sr)
    an = sr[5][0]
    elapsed = time.perf_counter() - started
    if an[threats.A_OWN5] >= 0:
        return SearchResult(move=state.cell_point(int(an[threats.A_OWN5]), size), elapsed_s=elapsed,
                            info={"kind": "win"})
    # Only the engine's legal candidates (renju: forbidden points are flagged).
    legal = np.full((size, size), False)
    moves, flags = sr[2][0], sr[4][0]
    for i in range(n):
        if flags[i] & threats.FL_FORBIDDEN:
            continue
        x, y = state.cell_point(int(moves[i]), size)
        legal[y, x] = True
    if an[threats.A_OPP5N] > 0:
        x, y = state.cell_point(int(an[threats.A_OPP5]), size)
        if legal[y, x]:  # a block on a forbidden point is no move: the game is lost anyway
            return SearchResult(move=(x, y), elapsed_s=elapsed, info={"kind": "block"})
    scores = np.zeros((size, size), dtype=np.int64)
    easy.window_scores(grid, color, easy.OWN_WINDOW, easy.OPP_WINDOW, scores)
    if not legal.any():
        legal = grid == 0
    masked = np.where(legal, scores, -1)
    best = masked.max()
    ys, xs = np.nonzero(masked == best)
    pick = np.random.default_rng(seed).integers(len(xs))
    return SearchResult(move=(int(xs[pick]), int(ys[pick])), score=int(best),
                        elapsed_s=time.perf_counter() - started, info={"kind": "greedy"})


def _think_search(bd: tuple, sr: tuple, config: LevelConfig, limit: SearchLimit,
                  whole: SearchLimit, size: int, started: float,
                  on_progress: Callable[[Progress], None] | None, clock: _Clock) -> SearchResult:
    """Forced moves, threat searches, iterative deepening until the clock says stop, then the
    last check. `clock` watches the iterations' deadline (`limit`: `whole` cut by the last
    check's share); the last check gets the rest of `whole`."""
    counters = sr[9]
    # Step 1. Root moves: forced answers come back at once
    root = np.zeros(threats.MAX_MOVES, dtype=np.int64)
    count, kind = search.root_moves(bd, sr, root, config.defend_vcf)
    counters[threats.C_ABORTED] = 0

    def result(move: int, score: int, depth: int, pv: tuple, info: dict) -> SearchResult:
        info.setdefault("seldepth", int(counters[threats.C_SELDEPTH]))
        return SearchResult(move=state.cell_point(int(move), size), score=int(score), depth=depth,
                            pv=pv, nodes=int(counters[threats.C_NODES]),
                            elapsed_s=clock.now() - started, info=info)

    if count == 0:  # nothing legal near the stones: any empty point
        ys, xs = np.nonzero(bd[0].reshape(size + 2 * state.PAD, -1)[state.PAD:-state.PAD,
                                                                      state.PAD:-state.PAD] == 0)
        return SearchResult(move=(int(xs[0]), int(ys[0])), info={"kind": "any"})
    if kind in (1, 2, 3) or count == 1:
        names = {1: "win", 2: "block", 3: "open four"}
        score = 0
        if kind == 2 and sr[5][int(bd[3][state.I_PLY])][threats.A_OPP5N] >= 2:
            score = -(threats.WIN - 2)  # two fives to stop (an open four): the block only delays it
        return result(root[0], score, 0, (state.cell_point(int(root[0]), size),),
                      {"kind": names.get(kind, "only move")})
    defending = kind == 4

    # Step 2. Our own forced wins: continuous fours, then (node-limited) continuous threats.
    # A VCF of ours comes before any threat of theirs; a VCT does not when they have a VCF.
    budget_s = _budget_seconds(whole)
    vct_nodes = min(max(int(config.vct_nodes_per_s * budget_s), 5_000), 400_000)
    counters[threats.C_NODE_LIMIT] = vct_nodes
    score, move = search.threat_win(bd, sr, config.root_vcf, 0 if defending else config.vct_depth)
    limit_hit = counters[threats.C_ABORTED] != 0 and sr[8][0] == 0
    counters[threats.C_NODE_LIMIT] = 0
    counters[threats.C_ABORTED] = 0
    if score > 0 and move >= 0:
        return result(move, score, 0, (state.cell_point(int(move), size),),
                      {"kind": "vcf/vct", "threat_limit_hit": limit_hit})
    if sr[8][0] != 0:  # the clock ran out during the threat search
        return result(root[0], 0, 0, (), {"kind": "ordering"})
    # Step 3. Their continuous threats: keep the moves that stop them, when we can tell.
    if not defending and config.vct_depth > 0 and config.stop_vct:
        count = search.stop_opponent_vct(bd, sr, root, count, config.vct_depth,
                                         max(vct_nodes // 8, 500))
        counters[threats.C_ABORTED] = 0
        if sr[8][0] != 0:
            return result(root[0], 0, 0, (), {"kind": "ordering"})
        if count == 1:
            return result(root[0], 0, 0, (state.cell_point(int(root[0]), size),),
                          {"kind": "stops a VCT"})

    # Step 4. Iterative deepening over the root moves
    scores = np.zeros(count, dtype=np.int64)
    best_move, best_score, best_depth = int(root[0]), 0, 0
    pv: tuple = ()
    max_depth = config.max_depth if limit.max_depth is None else min(config.max_depth, limit.max_depth)
    pv_buffer = np.zeros(64, dtype=np.int64)
    quiet = search.quiet_root_cells(bd, sr) if config.lmr else None
    verified: set[int] = set()  # best moves checked against an opponent VCT
    all_moves = root[:count].copy()  # in order, for the longest defence if every move loses
    lost = False
    kind = "defend" if defending else "search"
    checked = -1  # the move the last check passed (-1: not checked yet)
    depth = 1
    iteration_began = started
    while True:
        time_up = False
        while depth <= max_depth:
            iteration_began = clock.now()
            value = search.root_search(bd, sr, depth, root, scores, count, quiet)
            aborted = counters[threats.C_ABORTED] != 0
            done = int(counters[threats.C_ROOT_DONE])
            if aborted and done == 0:
                time_up = True
                break
            best_index = int(counters[threats.C_ROOT_BEST])
            best_move = int(root[best_index])
            best_score = int(counters[threats.C_ROOT_SCORE]) if aborted else int(value)
            # The best move first next time, the others kept in order.
            if best_index > 0:
                root[: best_index + 1] = np.roll(root[: best_index + 1], 1)
            if aborted:
                time_up = True  # this depth again if the search resumes
                break
            best_depth = depth
            length = search.principal_variation(bd, sr, best_move, pv_buffer)
            pv = tuple(state.cell_point(int(c), size) for c in pv_buffer[:length])
            elapsed = clock.now() - started
            if on_progress is not None:
                on_progress(Progress(depth, best_score, pv, int(counters[threats.C_NODES]), elapsed))
            if abs(best_score) > threats.WIN_MIN and depth >= 2:
                lost = best_score < 0
                break
            # The search's horizon can miss a slow forced win for the opponent: check the move
            # we would play with a deepening VCT, and search again without it if it loses.
            if config.verify_nodes_per_s > 0 and count > 1 and best_move not in verified:
                verified.add(best_move)
                nodes = max(int(config.verify_nodes_per_s * budget_s), 2_000)
                if search.move_refuted(bd, sr, best_move, config.vct_depth, nodes):
                    others = root[:count][root[:count] != best_move]
                    if len(others) == 1 and int(others[0]) not in verified:
                        verified.add(int(others[0]))
                        if search.move_refuted(bd, sr, int(others[0]), config.vct_depth, nodes):
                            others = others[:0]
                    if len(others) == 0:  # every move loses to a VCT
                        lost = True
                        break
                    count = len(others)
                    root[:count] = others
                    best_move = int(root[0])
                    if sr[8][0] != 0:
                        time_up = True
                        break
                    continue  # the same depth again, without the losing move
            depth += 1
            now = clock.now()
            if sr[8][0] != 0 or not _time_for_another(limit, config, started, iteration_began, now):
                time_up = True
                break
        # Step 5. The last check: a deep VCT check of the move to play, on the time kept for it.
        # When it passes the move at once (most moves: nothing to find), the iterations resume
        # on the rest of the budget; a best move they find after that has had the usual checks.
        if config.final_check_share <= 0 or checked >= 0:
            break
        clock.restart(started + _deadline_s(whole))
        if lost or abs(best_score) > threats.WIN_MIN:
            break
        checked = _final_check(bd, sr, config, whole, best_move, root[:count])
        if checked != best_move:
            best_move, kind = checked, "last check"
            break
        if not time_up or depth > max_depth or sr[8][0] != 0:
            break
        # Resume only if another iteration may start on the whole budget: under a match clock
        # past the target, the time is worth more on later moves.
        if not _time_for_another(whole, config, started, iteration_began, clock.now()):
            break
        limit = whole
    if lost and sr[8][0] == 0:
        resisting, their_win = _longest_defence(bd, sr, all_moves, budget_s)
        if resisting >= 0:
            best_move, kind, best_depth = resisting, "longest defence", max(best_depth, 1)
            if their_win > 0:  # the loss, as far away as the opponent's shortest win found
                best_score = -their_win
    if not pv or pv[0] != state.cell_point(best_move, size):
        pv = (state.cell_point(best_move, size),)
    return result(best_move, best_score, best_depth, pv, {"kind": kind})


def _budget_seconds(whole: SearchLimit) -> float:
    """The seconds the threat checks' node budgets are counted on (see DEPTH_LIMITED_BUDGET_S)."""
    return whole.time_s if whole.max_depth is None else DEPTH_LIMITED_BUDGET_S


def _time_for_another(limit: SearchLimit, config: LevelConfig, started: float,
                      iteration_began: float, now: float) -> bool:
    """True if a deeper iteration may start `now` (times on the search clock)."""
    if limit.target_s is None:  # a turn's time cannot be saved: a cut-off iteration may still help
        return now - started <= limit.time_s * config.next_depth_share
    # Under a match clock, time saved here goes to later moves.
    return (now - started < limit.target_s
            and now - started + (now - iteration_began) * ITERATION_GROWTH <= _deadline_s(limit))


FINAL_CHECK_MOVES = 6  # root moves the last check may try, the search's best first


def _final_check(bd: tuple, sr: tuple, config: LevelConfig, whole: SearchLimit, best_move: int,
                 moves: np.ndarray) -> int:
    """The move to play: `best_move` unless a deep VCT check shows it loses; then the first of
    the next root `moves` (in order) the check does not refute; `best_move` if all of them lose.

    The iterations check each new best move with a tenth of this budget. Of 40 games hard lost
    to Rapfi at 1 s, 15 were lost by a move after which the opponent had a VCT that check
    missed; this one finds 12 of those. A check the clock cuts short leaves its move
    unrefuted: it is played.
    """
    time_s = _budget_seconds(whole)
    if whole.target_s is not None and whole.max_depth is None:
        time_s = whole.target_s  # under a match clock: what the move should take
    nodes = max(int(config.final_check_nodes_per_s * time_s), 2_000)
    candidates = [best_move] + [int(m) for m in moves if int(m) != best_move]
    for move in candidates[:FINAL_CHECK_MOVES]:
        if sr[8][0] != 0 or not search.move_refuted(bd, sr, move, config.vct_depth, nodes):
            return move
    return best_move  # every move tried loses: the search's choice stands


RESIST_MOVES = 24  # the best-ordered root moves tried for the longest defence
RESIST_DEPTH = 7  # attacker threats of the opponent's VCT after each of them
RESIST_NODES_PER_S = 20_000  # VCT nodes per move tried, per second of the move's budget


def _longest_defence(bd: tuple, sr: tuple, moves: np.ndarray, time_s: float) -> tuple[int, int]:
    """(move, score): of `moves` (best first), the one after which the opponent's quickest
    forced win found is the longest, with that win's score (WIN - plies from the root; 0 if
    none is found: that move is best); (-1, 0) if the clock ran out first.

    Every move loses, so the search's scores cannot tell them apart: a double threat counts
    as a win five plies away however many fours the defender can put in between. This asks
    the opponent's deepening VCT, which finds the shortest win first.
    """
    nodes = max(int(RESIST_NODES_PER_S * time_s), 2_000)
    best_move, best_win = -1, threats.WIN + 1
    for move in moves[:RESIST_MOVES]:
        state.make(bd, int(move))
        found = int(search.vct_deepening(bd, sr, int(bd[3][state.I_SIDE]), RESIST_DEPTH, nodes))
        state.unmake(bd)
        if sr[8][0] != 0:  # the clock: this answer is not to be trusted
            break
        if found < best_win:  # a higher win score is a quicker win
            best_move, best_win = int(move), found
        if found <= 0:
            break  # no win found after this move: it cannot be beaten here
    return (best_move, best_win) if best_move >= 0 else (-1, 0)
