"""Position analysis, the renju forbidden check, and the threat searches (VCF and VCT).

Every function here is compiled and takes the board state tuple `bd` (see state.py) and the
search tables tuple `sr` (see `new_search_tables`).

The search-time functions compile with `_nrt=False` (no numba reference counting): otherwise each
call increments and decrements every array of `bd` and `sr` atomically, some 40% of the search's
time. They must not allocate (numba refuses to compile it); the per-ply buffers live in `sr`.

A compiled call copies every array of its tuple arguments onto the stack (some 200 words for
`bd` and `sr`), and such copies at the start of each node were erratically slow (the same code
ran 30% slower or faster as arrays were added). So `analyse`, `sorted_moves` and the small
helpers taking `sr` are inlined into their callers; the recursive searches and make/unmake
(large, called from many places) stay calls. LLVM does the inlining (`forceinline=True`), not
numba (`inline='always'`, which types the helper's body again at every call site, and inside a
recursive search again for each recursive call: most of the first launch's compile time).
A callee inherits `forceinline` from its caller, so `is_forbidden` (called by `analyse`) turns
it off. Functions called only from compiled code have no Python entry point
(`no_cpython_wrapper=True`): less code to build, in them and in every function that links them.
"""

from __future__ import annotations

import base64
import functools

import numpy as np
from numba import config
from numba.cpython.unsafe.numbers import trailing_zeros  # count trailing zeros (tzcnt)

from gomoku.engine.jit import njit
from gomoku.engine.patterns import (
    B2,
    B4,
    F3,
    F4,
    F5,
    N_CODES,
    OVERLINE,
    RULE_RENJU,
    key_bit,
)
from gomoku.engine.state import I_PLY, I_RULE, I_SIDE, I_SIZE, I_STRIDE, MAX_PLY, PAD, make, unmake

WIN = 30000
WIN_MIN = WIN - 1000  # scores beyond this are forced wins (WIN - plies to the five)

# Threat classes of a cell for one colour, weakest first.
TC_NONE = 0
TC_THREE = 1  # one open three
TC_FOUR = 2  # one four, no open three
TC_DOUBLE3 = 3  # two open threes
TC_FOUR3 = 4  # a four and an open three
TC_FLEX4 = 5  # an open four or two fours: wins unless the opponent has a five
TC_FIVE = 6

# Per-line pattern scores (for move ordering and evaluation), indexed by pattern code.
PATTERN_SCORE = np.array([0, 1, 3, 5, 14, 16, 60, 55, 300, 2000, 0, 0], dtype=np.int64)
THREAT_BONUS = np.array([0, 0, 0, 250, 400, 1500, 8000], dtype=np.int64)
assert PATTERN_SCORE.shape[0] == N_CODES

# A cell's threat entry for one colour: THREAT_TABLE at the word of its four pattern codes, so
# analyse reads one number per cell and colour instead of classifying four lines each time.
T_VALUE = 0xFFFF  # bits 0-15: the ordering value (pattern scores plus the threat bonus)
T_CLASS_SHIFT = 16  # bits 16-18: the threat class
T_MAYBE_FORBIDDEN = 1 << 19  # renju black: maybe forbidden (overline, two fours or threes)
T_FOUR = 1 << 20  # makes a four or better (renju black: or an overline)
T_THREE = 1 << 21  # makes one or two open threes and no four
T_STRONG = 1 << 22  # a double three or better (the classes with a threat bonus)

# Per-candidate flags in `sr` move buffers. Typed ints, as is the mask FL_ANY: numba compiles
# a function again for each literal value an argument takes (sorted_moves' mask).
FL_ANY = np.int64(0)  # as a mask: every candidate
FL_OWN_FOUR = np.int64(1)  # the side to move makes a four (or better) here
FL_OPP_FOUR = np.int64(2)  # the opponent would make a four (or better) here
FL_OWN_THREE = np.int64(4)  # the side to move makes an open three (or better) here
FL_FORBIDDEN = np.int64(8)  # renju: the side to move is black and may not play here
FL_OPP_THREE = np.int64(16)  # the opponent would make an open three here

# Slots of the per-ply analysis row `an[ply]`.
A_N = 0  # candidates found
A_OWN5 = 1  # a cell where the side to move makes five, or -1
A_OPP5N = 2  # how many cells give the opponent a five
A_OPP5 = 3  # one of them, or -1
A_OWNF4 = 4  # a (legal) cell where the side to move makes an open four / double four, or -1
A_OPPF4N = 5  # how many cells give the opponent an open four or a double four
A_OWN4N = 6  # how many cells give the side to move a four
A_EVAL = 7  # static evaluation for the side to move
A_BEST = 8  # the move a threat search found at this ply
A_OWN3N = 9  # how many cells give the side to move an open three
A_OPP4N = 10  # how many cells give the opponent a four (or better)
A_OWN_DOUBLE = 11  # a legal cell where the side to move makes a four-three or a double three
N_ANALYSIS = 12

MAX_MOVES = 512
ALL_MOVES = np.int64(MAX_MOVES)  # sorted_moves' limit that keeps every move (typed: see FL_ANY)

# Slots of `cnt` (counters) and `params`.
C_NODES = 0
C_ABORTED = 1
C_SELDEPTH = 2
C_VCF_NODES = 3
C_ROOT_BEST = 4
C_ROOT_SCORE = 5
C_ROOT_DONE = 6
C_NODE_LIMIT = 7  # stop when nodes reach this (0: no limit)

P_WIDTH = 0  # moves tried at a quiet node
P_VCF_LEAF = 1  # attacker moves a leaf VCF may use (0: none)
P_LMR = 2  # 1: late move reductions
P_VCT_WIDTH = 3  # attacker moves tried at a VCT node
P_EVAL_NOISE = 4  # medium: +-noise added to leaf evaluations (0: none)
P_SEED = 5
P_FUTILITY = 9  # a quiet node's evaluation this much per ply above beta fails high at once (0: off)
P_SINGULAR = 10  # singular extensions of the hash move from this depth on (0: off)
P_HIDDEN = 11  # 1: the trained evaluation's hidden layer adds its correction (hard)
P_THREAT_BONUS = 12  # ordering bonus of a move that makes our four or open three (hard)
N_PARAMS = 16

VCT_SALT = np.uint64(0x9E3779B97F4A7C15)

if config.DISABLE_JIT:  # numba's intrinsic has no plain-Python form (tools/bench.py section 4)

    def trailing_zeros(bits: np.uint64) -> int:
        return (int(bits) & -int(bits)).bit_length() - 1


def new_search_tables(tt_bits: int, n_cells: int, evaluation: np.ndarray | None = None) -> tuple:
    """Fresh search tables: a 2**tt_bits-entry transposition table (16 bytes an entry), buffers,
    the level's `evaluation` table (`evaluation_table`; by default the hand-set one), and the
    trained evaluation's hidden layer (`hidden_layer`; used where params[P_HIDDEN] is set)."""
    tt_keys = np.zeros(1 << tt_bits, dtype=np.uint64)
    tt_data = np.zeros(1 << tt_bits, dtype=np.int64)
    moves = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int32)
    scores = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int32)
    flags = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int8)
    analysis = np.zeros((MAX_PLY + 1, N_ANALYSIS), dtype=np.int64)
    history = np.zeros((2, n_cells), dtype=np.int32)
    killers = np.full((MAX_PLY + 1, 2), -1, dtype=np.int32)
    stop = np.zeros(1, dtype=np.int64)
    counters = np.zeros(8, dtype=np.int64)
    params = np.zeros(N_PARAMS, dtype=np.int64)
    fail_keys = np.zeros(1 << 18, dtype=np.uint64)
    fail_depth = np.zeros(1 << 18, dtype=np.int64)
    order = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)  # each ply's moves to search
    order_flags = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
    rows, embed, head = hidden_layer()
    units = np.zeros(head.shape[1], dtype=np.float32)  # analyse's sums, one per hidden unit
    # The tables go in by reference: as globals, numba would copy them into each function.
    return (tt_keys, tt_data, moves, scores, flags, analysis, history, killers, stop, counters,
            params, fail_keys, fail_depth, order, order_flags, THREAT_TABLE,
            # C-ordered int32 always: another layout is another type, and numba would compile
            # every search again at the first move (the trained table came out Fortran-ordered).
            np.ascontiguousarray(HAND_SET_EVALUATION if evaluation is None else evaluation,
                                 dtype=np.int32),
            rows, embed, head, units)


@njit(nogil=True, cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True)
def poll(sr: tuple) -> bool:
    """Count a node; True once the search must unwind (stop flag or node limit)."""
    counters = sr[9]
    counters[C_NODES] += 1
    if counters[C_ABORTED] != 0:
        return True
    if (counters[C_NODES] & 1023) == 0:
        if sr[8][0] != 0 or (counters[C_NODE_LIMIT] > 0 and counters[C_NODES] >= counters[C_NODE_LIMIT]):
            counters[C_ABORTED] = 1
            return True
    return False


def _threat_table() -> np.ndarray:
    """The threat entry (T_* fields) of every word of four packed pattern codes (state.py)."""
    word = np.arange(1 << 16, dtype=np.int64)
    lines = [(word >> (4 * d)) & 15 for d in range(4)]
    lines = [np.where(code < N_CODES, code, 0) for code in lines]  # words no board makes
    score = sum(PATTERN_SCORE[code] for code in lines)
    n5, nf4, nb4, nf3 = (sum((code == kind).astype(np.int64) for code in lines)
                         for kind in (F5, F4, B4, F3))
    bad = sum((code >= OVERLINE).astype(np.int64) for code in lines) > 0
    tc = np.select(
        [n5 > 0, (nf4 > 0) | (nb4 >= 2), (nb4 > 0) & (nf3 > 0), nb4 > 0, nf3 >= 2, nf3 > 0],
        [TC_FIVE, TC_FLEX4, TC_FOUR3, TC_FOUR, TC_DOUBLE3, TC_THREE], TC_NONE)
    maybe_forbidden = (n5 == 0) & (bad | (nf4 + nb4 >= 2) | (nf3 >= 2))
    makes_four = (n5 + nf4 + nb4 > 0) | (bad & (n5 == 0))
    three = (tc == TC_THREE) | (tc == TC_DOUBLE3)
    entry = (score + THREAT_BONUS[tc]) | (tc << T_CLASS_SHIFT)
    entry |= np.where(maybe_forbidden, T_MAYBE_FORBIDDEN, 0) | np.where(makes_four, T_FOUR, 0)
    entry |= np.where(three, T_THREE, 0) | np.where(tc >= TC_DOUBLE3, T_STRONG, 0)
    return entry.astype(np.int32)


THREAT_TABLE = _threat_table()


EVAL_SCALE = 8  # the tables hold eighths of evaluation units (the hand-set weights are eighths)


def combo_keys() -> np.ndarray:
    """Per word of four packed pattern codes: its codes sorted (the line order does not matter),
    as a base-N_CODES number, the key of a trained value (`combo_key`)."""
    word = np.arange(1 << 16, dtype=np.int64)
    lines = [(word >> (4 * d)) & 15 for d in range(4)]
    lines = np.sort(np.stack([np.where(code < N_CODES, code, 0) for code in lines]), axis=0)
    index = np.zeros(word.shape[0], dtype=np.int64)
    for d in range(4):
        index = index * N_CODES + lines[d]
    return index


def combo_key(combo: tuple[int, int, int, int]) -> int:
    """The key of four pattern codes given in ascending order (as eval_weights lists them)."""
    key = 0
    for code in combo:
        key = key * N_CODES + code
    return key


def evaluation_table(own_weight: int = 12, opp_weight: int = 10, opp_bonus: int = 100,
                     trained: bool = False) -> np.ndarray:
    """int32 [4, 2**16], by the word of a cell's four pattern codes: its value (in eighths) for
    the side to move (row 0) and, counted against it, for the opponent (row 1); and its move
    ordering score for the side to move (row 2) and the opponent (row 3). The evaluation is the
    sum of the values over the candidate cells; a cell's ordering score is the sum of its two
    (see `analyse`).

    Hand-set: the cell's pattern scores plus its threat bonus, weighted `own_weight` and
    `opp_weight` eighths, with only `opp_bonus` percent of the opponent's threat bonus; the
    ordering is 4 and 3 times the pattern scores. Trained: eval_weights.py (tools/train_eval.py)
    and order_weights.py (tools/train_order.py), by the cell's codes sorted (any line order)."""
    entry = THREAT_TABLE.astype(np.int64)
    if not trained:
        bonus = THREAT_BONUS[(entry >> T_CLASS_SHIFT) & 7]
        value = entry & T_VALUE
        return np.stack([value * own_weight,
                         (value + bonus * opp_bonus // 100 - bonus) * opp_weight,
                         value * 4, value * 3]).astype(np.int32)
    from gomoku.engine import eval_weights, order_weights

    index = combo_keys()
    values = _by_word(eval_weights.WEIGHTS, index) * EVAL_SCALE
    return np.concatenate([values, _by_word(order_weights.WEIGHTS, index)]).astype(np.int32)


def _by_word(weights: dict[tuple[int, int, int, int], tuple[int, int]], index: np.ndarray) -> np.ndarray:
    """int64 [2, 2**16]: a trained weights module's (own, opponent) values by pattern word."""
    by_key = np.zeros((2, N_CODES ** 4), dtype=np.int64)
    for combo, (v_own, v_opp) in weights.items():
        by_key[:, combo_key(combo)] = v_own, v_opp
    return by_key[:, index]


HAND_SET_EVALUATION = evaluation_table()


def hidden_inputs(module=None) -> dict[tuple[int, ...], np.ndarray]:
    """The hidden layer's inputs by combination (4 sorted pattern codes): float32 [2, units],
    for the side to move and for the opponent, unpacked from `module` (eval_hidden)."""
    if module is None:
        from gomoku.engine import eval_hidden as module
    combos = np.frombuffer(base64.b64decode(module.COMBOS), dtype=np.uint8).reshape(-1, 4)
    inputs = np.frombuffer(base64.b64decode(module.INPUTS), dtype="<f4")
    inputs = inputs.reshape(2, len(combos), module.UNITS).astype(np.float32)
    return {tuple(int(c) for c in combo): inputs[:, i] for i, combo in enumerate(combos)}


@functools.cache
def hidden_layer() -> tuple:
    """The trained evaluation's hidden layer (eval_hidden.py, from tools/train_eval.py hidden)
    as `analyse` reads it: int32 [2**16], the row of each pattern word's sorted codes (0: a
    combination the fit never saw, worth nothing); float32 [2, rows, units], each row's inputs to
    the hidden units, for the side to move (added) and the opponent (subtracted); float32
    [3, units], the units' biases, their output weights in evaluation units, and (at [2, 0]) the
    layer's mean output over the training positions, taken off so it adds no constant."""
    from gomoku.engine import eval_hidden

    by_combo = hidden_inputs(eval_hidden)
    row_of_key = np.zeros(N_CODES ** 4, dtype=np.int32)
    embed = np.zeros((2, len(by_combo) + 1, eval_hidden.UNITS), dtype=np.float32)
    for row, (combo, inputs) in enumerate(by_combo.items(), 1):
        row_of_key[combo_key(combo)] = row
        embed[:, row] = inputs
    head = np.zeros((3, eval_hidden.UNITS), dtype=np.float32)
    head[0], head[1], head[2, 0] = eval_hidden.BIAS, eval_hidden.OUT, eval_hidden.OFFSET
    return np.ascontiguousarray(row_of_key[combo_keys()]), embed, head


@njit(nogil=True, cache=True, _nrt=False, forceinline=False, no_cpython_wrapper=True)
def is_forbidden(bd: tuple, p: int, depth: int) -> bool:
    """Renju: True if black may not play the empty cell p (overline, double four, double three).

    A five is never forbidden. An open three counts only if some point makes it a straight four
    that is itself not forbidden (checked recursively, RIF 9.3), to a depth of 4.
    """
    cells, keys, near, info, hashes, stack, tables, zobrist, dirs, codes, cand = bd
    row = tables[0]
    n5 = 0
    fours = 0
    threes = 0
    bad = False
    for d in range(4):
        code = row[keys[d, p]]
        if code == F5:
            n5 += 1
        elif code == F4 or code == B4:
            fours += 1
        elif code == F3:
            threes += 1
        elif code >= OVERLINE:
            bad = True
    if n5 > 0:
        return False
    if bad or fours >= 2:
        return True
    if threes < 2:
        return False
    if depth >= 4:
        return True
    # Step 1. Place the stone and count the open threes that can become a legal straight four.
    saved_side = info[I_SIDE]
    info[I_SIDE] = 1
    make(bd, p)
    real = 0
    for d in range(4):
        # Only the lines where p makes an open three (p's own key does not include p).
        if row[keys[d, p]] != F3:
            continue
        step = dirs[d]
        found = False
        for k in range(-4, 5):
            if k == 0 or found:
                continue
            q = p + k * step
            if cells[q] != 0:
                continue
            if row[keys[d, q]] != F4:
                continue
            # The straight four must use the stone at p (p sits at offset -k from q).
            if row[keys[d, q] - (1 << key_bit(-k))] == F4:
                continue
            if not is_forbidden(bd, q, depth + 1):
                found = True
        if found:
            real += 1
    unmake(bd)
    info[I_SIDE] = saved_side
    return real >= 2


@njit(nogil=True, cache=True, _nrt=False, forceinline=True)
def analyse(bd: tuple, sr: tuple, ply: int) -> int:
    """Scan every candidate cell for both colours; fill the move buffers and `an[ply]`.

    Returns the number of candidates (empty cells near a stone; the centre on an empty board).
    """
    cells, keys, near, info, hashes, stack, tables, zobrist, dirs, codes, cand = bd
    moves = sr[2][ply]
    scores = sr[3][ply]
    flags = sr[4][ply]
    an = sr[5][ply]
    history = sr[6]
    me = info[I_SIDE]
    opp = 3 - me
    size = info[I_SIZE]
    stride = info[I_STRIDE]
    renju = info[I_RULE] == RULE_RENJU
    threat = sr[15]
    evaluation = sr[16]
    hidden = sr[10][P_HIDDEN] != 0
    threat_bonus = sr[10][P_THREAT_BONUS]
    rows = sr[17]
    embed = sr[18]
    units = sr[20]
    if hidden:
        units[:] = 0.0
    own5 = -1
    opp5n = 0
    opp5 = -1
    ownf4 = -1
    oppf4n = 0
    own4n = 0
    own3n = 0
    opp4n = 0
    own_double = -1
    own_sum = 0
    opp_sum = 0
    n = 0
    for w in range(cand.shape[0]):
        bits = cand[w]
        while bits != 0:  # the candidates in index order, as a scan of the board would see them
            p = w * 64 + np.int64(trailing_zeros(bits))
            bits &= bits - np.uint64(1)
            e_me = threat[codes[me - 1, p]]
            e_op = threat[codes[opp - 1, p]]
            flag = 0
            if renju and ((e_me | e_op) & T_MAYBE_FORBIDDEN) != 0:
                # A forbidden point counts as no threat for black.
                if me == 1 and (e_me & T_MAYBE_FORBIDDEN) != 0 and is_forbidden(bd, p, np.int64(0)):
                    flag = FL_FORBIDDEN
                    e_me = 0
                if opp == 1 and (e_op & T_MAYBE_FORBIDDEN) != 0 and is_forbidden(bd, p, np.int64(0)):
                    e_op = 0
            if (e_me & T_FOUR) != 0:
                flag |= FL_OWN_FOUR
                own4n += 1
            if (e_op & T_FOUR) != 0:
                flag |= FL_OPP_FOUR
                opp4n += 1
            if (e_me & T_THREE) != 0:
                flag |= FL_OWN_THREE
                own3n += 1
            if (e_op & T_THREE) != 0:
                flag |= FL_OPP_THREE
            order = 0
            if hidden:  # every candidate cell feeds the hidden units, as in the fit
                own_row = rows[codes[me - 1, p]]
                opp_row = rows[codes[opp - 1, p]]
                # A point forbidden to black (its entry zeroed above) is worth nothing to black.
                if e_me == 0 and codes[me - 1, p] != 0:
                    own_row = 0
                if e_op == 0 and codes[opp - 1, p] != 0:
                    opp_row = 0
                for k in range(units.shape[0]):
                    units[k] += embed[0, own_row, k] - embed[1, opp_row, k]
            if e_me != 0:  # (an entry of 0: a forbidden point, or no pattern at all: worth nothing)
                own_sum += evaluation[0, codes[me - 1, p]]
                order += evaluation[2, codes[me - 1, p]]
            if e_op != 0:
                opp_sum += evaluation[1, codes[opp - 1, p]]
                order += evaluation[3, codes[opp - 1, p]]
            if ((e_me | e_op) & T_STRONG) != 0:  # rare: fives, open fours, double threats
                tc_me = e_me >> T_CLASS_SHIFT & 7
                tc_op = e_op >> T_CLASS_SHIFT & 7
                if tc_me == TC_FIVE:
                    own5 = p
                if tc_op == TC_FIVE:
                    opp5n += 1
                    opp5 = p
                if tc_me == TC_FLEX4 and ownf4 < 0:
                    ownf4 = p
                if tc_op == TC_FLEX4:
                    oppf4n += 1
                if (tc_me == TC_FOUR3 or tc_me == TC_DOUBLE3) and own_double < 0:
                    own_double = p
            moves[n] = p
            # The level's ordering scores (hand-set: attack a little ahead of defence); history
            # breaks ties between quiet moves. Hard moves our fours and open threes up: trained
            # on a strong engine's moves, which seldom spend a threat, the scores rank them low,
            # yet inside a search they are what refutes a move most often.
            scores[n] = order + min(history[me - 1, p], 50)
            if (flag & (FL_OWN_FOUR | FL_OWN_THREE)) != 0:
                scores[n] += threat_bonus
            flags[n] = flag
            n += 1
    if n == 0 and info[5] == 0:
        centre = (size // 2 + PAD) * stride + size // 2 + PAD
        moves[0] = centre
        scores[0] = 0
        flags[0] = 0
        n = 1
    an[A_N] = n
    an[A_OWN5] = own5
    an[A_OPP5N] = opp5n
    an[A_OPP5] = opp5
    an[A_OWNF4] = ownf4
    an[A_OPPF4N] = oppf4n
    an[A_OWN4N] = own4n
    an[A_OWN3N] = own3n
    an[A_OPP4N] = opp4n
    an[A_OWN_DOUBLE] = own_double
    value = (own_sum - opp_sum) // EVAL_SCALE
    if hidden:
        # The hidden layer: the sum of its units' outputs (rectified), less their mean.
        head = sr[19]
        correction = -head[2, 0]
        for k in range(units.shape[0]):
            unit = units[k] + head[0, k]
            if unit > 0.0:
                correction += unit * head[1, k]
        value += np.int64(correction)
    an[A_EVAL] = value
    an[A_BEST] = -1
    return n


@njit(nogil=True, cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True)
def analyse_fours(bd: tuple, sr: tuple, ply: int) -> int:
    """`analyse` for the VCF: only the fives and fours, no evaluation (most of a search's nodes
    are VCF nodes, and the evaluation's table reads most of a scan). The move buffers hold only
    the side to move's legal four cells, ordered by their threat value; `an` gets A_N (their
    count), A_OWN5, A_OPP5N, A_OPP5, A_OWNF4 and A_OWN4N; returns the count."""
    cells, keys, near, info, hashes, stack, tables, zobrist, dirs, codes, cand = bd
    moves = sr[2][ply]
    scores = sr[3][ply]
    flags = sr[4][ply]
    an = sr[5][ply]
    me = info[I_SIDE]
    opp = 3 - me
    black_renju = me == 1 and info[I_RULE] == RULE_RENJU
    threat = sr[15]
    own5 = -1
    opp5n = 0
    opp5 = -1
    ownf4 = -1
    n = 0
    for w in range(cand.shape[0]):
        bits = cand[w]
        while bits != 0:
            p = w * 64 + np.int64(trailing_zeros(bits))
            bits &= bits - np.uint64(1)
            e_op = threat[codes[opp - 1, p]]
            if (e_op >> T_CLASS_SHIFT & 7) == TC_FIVE:  # (a five is never forbidden)
                opp5n += 1
                opp5 = p
            e_me = threat[codes[me - 1, p]]
            if (e_me & T_FOUR) == 0:
                continue
            if black_renju and (e_me & T_MAYBE_FORBIDDEN) != 0 and is_forbidden(bd, p, np.int64(0)):
                continue
            tc_me = e_me >> T_CLASS_SHIFT & 7
            if tc_me == TC_FIVE:
                own5 = p
            elif tc_me == TC_FLEX4 and ownf4 < 0:
                ownf4 = p
            moves[n] = p
            scores[n] = e_me & T_VALUE
            flags[n] = FL_OWN_FOUR
            n += 1
    an[A_N] = n
    an[A_OWN5] = own5
    an[A_OPP5N] = opp5n
    an[A_OPP5] = opp5
    an[A_OWNF4] = ownf4
    an[A_OWN4N] = n
    an[A_BEST] = -1
    return n


@njit(nogil=True, cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True)
def double_threat_wins(bd: tuple, an: np.ndarray) -> bool:
    """True if the side to move wins with a four-three or a double three: the opponent has no
    five to make and no four to interrupt with, so the answer to one threat leaves the other.

    Not used for black under renju, whose follow-up open four may itself be forbidden.
    """
    info = bd[3]
    if an[A_OWN_DOUBLE] < 0 or an[A_OPP5N] != 0 or an[A_OPP4N] != 0:
        return False
    return not (info[I_RULE] == RULE_RENJU and info[I_SIDE] == 1)


@njit(nogil=True, cache=True, _nrt=False, no_cpython_wrapper=True)
def five_cells_through(bd: tuple, color: int, p: int) -> tuple:
    """(count, one cell) of the empty cells on the lines through p where `color` makes five."""
    cells, keys, near, info, hashes, stack, tables, zobrist, dirs, codes, cand = bd
    row = tables[color - 1]
    count = 0
    first = -1
    for d in range(4):
        step = dirs[d]
        for k in range(-4, 5):
            q = p + k * step
            if k == 0 or cells[q] != 0:
                continue
            if row[keys[d, q]] == F5:
                if q != first:
                    count += 1
                if first < 0:
                    first = q
    return count, first


@njit(nogil=True, cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True)
def _fail_probe(sr: tuple, h: np.uint64, depth: int) -> bool:
    fail_keys = sr[11]
    slot = h & np.uint64(fail_keys.shape[0] - 1)
    return fail_keys[slot] == h and sr[12][slot] >= depth


@njit(nogil=True, cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True)
def _fail_store(sr: tuple, h: np.uint64, depth: int) -> None:
    fail_keys = sr[11]
    slot = h & np.uint64(fail_keys.shape[0] - 1)
    fail_keys[slot] = h
    sr[12][slot] = depth


@njit(nogil=True, cache=True, _nrt=False)
def sorted_moves(
    moves: np.ndarray, scores: np.ndarray, flags: np.ndarray, n: int, mask: int, out: np.ndarray,
    out_flags: np.ndarray, limit: int,
) -> int:
    """Copy the candidates of a ply (sr[2][ply], sr[3][ply], sr[4][ply]: the first `n` moves,
    their ordering scores and flags) whose flags meet `mask` (FL_ANY: all) and are not forbidden
    into `out` (their flags into `out_flags`), best ordering score first; returns how many.

    At most `limit` are kept (ALL_MOVES: every one): the first `limit` of the full order (ties
    keep the scan order). `limit` is always given, as a typed int: one compiled version. (The
    rows, not all of sr: the Python wrapper, for the root's moves, unboxes three arrays, not 21.)"""
    # `out` holds candidate indices while sorting, then the moves. Insertion sort by score,
    # descending, stable, into a list of at most `limit` (a quiet node keeps only its best few).
    m = 0
    for i in range(n):
        if (flags[i] & FL_FORBIDDEN) != 0:
            continue
        if mask != 0 and (flags[i] & mask) == 0:
            continue
        score = scores[i]
        if m < limit:
            j = m
            m += 1
        elif score > scores[out[m - 1]]:
            j = m - 1  # the last one drops out
        else:
            continue
        while j > 0 and score > scores[out[j - 1]]:
            out[j] = out[j - 1]
            j -= 1
        out[j] = i
    for i in range(m):
        k = out[i]
        out[i] = moves[k]
        out_flags[i] = flags[k]
    return m


@njit(nogil=True, cache=True, _nrt=False)
def vcf(bd: tuple, sr: tuple, depth: int) -> int:
    """Victory by continuous fours for the side to move: WIN - plies if found, else 0.

    `depth` caps the attacker's fours. The first move of a win is left in an[ply, A_BEST].
    """
    info = bd[3]
    ply = info[I_PLY]
    counters = sr[9]
    counters[C_VCF_NODES] += 1
    if poll(sr) or ply >= MAX_PLY - 8:
        return 0
    n = analyse_fours(bd, sr, ply)
    an = sr[5][ply]
    if an[A_OWN5] >= 0:
        an[A_BEST] = an[A_OWN5]
        return WIN - ply - 1
    if an[A_OPP5N] >= 2:
        return 0
    if an[A_OPP5N] == 0 and an[A_OWNF4] >= 0:
        an[A_BEST] = an[A_OWNF4]
        return WIN - ply - 3
    if depth <= 0 or an[A_OWN4N] == 0:
        return 0
    h = bd[4][ply]
    if _fail_probe(sr, h, depth):
        return 0
    order = sr[13][ply]
    order_flags = sr[14][ply]
    if an[A_OPP5N] == 1:
        # The opponent has a four: only its block can go on, and only if the block is a four.
        block = an[A_OPP5]
        m = 0
        for i in range(n):
            if sr[2][ply][i] == block and (sr[4][ply][i] & FL_OWN_FOUR) != 0 and (
                sr[4][ply][i] & FL_FORBIDDEN
            ) == 0:
                order[0] = block
                m = 1
    else:
        m = sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_OWN_FOUR, order, order_flags,
                         ALL_MOVES)
    me = info[I_SIDE]
    renju = info[I_RULE] == RULE_RENJU
    for i in range(m):
        p = order[i]
        make(bd, p)
        count, block = five_cells_through(bd, me, p)
        if count == 0:
            unmake(bd)
            continue
        if count >= 2 or (renju and me == 2 and is_forbidden(bd, block, np.int64(0))):
            unmake(bd)
            an[A_BEST] = p
            return WIN - ply - 3
        make(bd, block)
        result = vcf(bd, sr, depth - 1)
        unmake(bd)
        unmake(bd)
        if result > 0:
            an[A_BEST] = p
            return result
        if counters[C_ABORTED] != 0:
            return 0
    _fail_store(sr, h, depth)
    return 0


@njit(nogil=True, cache=True, _nrt=False, no_cpython_wrapper=True)
def _supported_threats(bd: tuple, sr: tuple, me: int, order: np.ndarray, m: int, width: int) -> int:
    """Keep (in order, at most `width`) the attacker moves of a VCT node: double threats, and a
    lone four or three only with a two or better on another line to build on next."""
    codes = bd[9]
    k = 0
    for i in range(m):
        p = order[i]
        keep = (sr[15][codes[me - 1, p]] & T_STRONG) != 0
        for d in range(4):
            code = (codes[me - 1, p] >> (4 * d)) & 15
            if B2 <= code < F3:
                keep = True
        if keep:
            order[k] = p
            k += 1
            if k >= width:
                break
    return k


@njit(nogil=True, cache=True, _nrt=False)
def vct(bd: tuple, sr: tuple, depth: int, attacker: int) -> int:
    """Victory by continuous threats (fours and open threes) for `attacker`.

    Returns WIN - plies if the attacker wins by force within `depth` attacker moves, else 0.
    At attacker nodes the first winning move is left in an[ply, A_BEST].

    The attacker tries double threats, and a lone four or three only if it also builds on
    another line (a two or better there): narrow enough to go deep.
    """
    info = bd[3]
    ply = info[I_PLY]
    if poll(sr) or ply >= MAX_PLY - 8:
        return 0
    n = analyse(bd, sr, ply)
    an = sr[5][ply]
    me = info[I_SIDE]
    renju = info[I_RULE] == RULE_RENJU
    order = sr[13][ply]
    order_flags = sr[14][ply]
    h = bd[4][ply] ^ VCT_SALT  # the attacker's fail-table key
    if me == attacker:
        # Step 1. Attacker: immediate wins, forced blocks, then fours and threes.
        if an[A_OWN5] >= 0:
            an[A_BEST] = an[A_OWN5]
            return WIN - ply - 1
        if an[A_OPP5N] >= 2:
            return 0
        if an[A_OPP5N] == 0 and an[A_OWNF4] >= 0:
            an[A_BEST] = an[A_OWNF4]
            return WIN - ply - 3
        if double_threat_wins(bd, an):
            an[A_BEST] = an[A_OWN_DOUBLE]
            return WIN - ply - 5
        if depth <= 0:
            return 0
        if _fail_probe(sr, h, depth):
            return 0
        if an[A_OPP5N] == 1:
            block = an[A_OPP5]
            m = 0
            for i in range(n):
                if sr[2][ply][i] == block and (sr[4][ply][i] & FL_FORBIDDEN) == 0:
                    order[0] = block
                    m = 1
        else:
            m = sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_OWN_FOUR | FL_OWN_THREE,
                             order, order_flags, ALL_MOVES)
            m = _supported_threats(bd, sr, me, order, np.int64(m), np.int64(sr[10][P_VCT_WIDTH]))
        child_depth = depth - 1
    else:
        # Step 2. Defender: win first if possible, block fives, answer every threat.
        if an[A_OWN5] >= 0:
            return 0
        if an[A_OPP5N] >= 2:
            return WIN - ply - 2
        if an[A_OPP5N] == 1:
            block = an[A_OPP5]
            if renju and me == 1 and is_forbidden(bd, block, np.int64(0)):
                return WIN - ply - 2
            order[0] = block
            m = 1
        else:
            if an[A_OWNF4] >= 0:
                return 0
            if an[A_OPPF4N] == 0:
                return 0
            m = sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_OWN_FOUR | FL_OPP_FOUR,
                             order, order_flags, ALL_MOVES)
            if m == 0:
                return WIN - ply - 4
        child_depth = depth
    # Step 3. The moves, searched by one recursive call (numba types the function again for
    # each call site): the attacker needs one that wins, the defender loses if all lose.
    worst = WIN
    for i in range(m):
        p = order[i]
        make(bd, p)
        result = vct(bd, sr, child_depth, attacker)
        unmake(bd)
        if me == attacker:
            if result > 0:
                an[A_BEST] = p
                return result
            if sr[9][C_ABORTED] != 0:
                return 0
        else:
            if result <= 0:
                return 0
            if result < worst:
                worst = result
    if me == attacker:
        _fail_store(sr, h, depth)
        return 0
    return worst


@njit(nogil=True, cache=True, _nrt=False)
def forbidden_cells(bd: tuple, out: np.ndarray) -> int:
    """Renju: fill `out` with every empty cell black may not play; returns how many."""
    cells, keys, near, info, hashes, stack, tables, zobrist, dirs, codes, cand = bd
    size = info[I_SIZE]
    stride = info[I_STRIDE]
    n = 0
    for y in range(size):
        for x in range(size):
            p = (y + PAD) * stride + x + PAD
            if cells[p] != 0:
                continue
            if is_forbidden(bd, p, np.int64(0)):
                out[n] = p
                n += 1
    return n
