"""The review scene: step through a game with the keys and buttons, and play on from a move."""

from __future__ import annotations

import time

import pygame
from app_input import click, idle_frames, press

from gomoku.core.records import GameRecord
from gomoku.core.types import Color, Rule
from gomoku.engine.api import Level, SearchResult
from gomoku.ui.app import App
from gomoku.ui.scenes.review import best_move_text

MOVES = [(7, 7), (8, 7), (7, 8), (8, 8), (7, 9), (8, 9), (7, 10), (8, 10), (7, 11)]  # black wins down h


def frames_until(app: App, condition, limit: int = 6000) -> None:
    for _ in range(limit):
        if condition():
            return
        app.frame()
        time.sleep(0.005)  # the engine's thread runs meanwhile
    raise AssertionError("the condition never came true")


def _record() -> GameRecord:
    return GameRecord(rule=Rule.FREESTYLE, size=15, black="Ann", white="Bob", moves=list(MOVES),
                      times=[1.0] * len(MOVES), result="black", reason="five")


def test_review_starts_at_the_end_and_steps_with_the_arrow_keys(app: App) -> None:
    app.switch("review", {"record": _record()})
    app.frame()
    scene = app.current
    assert scene.ply == len(MOVES)
    assert scene.board.outcome() is not None  # the winning line shows at the end
    press(app, pygame.K_LEFT)
    assert scene.ply == len(MOVES) - 1
    assert scene.board.moves == MOVES[:-1]
    press(app, pygame.K_HOME)
    assert scene.ply == 0 and scene.board.ply == 0
    press(app, pygame.K_LEFT)  # nothing before the start
    assert scene.ply == 0
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert scene.board.moves == MOVES[:2]
    press(app, pygame.K_END)
    assert scene.ply == len(MOVES)
    press(app, pygame.K_RIGHT)  # nothing after the end
    assert scene.ply == len(MOVES)


def test_review_buttons_step_too(app: App) -> None:
    app.switch("review", {"record": _record(), "ply": 3})
    app.frame()
    scene = app.current
    assert scene.ply == 3
    click(app, scene.step_buttons["forward"].rect)
    assert scene.ply == 4
    click(app, scene.step_buttons["back"].rect)
    click(app, scene.step_buttons["back"].rect)
    assert scene.ply == 2
    click(app, scene.step_buttons["first"].rect)
    assert scene.ply == 0
    click(app, scene.step_buttons["last"].rect)
    assert scene.ply == len(MOVES)


def test_play_on_from_a_move_starts_a_game_there(app: App) -> None:
    app.switch("review", {"record": _record(), "ply": 4})
    app.frame()
    click(app, app.current.play_local.rect)
    assert app.current_name == "board"
    assert app.current.game.board.moves == MOVES[:4]
    assert app.current.setup.mode == "local"
    # The same two players play on, not "Player" and "Guest".
    assert [app.current.game.player(color).name for color in Color] == ["Ann", "Bob"]


def test_play_on_with_a_name_we_would_not_accept_uses_the_settings_one(app: App) -> None:
    record = _record()
    record.white = "B" * 30  # a long name from another program's file
    app.switch("review", {"record": record, "ply": 4})
    app.frame()
    click(app, app.current.play_local.rect)
    assert [app.current.game.player(color).name for color in Color] == ["Ann", "Guest"]
    assert not app.notices  # nothing to complain about: the settings' name stands in


def test_play_on_from_the_decided_end_is_refused(app: App) -> None:
    app.switch("review", {"record": _record()})
    app.frame()
    click(app, app.current.play_ai.rect)
    assert app.current_name == "review"
    assert any("decided" in notice.text for notice in app.notices)


def test_escape_goes_back_where_review_came_from(app: App) -> None:
    app.switch("review", {"record": _record(), "back": "records"})
    app.frame()
    press(app, pygame.K_ESCAPE)
    assert app.current_name == "records"


def test_review_without_a_record_says_so(app: App) -> None:
    app.switch("review", {})
    app.frame()
    assert app.current.ply == 0
    assert any("no game to review" in notice.text for notice in app.notices)


def test_an_idle_review_is_not_presented_again_until_a_step(app: App) -> None:
    app.switch("review", {"record": _record()})
    frames_until(app, lambda: app.current.analysis.done)  # its progress line changes until then
    app.frame()
    presented = idle_frames(app, 5)
    press(app, pygame.K_LEFT)
    assert app.frames_presented == presented + 1
    assert app.current.ply == len(MOVES) - 1


def test_the_computer_shows_its_move_at_the_move_shown(app: App) -> None:
    # Review had no way to ask where a game went wrong: now H (or the bulb) asks hard.
    app.switch("review", {"record": _record(), "ply": 2})
    frames_until(app, lambda: app.engine_ready(Level.HARD))
    scene = app.current
    press(app, pygame.K_h)  # an open position: hard takes its 2 s
    assert scene._text_lines() == ["The computer is thinking..."]  # in place of the keys line
    assert not scene.best_button.enabled
    press(app, pygame.K_RIGHT)  # stepping while it thinks drops that search
    assert scene._best_request is None and scene.best is None
    frames_until(app, lambda: not app.engine.busy)
    app.frame()
    assert scene.best is None  # nothing from the dropped search lands on this move
    scene.go_to(6)  # black to move: an open four wins
    press(app, pygame.K_h)
    frames_until(app, lambda: scene.best is not None)
    assert scene.best in [(7, 10), (7, 6)]  # either end of black's three makes the open four
    assert scene.best_text.startswith("Black wins by force with h")
    assert scene._text_lines() == [scene.best_text]
    assert not scene.best_button.enabled  # answered for this move
    press(app, pygame.K_LEFT)  # another position: the answer goes
    assert scene.best is None and scene.best_text == "" and scene.best_button.enabled


def test_asked_while_the_engine_is_prepared_the_answer_comes_by_itself(app: App, monkeypatch) -> None:
    frames_until(app, lambda: app.engine_ready(Level.EASY))
    ready = {"now": False}
    real = app.engine_ready
    monkeypatch.setattr(app, "engine_ready", lambda level: ready["now"] and real(level))
    app.switch("review", {"record": _record(), "ply": 6})  # black to move: an open four wins
    scene = app.current
    press(app, pygame.K_h)
    for _ in range(5):
        app.frame()
    assert scene._text_lines() == ["The computer is getting ready; its answer comes by itself."]
    assert not scene.best_button.enabled and scene.best is None  # was: "ask again in a moment"
    ready["now"] = True
    frames_until(app, lambda: scene.best is not None)
    assert scene.best in [(7, 10), (7, 6)]
    ready["now"] = False  # (a stand-in: asked again while not ready, then stepped away)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_h)
    press(app, pygame.K_LEFT)
    ready["now"] = True
    for _ in range(50):
        app.frame()
    assert scene.best is None and scene._best_request is None and scene.ply == 4  # it was for move 5


def test_asking_at_the_decided_end_says_why_not(app: App) -> None:
    app.switch("review", {"record": _record()})
    app.frame()
    press(app, pygame.K_h)
    assert app.current._best_request is None
    assert any("decided at this move" in notice.text for notice in app.notices)


def test_the_answer_reads_as_a_player_would_say_it() -> None:
    def said(score: int, kind: str, side: Color = Color.WHITE) -> str:
        return best_move_text(SearchResult(move=(7, 7), score=score, info={"kind": kind}), side, "h8")

    assert said(0, "win") == "White makes five at h8."
    assert said(29_995, "search") == "White wins by force with h8: five in 3 moves."
    assert said(-29_984, "longest defence") == "Black wins by force (five in 8 moves); white's h8 holds out longest."
    assert said(0, "longest defence") == "Black wins by force; white's h8 holds out longest."
    assert said(0, "block", Color.BLACK) == "Black has to stop white's five at h8."
    assert said(-29_998, "block") == "Black wins by force (five in 1 move); white's h8 holds out longest."
    assert said(29_999, "search") == "White wins by force with h8: five in 1 move."
    assert said(140, "search") == "The computer would play h8 for white."  # no guess at who stands better


def test_a_renju_review_shows_where_black_may_not_play(app: App) -> None:
    # f8 g8 and h9 h10: h8 would make two open threes for black (a1 a3 a5 a7 for white).
    moves = [(5, 7), (0, 14), (6, 7), (0, 12), (7, 5), (0, 10), (7, 6), (0, 8)]
    record = GameRecord(rule=Rule.RENJU, size=15, black="Ann", white="Bob", moves=moves, times=[1.0] * len(moves))
    app.switch("review", {"record": record})
    app.frame()
    scene = app.current
    assert scene._overlay().forbidden == {(7, 7)}  # black to move: the cross at h8
    press(app, pygame.K_LEFT)  # white to move: no crosses
    assert scene._overlay().forbidden == frozenset()
    record.rule = Rule.FREESTYLE
    app.switch("review", {"record": record})
    app.frame()
    assert app.current._overlay().forbidden == frozenset()  # freestyle forbids nothing


def test_the_review_marks_the_moves_that_missed_or_let_in_a_five(app: App) -> None:
    # h8 g8 i8 a15 j8 a13 k8: black's four; white's a11 leaves it open, black's o1 leaves it
    # unplayed, white's l8 blocks at last.
    moves = [(7, 7), (6, 7), (8, 7), (0, 0), (9, 7), (0, 2), (10, 7), (0, 4), (14, 14), (11, 7)]
    record = GameRecord(rule=Rule.FREESTYLE, size=15, black="Ann", white="Bob", moves=moves, times=[1.0] * len(moves))
    app.switch("review", {"record": record, "ply": 3})
    scene = app.current
    assert scene._text_lines()[0].startswith("The computer looks for forced wins: 0 of 11 positions")
    frames_until(app, lambda: scene.analysis.done)
    assert scene.analysis.notes[8] == "After a11, black wins by force."
    assert scene.analysis.notes[9] == "Black could win by force with l8."
    assert scene.move_list.marks == {move: "?" for move in scene.analysis.notes}  # "?" in the list
    assert "8 (a11), 9 (o1)" in scene.analysis.summary()
    assert scene._text_lines()[0].startswith("Marked ?: moves")  # at move 3, which has no note
    press(app, pygame.K_END)
    press(app, pygame.K_LEFT)  # move 9: its note in place of the summary
    assert scene._text_lines() == ["? Black could win by force with l8."]
    scene.resize((800, 1000))  # a portrait window: the panel under the board keeps the line
    assert scene.panel_rect.top > scene.board_area.bottom
    assert scene._text_lines() == ["? Black could win by force with l8."]
    scene.resize((1280, 800))
    press(app, pygame.K_h)  # the player's own question pauses nothing that is lost
    frames_until(app, lambda: scene.best is not None)
    assert scene.best == (11, 7) and scene.analysis.done


def test_a_move_that_wins_another_way_is_not_marked(app: App) -> None:
    # At move 7 black could make an open four at g8 or k8: k8, not the computer's choice, wins too.
    moves = [(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (14, 14), (10, 7), (0, 4), (11, 7)]
    record = GameRecord(rule=Rule.FREESTYLE, size=15, black="Ann", white="Bob", moves=moves,
                        times=[1.0] * len(moves), result="black", reason="five")
    app.switch("review", {"record": record})
    scene = app.current
    frames_until(app, lambda: scene.analysis.done)
    before = scene.analysis.looks[6]  # black to move: the computer's own win is the other end
    assert before.info["kind"] == "open four" and before.move == (6, 7)
    assert 7 not in scene.analysis.notes  # k8 is not blamed: white is lost after it as well
    assert scene.analysis.looks[7].score < 0 and scene.analysis.looks[7].info["kind"] == "block"


def test_the_same_game_reviewed_again_keeps_its_analysis(app: App) -> None:
    app.switch("review", {"record": _record()})
    scene = app.current
    frames_until(app, lambda: scene.analysis.done)
    looks = list(scene.analysis.looks)
    app.switch("menu", {})
    app.switch("review", {"record": _record()})  # loaded again: an equal record, not the same object
    assert app.current.analysis.done and app.current.analysis.looks == looks  # no half minute again
    other = _record()
    other.moves = other.moves[:-1]
    app.switch("review", {"record": other})
    assert app.current.analysis.looked == 0  # another game is looked at afresh


def test_a_duel_the_host_ended_against_the_board_reads_as_unfinished_and_says_what_the_host_said(app: App) -> None:
    from layout_checks import text_sizes

    record = GameRecord(rule=Rule.FREESTYLE, size=15, black="Alice", white="Bob", moves=MOVES[:4],
                        times=[1.0] * 4, extra={"declared": {"result": "white", "reason": "five"}})
    with text_sizes() as drawn:
        app.switch("review", {"record": record})
        app.frame()
    texts = [text for _, text in drawn]
    assert "Unfinished · the host said Bob won with five in a row" in texts, [t for t in texts if "nfinish" in t]
