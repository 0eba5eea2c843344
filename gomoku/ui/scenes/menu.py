"""The main menu, with a game the computer plays against itself on a dimmed board behind it."""

from __future__ import annotations

import queue
import random
import time
from typing import Any

import pygame

from gomoku.core import Board, Rule
from gomoku.core.settings import MAX_NAME_LENGTH
from gomoku.engine.api import Level, Position, SearchLimit, SearchResult
from gomoku.ui.board_view import BoardView, Overlay, arrange
from gomoku.ui.players import GUEST_NAME
from gomoku.ui.scene import Scene
from gomoku.ui.scenes import (
    COLOR_OPTIONS,
    LEVEL_OPTIONS,
    RULE_OPTIONS,
    offer_sizes,
    remember_choices,
    size_options,
    time_control_options,
)
from gomoku.ui.side_panel import game_arrangement
from gomoku.ui.widgets import (
    TYPING_EVENTS,
    Button,
    Choice,
    FocusRing,
    Label,
    Panel,
    TextInput,
    Widget,
    column,
    wrap_text,
)

ATTRACT_MOVE_S = 1.0
"""Seconds between moves of the game behind the menu."""
ATTRACT_REST_S = 4.0
"""Seconds the finished game stays on screen before a new one starts."""
ATTRACT_MAX_PLY = 100
ATTRACT_BUDGET_S = {Level.EASY: 0.05, Level.MEDIUM: 0.3, Level.HARD: 1.0}
"""Thinking time per move behind the menu: short, so a move never lags the 1 s rhythm."""
ATTRACT_SIZE = 15
ATTRACT_OPENINGS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((7, 7), (8, 6), (9, 5)),  # renju openings seen from black's first stone: a few classics
    ((7, 7), (8, 6), (8, 8)),
    ((7, 7), (8, 7), (9, 6)),
    ((7, 7), (8, 7), (8, 8)),
    ((7, 7), (8, 6), (7, 9)),
    ((7, 7), (8, 7), (6, 9)),
)


class AttractGame:
    """A game the engine plays against itself, one move every ATTRACT_MOVE_S, restarting when over.

    Polls the engine without waiting; results for other requests are ignored.
    """

    def __init__(
        self,
        rng: random.Random | None = None,
        black: Level = Level.MEDIUM,
        white: Level = Level.EASY,
        move_interval_s: float = ATTRACT_MOVE_S,
        budget_s: dict[Level, float] | None = None,
    ) -> None:
        self.rng = rng or random.Random()
        self.levels = (black, white)
        self.move_interval_s = move_interval_s
        self.budget_s = budget_s or ATTRACT_BUDGET_S
        self.moves_played = 0
        self.board = Board(ATTRACT_SIZE, Rule.FREESTYLE)
        self.request_id: int | None = None
        self.waited = 0.0
        self.rest_left = 0.0
        self.games_played = 0
        self.reset()

    def start_from(self, moves: list[tuple[int, int]]) -> None:
        """Continue the show from a given position (used by screenshots); bad points end the list."""
        board = Board(ATTRACT_SIZE, Rule.FREESTYLE)
        for x, y in moves:
            if not board.is_legal(x, y):
                break
            board.push(x, y)
        self.board = board
        self.request_id = None

    def reset(self) -> None:
        """A new game from a random classic opening (turned and mirrored at random)."""
        opening = self.rng.choice(ATTRACT_OPENINGS)
        flip_x, flip_y, swap = (self.rng.random() < 0.5 for _ in range(3))
        last = ATTRACT_SIZE - 1
        board = Board(ATTRACT_SIZE, Rule.FREESTYLE)
        for x, y in opening:
            if swap:
                x, y = y, x
            board.push(last - x if flip_x else x, last - y if flip_y else y)
        self.board = board
        self.request_id = None
        self.waited = 0.0
        self.rest_left = 0.0

    def level_to_move(self) -> Level:
        """By default medium plays black and easy white: quick, decisive games."""
        return self.levels[self.board.ply % 2]

    def update(self, dt: float, engine: Any) -> None:
        """Advance the clock; ask `engine` (an EngineWorker, or None while it loads) for moves."""
        if self.board.is_game_over() or self.board.ply >= ATTRACT_MAX_PLY:
            if self.rest_left <= 0:
                self.rest_left = ATTRACT_REST_S
            self.rest_left -= dt
            if self.rest_left <= 0:
                self.games_played += 1
                self.reset()
            return
        self.waited += dt
        if engine is None:
            return
        if self.request_id is None:
            if self.waited >= self.move_interval_s and not engine.busy:
                level = self.level_to_move()
                limit = SearchLimit(time_s=self.budget_s[level])
                self.request_id = engine.start(Position.from_board(self.board), level, limit)
            return
        self._poll(engine)

    def _poll(self, engine: Any) -> None:
        while True:
            try:
                request_id, message = engine.results.get_nowait()
            except queue.Empty:  # nothing more this frame
                return
            if request_id != self.request_id:
                continue
            if isinstance(message, SearchResult):
                x, y = message.move
                if self.board.is_legal(x, y):
                    self.board.push(x, y)
                    self.moves_played += 1
                    self.waited = 0.0
                self.request_id = None
            elif isinstance(message, BaseException):
                self.request_id = None  # try again next turn; the menu never shows engine trouble
                self.waited = 0.0

    def cancel(self, engine: Any) -> None:
        """Stop asking: the menu is leaving."""
        if self.request_id is not None and engine is not None:
            engine.stop()
        self.request_id = None


def preparing_text(progress: tuple[int, int] | None, elapsed_s: float) -> str:
    """The menu's progress line while the engine is prepared on a first launch ("" after):
    the parts ready, and the seconds so far (they move while a long part compiles)."""
    if progress is None:
        return ""
    done, total = progress
    # The count after the " · " where a narrow label breaks it: the line that stays whole.
    return f"Preparing the engine (first launch only)  ·  {done} of {total} parts, {int(elapsed_s)} s"


PANEL_TITLES = {"ai": "Play the computer", "local": "Two players on this screen"}
RULE_NOTES = {  # under the options: what the chosen rule means, for a player who has not met it
    "freestyle": "Freestyle: five or more in a row wins.",
    "standard": "Standard: exactly five in a row wins; six or more do not.",
    "renju": "Renju: black may not make a double three, a double four or six in a row "
             "(red crosses show where); white may.",
}


class MenuScene(Scene):
    """Continue, vs Computer and Two players (each with its options panel), LAN duel, Load
    game, Settings, Quit; Up/Down and Enter work too.

    Enter data (all optional): `vs_computer: True` or `two_players: True` opens that options
    panel at once;
    `attract_moves: [[x, y], ...]` sets the position of the game behind the menu (screenshots).
    """

    name = "menu"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        theme = app.theme
        self.attract = AttractGame()
        self.board_view = BoardView(ATTRACT_SIZE)
        self.title = Label(theme, "Gomoku", align="center", bold=True)
        self.subtitle = Label(theme, "five in a row", align="center")
        self.keys_hint = Label(theme, "Arrows + Enter to choose  ·  F11 fullscreen", align="center", wrap=True)
        self.preparing = Label(theme, "", align="center", wrap=True)  # the engine's first-launch progress
        self.continue_button = Button(theme, "Continue", primary=True)
        self.ai_button = Button(theme, "vs Computer")
        self.local_button = Button(theme, "Two players")
        self.lan_button = Button(theme, "LAN duel")
        self.load_button = Button(theme, "Load game")
        self.settings_button = Button(theme, "Settings")
        self.quit_button = Button(theme, "Quit")
        self.buttons = [
            self.continue_button, self.ai_button, self.local_button, self.lan_button,
            self.load_button, self.settings_button, self.quit_button,
        ]
        self.focus = FocusRing(self.buttons)
        # The options panel of vs Computer ("ai") or Two players ("local"): hidden until asked for.
        self.panel_mode: str | None = None
        self.panel = Panel(theme)
        settings = app.settings
        self.level = Choice(theme, "Level", LEVEL_OPTIONS, settings.level)
        self.color = Choice(theme, "You play", COLOR_OPTIONS, settings.human_color)
        self.rule = Choice(theme, "Rule", RULE_OPTIONS, settings.rule)
        self.size = Choice(theme, "Board", size_options(settings.rule), settings.board_size)
        self.time = Choice(theme, "Time", time_control_options(self._settings_time()),
                           self._settings_time())
        self.guest_input = TextInput(theme, "Second player", max_length=MAX_NAME_LENGTH, placeholder=GUEST_NAME)
        self.start_button = Button(theme, "Start", primary=True, hotkey=pygame.K_RETURN)
        self.back_button = Button(theme, "Back")
        self.rows: list[Widget] = []  # the open panel's options, top to bottom
        self.rule_note = Label(theme, "", wrap=True)  # what the chosen rule means
        self.panel_focus = FocusRing()
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self._backdrop: pygame.Surface | None = None
        self._backdrop_key: tuple[Any, ...] = ()
        self._dim: pygame.Surface | None = None

    @property
    def panel_open(self) -> bool:
        return self.panel_mode is not None

    def _open_panel(self, mode: str | None) -> None:
        """Show the options of `mode` ("ai", "local"), or close the panel (None)."""
        self.panel_mode = mode
        if mode is None:
            return
        self._load_choices()
        self.panel.title = PANEL_TITLES[mode]
        if mode == "ai":
            self.rows = [self.level, self.color, self.rule, self.size, self.time]
        else:  # the name last: opened by keyboard, the first row is highlighted and Enter starts
            self.rows = [self.rule, self.size, self.time, self.guest_input]
        self.panel_focus = FocusRing([*self.rows, self.back_button, self.start_button])
        self.resize(self.app.screen_size)  # the panel's height follows its rows

    def _settings_time(self) -> tuple[int, int, int]:
        s = self.app.settings
        return (s.game_s, s.increment_s, s.move_s)

    # --- scene protocol ------------------------------------------------------------------

    def enter(self, data: dict[str, Any]) -> None:
        self._open_panel("ai" if data.get("vs_computer") else "local" if data.get("two_players") else None)
        if data.get("attract_moves"):
            self.attract.start_from([(int(x), int(y)) for x, y in data["attract_moves"]])
        self.focus.clear()
        self.panel_focus.clear()
        self.continue_button.visible = self._can_continue()
        self._load_choices()
        self.resize(self.app.screen_size)  # the button column depends on whether Continue shows
        self.app.audio.start_music()

    def leave(self) -> None:
        self.attract.cancel(self.app.engine if self.app.engine_loaded else None)

    def _can_continue(self) -> bool:
        """True when an autosave of an unfinished game exists (and is this copy's to continue)."""
        from gomoku.ui.autosave import has_unfinished_game  # lazily: it pulls in the records code

        if not self.app.keeps_autosave:
            return False
        try:
            return has_unfinished_game(self.app.paths.autosave_file)
        except OSError:  # an unreadable folder: nothing to continue
            return False

    def _continue(self) -> None:
        """Resume the autosave; a damaged one is reported and set aside, and the menu stays
        (without Continue) instead of a fresh game starting."""
        from gomoku.ui import autosave  # lazily: it pulls in the records code

        loaded, problem = autosave.load(self.app.paths.autosave_file, self.app.settings)
        if loaded is not None:
            seat = autosave.rejoin_of(self.app.paths.autosave_file, time.time())
            if seat is not None:  # a LAN duel this app left by crashing: the host keeps the seat
                self.app.switch("lobby", {"rejoin": seat, "saved": loaded[1]})
            else:
                self.app.switch("board", {"resume": True})
            return
        self.app.notify(problem or "There is no game to continue.", error=problem is not None)
        self.continue_button.visible = self._can_continue()
        self.focus.clear()
        self.resize(self.app.screen_size)

    def _load_choices(self) -> None:
        s = self.app.settings
        self.level.value = s.level
        self.guest_input.set_text(s.guest_name)
        self.color.value = s.human_color
        self.rule.value = s.rule
        offer_sizes(self.size, self.rule.value, s.board_size)
        self.time.set_options(time_control_options(self._settings_time()), self._settings_time())

    def resize(self, size: tuple[int, int]) -> None:
        theme = self.app.theme
        width, height = size
        for label, px, colour in ((self.title, theme.title_px, theme.colors.accent),
                                  (self.subtitle, theme.text_px, theme.colors.text_dim),
                                  (self.keys_hint, theme.small_px, theme.colors.text_dim),
                                  (self.preparing, theme.small_px, theme.colors.accent)):
            label.px, label.colour = px, colour
        menu_w = theme.px(360)
        shown = [b for b in self.buttons if b.visible]
        button_h, gap = theme.control_h, theme.px(14)
        head_h = theme.px(96) + theme.px(34)  # the title and the subtitle
        notes_h = 4 * theme.font(theme.small_px).get_linesize()  # the keys line and the progress, two each
        # The board and the menu follow the game's rule: the menu beside the board, next to it
        # on a very wide window, or under it (buttons in two rows) on a tall or square one.
        column_h = head_h + theme.px(40) + len(shown) * (button_h + gap) + notes_h
        below_h = head_h + 2 * (button_h + gap) + notes_h + 2 * theme.pad
        board, area, below = arrange(size, theme.px, menu_w + 2 * theme.pad, below_h, menu_w + theme.px(160))
        # Where it fits, the board is where a game will have it, so it does not jump when one
        # starts: beside it the menu's column takes the game panel's place; under it (a square
        # window), if the stacked menu would shrink the board, the title goes left of a grid of
        # buttons to fit the game panel's height.
        game_board, game_panel = game_arrangement(size, theme)
        compact = False
        if game_panel.left > game_board.right:
            if not below and game_panel.width >= menu_w:
                board, area = game_board, game_panel
        elif board.width < game_board.width and self._layout_compact(game_panel, shown):
            board, area, compact = game_board, game_panel, True
        self.board_rect = board
        self.board_view.layout(self.board_rect)
        self._backdrop = None
        self._dim = None
        if compact:
            pass  # _layout_compact placed the title, the buttons and the notes
        elif below:
            columns = (len(shown) + 1) // 2
            button_w = min(theme.px(280), (area.width - (columns - 1) * gap) // columns)
            block_w = columns * button_w + (columns - 1) * gap
            top = area.top
            rects = [pygame.Rect(area.centerx - block_w // 2 + (i % columns) * (button_w + gap),
                                 top + head_h + theme.pad + (i // columns) * (button_h + gap), button_w, button_h)
                     for i in range(len(shown))]
            self._place_texts(area, top, shown, rects, area.width)
        else:
            top = max(area.top, area.centery - column_h // 2)
            rects = column(area.centerx - menu_w // 2, top + head_h + theme.px(40), menu_w, len(shown), button_h, gap)
            self._place_texts(area, top, shown, rects, min(area.width, menu_w + theme.px(80)))

        panel_w = min(width - 2 * theme.pad, theme.px(620))
        row_h = theme.control_h
        title_h = 5 * theme.pad + theme.heading_px  # Panel.content_rect's top offset plus its gap
        self.rule_note.px = theme.small_px
        self.rule_note.colour = theme.colors.text_dim
        note_font = theme.font(theme.small_px)
        note_w = panel_w - 4 * theme.pad  # Panel.content_rect's width
        # As high as the longest note needs, so that the panel keeps its size as the rule changes.
        note_h = note_font.get_linesize() * max(len(wrap_text(note, note_font, note_w)) for note in RULE_NOTES.values())
        panel_h = (title_h + len(self.rows) * (row_h + theme.pad) + note_h + theme.px(20) + row_h
                   + theme.px(24))
        self.panel.rect = pygame.Rect(0, 0, panel_w, min(height - 2 * theme.pad, panel_h))
        self.panel.rect.center = (width // 2, height // 2)
        inner = self.panel.content_rect
        for row, rect in zip(self.rows, column(inner.left, inner.top, inner.width, len(self.rows), row_h, theme.pad),
                             strict=True):
            row.rect = rect
        rows_bottom = self.rows[-1].rect.bottom if self.rows else inner.top
        self.rule_note.rect = pygame.Rect(inner.left, rows_bottom + theme.pad, inner.width, note_h)
        button_w = (inner.width - theme.pad * 2) // 2
        bottom = self.panel.rect.bottom - theme.px(24) - row_h
        self.back_button.rect = pygame.Rect(inner.left, bottom, button_w, row_h)
        self.start_button.rect = pygame.Rect(inner.right - button_w, bottom, button_w, row_h)

    def _place_texts(self, area: pygame.Rect, top: int, shown: list[Button], rects: list[pygame.Rect],
                     text_w: int) -> None:
        """The title over the `shown` buttons (placed at `rects`) and the notes under them, all
        centred in `area`."""
        theme = self.app.theme
        self.title.rect = pygame.Rect(0, top, text_w, theme.px(96))
        self.subtitle.rect = pygame.Rect(0, self.title.rect.bottom, text_w, theme.px(34))
        for button, rect in zip(shown, rects, strict=True):
            button.rect = rect
        self.keys_hint.rect = pygame.Rect(0, max(r.bottom for r in rects) + theme.pad, text_w,
                                          self.keys_hint.height_for(text_w))
        self.preparing.rect = pygame.Rect(0, self.keys_hint.rect.bottom, text_w,
                                          2 * theme.font(theme.small_px).get_linesize())
        for label in (self.title, self.subtitle, self.keys_hint, self.preparing):
            label.rect.centerx = area.centerx

    def _layout_compact(self, area: pygame.Rect, shown: list[Button]) -> bool:
        """Under the board in the game panel's `area`: the title and notes in a column on the
        left, the buttons in a grid on the right. False (nothing placed) if it does not fit."""
        theme = self.app.theme
        button_h, gap = theme.control_h, theme.px(14)
        gutter = theme.px(24)
        room = area.width - 2 * theme.pad
        text_w = min(theme.px(340), room * 2 // 5)
        note_h = theme.font(theme.small_px).get_linesize()
        text_h = theme.px(96) + theme.px(34) + theme.pad + self.keys_hint.height_for(text_w) + 2 * note_h
        columns = 3 if len(shown) > 4 else 2
        rows = -(-len(shown) // columns)
        button_w = min(theme.px(280), (room - text_w - gutter - (columns - 1) * gap) // columns)
        grid_h = rows * button_h + (rows - 1) * gap
        label_w = max(theme.font(theme.text_px, True).size(b.text)[0] for b in shown) + 2 * theme.pad
        if max(text_h, grid_h) > area.height or button_w < label_w:
            return False
        block_w = text_w + gutter + columns * button_w + (columns - 1) * gap
        left = area.centerx - block_w // 2
        top = area.top + (area.height - text_h) // 2
        self.title.rect = pygame.Rect(left, top, text_w, theme.px(96))
        self.subtitle.rect = pygame.Rect(left, self.title.rect.bottom, text_w, theme.px(34))
        self.keys_hint.rect = pygame.Rect(left, self.subtitle.rect.bottom + theme.pad, text_w,
                                          self.keys_hint.height_for(text_w))
        self.preparing.rect = pygame.Rect(left, self.keys_hint.rect.bottom, text_w, 2 * note_h)
        grid_left = left + text_w + gutter
        grid_top = area.top + (area.height - grid_h) // 2
        for i, button in enumerate(shown):
            button.rect = pygame.Rect(grid_left + (i % columns) * (button_w + gap),
                                      grid_top + (i // columns) * (button_h + gap), button_w, button_h)
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.panel_open:
            self._handle_panel(event)
            return
        if self.focus.handle_event(event):
            return
        for button in self.buttons:
            if button.handle_event(event):
                self._activate(button)
                return

    def _activate(self, button: Button) -> None:
        app = self.app
        if button is self.continue_button:
            self._continue()
        elif button in (self.ai_button, self.local_button):
            self._open_panel("ai" if button is self.ai_button else "local")
            if self.focus.index is not None:  # opened from the keyboard: keep going by keyboard
                self.panel_focus.move(1)
        elif button is self.lan_button:
            app.switch("lobby", {})
        elif button is self.load_button:
            app.switch("records", {})
        elif button is self.settings_button:
            app.switch("settings", {})
        elif button is self.quit_button:
            app.quit()

    def _handle_panel(self, event: pygame.event.Event) -> None:
        naming = self.panel_mode == "local"
        typing = naming and self.guest_input.focused and event.type in TYPING_EVENTS
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and not typing:
            self._open_panel(None)
            return
        if self.panel_focus.handle_event(event):
            return
        if naming and self.guest_input.handle_event(event):
            self._commit_guest()
        if typing:
            if not self.guest_input.focused and self.panel_focus.current is self.guest_input:
                self.panel_focus.focus_on(self.start_button)  # by keyboard: the next Enter starts
            return  # the field's keys are its own: its Enter confirms the name, it does not start
        if event.type == pygame.KEYDOWN and self.guest_input.focused:
            return  # this Enter opened the field (from the keyboard): it does not press Start too
        if self.back_button.handle_event(event):
            self._open_panel(None)
            return
        if self.start_button.handle_event(event):
            self._start_game()
            return
        for choice in (self.level, self.color, self.rule, self.size, self.time):
            if choice in self.rows and choice.handle_event(event) and choice is self.rule:
                offer_sizes(self.size, self.rule.value, self.size.value)

    def _commit_guest(self) -> None:
        """Keep the second player's typed name; one not allowed is explained and the old stays."""
        self.guest_input.set_text(self.app.set_name("guest_name", self.guest_input.text, "The second player's name"))

    def _start_game(self) -> None:
        """Remember the panel's choices as the new defaults, then start its game."""
        if self.guest_input.focused:  # a name being typed counts as entered
            self.guest_input.commit()
            self._commit_guest()
        game_s, increment_s, move_s = self.time.value
        mode = self.panel_mode
        data: dict[str, Any] = {"mode": mode}
        if mode == "ai":
            self.app.settings.level = self.level.value
            data.update(level=self.level.value, human_color=self.color.value)
        remember_choices(self.app.settings, self.rule.value, self.size.value, self.time.value,
                         self.color.value if mode == "ai" else None)
        self.app.save_settings()
        self._open_panel(None)
        data.update(rule=self.rule.value, size=self.size.value if self.rule.value == "freestyle" else 15,
                    time_control={"game_s": game_s, "increment_s": increment_s, "move_s": move_s})
        self.app.switch("board", data)

    def update(self, dt: float) -> None:
        # The game behind the menu plays medium and easy: it waits until they are ready.
        engine = self.app.engine if self.app.engine_ready(Level.MEDIUM) else None
        self.attract.update(dt, engine)
        self.preparing.text = preparing_text(self.app.engine_preparing, self.app.running_s)

    # --- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """The menu over the dimmed game; a frame that would look the same as the one on
        screen is not drawn again (unless a notice covered it)."""
        backdrop = self._render_backdrop(surface.get_size())
        if self.panel_open:
            self.rule_note.text = RULE_NOTES.get(str(self.rule.value), "")
            widgets = [self.panel, *self.rows, self.rule_note, self.back_button, self.start_button]
        else:
            widgets = [self.title, self.subtitle, self.keys_hint, self.preparing, *self.buttons]
        blink = (pygame.time.get_ticks() // 500) % 2 if self.guest_input.focused else 0  # the text cursor
        key = (self._backdrop_key, self.panel_mode, blink, *(w.appearance for w in widgets))
        if self.unchanged_frame(surface, key):
            return
        surface.blit(backdrop, (0, 0))
        if self.panel_open:  # the panel takes the menu's place: no half-hidden title behind it
            self._draw_panel(surface)
            return
        self.title.draw(surface)
        self.subtitle.draw(surface)
        self.keys_hint.draw(surface)
        if self.preparing.text:
            self.preparing.draw(surface)
        for button in self.buttons:
            button.draw(surface)

    def _render_backdrop(self, size: tuple[int, int]) -> pygame.Surface:
        """The background and the dimmed attract board, redrawn only when a stone is added."""
        board = self.attract.board
        key = (size, board.ply, tuple(board.moves[:3]))
        if self._backdrop is not None and key == self._backdrop_key:
            return self._backdrop
        backdrop = pygame.Surface(size)
        self.app.theme.draw_background(backdrop)
        outcome = board.outcome()
        overlay = Overlay(winning_line=outcome.line if outcome else (), mark_last=True)
        self.board_view.draw(backdrop, Board(board.size, board.rule))  # the wood and grid, no stones
        shade = pygame.Surface(size, pygame.SRCALPHA)
        shade.fill((20, 16, 12, 125))
        backdrop.blit(shade, (0, 0))
        # The stones over the dimming (under it, white stones looked grey), a touch dimmed.
        stones = pygame.Surface(size, pygame.SRCALPHA)
        self.board_view.draw(stones, board, overlay, wood=False)
        stones.fill((225, 225, 225, 255), special_flags=pygame.BLEND_RGBA_MULT)
        backdrop.blit(stones, (0, 0))
        self._backdrop, self._backdrop_key = backdrop, key
        return backdrop

    def _draw_panel(self, surface: pygame.Surface) -> None:
        if self._dim is None or self._dim.get_size() != surface.get_size():
            self._dim = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            self._dim.fill(self.app.theme.colors.shade)
        surface.blit(self._dim, (0, 0))
        self.panel.draw(surface)
        for row in self.rows:
            row.draw(surface)
        self.rule_note.draw(surface)
        self.back_button.draw(surface)
        self.start_button.draw(surface)
