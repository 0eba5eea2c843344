"""The autosave: a game written after a move comes back exactly; damage is reported and kept aside."""

from __future__ import annotations

from pathlib import Path

import pytest

from gomoku.core import records
from gomoku.core.board import Board
from gomoku.core.clock import Clock, TimeControl
from gomoku.core.game import Game
from gomoku.core.settings import Settings
from gomoku.core.types import Color, Reason, Rule
from gomoku.engine.api import Level
from gomoku.ui import autosave
from gomoku.ui.players import GameSetup


def _game(setup: GameSetup, moves: list[tuple[int, int]], start: float = 100.0) -> Game:
    infos = setup.player_infos()
    game = Game(Board(setup.size, setup.rule), infos[Color.BLACK], infos[Color.WHITE], Clock(setup.time_control))
    game.start(start)
    now = start
    for x, y in moves:
        now += 3.0
        game.play(x, y, now)
    return game


SETUP = GameSetup(
    mode="ai", level=Level.HARD, human_color=Color.WHITE, rule=Rule.RENJU, size=15,
    time_control=TimeControl(game_s=600, increment_s=5, move_s=0), human_name="Ann",
)


def test_a_saved_game_comes_back_with_moves_turn_players_and_clock(tmp_path: Path) -> None:
    path = tmp_path / "autosave.gomoku"
    game = _game(SETUP, [(7, 7), (8, 8), (6, 8)])
    autosave.save(path, game, SETUP, now=111.0)
    loaded, problem = autosave.load(path, Settings())
    assert problem is None and loaded is not None
    setup, restored = loaded
    assert setup == SETUP
    assert restored.board.moves == [(7, 7), (8, 8), (6, 8)]
    assert restored.to_move is Color.WHITE
    assert restored.player(Color.BLACK).kind == "ai" and restored.player(Color.WHITE).name == "Ann"
    restored.start(500.0)
    # White had 600 + 5 after one 3 s move; 2 s of its current move were used before saving.
    assert restored.clock.remaining(Color.WHITE, 500.0) == pytest.approx(600 - 3 + 5 - 2, abs=0.01)
    assert restored.clock.remaining(Color.BLACK, 500.0) == pytest.approx(600 - 6 + 10, abs=0.01)
    assert restored.move_times == pytest.approx([3.0, 3.0, 3.0])


def test_a_game_for_two_comes_back_with_both_names_for_its_rematch_too(tmp_path: Path) -> None:
    path = tmp_path / "autosave.gomoku"
    local = GameSetup(mode="local", human_color=Color.BLACK, human_name="Ann", guest_name="Bob")
    autosave.save(path, _game(local, [(7, 7)]), local, now=104.0)
    loaded, _ = autosave.load(path, Settings(guest_name="Carl"))
    assert loaded is not None
    setup, restored = loaded
    assert (restored.player(Color.BLACK).name, restored.player(Color.WHITE).name) == ("Ann", "Bob")
    rematch = setup.swapped().player_infos()  # the second player was renamed "Guest" here
    assert (rematch[Color.BLACK].name, rematch[Color.WHITE].name) == ("Bob", "Ann")


def test_continue_is_offered_only_while_a_file_is_there(tmp_path: Path) -> None:
    path = tmp_path / "autosave.gomoku"
    assert not autosave.has_unfinished_game(path)
    autosave.save(path, _game(SETUP, [(7, 7)]), SETUP, now=104.0)
    assert autosave.has_unfinished_game(path)
    autosave.clear(path)
    assert not autosave.has_unfinished_game(path)
    autosave.clear(path)  # clearing twice is harmless


def test_a_resigned_game_keeps_its_result(tmp_path: Path) -> None:
    setup = GameSetup(mode="local", rule=Rule.FREESTYLE)
    game = _game(setup, [(7, 7), (7, 8)])
    game.resign(Color.BLACK, 110.0)
    record = autosave.record_of(game, setup, 110.0)
    _, restored = autosave.restore(record, Settings())
    assert restored.result is not None
    assert restored.result.reason is Reason.RESIGN and restored.result.winner is Color.WHITE


@pytest.mark.parametrize(
    "content",
    [
        "",
        "not a record at all\n",
        "Gomoku record 1\nRule: freestyle\nSize: 15\n\nMoves:\n1. h8\n2. h8\n",  # the same point twice
        "Gomoku record 1\nRule: freestyle\nSize: 15\nExtra: {\"clock\": 5}\n\nMoves:\n1. h8\n",
    ],
    ids=["empty", "garbage", "illegal-move", "bad-clock"],
)
def test_a_damaged_autosave_is_reported_and_kept_aside(tmp_path: Path, content: str) -> None:
    path = tmp_path / "autosave.gomoku"
    path.write_text(content, encoding="utf-8")
    loaded, problem = autosave.load(path, Settings())
    assert loaded is None
    assert problem is not None and "could not be continued" in problem
    assert not path.exists()
    assert (tmp_path / "autosave.gomoku.bak").read_text(encoding="utf-8") == content


@pytest.mark.parametrize("game_s", [float("inf"), 10**300, -5, "soon"])
def test_an_absurd_setup_time_in_the_autosave_still_continues(tmp_path: Path, game_s: object) -> None:
    path = tmp_path / "autosave.gomoku"
    record = autosave.record_of(_game(SETUP, [(7, 7)]), SETUP, now=104.0)
    record.extra[autosave.SETUP_KEY]["time_control"]["game_s"] = game_s  # as a hand edit could leave it
    path.write_text(records.format_record(record), encoding="utf-8")
    loaded, problem = autosave.load(path, Settings())
    assert problem is None and loaded is not None
    setup, game = loaded
    assert setup.time_control == Settings().time_control  # the settings stand in for the bad setup
    assert game.board.moves == [(7, 7)] and game.clock.control == SETUP.time_control


def test_an_infinite_clock_in_the_autosave_is_reported_and_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "autosave.gomoku"
    record = autosave.record_of(_game(SETUP, [(7, 7)]), SETUP, now=104.0)
    record.extra["time_control"]["game_s"] = float("inf")
    path.write_text(records.format_record(record), encoding="utf-8")
    loaded, problem = autosave.load(path, Settings())
    assert loaded is None and problem is not None and "whole seconds" in problem
    assert path.with_name(path.name + ".bak").is_file() and not path.exists()


def test_a_record_from_elsewhere_is_played_by_two_people(tmp_path: Path) -> None:
    from gomoku.core.records import GameRecord

    record = GameRecord(rule=Rule.STANDARD, size=15, black="Eve", white="Bob", moves=[(7, 7)], times=[1.0])
    setup = autosave.setup_of(record, Settings(player_name="Zed"))
    assert setup.mode == "local" and setup.rule is Rule.STANDARD
    assert setup.human_name == "Eve"


def test_missing_autosave_is_no_problem(tmp_path: Path) -> None:
    assert autosave.load(tmp_path / "autosave.gomoku", Settings()) == (None, None)


def test_the_writer_thread_keeps_the_order_and_the_newest_request(tmp_path: Path) -> None:
    path = tmp_path / "autosave.gomoku"
    writer = autosave.AutosaveWriter(path)
    try:
        first = autosave.record_of(_game(SETUP, [(7, 7)]), SETUP, 104.0)
        second = autosave.record_of(_game(SETUP, [(7, 7), (8, 8)]), SETUP, 107.0)
        writer.write(first)
        writer.write(second)
        assert writer.flush()
        loaded, _ = autosave.load(path, Settings())
        assert loaded is not None and loaded[1].board.moves == [(7, 7), (8, 8)]
        writer.write(first)
        writer.clear()  # a clear after a write wins
        assert writer.flush()
        assert not path.exists()
    finally:
        assert writer.close()


def test_the_writer_reports_a_disk_that_refuses(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    writer = autosave.AutosaveWriter(blocker / "autosave.gomoku")
    try:
        writer.write(autosave.record_of(_game(SETUP, [(7, 7)]), SETUP, 104.0))
        assert writer.flush()
        # the system's words, without "[Errno 17]"
        assert writer.errors.get(timeout=1) == "Could not keep the game for Continue (File exists)."
    finally:
        writer.close()


def test_the_writer_outlives_a_record_it_cannot_write(tmp_path: Path) -> None:
    path = tmp_path / "autosave.gomoku"
    writer = autosave.AutosaveWriter(path)
    try:
        broken = autosave.record_of(_game(SETUP, [(7, 7)]), SETUP, 104.0)
        broken.size = "15"  # type: ignore[assignment]  # a bug elsewhere must not end the autosave
        writer.write(broken)
        assert writer.flush()
        assert "Could not keep the game" in writer.errors.get(timeout=1)
        writer.write(autosave.record_of(_game(SETUP, [(7, 7), (8, 8)]), SETUP, 107.0))
        assert writer.flush()
        loaded, _ = autosave.load(path, Settings())
        assert loaded is not None and loaded[1].board.moves == [(7, 7), (8, 8)]
    finally:
        assert writer.close()


def test_a_lan_seat_is_offered_back_only_while_fresh_and_only_if_every_field_checks(tmp_path) -> None:
    from gomoku.core.records import GameRecord, save_record
    from gomoku.ui.autosave import LAN_KEY, rejoin_of

    path = tmp_path / "autosave.gomoku"
    good = {"address": "127.0.0.1", "port": 15515, "session": "abcDEF12_-", "opponent": "Bob",
            "saved_at": 1000.0}

    def seat_with(**changes):
        record = GameRecord(moves=[(7, 7), (8, 8)], times=[1.0, 1.0], extra={LAN_KEY: {**good, **changes}})
        save_record(record, path)
        return rejoin_of(path, 1060.0)

    assert seat_with() == {"address": "127.0.0.1", "port": 15515, "session": "abcDEF12_-", "opponent": "Bob"}
    assert seat_with(saved_at=800.0) is None  # the host has given the seat up by now
    assert seat_with(saved_at=2000.0) is None  # from the future: an edited file
    assert seat_with(address="evil host") is None
    assert seat_with(port=0) is None and seat_with(port=True) is None
    assert seat_with(session="short") is None and seat_with(session="x" * 65) is None
    assert seat_with(session="bad token!") is None
    assert seat_with(opponent="\x00" * 5)["opponent"] == "the host"
