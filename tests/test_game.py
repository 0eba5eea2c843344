"""Game: turns, undo policy, results on and off the board, clock-driven timeouts."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gomoku.core import Board, Color, IllegalMoveError, Outcome, Reason, Rule
from gomoku.core.clock import Clock, TimeControl
from gomoku.core.game import Game, PlayerInfo
from gomoku.core.types import Illegal

B, W = Color.BLACK, Color.WHITE
HUMAN = PlayerInfo("Ann")
AI = PlayerInfo("Computer", "ai", "hard")


def new_game(control: TimeControl | None = None, size: int = 15) -> Game:
    return Game(Board(size), HUMAN, AI, Clock(control) if control else None)


def play_all(
    game: Game, moves: list[tuple[int, int]], start: float = 0.0, step: float = 1.0
) -> float:
    now = start
    for x, y in moves:
        now += step
        game.play(x, y, now)
    return now


def test_players_and_turns() -> None:
    game = new_game()
    assert game.player(B) == HUMAN and game.player(W).level == "hard"
    assert game.to_move is B
    game.play(7, 7, 1.0)
    assert game.to_move is W and game.board.moves == [(7, 7)]


def test_bad_player_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="human, ai or remote"):
        PlayerInfo("x", "robot")  # type: ignore[arg-type]


def test_move_times_are_recorded() -> None:
    game = new_game()
    game.start(10.0)
    game.play(7, 7, 13.0)
    game.play(8, 8, 13.5)
    assert game.move_times == [3.0, 0.5]


def test_illegal_move_raises_unchanged_and_changes_nothing() -> None:
    game = new_game()
    game.play(7, 7, 1.0)
    with pytest.raises(IllegalMoveError) as caught:
        game.play(7, 7, 2.0)
    assert caught.value.reason is Illegal.OCCUPIED
    assert game.board.ply == 1 and game.move_times == [0.0] and game.to_move is W


def test_five_ends_the_game_and_stops_the_clock() -> None:
    game = new_game(TimeControl(game_s=60))
    game.start(0.0)
    outcome = None
    for i in range(4):
        game.play(i, 0, 2 * i + 1.0)
        game.play(i, 5, 2 * i + 2.0)
    outcome = game.play(4, 0, 9.0)
    assert outcome is not None and outcome.winner is B and outcome.reason is Reason.FIVE
    assert game.is_over and game.result == outcome
    assert not game.clock.running
    assert game.check_clock(1_000_000.0) is None  # no flag after the end
    with pytest.raises(IllegalMoveError):
        game.play(10, 10, 10.0)


def test_undo_one_stone() -> None:
    game = new_game()
    play_all(game, [(7, 7), (8, 8), (9, 9)])
    assert game.undo(None, 10.0) == [(9, 9)]
    assert game.board.moves == [(7, 7), (8, 8)] and game.to_move is B
    assert len(game.move_times) == 2


def test_undo_back_to_before_the_askers_last_stone() -> None:
    game = new_game()
    play_all(game, [(7, 7), (8, 8), (9, 9), (6, 6)])
    # Black (the human) asks on its turn: the AI's reply and black's stone go.
    assert game.undo(B, 10.0) == [(6, 6), (9, 9)]
    assert game.board.moves == [(7, 7), (8, 8)] and game.to_move is B
    # Black asks while white is to move (AI thinking): only black's own stone goes.
    game.play(9, 9, 11.0)
    assert game.plies_to_undo(B) == 1
    assert game.undo(B, 12.0) == [(9, 9)]
    # White asks: back to before white's last stone.
    assert game.undo(W, 13.0) == [(8, 8)]
    assert game.board.moves == [(7, 7)]


def test_nothing_to_undo() -> None:
    game = new_game()
    assert not game.can_undo(None) and game.undo(None, 1.0) == []
    game.play(7, 7, 1.0)
    assert not game.can_undo(W) and game.undo(W, 2.0) == []  # white has no stone yet
    assert game.can_undo(B) and game.can_undo(None)


def test_undo_after_five_reopens_the_game() -> None:
    game = new_game(TimeControl(game_s=60))
    game.start(0.0)
    play_all(game, [(0, 0), (0, 5), (1, 0), (1, 5), (2, 0), (2, 5), (3, 0), (3, 5), (4, 0)])
    assert game.is_over
    assert game.undo(B, 20.0) == [(4, 0)]
    assert not game.is_over and game.to_move is B and game.clock.running
    game.play(4, 1, 21.0)  # play goes on


def test_resign_ends_and_undo_reopens() -> None:
    game = new_game()
    play_all(game, [(7, 7), (8, 8)])
    outcome = game.resign(B, 5.0)
    assert outcome == Outcome(W, Reason.RESIGN)
    assert game.result == outcome and game.is_over
    assert game.resign(W, 6.0) == outcome  # a finished game stays finished
    with pytest.raises(IllegalMoveError):
        game.play(1, 1, 7.0)
    assert game.undo(B, 8.0) == [(8, 8), (7, 7)]
    assert game.result is None


def test_timeout_from_the_clock() -> None:
    game = new_game(TimeControl(game_s=10))
    game.start(0.0)
    game.play(7, 7, 4.0)  # black has 6 s left
    assert game.check_clock(13.9) is None
    outcome = game.check_clock(14.0)
    assert outcome == Outcome(B, Reason.TIMEOUT)  # white flagged
    assert game.is_over and not game.can_undo(B)


def test_per_move_limit_flags_too() -> None:
    game = new_game(TimeControl(move_s=5))
    game.start(0.0)
    game.play(7, 7, 4.9)
    assert game.check_clock(9.0) is None
    assert game.check_clock(9.9) == Outcome(B, Reason.TIMEOUT)


def test_disconnect_and_timeout_without_now() -> None:
    game = new_game(TimeControl(game_s=60))
    game.start(0.0)
    game.play(7, 7, 3.0)
    assert game.disconnect(W) == Outcome(B, Reason.DISCONNECT)
    assert not game.clock.running
    other = new_game()
    assert other.timeout(B) == Outcome(W, Reason.TIMEOUT)


def test_full_board_is_a_draw() -> None:
    # Stripes two wide along (x + 2y) never give five in a row in any direction.
    size = 15
    game = Game(Board(size, Rule.FREESTYLE), HUMAN, PlayerInfo("Bo"))
    points = [(x, y) for y in range(size) for x in range(size)]
    blacks = [p for p in points if (p[0] + 2 * p[1]) % 4 < 2]
    whites = [p for p in points if (p[0] + 2 * p[1]) % 4 >= 2]
    assert len(blacks) == len(whites) + 1
    order = [p for pair in zip(blacks[:-1], whites, strict=True) for p in pair] + blacks[-1:]
    outcome = None
    for i, (x, y) in enumerate(order):
        outcome = game.play(x, y, float(i))
        if i < len(order) - 1:
            assert outcome is None, f"early end at move {i}: {outcome}"
    assert outcome == Outcome(None, Reason.FULL_BOARD)
    assert game.result is not None and game.result.winner is None
    assert game.undo(None, 999.0) == [order[-1]] and not game.is_over


def test_restart_clears_board_times_and_result() -> None:
    game = new_game(TimeControl(game_s=60))
    game.start(0.0)
    board = game.board
    play_all(game, [(7, 7), (8, 8)], step=5.0)
    game.resign(B, 11.0)
    game.restart(100.0)
    assert game.board is board and board.ply == 0
    assert game.move_times == [] and game.result is None and game.to_move is B
    assert game.clock.remaining(B, 103.0) == 57.0 and game.clock.remaining(W, 103.0) == 60.0


def test_a_position_with_white_to_move_gets_the_clock_on_white() -> None:
    board = Board.from_moves([(7, 7)])
    game = Game(board, HUMAN, AI, Clock(TimeControl(game_s=60)))
    assert game.clock.to_move is W and game.move_times == [0.0]
    game.start(0.0)
    game.play(8, 8, 2.0)
    assert game.clock.remaining(W, 2.0) == 58.0


def test_move_times_must_match_the_moves() -> None:
    with pytest.raises(ValueError):
        Game(Board.from_moves([(7, 7)]), HUMAN, AI, move_times=[])


@given(
    points=st.lists(
        st.tuples(st.integers(0, 14), st.integers(0, 14)), min_size=1, max_size=40, unique=True
    ),
    asker=st.sampled_from([Color.BLACK, Color.WHITE, None]),
)
def test_undo_policy_holds_in_any_game(points: list[tuple[int, int]], asker: Color | None) -> None:
    """None takes one stone; a colour takes back to before its own last stone, never more."""
    game = new_game()
    for x, y in points:
        if game.is_over:
            break
        game.play(x, y, 1.0)
    before = list(game.board.moves)
    if asker is not None and not before[asker - 1 :: 2]:
        assert game.undo(asker, 2.0) == []
        return
    removed = game.undo(asker, 2.0)
    assert game.board.moves == before[: len(before) - len(removed)]
    assert removed == before[::-1][: len(removed)]
    assert len(game.move_times) == game.board.ply and not game.is_over
    if asker is None:
        assert len(removed) == 1
    else:
        assert 1 <= len(removed) <= 2
        assert removed[-1] == before[asker - 1 :: 2][-1]  # the asker's last stone went last
        assert game.to_move is asker


def test_a_declared_result_stands_even_when_the_board_disagrees():
    # The LAN host's `result` is the final word: the guest shows it over its own reckoning.
    board = Board()
    game = Game(board, PlayerInfo("a"), PlayerInfo("b"))
    game.play(7, 7, 0.0)
    outcome = Outcome(Color.WHITE, Reason.TIMEOUT)
    assert game.declare(outcome, 1.0) is outcome
    assert game.result == outcome and game.is_over
    assert not game.contested and game.recorded_result == outcome  # a timeout needs no five
    with pytest.raises(IllegalMoveError):
        game.play(8, 8, 2.0)
    game.declare(Outcome(Color.WHITE, Reason.FIVE), 3.0)  # no five on this board
    assert game.result is not None and game.result.reason is Reason.FIVE
    assert game.contested and game.recorded_result is None  # a record keeps the open board
