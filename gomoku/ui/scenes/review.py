"""The review scene: step through a finished or loaded game, move by move, and ask the
computer for its move at any of them. Meanwhile the computer looks at every position for a
forced win missed or let in (gomoku.ui.analysis) and marks those moves "?".

Enter data: {"record": GameRecord, "ply": int (where to start; default the end),
"back": scene name for Back/Esc (default "menu"), "back_data": dict for that scene}.
Keys: Left/Right one move, Home/End the start and the end, H the computer's move, Esc back.
"""

from __future__ import annotations

from typing import Any

import pygame

from gomoku.core.board import Board
from gomoku.core.notation import format_point
from gomoku.core.records import GameRecord
from gomoku.core.settings import check_value
from gomoku.core.types import Color, Point, Rule
from gomoku.engine.api import FORCED_SCORE, WIN_SCORE, Level, Position, SearchLimit, SearchResult
from gomoku.ui.analysis import GameAnalysis, forced
from gomoku.ui.board_view import MIN_PANEL_W, BoardView, Overlay, arrange
from gomoku.ui.move_list import MoveList
from gomoku.ui.players import EngineSession
from gomoku.ui.scene import Scene
from gomoku.ui.widgets import Button, blit_text, wrap_text

WAITING_TEXT = "The computer is getting ready; its answer comes by itself."
TEXT_LINES = 2  # the lines under the step buttons: the analysis and the computer's answer
BEST_LIMIT = SearchLimit(time_s=2.0)  # hard's own pace in a game: a reviewer can wait for it
RESULT_TEXT = {"draw": "A draw (the board is full)", "": "Unfinished game"}
HOW_TEXT = {
    "five": "with five in a row",
    "resign": "by resignation",
    "timeout": "on time",
    "disconnect": "by disconnection",
}


class ReviewScene(Scene):
    """Shows one record at any ply; the record itself is never changed."""

    name = "review"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        theme = app.theme
        self.record = GameRecord()
        self.board = Board()
        self.view = BoardView(15)
        self.back = "menu"
        self.back_data: dict[str, Any] = {}
        self.board_area = pygame.Rect(0, 0, 600, 600)
        self.panel_rect = pygame.Rect(600, 0, 400, 600)
        self.step_buttons = {
            "first": Button(theme, "|<", hotkey=pygame.K_HOME, icon="first", tooltip="Start (Home)"),
            "back": Button(theme, "<", hotkey=pygame.K_LEFT, icon="back", tooltip="One move back (Left)"),
            "forward": Button(theme, ">", hotkey=pygame.K_RIGHT, icon="forward",
                              tooltip="One move on (Right)"),
            "last": Button(theme, ">|", hotkey=pygame.K_END, icon="last", tooltip="End (End)"),
        }
        self.best_button = Button(theme, "?", hotkey=pygame.K_h, icon="hint", tooltip="The computer's move here (H)")
        self.play_local = Button(theme, "Play on: two players")
        self.play_ai = Button(theme, "Play on: vs computer")
        self.back_button = Button(theme, "Back", hotkey=pygame.K_ESCAPE)
        self._in_duel = False  # reviewed from a LAN duel: no Play on (a game beside it would leave it hanging)
        self.move_list = MoveList(theme)
        self._header_rects: list[pygame.Rect] = []
        self._counter_rect = pygame.Rect(0, 0, 0, 0)
        self._text_rect = pygame.Rect(0, 0, 0, 0)
        self._text_room = TEXT_LINES  # how many lines fit there (0 on a short panel: notices instead)
        self.engine = EngineSession()  # the app's worker, attached when first asked
        self.best: Point | None = None  # the computer's move at this ply, once it answered
        self.best_text = ""  # what its answer says, in words
        self._best_request: int | None = None
        self._best_waiting = False  # asked while the engine was being prepared: sent once it is ready
        self.analysis = GameAnalysis(GameRecord())  # a look at every position, in the background
        self._forbidden: tuple[int, frozenset[Point]] = (-1, frozenset())  # (ply, black's forbidden points)

    @property
    def ply(self) -> int:
        """How many moves of the record are on the board now."""
        return self.board.ply

    @property
    def total(self) -> int:
        return len(self.record.moves)

    def enter(self, data: dict[str, Any]) -> None:
        record = data.get("record")
        self.back = str(data.get("back") or "menu")
        self.back_data = dict(data.get("back_data") or {})
        if not isinstance(record, GameRecord):
            self.app.notify("There is no game to review.", error=True)
            record = GameRecord()
        self.record = record
        self._in_duel = self.back_data.get("mode") == "lan"  # reviewed from a LAN duel's result
        self.play_local.visible = self.play_ai.visible = not self._in_duel
        self.back_button.text = "Back to the duel" if self._in_duel else "Back"
        self._forbidden = (-1, frozenset())
        self._forget_best()
        self.analysis.pause(self.engine)
        if not self.analysis.covers(record):  # the same game again keeps what was found
            self.analysis = GameAnalysis(record)
        self.board = Board(record.size, record.rule)
        if self.view.size != record.size:
            self.view = BoardView(record.size)
        self.resize(self.app.screen_size)
        target = data.get("ply")
        self.go_to(target if isinstance(target, int) else self.total)

    def go_to(self, ply: int) -> None:
        """Show the position after `ply` moves (clamped to the game)."""
        ply = max(0, min(self.total, ply))
        if ply != self.board.ply:
            self._forget_best()
            if not self._text_room and ply in self.analysis.notes:  # no line for it on a short panel
                self.app.notify("? " + self.analysis.notes[ply])
        while self.board.ply > ply:
            self.board.pop()
        while self.board.ply < ply:
            x, y = self.record.moves[self.board.ply]
            try:
                self.board.push(x, y)
            except ValueError as error:  # a record is checked on load; this guards hand-made ones
                self.app.notify(f"The record stops at move {self.board.ply + 1}: {error}", error=True)
                self.record.moves = self.record.moves[: self.board.ply]
                return

    def _header_heights(self) -> list[int]:
        """The heights of the three header lines: the players, the rule, the result."""
        theme = self.app.theme
        return [px + theme.px(6) for px in (theme.text_px, theme.small_px + theme.px(2), theme.small_px + theme.px(2))]

    def resize(self, size: tuple[int, int]) -> None:
        theme = self.app.theme
        pad, button_h = theme.pad, theme.control_h
        header_h = sum(self._header_heights()) + 2 * theme.px(6)
        # Under the board (a tall or square window): the header, the counter, the step buttons
        # and a line of text beside the move list, the Play on and Back buttons in a row below.
        line_h = theme.font(theme.small_px).get_linesize()
        below_h = (2 * pad + header_h + pad + theme.heading_px + pad + button_h + pad + line_h + pad + button_h
                   + 2 * pad)
        self.board_area, self.panel_rect, below = arrange(size, theme.px, max(theme.px(380), MIN_PANEL_W),
                                                          below_h, theme.px(600))
        self.view.layout(self.board_area)
        if below:
            self._layout_wide()
        else:
            self._layout_tall()
        self.move_list.visible = self.move_list.rect.height >= 2 * self.move_list.line_h

    def _place_header(self, left: int, top: int, width: int) -> int:
        """The players, rule and result lines from `top`; returns the bottom of the last."""
        theme = self.app.theme
        self._header_rects = []
        for height in self._header_heights():
            rect = pygame.Rect(left + theme.pad // 2, top, width - theme.pad, height)  # as the board panel's title
            self._header_rects.append(rect)
            top = rect.bottom + theme.px(6)
        return top

    def _layout_tall(self) -> None:
        theme = self.app.theme
        pad, button_h = theme.pad, theme.control_h
        inner = self.panel_rect.inflate(-2 * pad, -2 * pad)
        # Bottom up: Back, the two Play on buttons, the text lines, the step buttons, the counter.
        self.back_button.rect = pygame.Rect(inner.left, inner.bottom - button_h, inner.width, button_h)
        play_h, play_gap = (0, 0) if self._in_duel else (button_h, pad)
        self.play_ai.rect = pygame.Rect(inner.left, self.back_button.rect.top - play_gap - play_h, inner.width, play_h)
        self.play_local.rect = pygame.Rect(inner.left, self.play_ai.rect.top - play_gap - play_h, inner.width, play_h)
        self._text_room = TEXT_LINES
        text_h = theme.font(theme.small_px).get_linesize() * TEXT_LINES
        self._text_rect = pygame.Rect(inner.left, self.play_local.rect.top - 2 * pad - text_h, inner.width, text_h)
        steps_top = self._text_rect.top - pad - button_h
        list_top = self._place_header(inner.left, inner.top + pad, inner.width) + pad
        if steps_top - theme.heading_px - 2 * pad - list_top < 3 * self.move_list.line_h:
            self._text_room = 0  # a short panel: what the lines would say comes as notices
            self._text_rect = pygame.Rect(inner.left, self.play_local.rect.top, inner.width, 0)
            steps_top = self.play_local.rect.top - pad - button_h
        self._place_steps(pygame.Rect(inner.left, steps_top, inner.width, button_h))
        self._counter_rect = pygame.Rect(inner.left, steps_top - pad - theme.heading_px, inner.width, theme.heading_px)
        # The move list takes the room between the header and the counter.
        self.move_list.rect = pygame.Rect(inner.left, list_top, inner.width,
                                          max(0, self._counter_rect.top - pad - list_top))

    def _layout_wide(self) -> None:
        theme = self.app.theme
        pad, button_h = theme.pad, theme.control_h
        inner = self.panel_rect.inflate(-2 * pad, -2 * pad)
        row = pygame.Rect(inner.left, inner.bottom - button_h, inner.width, button_h)
        third = (row.width - 2 * pad) // 3
        for index, button in enumerate((self.play_local, self.play_ai, self.back_button)):
            button.rect = pygame.Rect(row.left + index * (third + pad), row.top, third, button_h)
        if self._in_duel:  # Back alone takes the row
            self.play_local.rect = self.play_ai.rect = pygame.Rect(row.left, row.top, 0, 0)
            self.back_button.rect = row.copy()
        list_w = max(self.move_list.min_width, round(inner.width * 0.3))
        left = pygame.Rect(inner.left, inner.top, inner.width - list_w - pad, row.top - pad - inner.top)
        self.move_list.rect = pygame.Rect(left.right + pad, inner.top, list_w, left.height)
        top = self._place_header(left.left, left.top + pad, left.width)
        self._counter_rect = pygame.Rect(left.left, top + pad, left.width, theme.heading_px)
        steps_top = self._counter_rect.bottom + pad
        self._place_steps(pygame.Rect(left.left, steps_top, left.width, button_h))
        # As many text lines as fit under the steps (resize keeps room for one).
        line_h = theme.font(theme.small_px).get_linesize()
        text_top = steps_top + button_h + pad
        self._text_room = max(0, min(TEXT_LINES, (left.bottom - text_top) // line_h))
        self._text_rect = pygame.Rect(left.left, text_top, left.width, self._text_room * line_h)

    def _place_steps(self, row: pygame.Rect) -> None:
        pad = self.app.theme.pad
        buttons = [*self.step_buttons.values(), self.best_button]
        step_w = (row.width - (len(buttons) - 1) * pad) // len(buttons)
        for index, button in enumerate(buttons):
            button.rect = pygame.Rect(row.left + index * (step_w + pad), row.top, step_w, row.height)

    def handle_event(self, event: pygame.event.Event) -> None:
        steps = {"first": 0, "back": self.ply - 1, "forward": self.ply + 1, "last": self.total}
        for key, button in self.step_buttons.items():
            if button.handle_event(event):
                self.go_to(steps[key])
                return
        if self.best_button.handle_event(event):
            self.request_best()
            return
        chosen = self.move_list.handle_event(event)
        if chosen is not None:
            self.go_to(chosen)  # a click on a move shows the position after it
            return
        if self.back_button.handle_event(event):
            self.app.switch(self.back, self.back_data)
        elif self.play_local.handle_event(event):
            self._play_on("local")
        elif self.play_ai.handle_event(event):
            self._play_on("ai")
        elif event.type == pygame.MOUSEWHEEL and not self.move_list.hover:
            self.go_to(self.ply - event.y)  # wheel up goes back in the game

    def leave(self) -> None:
        self._forget_best()
        self.analysis.pause(self.engine)

    def request_best(self) -> None:
        """Ask the computer (hard, at its own pace) what it would play at the move shown."""
        if self.board.is_game_over():
            self.app.notify("The game is decided at this move; step back to ask the computer.")
            return
        if self._best_request is not None or self.best is not None or self._best_waiting:
            return  # asked already: the answer is coming or shown
        if not self.engine.bind(self.app) or not self.engine.ready_for(Level.HARD):
            if self.app.engine_error is not None:
                self.app.notify(f"The computer cannot play ({self.app.engine_error}).", error=True)
            else:  # asked for once: update() sends it when the engine is ready
                self._best_waiting = True
                if not self._text_room:  # a short panel has no line to say so
                    self.app.notify(WAITING_TEXT)
            return
        self.analysis.pause(self.engine)  # the player's question first; the look goes on after
        self._best_request = self.engine.submit(Position.from_board(self.board), Level.HARD, BEST_LIMIT)

    def _forget_best(self) -> None:
        """Another position: its answer (or the search for it) no longer applies."""
        self.engine.cancel(self._best_request)
        self._best_request = None
        self._best_waiting = False
        self.best = None
        self.best_text = ""

    def update(self, dt: float) -> None:
        if self._best_waiting and (self.app.engine_error is not None
                                   or self.engine.bind(self.app) and self.engine.ready_for(Level.HARD)):
            self._best_waiting = False
            self.request_best()  # (or says why there is no answer)
        self._poll_best()
        self.analysis.poll(self.engine)
        if self.app.engine_error is not None:
            self.analysis.failed = True
        elif (self._best_request is None and not self.analysis.done and self.engine.bind(self.app)
              and self.engine.ready_for(Level.HARD)):
            self.analysis.advance(self.engine)

    def _poll_best(self) -> None:
        if self._best_request is None:
            return
        for item in self.engine.take(self._best_request):
            if isinstance(item, SearchResult):
                self._best_request = None
                self.best = item.move
                self.best_text = best_move_text(item, self.board.to_move, format_point(item.move, self.record.size))
                if not self._text_room:  # a short panel has no line for it
                    self.app.notify(self.best_text)
            elif isinstance(item, BaseException):
                self._best_request = None
                self.app.notify(f"No answer from the computer this time ({item}).", error=True)

    def _play_on(self, mode: str) -> None:
        """Start a new game from the position on the board (vs the computer: you take the side to move)."""
        if self.board.is_game_over():
            self.app.notify("The game is decided at this move; step back to play on from earlier.")
            return
        data: dict[str, Any] = {
            "mode": mode,
            "rule": self.record.rule.value,
            "size": self.record.size,
            "moves": [list(point) for point in self.board.moves],
        }
        if mode == "ai":
            data["human_color"] = self.board.to_move.label
        else:  # the same two players (names we would accept; else the settings' own)
            data["human_color"] = "black"
            for key, setting, name in (("human_name", "player_name", self.record.black),
                                       ("guest_name", "guest_name", self.record.white)):
                if check_value(setting, name) is None:
                    data[key] = name
        self.app.switch("board", data)

    def draw(self, surface: pygame.Surface) -> None:
        theme, colors = self.app.theme, self.app.theme.colors
        self.move_list.set_moves(self.record.moves, self.record.size, current=self.ply)
        self.move_list.marks = {move: "?" for move in self.analysis.notes}
        for key, button in self.step_buttons.items():
            button.enabled = (self.ply > 0) if key in ("first", "back") else (self.ply < self.total)
        # (at a decided move it stays pressable, to say why there is nothing to ask)
        self.best_button.enabled = self.best is None and self._best_request is None and not self._best_waiting
        buttons = (*self.step_buttons.values(), self.best_button, self.play_local, self.play_ai, self.back_button)
        text_lines = self._text_lines()
        look = (id(self.record), self.total, self.ply, self.best, tuple(text_lines),
                bool(self.app.settings.show_move_numbers),
                bool(self.app.settings.show_coordinates), self.move_list.appearance,
                *(button.appearance for button in buttons))
        if self.unchanged_frame(surface, look):
            return
        theme.draw_background(surface)
        self.view.show_coordinates(bool(self.app.settings.show_coordinates))
        self.view.draw(surface, self.board, self._overlay())
        panel = self.panel_rect
        pygame.draw.rect(surface, colors.panel, panel, border_radius=theme.radius)
        pygame.draw.rect(surface, colors.panel_border, panel, theme.px(2), theme.radius)
        lines = [
            (f"{self.record.black}  vs  {self.record.white}", theme.text_px, colors.text, True),
            (self._rule_line(), theme.small_px + theme.px(2), colors.text_dim, False),
            (self._result_line(), theme.small_px + theme.px(2), colors.accent, False),
        ]
        for (text, px, colour, bold), rect in zip(lines, self._header_rects, strict=True):
            fitted = theme.fit_text(text, px, rect.width, bold)
            blit_text(surface, theme.render(fitted, px, colour, bold), rect, "left")
        self.move_list.draw(surface)
        counter = f"Move {self.ply} of {self.total}"
        if self.ply:
            last = self.board.last_move
            assert last is not None
            colour_name = "black" if self.ply % 2 == 1 else "white"
            counter += f"  ·  {colour_name} {format_point(last, self.record.size)}"
        counter = theme.fit_text(counter, theme.text_px, self._counter_rect.width, True)
        blit_text(surface, theme.render(counter, theme.text_px, colors.text, True), self._counter_rect)
        for button in (*self.step_buttons.values(), self.best_button):
            button.draw(surface)
        line_h = self._text_rect.height // max(1, self._text_room)
        for index, line in enumerate(text_lines):
            line_rect = pygame.Rect(self._text_rect.left, self._text_rect.top + index * line_h, self._text_rect.width, line_h)
            blit_text(surface, theme.render(line, theme.small_px, colors.text), line_rect)
        for button in (self.play_local, self.play_ai, self.back_button):
            button.draw(surface)
        for button in (*self.step_buttons.values(), self.best_button):
            button.draw_tooltip(surface)  # last: over whatever lies above the button

    def _overlay(self) -> Overlay:
        """The winning five, the computer's move, and under renju the points black may not play
        when black is to move (as the game showed them)."""
        outcome = self.board.outcome()
        forbidden: frozenset[Point] = frozenset()
        if self.board.rule is Rule.RENJU and self.board.to_move is Color.BLACK and outcome is None:
            if self._forbidden[0] != self.ply:
                self._forbidden = (self.ply, frozenset(self.board.forbidden_points()))
            forbidden = self._forbidden[1]
        return Overlay(
            winning_line=outcome.line if outcome is not None else (),
            show_numbers=bool(self.app.settings.show_move_numbers),
            hint=self.best,
            forbidden=forbidden,
        )

    def _text_lines(self) -> list[str]:
        """The lines under the step buttons: the computer's answer (or that it is thinking), else
        what the analysis found at this move or in the game (or how far it got), cut to the
        lines there is room for (the keys are in the buttons' tooltips)."""
        if self._best_request is not None:
            text = "The computer is thinking..."
        elif self._best_waiting:
            text = WAITING_TEXT
        elif self.best_text:
            text = self.best_text
        elif self.ply in self.analysis.notes:
            text = "? " + self.analysis.notes[self.ply]
        elif self.analysis.done:
            text = self.analysis.summary()
        else:
            text = f"The computer looks for forced wins: {self.analysis.looked} of {len(self.analysis.looks)} positions"
        if not self._text_room:
            return []
        theme = self.app.theme
        lines = wrap_text(text, theme.font(theme.small_px), self._text_rect.width)
        room = self._text_room
        if len(lines) > room:  # the last line that fits takes the rest, cut to fit
            lines = [*lines[: room - 1], theme.fit_text(" ".join(lines[room - 1:]), theme.small_px,
                                                        self._text_rect.width)]
        return lines

    def _rule_line(self) -> str:
        rule = {Rule.FREESTYLE: "Freestyle", Rule.STANDARD: "Standard", Rule.RENJU: "Renju"}[self.record.rule]
        date = self.record.date[:10]
        return f"{rule} {self.record.size}x{self.record.size}" + (f"  ·  {date}" if date else "")

    def _result_line(self) -> str:
        record = self.record
        declared = record.extra.get("declared") if isinstance(record.extra, dict) else None
        if not isinstance(declared, dict):
            return self._won_line(record.result, record.reason) or RESULT_TEXT.get(record.result, "")
        # A LAN host's result that the board did not bear out: the board's account, then the host's.
        line = self._won_line(record.result, record.reason) or "Unfinished"
        said = self._won_line(declared.get("result"), declared.get("reason"), colour=False)
        if said:
            return f"{line} · the host said {said}"
        if declared.get("reason") == "disconnect":
            return f"{line} · the connection was lost"
        return f"{line} · the host called it a draw" if declared.get("result") == "draw" else line

    def _won_line(self, result: object, reason: object, colour: bool = True) -> str:
        """"Ann (black) won on time", or "" unless `result` names a winner."""
        if result not in ("black", "white"):
            return ""
        winner = self.record.black if result == Color.BLACK.label else self.record.white
        how = HOW_TEXT.get(reason, "") if isinstance(reason, str) else ""
        who = f"{winner} ({result})" if colour else winner
        return f"{who} won {how}".rstrip()


def best_move_text(result: SearchResult, side: Color, point: str) -> str:
    """The computer's answer in words: its move and, when its search proved one, a forced win or
    loss. No word on who stands better otherwise: an evaluation's number means little to a player."""
    mover, other = side.label, side.other.label
    kind = result.info.get("kind", "")
    if kind == "win":
        return f"{mover.capitalize()} makes five at {point}."
    if result.score > FORCED_SCORE:
        moves = (WIN_SCORE - result.score + 1) // 2  # the mover's moves, the five included
        return f"{mover.capitalize()} wins by force with {point}: five in {count_moves(moves)}."
    if forced(result) > 0:
        return f"{mover.capitalize()} wins by force with {point}."
    if forced(result) < 0:
        lasts = f" (five in {count_moves((WIN_SCORE + result.score) // 2)})" if result.score < -FORCED_SCORE else ""
        return f"{other.capitalize()} wins by force{lasts}; {mover}'s {point} holds out longest."
    if kind == "block":
        return f"{mover.capitalize()} has to stop {other}'s five at {point}."
    return f"The computer would play {point} for {mover}."


def count_moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"
