"""The board scene driven through the real App: clicks, undo/restart/resign, the AI, clocks,
autosave and Continue. Synthetic mouse and key events go through pygame's own queue."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest
from app_input import click as click_button
from app_input import idle_frames, press
from test_renju import NO_POINT_FOR_BLACK

from gomoku.core.notation import parse_moves
from gomoku.core.types import Color, Reason
from gomoku.engine.api import DEFAULT_BUDGET_S, Level
from gomoku.ui.app import App, AppOptions
from gomoku.ui.players import AIPlayer

FRAME_LIMIT = 3000


@pytest.fixture
def make_app(tmp_path: Path):
    """Apps on a private home in tmp_path; each one is closed after the test."""
    apps: list[App] = []

    def build(size: tuple[int, int] = (1280, 800), home: Path | None = None) -> App:
        app = App(AppOptions(windowed=True, size=size, home=home or tmp_path / "home"))
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.close()


def start(app: App, **data) -> None:
    app.switch("board", data)
    app.frame()


def click_point(app: App, point: tuple[int, int]) -> None:
    """Press and release the left button on the intersection of `point`, then one frame."""
    pos = app.current.view.geometry.center(point)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.frame()


def frames_until(app: App, condition, limit: int = FRAME_LIMIT) -> None:
    for _ in range(limit):
        if condition():
            return
        app.frame()
        time.sleep(0.002)  # let the engine thread run
    raise AssertionError("the condition never came true")


@pytest.mark.parametrize(
    ("window", "size"),
    [((1024, 600), 15), ((1280, 800), 15), ((1920, 1080), 15), ((3840, 2160), 15), ((1280, 800), 19)],
)
def test_a_click_places_a_stone_on_that_point(make_app, window, size) -> None:
    app = make_app(size=window)
    start(app, mode="local", rule="freestyle", size=size)
    board = app.current.game.board
    targets = [(size // 2, size // 2), (0, 0), (size - 1, size - 1), (0, size - 1), (3, 11)]
    for point in targets:
        click_point(app, point)
    assert board.moves == targets
    assert board[(0, 0)] == Color.WHITE and board[(size // 2, size // 2)] == Color.BLACK


def test_a_click_on_a_taken_point_is_refused(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    click_point(app, (7, 7))
    click_point(app, (7, 7))
    assert app.current.game.board.moves == [(7, 7)]
    assert app.current.game.to_move is Color.WHITE


def test_a_click_off_the_board_does_nothing(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(3, 3), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(3, 3), button=1))
    app.frame()
    assert app.current.game.board.ply == 0


def test_two_players_undo_restart_and_resign(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    scene = app.current
    for point in [(7, 7), (8, 8), (6, 6)]:
        click_point(app, point)
    press(app, pygame.K_u)  # one stone back
    assert scene.game.board.moves == [(7, 7), (8, 8)]
    click_button(app, scene.buttons["undo"].rect)
    assert scene.game.board.moves == [(7, 7)]
    click_button(app, scene.buttons["restart"].rect)  # asks for confirmation first
    assert scene.game.board.ply == 1
    click_button(app, scene.buttons["restart"].rect)
    assert scene.game.board.ply == 0
    click_point(app, (7, 7))
    click_button(app, scene.buttons["resign"].rect)
    click_button(app, scene.buttons["resign"].rect)
    result = scene.game.result
    assert result is not None and result.reason is Reason.RESIGN
    assert result.winner is Color.BLACK  # white was to move and resigned
    click_point(app, (3, 3))
    assert scene.game.board.ply == 1  # no stones after the end


def test_five_in_a_row_ends_the_game_with_the_line_and_the_banner(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    scene = app.current
    for x in range(4):
        click_point(app, (3 + x, 7))
        click_point(app, (3 + x, 9))
    click_point(app, (7, 7))
    result = scene.game.result
    assert result is not None and result.winner is Color.BLACK and result.reason is Reason.FIVE
    assert len(result.line) == 5
    assert scene._overlay().winning_line == result.line
    assert "wins" in scene.status
    click_button(app, scene.end_buttons["rematch"].rect)
    assert scene.game.board.ply == 0 and not scene.game.is_over
    assert scene.game.player(Color.WHITE).name == app.settings.player_name  # colours swapped


def test_vs_computer_undo_takes_back_the_reply_too(make_app) -> None:
    app = make_app()
    start(app, mode="ai", level="easy", human_color="black", rule="freestyle")
    scene = app.current
    click_point(app, (7, 7))
    frames_until(app, lambda: scene.game.board.ply == 2)
    assert scene.game.to_move is Color.BLACK
    press(app, pygame.K_u)
    assert scene.game.board.ply == 0
    assert scene.game.to_move is Color.BLACK


def test_the_computer_moves_first_when_the_player_is_white(make_app) -> None:
    app = make_app()
    start(app, mode="ai", level="easy", human_color="white", rule="freestyle")
    scene = app.current
    frames_until(app, lambda: scene.game.board.ply == 1)
    assert isinstance(scene.players[Color.BLACK], AIPlayer)
    click_point(app, scene.game.board.legal_moves()[0])
    assert scene.game.board.ply == 2


def test_a_whole_game_against_the_easy_computer_ends_with_a_result(make_app) -> None:
    app = make_app(size=(1024, 600))
    start(app, mode="ai", level="easy", human_color="black", rule="freestyle")
    scene = app.current
    centre = (7, 7)
    for _ in range(400):
        if scene.game.is_over:
            break
        if scene.game.to_move is Color.BLACK:
            # A simple strategy: the free point nearest the centre.
            legal = scene.game.board.legal_moves()
            click_point(app, min(legal, key=lambda p: (abs(p[0] - centre[0]) + abs(p[1] - centre[1]), p)))
        else:
            frames_until(app, lambda: scene.game.to_move is Color.BLACK or scene.game.is_over)
    assert scene.game.is_over
    assert scene.game.result.reason in (Reason.FIVE, Reason.FULL_BOARD)
    assert scene.autosaver is not None and scene.autosaver.flush()
    assert not app.paths.autosave_file.exists()  # a finished game leaves nothing to continue


def test_leaving_while_the_computer_thinks_stops_the_search(make_app) -> None:
    app = make_app()
    start(app, mode="ai", level="hard", human_color="black", rule="freestyle")
    scene = app.current
    click_point(app, (7, 7))
    frames_until(app, lambda: scene.players[Color.WHITE].thinking)
    press(app, pygame.K_ESCAPE)
    assert app.current_name == "menu"
    deadline = time.monotonic() + 3
    while app.engine.busy and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not app.engine.busy
    assert scene.game.board.ply == 1  # the reply never landed


def test_hint_suggests_a_legal_point(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    scene = app.current
    for point in [(7, 7), (8, 8), (7, 8)]:
        click_point(app, point)
    frames_until(app, lambda: app.engine_loaded)
    press(app, pygame.K_h)
    frames_until(app, lambda: scene.hint is not None)
    assert scene.game.board.is_legal(*scene.hint)
    assert scene.hint == scene._overlay().hint
    click_point(app, scene.hint)  # playing the hint removes it
    assert scene.hint is None


def test_running_out_of_time_ends_the_game(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle", time_control={"game_s": 1, "increment_s": 0, "move_s": 0})
    scene = app.current
    frames_until(app, lambda: scene.game.is_over, limit=2000)
    result = scene.game.result
    assert result.reason is Reason.TIMEOUT and result.winner is Color.WHITE
    assert "ran out of time" in scene._reason_text(result)  # not "was away too long"


def test_time_the_game_stood_still_is_not_charged_to_the_player(make_app) -> None:
    """Ctrl-Z in the terminal and `fg` later, or a laptop's sleep that the system clock counts
    (Windows does): no frame ran, nobody could move, yet the side to move lost that time, and
    on a short clock its game."""
    app = make_app()
    start(app, mode="local", rule="freestyle", time_control={"game_s": 60, "increment_s": 0, "move_s": 0})
    clock = app.current.game.clock
    app.frame()
    before = clock.remaining(Color.BLACK, time.monotonic())
    time.sleep(2.5)  # the process stands still: no frame
    app.frame()
    app.frame()
    assert before - clock.remaining(Color.BLACK, time.monotonic()) < 0.5
    time.sleep(0.3)  # and the clock runs on as before
    app.frame()
    assert 0.25 < before - clock.remaining(Color.BLACK, time.monotonic()) < 1.0


def test_autosave_brings_the_game_back_after_a_restart_of_the_app(make_app, tmp_path) -> None:
    home = tmp_path / "player"
    app = make_app(home=home)
    start(app, mode="ai", level="easy", human_color="black", rule="freestyle",
          time_control={"game_s": 300, "increment_s": 2, "move_s": 0})
    scene = app.current
    for point in [(7, 7), (6, 6)]:
        click_point(app, scene.game.board.legal_moves()[0] if scene.game.board[point] else point)
        frames_until(app, lambda: scene.game.to_move is Color.BLACK)
    moves = list(scene.game.board.moves)
    black_left = scene.game.clock.remaining(Color.BLACK, time.monotonic())
    app.quit()
    app.close()
    assert app.paths.autosave_file.exists()

    again = make_app(home=home)
    start(again, resume=True)
    restored = again.current
    assert restored.game.board.moves == moves
    assert restored.game.to_move is Color.BLACK
    assert restored.setup.mode == "ai" and restored.setup.level.value == "easy"
    assert restored.setup.human_color is Color.BLACK
    assert isinstance(restored.players[Color.WHITE], AIPlayer)
    assert restored.game.clock.control.game_s == 300
    assert abs(restored.game.clock.remaining(Color.BLACK, time.monotonic()) - black_left) < 1.0


def test_a_damaged_autosave_is_reported_kept_aside_and_the_menu_stays(make_app, tmp_path) -> None:
    home = tmp_path / "player"
    home.mkdir()
    (home / "autosave.gomoku").write_text("Gomoku record 1\nRule: chess\n", encoding="utf-8")
    app = make_app(home=home)
    start(app, resume=True)
    assert app.current_name == "menu"  # not a fresh game against the computer
    assert any(n.error and "could not be continued" in n.text for n in app.notices)
    assert (home / "autosave.gomoku.bak").exists()
    assert not (home / "autosave.gomoku").exists()
    assert not app.current.continue_button.visible
    app.frame()
    assert not (home / "autosave.gomoku").exists()  # leaving the board wrote no game back


def test_renju_forbidden_point_is_refused_with_the_reason(make_app) -> None:
    app = make_app()
    # Black has e8 f8 g8 _ i8 j8: h8 would make six (an overline), forbidden for black.
    moves = [(4, 7), (4, 2), (5, 7), (5, 2), (6, 7), (6, 2), (8, 7), (8, 2), (9, 7), (13, 13)]
    start(app, mode="local", rule="renju", moves=[list(m) for m in moves])
    scene = app.current
    assert (7, 7) in scene._overlay().forbidden
    click_point(app, (7, 7))
    assert scene.game.board.ply == len(moves)
    assert any("overline" in n.text for n in app.notices)


def test_save_opens_the_records_scene_and_comes_back_to_the_game(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    click_point(app, (7, 7))
    click_button(app, app.current.buttons["save"].rect)
    assert app.current_name == "records"
    app.switch("board", {"snapshot": app.current.record})
    app.frame()
    assert app.current.game.board.moves == [(7, 7)]


def test_review_after_the_end_steps_back_and_returns_to_the_finished_game(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    for x in range(4):
        click_point(app, (3 + x, 7))
        click_point(app, (3 + x, 9))
    click_point(app, (7, 7))
    click_button(app, app.current.end_buttons["review"].rect)
    assert app.current_name == "review"
    assert app.current.ply == 9
    press(app, pygame.K_LEFT)
    assert app.current.ply == 8
    press(app, pygame.K_ESCAPE)
    assert app.current_name == "board"
    result = app.current.game.result
    assert result is not None and result.winner is Color.BLACK and app.current.game.board.ply == 9


def test_bad_enter_data_is_reported_and_a_game_still_starts(make_app, tmp_path) -> None:
    app = make_app()
    start(app, mode="chess", level="insane", human_color="green", size=99,
          time_control={"game_s": -5}, moves="h8")
    assert app.current_name == "board"
    texts = " ".join(n.text for n in app.notices)
    assert "level" in texts and "colour" in texts and "size" in texts
    click_point(app, (7, 7))
    assert app.current.game.board.moves == [(7, 7)]
    start(app, record_path=str(tmp_path / "missing.gomoku"), mode="local")
    assert any("missing.gomoku" in n.text for n in app.notices)
    assert app.current.game.board.ply == 0


def test_undo_while_the_computer_thinks_cancels_the_search(make_app) -> None:
    app = make_app()
    start(app, mode="ai", level="hard", human_color="black", rule="freestyle")
    scene = app.current
    click_point(app, (7, 7))
    frames_until(app, lambda: scene.players[Color.WHITE].thinking)
    press(app, pygame.K_u)
    assert scene.game.board.ply == 0 and scene.game.to_move is Color.BLACK
    assert not scene.players[Color.WHITE].thinking
    for _ in range(30):  # the cancelled search's answer, if any, must not land
        app.frame()
        time.sleep(0.01)
    assert scene.game.board.ply == 0


def test_the_menu_offers_continue_only_while_a_game_is_open(make_app, tmp_path) -> None:
    home = tmp_path / "player"
    app = make_app(home=home)
    start(app, mode="local", rule="freestyle")
    click_point(app, (7, 7))
    press(app, pygame.K_ESCAPE)  # back to the menu: the game is kept
    assert app.current_name == "menu" and app.current.continue_button.visible
    click_button(app, app.current.continue_button.rect)
    assert app.current_name == "board" and app.current.game.board.moves == [(7, 7)]
    scene = app.current
    for x in range(4):
        click_point(app, (3 + x, 9))
        click_point(app, (8 + x, 7) if x else (8, 8))
    click_point(app, (7, 9))  # white completes d9-h9
    assert scene.game.is_over and scene.game.result.winner is Color.WHITE
    press(app, pygame.K_ESCAPE)
    assert app.current_name == "menu" and not app.current.continue_button.visible


def test_a_remote_opponent_is_asked_before_an_undo(make_app) -> None:
    from gomoku.ui.players import RemotePlayer

    app = make_app()
    start(app, mode="local", rule="freestyle", human_color="black")
    scene = app.current
    sent: list[dict] = []
    remote = RemotePlayer(Color.WHITE, "Friend", sent.append)
    scene.players[Color.WHITE] = remote
    click_point(app, (7, 7))
    assert sent[-1] == {"type": "move", "point": [7, 7]}  # our move went to the friend
    remote.receive_move((8, 8))
    app.frame()
    assert scene.game.board.moves == [(7, 7), (8, 8)]
    press(app, pygame.K_u)
    assert sent[-1] == {"type": "undo_request"}
    assert scene.game.board.ply == 2  # nothing happens before the answer
    remote.receive_answer(True)
    app.frame()
    assert scene.game.board.ply == 0  # our stone and the friend's reply
    click_point(app, (7, 7))
    remote.receive_move((8, 8))
    app.frame()
    press(app, pygame.K_u)
    remote.receive_answer(False)
    app.frame()
    assert scene.game.board.moves == [(7, 7), (8, 8)]
    assert any("did not agree" in n.text for n in app.notices)


def test_when_the_engine_cannot_load_the_computer_stops_with_a_message(make_app, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "gomoku.engine.worker", None)  # the import fails, as without numba
    app = make_app()
    frames_until(app, lambda: app.engine_error is not None, limit=500)
    assert isinstance(app.engine_error, ImportError)
    start(app, mode="ai", level="easy", human_color="white", rule="freestyle")  # the computer opens
    for _ in range(5):
        app.frame()
    scene = app.current
    assert scene.game.board.ply == 0
    assert scene.status == "The computer cannot play"
    assert any(n.error and n.text.startswith("The computer cannot play") for n in app.notices)

    start(app, mode="ai", level="easy", human_color="black", rule="freestyle")
    press(app, pygame.K_h)  # no hint either, and no waiting for one
    assert app.current._hint_request is None
    assert any(n.text.startswith("No hints: the computer cannot play") for n in app.notices)
    click_point(app, (7, 7))  # the player's stone still lands; the computer's turn then stops
    app.frame()
    assert app.current.game.board.moves == [(7, 7)]
    assert app.current.status == "The computer cannot play"


def test_quitting_right_after_a_move_keeps_it_for_continue(make_app, tmp_path) -> None:
    home = tmp_path / "player"
    app = make_app(home=home)
    start(app, mode="local", rule="freestyle")
    click_point(app, (7, 7))
    click_point(app, (8, 8))
    pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window closes in the next frame
    app.frame()
    assert not app.running
    app.close()

    again = make_app(home=home)
    menu = again.current
    assert again.current_name == "menu" and menu.continue_button.visible
    click_button(again, menu.continue_button.rect)
    assert again.current_name == "board"
    assert again.current.game.board.moves == [(7, 7), (8, 8)]


SECOND_COPY = """
import sys
from pathlib import Path
import pygame
from gomoku.ui.app import App, AppOptions
app = App(AppOptions(windowed=True, size=(1280, 800), home=Path(sys.argv[1])))
app.frame()
print([notice.text for notice in app.notices], app.current.continue_button.visible)
app.switch("board", {"mode": "local", "rule": "freestyle"})
app.frame()
for point in ((0, 0), (0, 1)):  # a game of its own, two stones
    pos = app.current.view.geometry.center(point)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.frame()
print(app.current.game.board.ply, "already open" in app.notices[-1].text)  # said again as the game starts
app.close()
"""


def test_a_second_copy_of_the_game_on_the_same_files_leaves_the_firsts_autosave_alone(make_app, tmp_path) -> None:
    """Launched twice (or two windows for a LAN duel on one computer): the second copy's own
    game overwrote the first one's autosave, so a crash of the first lost its game."""
    home = tmp_path / "player"
    first = make_app(home=home)
    start(first, mode="local", rule="freestyle")
    for point in ((7, 7), (8, 8), (7, 8)):
        click_point(first, point)
    assert first.current.autosaver is not None and first.current.autosaver.flush()
    second = subprocess.run([sys.executable, "-c", SECOND_COPY, str(home)], capture_output=True, text=True,
                            timeout=120, env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"))
    assert second.returncode == 0, second.stderr[-2000:]
    notices, stones = second.stdout.strip().splitlines()[-2:]
    assert "Gomoku is already open with these files" in notices and notices.endswith("False")  # no Continue
    assert stones == "2 True"  # the second copy plays; it only keeps no autosave, and says so again
    first.close()  # its three stones, not the second copy's two, are what Continue offers next

    again = make_app(home=home)
    assert again.current.continue_button.visible and not again.notices
    click_button(again, again.current.continue_button.rect)
    assert again.current.game.board.moves == [(7, 7), (8, 8), (7, 8)]


def test_a_rematch_at_4k_keeps_the_drawn_board_instead_of_making_it_again(make_app) -> None:
    app = make_app(size=(3840, 2160))
    moves = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8)]
    start(app, mode="local", rule="freestyle", moves=[list(p) for p in moves])
    scene = app.current
    drawn = scene.view._static
    click_point(app, (11, 7))  # five: the game ends with the banner
    assert scene.game.is_over
    click_button(app, scene.end_buttons["rematch"].rect)
    assert scene.game.board.ply == 0 and not scene.game.is_over
    assert scene.view._static is drawn  # no second of redrawing the wood at 4K


def _shade_at(app: App, point: tuple[int, int]) -> int:
    """Mean brightness on screen a little off the point's intersection (clear of the grid lines)."""
    x, y = app.current.view.geometry.center(point)
    offset = round(app.current.view.geometry.cell * 0.22)
    r, g, b, _ = app.screen.get_at((x - offset, y - offset))
    return (r + g + b) // 3


def test_the_screen_shows_each_new_stone_and_loses_it_on_undo(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    wood = _shade_at(app, (7, 7))
    click_point(app, (7, 7))
    click_point(app, (3, 3))
    app.frame()
    assert _shade_at(app, (7, 7)) < wood - 80  # black, now one of the settled stones
    assert _shade_at(app, (3, 3)) > wood + 30  # white, the newest
    click_button(app, app.current.buttons["undo"].rect)
    click_button(app, app.current.buttons["undo"].rect)
    app.frame()
    assert app.current.game.board.ply == 0
    assert abs(_shade_at(app, (7, 7)) - wood) < 12 and abs(_shade_at(app, (3, 3)) - _shade_at(app, (4, 4))) < 12


def test_resign_asks_once_and_the_question_goes_when_answered_or_forgotten(make_app) -> None:
    app = make_app()
    start(app, mode="ai", level="easy", human_color="black", rule="freestyle")
    scene = app.current
    question = "Press Resign again to confirm."
    click_button(app, scene.buttons["resign"].rect)
    assert [n.text for n in app.notices] == [question]
    for _ in range(int(3.2 * 60)):  # not confirmed within 3 s: the question is withdrawn
        app.frame()
    assert question not in [n.text for n in app.notices] and not scene.game.is_over
    click_button(app, scene.buttons["resign"].rect)
    click_button(app, scene.buttons["resign"].rect)
    assert scene.game.is_over and scene.game.result.reason is Reason.RESIGN
    assert question not in [n.text for n in app.notices]
    assert scene._reason_text(scene.game.result) == "You resigned  ·  0 moves"


def test_renju_says_what_the_red_crosses_mean_while_they_show(make_app) -> None:
    app = make_app()
    moves = [(4, 7), (4, 2), (5, 7), (5, 2), (6, 7), (6, 2), (8, 7), (8, 2), (9, 7), (13, 13)]
    start(app, mode="local", rule="renju", moves=[list(m) for m in moves])
    app.frame()
    scene = app.current
    assert scene._keys_text().startswith("Red crosses: points black may not play")
    click_point(app, (0, 14))  # black plays elsewhere: white to move, no crosses, the keys again
    app.frame()
    assert scene._overlay().forbidden == frozenset()
    assert scene._keys_text().startswith("Arrows + Enter play")


def test_a_notice_that_goes_away_leaves_no_trace_on_the_board(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    app.notify("Something to read for a moment.")
    app.frame()
    (_, rect), = app._notice_rects()
    spot = (rect.centerx, rect.centery)
    assert app.screen.get_at(spot) != app.current._backdrop.get_at(spot)  # the banner is on top
    for _ in range(20):
        app.frame(dt=1.0)
    assert app.notices == []
    app.frame()
    assert app.screen.get_at(spot) == app.current._backdrop.get_at(spot)


@pytest.mark.parametrize("last", [(7, 2), (7, 12)])
def test_after_a_resignation_the_banner_leaves_the_last_stone_in_view(make_app, last) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle", moves=[[7, 7], [8, 8], list(last)])
    scene = app.current
    click_button(app, scene.buttons["resign"].rect)
    click_button(app, scene.buttons["resign"].rect)
    app.frame()
    assert scene.game.is_over
    assert not scene.banner_rect.collidepoint(scene.view.geometry.center(last))


def test_an_unchanged_board_is_not_presented_again_but_a_move_or_a_notice_is(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    app.frame()
    presented = idle_frames(app, 5)  # nothing changed: no round trip to the display
    click_point(app, (7, 7))
    app.frame()
    assert app.frames_presented > presented
    presented = app.frames_presented
    app.notify("A message on top.")
    app.frame()
    app.frame()
    assert app.frames_presented == presented + 2


def test_the_end_banner_hides_no_stone_of_a_winning_line_across_the_middle(make_app) -> None:
    app = make_app()
    black = [(3, 9), (4, 8), (5, 7), (6, 6)]  # d6 .. g9, then h10 wins across the middle rows
    white = [(0, 0), (0, 2), (0, 4), (0, 14)]
    moves = [p for pair in zip(black, white, strict=True) for p in pair]
    start(app, mode="local", rule="freestyle", moves=[list(p) for p in moves])
    click_point(app, (7, 5))
    app.frame()
    scene = app.current
    assert scene.game.is_over
    geometry = scene.view.geometry
    radius = geometry.stone_radius
    for point in scene.game.result.line:
        stone = pygame.Rect(0, 0, 2 * radius, 2 * radius)
        stone.center = geometry.center(point)
        assert not scene.banner_rect.colliderect(stone)


def test_the_arrow_keys_and_enter_play_without_a_mouse(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle")
    scene = app.current
    press(app, pygame.K_UP)  # the first press shows the cursor in the middle
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_SPACE)
    app.frame()
    assert scene.game.board.moves == [(7, 7), (8, 8)]
    assert scene._overlay().cursor == (8, 8)  # marked even on a stone
    for _ in range(20):
        press(app, pygame.K_LEFT)  # stops at the edge
    assert scene.hover == (0, 8)
    press(app, pygame.K_RETURN)
    assert scene.game.board.moves[-1] == (0, 8)


@pytest.mark.parametrize("window", [(800, 600), (1024, 768), (640, 400)])
def test_a_narrow_window_keeps_a_panel_wide_enough_for_names_and_status(make_app, window) -> None:
    app = make_app(size=window)
    start(app, mode="ai", level="easy", human_color="black", rule="freestyle")
    scene = app.current
    theme = app.theme
    assert scene.panel_rect.width >= theme.px(330)
    assert scene.board_area.height >= 0.8 * window[1]
    assert theme.font(theme.text_px, True).size(scene.status)[0] <= scene._status_rect.width
    name_room = scene._card_rects[Color.WHITE].width - theme.px(170)  # icon and clock beside it
    assert theme.font(theme.text_px, True).size("Computer")[0] <= name_room


@pytest.mark.parametrize("window", [(1280, 800), (640, 400)])
def test_after_five_every_stone_stays_in_view_and_the_result_card_sits_in_the_panel(make_app, window) -> None:
    app = make_app(size=window)
    black = [(3, 9), (4, 8), (5, 7), (6, 6)]  # h10 makes five across the middle
    white = [(7, 0), (5, 1), (9, 1), (11, 0)]  # near the top middle, where a banner would go
    moves = [p for pair in zip(black, white, strict=True) for p in pair]
    start(app, mode="local", rule="freestyle", moves=[list(p) for p in moves])
    wood = _shade_at(app, (10, 12))
    click_point(app, (7, 5))
    app.frame()
    scene = app.current
    assert scene.game.is_over and "wins" in scene.status
    for point in scene.game.board.moves:  # each stone shows its own colour, nothing over it
        shade = _shade_at(app, point)
        assert shade < wood - 50 if scene.game.board[point] == Color.BLACK else shade > wood + 30, point
    assert scene._overlay().winning_line == scene.game.result.line  # ringed
    card = scene.panel.result_rect
    assert card is not None and scene.panel_rect.contains(card) and not card.colliderect(scene.board_area)
    for button in scene.end_buttons.values():
        assert card.contains(button.rect)
    click_button(app, scene.end_buttons["review"].rect)
    assert app.current_name == "review"


def test_renju_ends_drawn_when_no_point_is_left_that_black_may_play(make_app) -> None:
    app = make_app()
    moves = parse_moves(NO_POINT_FOR_BLACK, 15)
    start(app, mode="local", rule="renju", moves=[list(p) for p in moves[:-1]])
    scene = app.current
    assert not scene.game.is_over and scene.game.to_move is Color.WHITE
    click_point(app, moves[-1])  # white's last stone leaves black three forbidden points
    app.frame()
    assert scene.game.is_over and scene.game.result.winner is None
    assert scene.status == "A draw"
    assert scene._reason_text(scene.game.result) == "No point is left that black may play  ·  222 moves"
    assert scene.panel.result_rect is not None


def test_an_undo_after_the_end_takes_the_result_card_away(make_app) -> None:
    app = make_app()
    moves = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (9, 8), (10, 7), (10, 8)]
    start(app, mode="local", rule="freestyle", moves=[list(p) for p in moves])
    scene = app.current
    click_point(app, (11, 7))
    assert scene.game.is_over and scene.panel.result_rect is not None
    press(app, pygame.K_u)  # two players: the winning stone goes back, the game goes on
    app.frame()
    assert not scene.game.is_over and scene.panel.result_rect is None
    assert scene.status.startswith("Player to move")


def _spend(scene, seconds: float) -> float:
    """The side to move has used `seconds` of its move (the clock is moved; nobody waits)."""
    now = time.monotonic()
    scene.game.clock.pause(now)
    scene.game.clock.resume(now - seconds)
    return now


def _longest_run(app: App, rect: pygame.Rect, colour: tuple[int, int, int], rows: range | None = None) -> int:
    """The longest horizontal run of `colour` on screen in `rows` (default: the lower third) of
    `rect`, borders left out."""
    inner = rect.inflate(-app.theme.px(24), 0)
    best = 0
    for y in rows or range(rect.bottom - rect.height // 3, rect.bottom - app.theme.px(6)):
        run = 0
        for x in range(inner.left, inner.right):
            run = run + 1 if app.screen.get_at((x, y))[:3] == colour else 0
            best = max(best, run)
    return best


def test_a_move_countdown_is_the_big_number_and_its_last_seconds_show_a_draining_red_bar(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle", moves=[[7, 7]],
          time_control={"game_s": 300, "increment_s": 0, "move_s": 30})
    scene = app.current
    now = _spend(scene, 23.0)  # white has 7 s left for this move, 4:37 on its game clock
    card = scene._card_content(Color.WHITE, now)
    assert card.clock == "0:07"  # the move's countdown is the big number, not the game clock
    assert card.detail == "game 4:37"
    assert card.warn and card.clock_colour == app.theme.colors.warning
    assert card.pulse != scene._card_content(Color.WHITE, now + 0.5).pulse  # the border pulses
    assert scene._card_content(Color.BLACK, now).clock == "5:00"  # waiting: its game time
    app.frame()
    rect = scene._card_rects[Color.WHITE]
    track = rect.width - app.theme.px(24)
    assert abs(_longest_run(app, rect, app.theme.colors.warning) - track * 7 / 30) <= track * 0.04
    assert _longest_run(app, scene._card_rects[Color.BLACK], app.theme.colors.warning) == 0


def test_with_only_a_move_limit_the_time_used_is_the_small_figure(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle", moves=[[7, 7]], time_control={"move_s": 30})
    scene = app.current
    now = _spend(scene, 12.5)
    white, black = scene._card_content(Color.WHITE, now), scene._card_content(Color.BLACK, now)
    assert white.clock == "0:18"  # the move's countdown, not the time used
    assert (white.detail, white.warn) == ("used 0:12", False)  # used rounds down: 12 + 18 = 30
    assert abs(white.bar - 17.5 / 30) < 0.01
    assert black.clock == "0:30" and black.detail.startswith("used ") and black.bar < 0  # its next move gets 30 s


def test_the_computer_thinking_shows_a_spinner_its_depth_and_the_time_spent_against_its_budget(make_app) -> None:
    app = make_app()
    start(app, mode="ai", level="hard", human_color="black", rule="freestyle")
    scene = app.current
    click_point(app, (7, 7))
    computer = scene.players[Color.WHITE]
    frames_until(app, lambda: computer.thinking and computer.depth >= 1)  # the last frame drew it
    rect = scene._card_rects[Color.WHITE]
    middle = range(rect.top + rect.height * 2 // 5, rect.bottom - rect.height // 4)  # the row under the name
    assert _longest_run(app, rect, app.theme.colors.button, middle) >= app.theme.px(60)  # the budget's bar
    now = time.monotonic()
    card, later = scene._card_content(Color.WHITE, now), scene._card_content(Color.WHITE, now + 0.5)
    assert card.kind == f"depth {computer.depth}"
    assert computer.budget_s == DEFAULT_BUDGET_S[Level.HARD]  # the search's own limit
    assert 0 <= card.think < later.think <= 1 and abs(later.think - card.think - 0.25) < 0.05  # 0.5 s of 2 s
    assert card.spin != later.spin  # the spinner turns


def test_a_side_out_of_time_shows_no_time_left_and_the_time_it_used(make_app) -> None:
    # The card had gone back to "0:10" (what a next move gets) and left the lost move's
    # 10 s out of the time used, beside "Your time ran out".
    app = make_app()
    start(app, mode="local", rule="freestyle", moves=[[7, 7]], time_control={"move_s": 10})
    scene = app.current
    app.frame()
    now = _spend(scene, 10.5)
    assert scene.game.check_clock(now) is not None and scene.game.result.reason is Reason.TIMEOUT
    white = scene._card_content(Color.WHITE, now + 5)
    assert white.clock == "0:00" and white.detail == "used 0:10"


def test_an_untimed_clock_is_labelled_as_time_used(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle", moves=[[7, 7]])
    scene = app.current
    # A stopwatch rounds down: a quick move has used 0:00, not a second it never took.
    assert scene._card_content(Color.WHITE, _spend(scene, 0.3)).clock == "0:00"
    now = _spend(scene, 1.3)  # 1.6 s in all
    white = scene._card_content(Color.WHITE, now)
    assert white.detail == "time used" and white.clock == "0:01"  # not a clock running out


def test_a_short_move_limit_warns_only_in_its_last_seconds(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle", moves=[[7, 7]], time_control={"move_s": 10})
    scene = app.current
    now = _spend(scene, 5.0)  # half of a 10 s move left: no red, no pulse, no tick yet
    card = scene._card_content(Color.WHITE, now)
    assert card.clock == "0:05" and not card.warn and card.clock_colour != app.theme.colors.warning
    scene._tick_countdown(now)
    assert scene._last_tick is None
    now = _spend(scene, 3.0)  # 3 s more, 2 s left: the warning (the last 30% of the move)
    card = scene._card_content(Color.WHITE, now)
    assert card.warn and card.clock_colour == app.theme.colors.warning
    scene._tick_countdown(now)
    assert scene._last_tick == 2


def test_a_long_move_limit_warns_in_its_last_ten_seconds(make_app) -> None:
    app = make_app()
    start(app, mode="local", rule="freestyle", moves=[[7, 7]], time_control={"move_s": 60})
    scene = app.current
    assert not scene._card_content(Color.WHITE, _spend(scene, 49.0)).warn  # 11 s left
    assert scene._card_content(Color.WHITE, _spend(scene, 2.0)).warn  # 2 s more, 9 s left
