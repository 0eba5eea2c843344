"""Players: clicks become moves for the side to move; the AI answers through the real worker."""

from __future__ import annotations

import time

import pytest

from gomoku.core.board import Board
from gomoku.core.types import Color
from gomoku.engine.api import Level, Position, SearchLimit, SearchResult
from gomoku.engine.worker import EngineWorker
from gomoku.ui.players import (
    Agreement,
    AIPlayer,
    EngineSession,
    LocalPlayer,
    PlayerError,
    RemotePlayer,
    ai_limit,
)


@pytest.fixture
def engine():
    worker = EngineWorker()
    yield EngineSession(worker)
    worker.close()


def _wait_for_move(player: AIPlayer, seconds: float = 10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        move = player.poll()
        if move is not None:
            return move
        time.sleep(0.005)
    raise AssertionError("the AI gave no move in time")


def test_local_player_moves_only_on_its_turn() -> None:
    player = LocalPlayer(Color.BLACK, "Ann")
    assert not player.click((7, 7))  # not its turn yet
    assert player.poll() is None
    player.begin_turn(Board())
    assert player.poll() is None
    assert player.click((7, 7))
    assert player.poll() == (7, 7)
    assert player.poll() is None  # a move is handed over once
    assert not player.click((8, 8))  # the turn is over


def test_local_player_agrees_to_undo_and_restart() -> None:
    player = LocalPlayer(Color.WHITE, "Bob")
    assert player.request_undo() is Agreement.AGREED
    assert player.request_restart() is Agreement.AGREED


def test_ai_player_plays_a_legal_move_off_the_main_thread(engine: EngineSession) -> None:
    board = Board.from_moves([(7, 7), (8, 8), (7, 8)])
    ai = AIPlayer(Color.WHITE, "Computer", engine, Level.EASY)
    ai.begin_turn(board)
    assert ai.thinking
    move = _wait_for_move(ai)
    assert not ai.thinking
    assert board.is_legal(*move)
    assert board.moves == [(7, 7), (8, 8), (7, 8)]  # the live board was not touched
    assert ai.describe() == "Computer (easy)"


def test_ai_player_cancelled_never_moves(engine: EngineSession) -> None:
    ai = AIPlayer(Color.BLACK, "Computer", engine, Level.EASY)
    ai.begin_turn(Board())
    ai.cancel()
    assert not ai.thinking
    time.sleep(0.3)  # the search (if it finished) has reported by now
    assert ai.poll() is None


def test_session_drops_results_of_superseded_requests(engine: EngineSession) -> None:
    before_undo = Board.from_moves([(0, 0), (14, 14), (0, 1)])
    after_undo = Board.from_moves([(0, 0), (14, 14)])
    stale = engine.submit(Position.from_board(before_undo), Level.EASY, SearchLimit(0.05))
    fresh = engine.submit(Position.from_board(after_undo), Level.EASY, SearchLimit(0.05))
    deadline = time.monotonic() + 10
    answers = []
    while not answers and time.monotonic() < deadline:
        answers = [item for item in engine.take(fresh) if isinstance(item, SearchResult)]
        time.sleep(0.005)
    assert answers and after_undo.is_legal(*answers[-1].move)
    time.sleep(0.1)
    assert engine.take(stale) == []


def test_ai_engine_failure_is_reported_as_player_error() -> None:
    def broken_search(*args, **kwargs):
        raise RuntimeError("out of memory")

    worker = EngineWorker(think=broken_search)
    try:
        ai = AIPlayer(Color.WHITE, "Computer", EngineSession(worker), Level.EASY)
        ai.begin_turn(Board.from_moves([(7, 7)]))
        with pytest.raises(PlayerError, match="out of memory"):
            _wait_for_move(ai)
        assert not ai.thinking
    finally:
        worker.close()


def test_remote_player_forwards_moves_and_waits_for_answers() -> None:
    sent: list[dict] = []
    remote = RemotePlayer(Color.WHITE, "Friend", sent.append)
    remote.begin_turn(Board())
    assert remote.poll() is None
    remote.receive_move((7, 8))
    assert remote.poll() == (7, 8)
    remote.opponent_moved((7, 7))
    assert sent[-1] == {"type": "move", "point": [7, 7]}
    assert remote.request_undo() is Agreement.PENDING
    assert remote.answer() is Agreement.PENDING
    remote.receive_answer(False)
    assert remote.answer() is Agreement.REFUSED


def test_ai_limit_fits_the_clock() -> None:
    assert ai_limit(Level.HARD).time_s == pytest.approx(2.0)
    assert ai_limit(Level.HARD, remaining_s=10).time_s < 1.0
    assert ai_limit(Level.HARD, move_s=1).time_s < 1.0
    assert ai_limit(Level.EASY, remaining_s=1000).time_s == pytest.approx(0.05)


def test_game_setup_takes_the_enter_data_and_fills_the_rest_from_settings() -> None:
    import random

    from gomoku.core.settings import Settings
    from gomoku.core.types import Rule
    from gomoku.ui.players import GameSetup

    settings = Settings(player_name="Ann", level="hard", rule="renju", game_s=300, board_size=18)
    setup, problems = GameSetup.from_data({"mode": "local"}, settings)
    assert problems == []
    assert (setup.mode, setup.level, setup.rule, setup.size) == ("local", Level.HARD, Rule.RENJU, 15)
    assert setup.time_control.game_s == 300 and setup.human_name == "Ann"
    setup, _ = GameSetup.from_data({"rule": "freestyle"}, settings)
    assert setup.size == 18  # the freestyle size from the settings
    setup, _ = GameSetup.from_data({"human_color": "random"}, settings, random.Random(1))
    assert setup.human_color in (Color.BLACK, Color.WHITE)
    assert setup.swapped().human_color is setup.human_color.other
    infos = GameSetup(mode="ai", human_color=Color.WHITE, level=Level.EASY).player_infos()
    assert infos[Color.BLACK].kind == "ai" and infos[Color.BLACK].level == "easy"


def test_game_setup_reports_bad_values_and_uses_the_settings() -> None:
    from gomoku.core.settings import Settings
    from gomoku.ui.players import GameSetup

    setup, problems = GameSetup.from_data(
        {"mode": "online", "level": "godlike", "size": 3, "time_control": {"game_s": "soon"}}, Settings()
    )
    assert len(problems) == 4
    assert setup.mode == "ai" and setup.level is Level.MEDIUM and setup.size == 15
    assert setup.time_control.is_untimed
    setup, problems = GameSetup.from_data({"mode": "local", "human_name": "Ann", "guest_name": "Bob\x1b[2J"},
                                          Settings(guest_name="Carl"))
    assert (setup.human_name, setup.guest_name) == ("Ann", "Carl")  # an escape code is no name
    assert problems == ["the second player's name must be 1 to 24 printable characters"]


def test_ai_player_reports_its_search_budget_and_the_time_spent_while_thinking(engine: EngineSession) -> None:
    ai = AIPlayer(Color.WHITE, "Computer", engine, Level.EASY, limit=lambda: SearchLimit(time_s=1.5))
    assert ai.budget_s == 0.0 and ai.spent_s(time.monotonic()) == 0.0
    ai.begin_turn(Board.from_moves([(7, 7)]))
    now = time.monotonic()
    assert ai.budget_s == 1.5  # the limit this search was given
    assert 0.9 <= ai.spent_s(now + 1.0) <= 1.1
    ai.stood_still(5.0)  # Ctrl-Z and fg: the search's clock leaves the stop out, and so does the bar
    assert 0.9 <= ai.spent_s(now + 6.0) <= 1.1
    ai.cancel()
    assert ai.budget_s == 0.0 and ai.spent_s(now + 1.0) == 0.0
