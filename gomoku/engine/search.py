"""Alpha-beta search (negamax, PVS) with a transposition table, and the root helpers.

Everything takes the board state `bd` (state.py) and search tables `sr` (threats.py). The Python
driver runs iterative deepening over `root_search` and owns the clock.

Compiled: `negamax` and its helpers, with `_nrt=False` (no reference counting: see threats.py).
The root helpers below it (`root_search`, `root_moves`, `threat_win`, `stop_opponent_vct`, ...)
are plain Python around the compiled `negamax`, `vcf`, `vct`, `make` and `unmake`: they make a
few hundred compiled calls a move (about a microsecond each from Python), and compiled, numba
would build each into a library of its own holding another copy of the searches' machine
code: seconds of every first launch.
"""

from __future__ import annotations

import numpy as np

from gomoku.engine.jit import njit
from gomoku.engine.state import I_PLY, I_SIDE, MAX_PLY, make, unmake
from gomoku.engine.threats import (
    A_BEST,
    A_EVAL,
    A_N,
    A_OPP5,
    A_OPP5N,
    A_OPPF4N,
    A_OWN4N,
    A_OWN5,
    A_OWNF4,
    ALL_MOVES,
    C_ABORTED,
    C_NODE_LIMIT,
    C_NODES,
    C_ROOT_BEST,
    C_ROOT_DONE,
    C_ROOT_SCORE,
    C_SELDEPTH,
    FL_ANY,
    FL_OPP_FOUR,
    FL_OPP_THREE,
    FL_OWN_FOUR,
    FL_OWN_THREE,
    P_EVAL_NOISE,
    P_FUTILITY,
    P_LMR,
    P_SEED,
    P_SINGULAR,
    P_VCF_LEAF,
    P_WIDTH,
    WIN,
    WIN_MIN,
    analyse,
    double_threat_wins,
    poll,
    sorted_moves,
    vcf,
    vct,
)

INF = WIN + 1
TT_EXACT = np.int64(1)  # (typed: a literal argument would compile _tt_store again)
TT_LOWER = np.int64(2)
TT_UPPER = np.int64(3)
NULL_SALT = np.uint64(0x5851F42D4C957F2D)
SINGULAR_SALT = np.uint64(0x2545F4914F6CDD1D)  # the key of a node searched without its TT move
SE_MARGIN = 2  # per ply: how far below the TT score the other moves must stay
THREAT_FLAGS = FL_OWN_FOUR | FL_OWN_THREE | FL_OPP_FOUR | FL_OPP_THREE


@njit(nogil=True, cache=True, _nrt=False, forceinline=True)
def _tt_store(tt_keys: np.ndarray, tt_data: np.ndarray, h: np.uint64, move: int, depth: int,
              flag: int, score: int, ply: int) -> None:
    # (The table's two arrays, sr[0] and sr[1], not all of sr: its Python wrapper, for the
    # root's store, unboxes two arrays instead of 21.)
    slot = h & np.uint64(tt_keys.shape[0] - 1)
    # Mate scores are stored relative to this node, so they stay right at any ply.
    if score > WIN_MIN:
        score += ply
    elif score < -WIN_MIN:
        score -= ply
    data = (move + 1) | (max(depth, 0) << 16) | (flag << 24) | ((score + 32768) << 32)
    tt_keys[slot] = h
    tt_data[slot] = data


@njit(nogil=True, cache=True, _nrt=False, forceinline=True)
def _tt_probe(tt_keys: np.ndarray, tt_data: np.ndarray, h: np.uint64, ply: int) -> tuple:
    """(found, move, depth, flag, score) for the position with hash h (sr[0], sr[1]: the
    table's keys and data)."""
    slot = h & np.uint64(tt_keys.shape[0] - 1)
    if tt_keys[slot] != h:
        return False, -1, 0, 0, 0
    data = tt_data[slot]
    move = (data & 0xFFFF) - 1
    depth = (data >> 16) & 0xFF
    flag = (data >> 24) & 0xFF
    score = ((data >> 32) & 0xFFFF) - 32768
    if score > WIN_MIN:
        score -= ply
    elif score < -WIN_MIN:
        score += ply
    return True, move, depth, flag, score


@njit(nogil=True, cache=True, _nrt=False)
def _to_front(order: np.ndarray, order_flags: np.ndarray, m: int, move: int, at: int) -> int:
    """Move `move` (if listed at or after `at`) to position `at`; returns the next free slot."""
    for i in range(at, m):
        if order[i] == move:
            f = order_flags[i]
            for j in range(i, at, -1):
                order[j] = order[j - 1]
                order_flags[j] = order_flags[j - 1]
            order[at] = move
            order_flags[at] = f
            return at + 1
    return at


@njit(nogil=True, cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True)
def _noise(sr: tuple, h: np.uint64) -> int:
    """A deterministic +-P_EVAL_NOISE jitter from the position hash (for the medium level)."""
    amp = sr[10][P_EVAL_NOISE]
    if amp <= 0:
        return 0
    x = (h ^ np.uint64(sr[10][P_SEED])) * np.uint64(0x2545F4914F6CDD1D)
    return int((x >> np.uint64(40)) % np.uint64(2 * amp + 1)) - amp


@njit(nogil=True, cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True)
def _node_moves(bd: tuple, sr: tuple, depth: int, n: int, tt_move: int) -> tuple:
    """negamax's steps 7 and 8: a node's moves in order in sr[13][ply], their flags in
    sr[14][ply]. Returns (m, m_all, extension, score): the moves to search, how many a node
    whose moves all lose searches before it believes it, the block of a four's extension; or
    m = -1 when the node is decided, with its score. (Apart from negamax so that another
    process compiles it at a first launch: numba types a recursive function several times.)"""
    NO = np.int64(0)
    ply = bd[3][I_PLY]
    an = sr[5][ply]
    params = sr[10]
    order = sr[13][ply]
    order_flags = sr[14][ply]
    # Step 7. Moves: the block of a four, the answers to an open three, or the best K
    extension = 0
    if an[A_OPP5N] == 1:
        block = an[A_OPP5]
        m = sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_ANY, order, order_flags,
                         ALL_MOVES)
        m = _to_front(order, order_flags, np.int64(m), np.int64(block), NO)
        if m == 0 or order[0] != block:
            return -1, 0, 0, -(WIN - ply - 2)  # the block is forbidden for black: the four wins
        extension = 1
    elif an[A_OPPF4N] > 0:
        m = sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_OWN_FOUR | FL_OPP_FOUR, order,
                         order_flags, ALL_MOVES)
        if m == 0:
            return -1, 0, 0, -(WIN - ply - 4)
    else:
        # Narrower near the leaves: the ordering's tail matters less with little depth left.
        width = params[P_WIDTH]
        if depth <= 2:
            width = max(5, width // 2)
        elif depth <= 4:
            width = max(6, width * 3 // 4)
        m = sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_ANY, order, order_flags, width)
    if m == 0:
        return -1, 0, 0, 0
    # A loss is only concluded after every candidate was tried (see negamax's move loop).
    m_all = m if extension == 1 or an[A_OPPF4N] > 0 else n

    # Step 8. Ordering: the hash move, then the killers
    next_slot = NO  # typed: one compiled version of _to_front
    if extension == 0:
        if tt_move >= 0:
            next_slot = _to_front(order, order_flags, np.int64(m), np.int64(tt_move), next_slot)
        killers = sr[7][ply]
        for k in range(2):
            if killers[k] >= 0:
                next_slot = _to_front(order, order_flags, np.int64(m), np.int64(killers[k]),
                                     next_slot)
    return m, m_all, extension, 0


@njit(nogil=True, cache=True, _nrt=False)
def negamax(bd: tuple, sr: tuple, depth: int, alpha: int, beta: int, pv_node: int) -> int:
    """The score of the position for the side to move, searched `depth` plies (PVS).

    `pv_node`: bit 0 set on the principal variation; above it, 1 + a move to leave out (the
    singular extension's test search), or 0."""
    skip = (pv_node >> 1) - 1
    pv_node = pv_node & 1
    info = bd[3]
    ply = info[I_PLY]
    counters = sr[9]
    params = sr[10]
    NO = np.int64(0)  # recursive calls take typed ints, never literals (numba cache bug #6713)
    YES = np.int64(1)
    # Step 1. Count the node, poll the stop flag
    if poll(sr):
        return 0
    if ply > counters[C_SELDEPTH]:
        counters[C_SELDEPTH] = ply

    # Step 2. Analyse the position: fives, fours, open-four threats, evaluation
    n = analyse(bd, sr, ply)
    an = sr[5][ply]
    if n == 0:
        return 0  # a full board is a draw

    # Step 3. Decided positions: a five now, two opponent fives, an unstoppable four
    if an[A_OWN5] >= 0:
        return WIN - ply - 1
    if an[A_OPP5N] >= 2:
        return -(WIN - ply - 2)
    if an[A_OPP5N] == 0 and an[A_OWNF4] >= 0:
        return WIN - ply - 3
    if double_threat_wins(bd, an):
        return WIN - ply - 5

    # Step 4. Mate distance pruning
    if alpha < -(WIN - ply):
        alpha = -(WIN - ply)
    if beta > WIN - ply - 1:
        beta = WIN - ply - 1
    if alpha >= beta:
        return alpha

    # Step 5. Transposition table probe
    h = bd[4][ply]
    if skip >= 0:
        h ^= SINGULAR_SALT  # not the node's own entry: this search leaves a move out
    found, tt_move, tt_depth, tt_flag, tt_score = _tt_probe(sr[0], sr[1], h, ply)
    if found and tt_depth >= depth and pv_node == 0:
        if tt_flag == TT_EXACT:
            return tt_score
        if tt_flag == TT_LOWER and tt_score >= beta:
            return tt_score
        if tt_flag == TT_UPPER and tt_score <= alpha:
            return tt_score

    # Step 6. Leaf: a continuous-four win for the side to move, else the static evaluation.
    # A four to block is never a leaf: the block is searched (a quiescence on fours).
    if (depth <= 0 and an[A_OPP5N] == 0) or ply >= MAX_PLY - 40:
        static = an[A_EVAL] + _noise(sr, h)
        # Off the principal variation, an evaluation at or above beta fails high as it is: a
        # win found by the VCF would fail high too (the leaf VCFs were most of the nodes).
        if static >= beta and pv_node == 0:
            return static
        if an[A_OPP5N] == 0 and an[A_OWN4N] > 0 and params[P_VCF_LEAF] > 0:
            result = vcf(bd, sr, params[P_VCF_LEAF])
            if result > 0:
                return result
        return static

    # Step 6b. Futility: off the principal variation, where the opponent threatens nothing (no
    # four to block, no open three to answer), an evaluation far above beta fails high at once.
    if pv_node == 0 and depth <= 8 and an[A_OPP5N] == 0 and an[A_OPPF4N] == 0:
        margin = params[P_FUTILITY] * depth
        # (two comparisons, not abs(beta): typing abs added 1.2 s to negamax's first compile)
        if margin > 0 and -WIN_MIN < beta < WIN_MIN and an[A_EVAL] - margin >= beta:
            return an[A_EVAL]

    # Steps 7 and 8. Moves, in order
    order = sr[13][ply]
    order_flags = sr[14][ply]
    m, m_all, extension, decided = _node_moves(bd, sr, depth, n, tt_move)
    if m < 0:
        return decided

    # Step 9. Singular extension: the TT move, which failed high before, is searched a ply
    # deeper if every other move stays well below its score (a shallower search without it,
    # as the step before the first move: i = -1); if another move beats beta too, the node cuts.
    singular_beta = 0
    i = 0
    if (skip < 0 and 0 < params[P_SINGULAR] <= depth and extension == 0 and found and m > 1
            and order[0] == tt_move and tt_flag != TT_UPPER and tt_depth >= depth - 2
            and -WIN_MIN < tt_score < WIN_MIN):
        singular_beta = tt_score - SE_MARGIN * depth
        i = -1
    tt_extension = 0
    new_depth = depth - 1

    # Step 10. Principal variation search with late move reductions
    side = info[I_SIDE]
    best = -INF
    best_move = order[0]
    flag = TT_UPPER
    while i < m:
        sign = -1
        if i < 0:
            # The singular test: this position again without the TT move, one ply further
            # down so that it has buffers of its own (same side to move, same key), not negated.
            p = -1
            bd[4][ply + 1] = h
            info[I_PLY] = ply + 1
            child_depth, child_alpha, child_beta = depth // 2, singular_beta - 1, singular_beta
            child_pv, stage, sign = 2 * (tt_move + 1), 2, 1
        else:
            p = order[i]
            if p == skip:
                i += 1
                continue
            make(bd, p)
            new_depth = depth - 1 + extension + (tt_extension if i == 0 else 0)
            child_beta = -alpha
            # The first move gets the full window. A later one: a null window, a ply or two
            # less if quiet (LMR); above alpha, again at full depth (stage 1), then with the
            # full window (stage 2). One recursive call site: numba types the function again
            # for each one.
            if i == 0:
                child_depth, child_alpha, child_pv, stage = new_depth, -beta, pv_node, 2
            else:
                reduction = 0
                if (params[P_LMR] != 0 and depth >= 3 and i >= 3
                        and (order_flags[i] & THREAT_FLAGS) == 0):
                    reduction = 1 if i < 8 else 2
                child_depth, child_alpha, child_pv = new_depth - reduction, -alpha - 1, NO
                stage = 0 if reduction > 0 else 1
        while True:
            score = sign * negamax(bd, sr, child_depth, child_alpha, child_beta, child_pv)
            if stage == 2 or score <= alpha:
                break
            if stage == 0:
                child_depth, stage = new_depth, 1
            elif score < beta:
                child_alpha, child_pv, stage = -beta, YES, 2
            else:
                break
        if p >= 0:
            unmake(bd)
        else:
            info[I_PLY] = ply
        if counters[C_ABORTED] != 0:
            return 0
        if p < 0:
            if score < singular_beta:
                tt_extension = 1
            elif singular_beta >= beta:
                return singular_beta  # multi-cut: another move fails high as well
            elif tt_score >= beta:
                tt_extension = -1
            i = 0
            continue
        if score > best:
            best = score
            best_move = p
            if score > alpha:
                alpha = score
                flag = TT_EXACT
                if alpha >= beta:
                    flag = TT_LOWER
                    # Step 11. A quiet cutoff move becomes a killer and earns history
                    if (order_flags[i] & THREAT_FLAGS) == 0:
                        killers = sr[7][ply]
                        if killers[0] != p:
                            killers[1] = killers[0]
                            killers[0] = p
                    sr[6][side - 1, p] += depth * depth
                    break
        i += 1
        if i == m and best < -WIN_MIN and m < m_all:
            # Every move we kept loses: the pruned ones get searched before we believe it.
            m = sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_ANY, order, order_flags,
                             ALL_MOVES)
            m_all = m

    # Step 12. Transposition table store
    _tt_store(sr[0], sr[1], h, best_move, depth, flag, best, ply)
    return best


ROOT_LMR_FROM = 4  # root moves from this index on, quiet ones, are searched a ply less first
ROOT_LMR_FAR = 14  # ... and from this one (past the width inner nodes keep), two plies less


def root_search(bd: tuple, sr: tuple, depth: int, root_moves: np.ndarray, root_scores: np.ndarray,
                m: int, quiet: np.ndarray | None = None) -> int:
    """Search every root move `depth` plies; the best index/score go to counters.

    `quiet` (per cell, nonzero: the move makes or stops no four or three) lets late quiet
    moves be searched shallower first, as inner nodes do (late move reductions)."""
    counters = sr[9]
    counters[C_ROOT_DONE] = 0
    counters[C_ROOT_BEST] = 0
    counters[C_ROOT_SCORE] = -INF
    alpha = np.int64(-INF)
    beta = np.int64(INF)
    best = np.int64(-INF)
    NO = np.int64(0)  # recursive calls take typed ints, never literals (numba cache bug #6713)
    YES = np.int64(1)
    for i in range(m):
        p = root_moves[i]
        make(bd, p)
        if i == 0:
            score = -negamax(bd, sr, depth - 1, -beta, -alpha, YES)
        else:
            reduction = 0
            if quiet is not None and depth >= 4 and i >= ROOT_LMR_FROM and quiet[p]:
                reduction = 1 if i < ROOT_LMR_FAR else 2
            score = -negamax(bd, sr, depth - 1 - reduction, -alpha - 1, -alpha, NO)
            if score > alpha and reduction > 0:
                score = -negamax(bd, sr, depth - 1, -alpha - 1, -alpha, NO)
            if score > alpha:
                score = -negamax(bd, sr, depth - 1, -beta, -alpha, YES)
        unmake(bd)
        if counters[C_ABORTED] != 0:
            break
        root_scores[i] = score
        counters[C_ROOT_DONE] = i + 1
        if score > best:
            best = score
            counters[C_ROOT_BEST] = i
            counters[C_ROOT_SCORE] = score
            if score > alpha:
                alpha = score
    if best > -INF:
        _tt_store(sr[0], sr[1], bd[4][bd[3][I_PLY]], root_moves[counters[C_ROOT_BEST]], depth,
                  TT_EXACT, best, bd[3][I_PLY])
    return best


def quiet_root_cells(bd: tuple, sr: tuple) -> np.ndarray:
    """Per cell, 1 where a root candidate makes or stops no four or open three."""
    ply = bd[3][I_PLY]
    n = analyse(bd, sr, ply)
    quiet = np.zeros(bd[0].shape[0], dtype=np.int64)
    moves, flags = sr[2][ply][:n], sr[4][ply][:n]
    quiet[moves[(flags & THREAT_FLAGS) == 0]] = 1
    return quiet


def opponent_vcf(bd: tuple, sr: tuple, depth: int) -> int:
    """The opponent's VCF score if it could move now (a null move), else 0."""
    info = bd[3]
    ply = info[I_PLY]
    hashes = bd[4]
    info[I_SIDE] = 3 - info[I_SIDE]
    hashes[ply] ^= NULL_SALT
    result = vcf(bd, sr, depth)
    hashes[ply] ^= NULL_SALT
    info[I_SIDE] = 3 - info[I_SIDE]
    return result


def root_moves(bd: tuple, sr: tuple, out: np.ndarray, defend_depth: int) -> tuple:
    """Fill `out` with the root moves, best first; returns (count, kind).

    kind: 0 normal list, 1 a win in one, 2 a forced block, 3 an unstoppable four,
    4 the list holds only the moves that stop an opponent VCF (checked `defend_depth` deep).
    """
    ply = bd[3][I_PLY]
    n = analyse(bd, sr, ply)
    an = sr[5][ply]
    out_flags = np.empty(max(n, 1), dtype=np.int64)
    if an[A_OWN5] >= 0:
        out[0] = an[A_OWN5]
        return 1, 1
    if an[A_OPP5N] >= 1:
        m = sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_ANY, out, out_flags, ALL_MOVES)
        m = _to_front(out, out_flags, np.int64(m), np.int64(an[A_OPP5]), np.int64(0))
        if m > 0 and out[0] == an[A_OPP5]:
            return 1, 2
        # The block is forbidden for black: every move loses, keep the whole list.
        return sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_ANY, out, out_flags,
                            ALL_MOVES), 0
    if an[A_OWNF4] >= 0:
        out[0] = an[A_OWNF4]
        return 1, 3
    m = sorted_moves(sr[2][ply], sr[3][ply], sr[4][ply], n, FL_ANY, out, out_flags, ALL_MOVES)
    if m == 0 or defend_depth <= 0:
        return m, 0
    # The opponent's continuous-four threats: keep only the moves after which none is left.
    if opponent_vcf(bd, sr, defend_depth) <= 0:
        return m, 0
    kept = np.empty(m, dtype=np.int64)
    k = 0
    for i in range(m):
        make(bd, out[i])
        if vcf(bd, sr, defend_depth) <= 0:
            kept[k] = out[i]
            k += 1
        unmake(bd)
    if k == 0:
        return m, 0
    for i in range(k):
        out[i] = kept[i]
    return k, 4


def threat_win(bd: tuple, sr: tuple, vcf_depth: int, vct_depth: int) -> tuple:
    """(score, move) of a forced win for the side to move: VCF first, then VCT; (0, -1) if none."""
    ply = bd[3][I_PLY]
    result = vcf(bd, sr, vcf_depth)
    if result > 0:
        return result, sr[5][ply][A_BEST]
    if vct_depth > 0:
        result = vct(bd, sr, vct_depth, bd[3][I_SIDE])
        if result > 0:
            return result, sr[5][ply][A_BEST]
    return 0, -1


def principal_variation(bd: tuple, sr: tuple, first: int, out: np.ndarray) -> int:
    """Follow the transposition table from `first`; fills `out` and returns its length."""
    cells = bd[0]
    length = 0
    if first < 0:
        return 0
    out[0] = first
    make(bd, first)
    length = 1
    while length < out.shape[0]:
        ply = bd[3][I_PLY]
        found, move, depth, flag, score = _tt_probe(sr[0], sr[1], bd[4][ply], ply)
        if not found or move < 0 or move >= cells.shape[0] or cells[move] != 0:
            break
        out[length] = move
        make(bd, move)
        length += 1
    for _ in range(length):
        unmake(bd)
    return length


def analysis_summary(bd: tuple, sr: tuple) -> tuple:
    """(candidates, own four moves, opponent open-four threats, eval) at the current ply."""
    ply = bd[3][I_PLY]
    analyse(bd, sr, ply)
    an = sr[5][ply]
    return an[A_N], an[A_OWN4N], an[A_OPPF4N], an[A_EVAL]


def vct_deepening(bd: tuple, sr: tuple, attacker: int, max_depth: int, nodes: int) -> int:
    """`vct` for `attacker` at depths 1, 2, ... `max_depth` within `nodes` nodes in all: short
    wins are found first and cheaply. Returns the VCT score, 0 if none was found in time."""
    counters = sr[9]
    limit = counters[C_NODES] + nodes
    result = 0
    for depth in range(1, max_depth + 1):
        counters[C_ABORTED] = 0
        counters[C_NODE_LIMIT] = limit
        result = vct(bd, sr, depth, attacker)
        if result > 0 or counters[C_ABORTED] != 0:
            break
    counters[C_NODE_LIMIT] = 0
    counters[C_ABORTED] = 0
    return result if result > 0 else 0


def move_refuted(bd: tuple, sr: tuple, move: int, max_depth: int, nodes: int) -> bool:
    """True if, after `move`, the opponent has a VCT (found within `nodes` nodes)."""
    make(bd, move)
    result = vct_deepening(bd, sr, bd[3][I_SIDE], max_depth, nodes)
    unmake(bd)
    return bool(result > 0)


STOP_VCT_CHECKS = 24  # root moves the VCT filter checks (the defences are best-ordered)


def stop_opponent_vct(bd: tuple, sr: tuple, root_moves: np.ndarray, m: int, depth: int,
                      nodes_per_check: int) -> int:
    """If the opponent has a VCT (as if it moved now), drop those of the first STOP_VCT_CHECKS
    root moves after which it still has one; returns the new count (the list is unchanged if
    there is no threat or no move stops it). The later moves stay, unchecked: a quiet move
    there may win outright, and the search and its check of each best move judge them.

    Each check deepens the VCT within `nodes_per_check` nodes; a check that runs out keeps its
    move. The clock's stop flag (sr[8]) ends the checks and leaves the list unchanged.
    """
    info = bd[3]
    ply = info[I_PLY]
    hashes = bd[4]
    attacker = 3 - info[I_SIDE]
    info[I_SIDE] = attacker
    hashes[ply] ^= NULL_SALT
    threat = vct_deepening(bd, sr, attacker, depth, 4 * nodes_per_check)
    hashes[ply] ^= NULL_SALT
    info[I_SIDE] = 3 - attacker
    if threat <= 0 or sr[8][0] != 0:
        return m
    kept = np.empty(m, dtype=np.int64)
    k = 0
    for i in range(min(m, STOP_VCT_CHECKS)):
        if not move_refuted(bd, sr, root_moves[i], depth, nodes_per_check):
            kept[k] = root_moves[i]
            k += 1
        if sr[8][0] != 0:
            return m
    if k == 0:
        return m
    for i in range(STOP_VCT_CHECKS, m):
        kept[k] = root_moves[i]
        k += 1
    for i in range(k):
        root_moves[i] = kept[i]
    return k
