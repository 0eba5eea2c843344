"""The board scene's side panel: title, the two player cards, the status line, the move list,
the keys line (or a LAN duel's chat box) and the game buttons, top to bottom.

The scene says what to show each frame as plain values (`PanelContent`); the panel draws it
into the scene's cached backdrop part by part, redrawing a part only when its values change
(a clock each second, a status, a hover). It decides nothing about the game.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import pygame

from gomoku.core.game import Game
from gomoku.core.types import Color
from gomoku.ui.board_view import board_and_panel
from gomoku.ui.game_over import GameOverCard
from gomoku.ui.move_list import MoveList
from gomoku.ui.players import AIPlayer, Player
from gomoku.ui.theme import Colour, Theme
from gomoku.ui.widgets import Button, blit_text, wrap_text

WARN_SECONDS = 10.0  # a clock's last seconds: red, a pulsing border and a tick each second
WARN_SHARE = 0.3  # ... but of a short move limit only its last share: 10 s a move warns at 3 s
LABELS = {"undo": "Undo", "restart": "Restart", "hint": "Hint", "resign": "Resign", "save": "Save", "menu": "Menu"}
CONFIRM_TEXT = "Confirm?"  # a button's words while it waits for the confirming second click
KEYS_HINT = "Arrows + Enter play · U undo · R restart · H hint · N numbers · Esc menu"
FORBIDDEN_HINT = "Red crosses: points black may not play (renju)"
BUTTON_ORDER = ("undo", "restart", "hint", "resign", "save", "menu")  # row by row
BUTTON_GRIDS = ((3, 2), (2, 3), (1, 6))
"""The buttons' (rows, columns), roomiest first: a short panel takes the first that leaves the
move list MIN_LIST_LINES; a panel under the board always has one row."""
MIN_LIST_LINES = 4  # the header and three lines of moves
WIDE_SHAPE = 1.25  # a panel wider than this times its height (under the board) lays out in columns

StoneIcon = Callable[[Color, int], pygame.Surface]
"""A stone picture of a colour and radius (the board view's, so the cards match the board)."""


def warn_seconds(move_s: float) -> float:
    """How near a deadline the warning starts: WARN_SECONDS, or WARN_SHARE of a shorter move
    limit, so that a 10 s move is not red and ticking from its first second."""
    return min(WARN_SECONDS, move_s * WARN_SHARE) if move_s else WARN_SECONDS


def format_seconds(seconds: float) -> str:
    """m:ss (h:mm:ss from an hour), rounding up so 0:00 means the time is really gone."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return _clock_text(whole)


def format_elapsed(seconds: float) -> str:
    """The time used, as format_seconds but rounding down, as a stopwatch does: 0.4 s is 0:00,
    and 12.5 s used beside 17.5 s left of a 30 s move reads 0:12 + 0:18, not 0:13 + 0:18."""
    return _clock_text(max(0, math.floor(seconds + 1e-9)))


def _clock_text(whole: int) -> str:
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class CardContent(NamedTuple):
    """What one player's card shows, as plain values (compared to know when to redraw)."""

    active: bool
    name: str
    kind: str
    clock: str  # the big number: the time that matters (see `card_content`)
    clock_colour: Colour
    detail: str  # the small line under it: the other clock, or the time used
    detail_colour: Colour
    bar: float = -1.0  # the countdown bar: the share of time left, 0..1 (-1: no bar)
    warn: bool = False  # the last seconds: red clock and bar, and the border pulses
    pulse: bool = False  # the pulse's phase (on for half of each second)
    think: float = -1.0  # the share of the computer's time budget spent (-1: not thinking)
    spin: int = 0  # the thinking spinner's step, 0..SPINNER_STEPS - 1


BAR_STEPS = 400  # the countdown bar moves in steps this fine (a redraw per step, not per frame)
THINK_HZ = 8  # the thinking bar and spinner move this often a second (a card redraw each)
SPINNER_STEPS = 12  # dots around the spinner: a turn in 1.5 s
KIND_SEPARATOR = "  ·  "  # between a card's colour, kind and state


def card_content(theme: Theme, game: Game, color: Color, player: Player | None, now: float,
                 time_left: float) -> CardContent:
    """The card of `color`: name, kind line (with the computer's depth) and its clock.

    The big number is the time that matters: on its turn the nearer of the per-move countdown
    and the game clock, else its game time (or, with only a move limit, the time a move gets);
    untimed, the time used (labelled, so 0:01 never reads as a clock about to run out). The
    small line gives the other clock, or the time used. A bar
    drains with the move countdown (or through the game clock's last seconds); in the last
    `warn_seconds` of `time_left` (the side to move's nearer deadline) clock and bar turn red
    and the border pulses."""
    colors = theme.colors
    active = not game.is_over and game.to_move is color
    info = game.player(color)
    kind = player.describe() if player is not None else info.kind
    kind = f"{color.label.capitalize()}{KIND_SEPARATOR}{kind}"
    think, spin = -1.0, 0
    if isinstance(player, AIPlayer) and player.thinking:
        # The spinner, the depth and a bar of the time spent against the search's budget.
        tick = int(player.spent_s(now) * THINK_HZ)
        budget = player.budget_s
        think = min(1.0, tick / THINK_HZ / budget) if budget > 0 else 1.0
        spin = tick % SPINNER_STEPS
        kind = f"depth {player.depth}" if player.depth else "thinking"
    elif isinstance(player, AIPlayer) and active and player.preparing:
        kind += f"{KIND_SEPARATOR}preparing the engine..."
    clock = game.clock
    move_s = clock.control.move_s
    remaining = clock.remaining(color, now)  # math.inf without a game limit
    # The side to move's current move counts, also once the game is over (a timeout's last move).
    on_move = game.to_move is color
    used = sum(game.move_times[color - 1 :: 2]) + (clock.used_in_move(now) if on_move else 0.0)
    warn = active and time_left <= warn_seconds(move_s)
    untimed = not move_s and math.isinf(remaining)
    detail, bar = "", -1.0
    if move_s and active:
        move_left = clock.move_remaining(now)
        big = min(move_left, remaining)
        if remaining < move_left:
            detail = f"move {format_seconds(move_left)}"
        elif math.isinf(remaining):
            detail = f"used {format_elapsed(used)}"
        else:
            detail = f"game {format_seconds(remaining)}"
        bar = big / move_s
        clock_colour = colors.text
    elif move_s:  # waiting: its game time, or what its next move gets
        if on_move:  # the game is over on its move: what it had left (0:00 after a timeout)
            big = min(clock.move_remaining(now), remaining)
        else:
            big = move_s if math.isinf(remaining) else remaining
        detail = f"used {format_elapsed(used)}" if math.isinf(remaining) else ""
        clock_colour = colors.text_dim if math.isinf(remaining) else colors.text
    elif untimed:  # the clock only measures, and says so
        big, clock_colour, detail = used, colors.text_dim, "time used"
    else:
        big, clock_colour = remaining, colors.text
        if warn:
            bar = remaining / WARN_SECONDS
    if warn:
        clock_colour = colors.warning
    bar = round(min(1.0, bar) * BAR_STEPS) / BAR_STEPS if bar >= 0 else -1.0
    pulse = warn and (now % 1.0) < 0.5
    shown = format_elapsed(big) if untimed else format_seconds(big)
    return CardContent(active, info.name, kind, shown, clock_colour, detail, colors.text_dim,
                       bar, warn, pulse, think, spin)


@dataclass(frozen=True)
class PanelContent:
    """Everything the panel shows in one frame, as plain values."""

    title: str
    cards: tuple[CardContent, CardContent]  # black's, white's
    move_text: str  # "Move 12", right of the status
    status: str
    status_colour: Colour
    keys: str  # the keys line (ignored in a duel: the chat box is there)
    chat: tuple[Any, ...] | None = None  # a LAN duel's chat appearance, else None
    result: tuple[Any, ...] | None = None  # the game-over card's appearance, None while playing


class SidePanel:
    """Lays out and draws the panel; owns its buttons and the move list (the scene enables
    the buttons and carries out their actions). Main thread only."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.rect = pygame.Rect(600, 0, 400, 600)
        self.buttons = {  # icons with their words when there is room; the tooltip names the key
            "undo": Button(theme, LABELS["undo"], hotkey=pygame.K_u, icon="undo", icon_label=True,
                           tooltip="Undo: take back a move (U)"),
            "restart": Button(theme, LABELS["restart"], hotkey=pygame.K_r, icon="restart", icon_label=True,
                              tooltip="Restart: a new game, same players (R)"),
            "resign": Button(theme, LABELS["resign"], icon="resign", icon_label=True,
                             tooltip="Resign this game (click twice)"),
            "hint": Button(theme, LABELS["hint"], hotkey=pygame.K_h, icon="hint", icon_label=True,
                           tooltip="Hint: the computer's suggestion (H)"),
            "save": Button(theme, LABELS["save"], icon="save", icon_label=True, tooltip="Save the game to a file"),
            "menu": Button(theme, LABELS["menu"], hotkey=pygame.K_ESCAPE, icon="menu", icon_label=True,
                           tooltip="Menu: the game stays for Continue (Esc)"),
        }
        self.move_list = MoveList(theme)
        self.title_pos = (0, 0)
        self.title_w = 0
        self.card_rects: dict[Color, pygame.Rect] = {}
        self.status_rect = pygame.Rect(0, 0, 0, 0)
        self.keys_rect: pygame.Rect | None = None  # the keys line or the chat box; None: no room
        self.result_rect: pygame.Rect | None = None  # the game-over card, in the status line's place
        self.keys_lines: list[str] = [KEYS_HINT]
        self.buttons_area = pygame.Rect(0, 0, 0, 0)
        self._drawn: dict[str, tuple[Any, ...]] = {}  # what each part of the backdrop shows

    # --- layout --------------------------------------------------------------------------

    @staticmethod
    def card_height(theme: Theme) -> int:
        """A player card: the name and kind lines (at least the smallest text) and the bar."""
        return max(theme.px(96), 2 * theme.pad + theme.text_px + theme.small_px + theme.px(24))

    @staticmethod
    def below_height(theme: Theme, chat_h: int | None = None, result_h: int = 0) -> int:
        """The height the panel needs under the board (see `layout`): title, the two cards side
        by side and the status line (and a duel's chat) beside the move list or the result
        card, and one row of buttons."""
        pad = theme.pad
        title_h = theme.font(theme.small_px + theme.px(2)).get_linesize()
        left = title_h + pad + SidePanel.card_height(theme) + pad + theme.text_px + pad
        if chat_h is not None:
            left += pad + chat_h
        return 3 * pad + max(left, result_h) + pad + theme.control_h

    def layout(self, rect: pygame.Rect, chat_h: int | None = None, result_h: int = 0) -> pygame.Rect | None:
        """Place everything in `rect`: in a tall panel (beside the board) the buttons at the
        bottom, then title, player cards, status line, move list and keys line top to bottom;
        in a wide one (under the board) the title, cards side by side and status on the left,
        the move list on the right, the buttons in a row below. With `chat_h` (a LAN duel) a
        chat box of that height takes the keys line's place; returns its rect (else None).
        With `result_h` (a game over) the result card takes the status line's place (under the
        board, the move list's). Every part is drawn again after a layout."""
        self.rect = rect
        self._drawn = {}  # a part that moved or went leaves pixels only a full redraw clears
        if rect.width > rect.height * WIDE_SHAPE:
            chat_rect = self._layout_wide(chat_h, result_h)
        else:
            chat_rect = self._layout_tall(chat_h, result_h)
        self.buttons_area = self.buttons["undo"].rect.unionall([b.rect for b in self.buttons.values()])
        self.move_list.visible = self.move_list.rect.height >= 2 * self.move_list.line_h
        return chat_rect

    def _place_buttons(self, area: pygame.Rect, rows: int, columns: int) -> bool:
        """The buttons in a grid of `rows` x `columns` filling `area`, row by row, all with
        their words or (when one would not fit) all icons alone; True when the words show."""
        pad = self.theme.pad
        cell_w = (area.width - (columns - 1) * pad) // columns
        cell_h = (area.height - (rows - 1) * pad) // rows
        for index, key in enumerate(BUTTON_ORDER):
            row, col = divmod(index, columns)
            button = self.buttons[key]
            button.rect = pygame.Rect(area.left + col * (cell_w + pad), area.top + row * (cell_h + pad), cell_w, cell_h)
        probes = [Button(self.theme, text, (0, 0, cell_w, cell_h), icon="undo", icon_label=True)
                  for text in (*LABELS.values(), CONFIRM_TEXT)]
        words = all(probe.shown_label() for probe in probes)
        for button in self.buttons.values():
            button.icon_label = words
        return words

    def _place_title(self, left: int, top: int, width: int) -> int:
        """The title line at (left, top), `width` wide; returns its bottom."""
        theme = self.theme
        self.title_pos = (left + theme.pad // 2, top + theme.px(4))
        self.title_w = width - theme.pad
        return top + theme.px(4) + theme.font(theme.small_px + theme.px(2)).get_linesize()

    def _layout_tall(self, chat_h: int | None, result_h: int) -> pygame.Rect | None:
        theme = self.theme
        pad = theme.pad
        inner = self.rect.inflate(-2 * pad, -2 * pad)
        top = self._place_title(inner.left, inner.top, inner.width) + pad
        card_h = self.card_height(theme)
        self.card_rects = {}
        for color in (Color.BLACK, Color.WHITE):
            self.card_rects[color] = pygame.Rect(inner.left, top, inner.width, card_h)
            top += card_h + pad
        self.status_rect = pygame.Rect(inner.left + pad // 2, top + pad // 2, inner.width - pad, theme.text_px + pad)
        self.result_rect = pygame.Rect(inner.left, top, inner.width, result_h) if result_h else None
        above = self.result_rect if self.result_rect is not None else self.status_rect  # what the list follows
        self.keys_lines = wrap_text(KEYS_HINT, theme.font(theme.small_px), inner.width)
        keys_h = theme.font(theme.small_px).get_linesize() * len(self.keys_lines)
        list_min = MIN_LIST_LINES * self.move_list.line_h
        for rows, columns in BUTTON_GRIDS:  # the roomiest grid with words that leaves the list its lines
            buttons_h = rows * theme.control_h + (rows - 1) * pad
            buttons = pygame.Rect(inner.left, inner.bottom - buttons_h, inner.width, buttons_h)
            room = buttons.top - pad - (above.bottom + pad)
            if chat_h is not None and result_h:  # a finished duel: the result card and the chat
                room -= chat_h + pad  # would leave no list (the grid may change: the panel does anyway)
            if self._place_buttons(buttons, rows, columns) and room >= list_min:
                break
        keys_rect = pygame.Rect(inner.left, buttons.top - pad - keys_h, inner.width, keys_h)
        fits = len(self.keys_lines) <= 2
        self.keys_rect = keys_rect if fits and keys_rect.top - pad - (above.bottom + pad) >= list_min else None
        chat_rect = None
        if chat_h is not None:  # a LAN duel: the chat box takes the keys line's place
            chat_rect = pygame.Rect(inner.left, buttons.top - pad - chat_h, inner.width, chat_h)
            self.keys_rect = chat_rect if chat_rect.top > above.bottom + pad else None
        list_bottom = (self.keys_rect.top if self.keys_rect is not None else buttons.top) - pad
        list_top = above.bottom + pad
        self.move_list.rect = pygame.Rect(inner.left, list_top, inner.width, max(0, list_bottom - list_top))
        return chat_rect

    def _layout_wide(self, chat_h: int | None, result_h: int) -> pygame.Rect | None:
        theme = self.theme
        pad = theme.pad
        inner = self.rect.inflate(-2 * pad, -2 * pad)
        buttons = pygame.Rect(inner.left, inner.bottom - theme.control_h, inner.width, theme.control_h)
        self._place_buttons(buttons, 1, len(BUTTON_ORDER))
        list_w = max(self.move_list.min_width, round(inner.width * 0.27))
        left = pygame.Rect(inner.left, inner.top, inner.width - list_w - pad, buttons.top - pad - inner.top)
        right = pygame.Rect(left.right + pad, inner.top, list_w, left.height)
        top = self._place_title(left.left, left.top, left.width) + pad
        card_w = (left.width - pad) // 2
        card_h = self.card_height(theme)
        self.card_rects = {Color.BLACK: pygame.Rect(left.left, top, card_w, card_h),
                           Color.WHITE: pygame.Rect(left.right - card_w, top, card_w, card_h)}
        top += card_h + pad
        self.status_rect = pygame.Rect(left.left + pad // 2, top + pad // 2, left.width - pad, theme.text_px + pad)
        self.result_rect = pygame.Rect(right.left, right.top, right.width, result_h) if result_h else None
        list_top = self.result_rect.bottom + pad if self.result_rect is not None else right.top
        self.move_list.rect = pygame.Rect(right.left, list_top, right.width, max(0, right.bottom - list_top))
        below_status = pygame.Rect(left.left, self.status_rect.bottom + pad, left.width,
                                   left.bottom - self.status_rect.bottom - pad)
        chat_rect = None
        if chat_h is not None:  # a LAN duel: the chat box under the status line
            chat_rect = pygame.Rect(left.left, below_status.top, left.width, min(chat_h, below_status.height))
            self.keys_rect = chat_rect
            return chat_rect
        self.keys_lines = wrap_text(KEYS_HINT, theme.font(theme.small_px), left.width)
        keys_h = theme.font(theme.small_px).get_linesize() * len(self.keys_lines)
        fits = len(self.keys_lines) <= 2 and keys_h <= below_status.height
        self.keys_rect = pygame.Rect(left.left, below_status.top, left.width, keys_h) if fits else None
        return chat_rect

    # --- drawing -------------------------------------------------------------------------

    def forget(self) -> None:
        """The backdrop was made afresh: every part is drawn again."""
        self._drawn = {}

    def parts(self, content: PanelContent) -> dict[str, tuple[pygame.Rect, tuple[Any, ...]]]:
        """The panel's parts: each one's rect and everything it shows, as plain values;
        a part is redrawn when its values change."""
        parts = {
            "frame": (self.rect, (tuple(self.rect), self.theme.scale, content.title)),
            "black": (self.card_rects[Color.BLACK], tuple(content.cards[0])),
            "white": (self.card_rects[Color.WHITE], tuple(content.cards[1])),
            "moves": (self.move_list.rect, self.move_list.appearance),
            "buttons": (self.buttons_area, tuple(button.appearance for button in self.buttons.values())),
        }
        if self.result_rect is not None and content.result is not None:
            parts["result"] = (self.result_rect, content.result)
        else:
            parts["status"] = (self.status_rect, (content.move_text, content.status, content.status_colour))
        if self.keys_rect is not None and content.chat is not None:
            parts["chat"] = (self.keys_rect, content.chat)
        elif self.keys_rect is not None:
            parts["keys"] = (self.keys_rect, (content.keys,))
        return parts

    def refresh(self, backdrop: pygame.Surface, content: PanelContent, stone: StoneIcon,
                draw_chat: Callable[[pygame.Surface], None] | None = None,
                draw_result: Callable[[pygame.Surface], None] | None = None) -> list[pygame.Rect]:
        """Redraw on `backdrop` the parts whose content changed; returns their rects (the
        chat box and the result card are drawn by their owners' `draw_chat`, `draw_result`)."""
        theme = self.theme
        changed: list[pygame.Rect] = []
        parts = self.parts(content)
        if parts["frame"][1] != self._drawn.get("frame"):
            theme.draw_background(backdrop, self.rect)  # the rounded corners show it
            self._draw_frame(backdrop, content.title)
            self._drawn = {}
            changed.append(self.rect)
        for name, (rect, shown) in parts.items():
            if shown == self._drawn.get(name):
                continue
            if name != "frame":
                backdrop.fill(theme.colors.panel, rect)
                self._draw_part(backdrop, name, rect, shown, stone, draw_chat, draw_result)
                changed.append(rect)
            self._drawn[name] = shown
        return changed

    def _draw_frame(self, surface: pygame.Surface, title_text: str) -> None:
        theme, colors = self.theme, self.theme.colors
        panel = self.rect
        pygame.draw.rect(surface, colors.panel, panel, border_radius=theme.radius)
        pygame.draw.rect(surface, colors.panel_border, panel, theme.px(2), theme.radius)
        title_px = theme.small_px + theme.px(2)
        title_text = theme.fit_text(title_text, title_px, self.title_w)
        title = theme.render(title_text, title_px, colors.text_dim)
        surface.blit(title, self.title_pos)

    def _draw_part(self, surface: pygame.Surface, name: str, rect: pygame.Rect, content: tuple[Any, ...],
                   stone: StoneIcon, draw_chat: Callable[[pygame.Surface], None] | None,
                   draw_result: Callable[[pygame.Surface], None] | None) -> None:
        theme, colors = self.theme, self.theme.colors
        if name in ("black", "white"):
            self._draw_player_card(surface, rect, CardContent(*content), stone)
        elif name == "status":
            move_text, status_text, status_colour = content
            move_label = theme.render(move_text, theme.small_px + theme.px(2), colors.text_dim)
            status_width = rect.width - move_label.get_width() - theme.pad
            if theme.font(theme.text_px, True).size(status_text)[0] > status_width:
                status_width = rect.width  # too narrow for both: the status matters more
            else:
                blit_text(surface, move_label, rect, "right")
            status = theme.fit_text(status_text, theme.text_px, status_width, bold=True)
            blit_text(surface, theme.render(status, theme.text_px, status_colour, bold=True), rect, "left")
        elif name == "moves":
            self.move_list.draw(surface)
        elif name == "buttons":
            for button in self.buttons.values():
                button.draw(surface)
        elif name == "chat" and draw_chat is not None:
            draw_chat(surface)
        elif name == "result" and draw_result is not None:
            draw_result(surface)
        elif name == "keys":
            lines = self.keys_lines if content[0] == KEYS_HINT else [content[0]]
            line_h = rect.height // len(self.keys_lines)
            top = rect.top + (rect.height - line_h * len(lines)) // 2
            for index, line in enumerate(lines):
                line_rect = pygame.Rect(rect.left, top + index * line_h, rect.width, line_h)
                blit_text(surface, theme.render(line, theme.small_px, colors.text_dim), line_rect, "center")

    def _draw_player_card(self, surface: pygame.Surface, card: pygame.Rect, content: CardContent,
                          stone: StoneIcon) -> None:
        theme, colors = self.theme, self.theme.colors
        active, name_text, kind_text, clock_text, clock_colour, move_text, move_colour = content[:7]
        color = Color.BLACK if card == self.card_rects[Color.BLACK] else Color.WHITE
        pygame.draw.rect(surface, colors.field, card, border_radius=theme.radius)
        border = colors.warning if content.pulse else colors.accent if active else colors.panel_border
        width = 5 if content.pulse else 3 if active else 1
        pygame.draw.rect(surface, border, card, theme.px(width), theme.radius)
        if content.bar >= 0:
            self._draw_bar(surface, card, content.bar, colors.warning if content.warn else colors.accent)
        radius = round(card.height * 0.27)
        icon = stone(color, radius)
        pad = theme.pad
        surface.blit(icon, icon.get_rect(center=(card.left + pad + radius + theme.px(4), card.centery)))
        text_left = card.left + 2 * pad + 2 * radius + theme.px(6)
        # The clocks on the right take what they need; the name and the kind line get the rest.
        clock = theme.render(clock_text, theme.heading_px, clock_colour, bold=True)
        clock_rect = pygame.Rect(0, card.top + pad, clock.get_width(), theme.heading_px)
        clock_rect.right = card.right - pad
        surface.blit(clock, clock.get_rect(midright=clock_rect.midright))
        move_w = 0
        if move_text:
            move = theme.render(move_text, theme.small_px, move_colour)
            move_w = move.get_width() + pad
            surface.blit(move, move.get_rect(topright=(clock_rect.right, clock_rect.bottom + theme.px(4))))
        name_w = clock_rect.left - pad - text_left
        name_rect = pygame.Rect(text_left, card.top + pad, max(1, name_w), theme.text_px + theme.px(4))
        name = theme.fit_text(name_text, theme.text_px, name_rect.width, bold=True)
        blit_text(surface, theme.render(name, theme.text_px, colors.text, bold=True), name_rect, "left")
        kind_rect = pygame.Rect(text_left, name_rect.bottom + theme.px(4), max(1, card.right - pad - move_w - text_left),
                                theme.small_px + theme.px(4))
        if content.think >= 0:
            self._draw_thinking(surface, kind_rect, kind_text, content.think, content.spin)
            return
        # A narrow card drops the colour word first (the stone says it) before cutting the rest.
        kind_text = theme.first_fitting((kind_text, kind_text.split(KIND_SEPARATOR, 1)[-1]), theme.small_px,
                                        kind_rect.width)
        kind = theme.fit_text(kind_text, theme.small_px, kind_rect.width)
        blit_text(surface, theme.render(kind, theme.small_px, colors.text_dim), kind_rect, "left")

    def _draw_thinking(self, surface: pygame.Surface, row: pygame.Rect, text: str, share: float, spin: int) -> None:
        """The computer's thinking in its kind row: a spinner, the depth, and a bar of the time
        spent against its budget (left out when the row is too short for it)."""
        theme, colors = self.theme, self.theme.colors
        size = row.height
        centre = (row.left + size // 2, row.centery)
        dot = max(1, size // 9)
        ring = size // 2 - dot
        for index in range(SPINNER_STEPS):
            age = (spin - index) % SPINNER_STEPS  # 0: the head, brightest; the tail fades
            fade = age / SPINNER_STEPS
            colour = tuple(round(a + (b - a) * fade) for a, b in zip(colors.accent, colors.field, strict=True))
            angle = 2 * math.pi * index / SPINNER_STEPS
            pygame.draw.circle(surface, colour, (round(centre[0] + ring * math.sin(angle)),
                                                 round(centre[1] - ring * math.cos(angle))), dot)
        text_rect = pygame.Rect(row.left + size + theme.px(6), row.top, max(1, row.width - size - theme.px(6)),
                                row.height)
        label = theme.render(theme.fit_text(text, theme.small_px, text_rect.width), theme.small_px, colors.text)
        drawn = blit_text(surface, label, text_rect, "left")
        track = pygame.Rect(drawn.right + theme.pad, 0, row.right - drawn.right - theme.pad, theme.px(8))
        if track.width < theme.px(30):
            return
        track.centery = row.centery
        pygame.draw.rect(surface, colors.button, track, border_radius=track.height // 2)
        if share > 0:
            spent = track.copy()
            spent.width = max(track.height, round(track.width * share))
            pygame.draw.rect(surface, colors.accent, spent, border_radius=track.height // 2)

    def _draw_bar(self, surface: pygame.Surface, card: pygame.Rect, share: float, colour: Colour) -> None:
        """The countdown bar along the card's foot: its full track, and the share of time left."""
        theme = self.theme
        height = theme.px(6)
        track = pygame.Rect(card.left + theme.pad, card.bottom - theme.px(7) - height, card.width - 2 * theme.pad,
                            height)
        pygame.draw.rect(surface, self.theme.colors.button, track, border_radius=height // 2)
        if share > 0:
            left = track.copy()
            left.width = max(height, round(track.width * share))
            pygame.draw.rect(surface, colour, left, border_radius=height // 2)


def game_arrangement(size: tuple[int, int], theme: Theme, chat_h: int | None = None,
                     result_lines: int = 1) -> tuple[pygame.Rect, pygame.Rect]:
    """The game's board square and side panel in a window of `size`. Under the board the panel
    keeps room for the result card, so the board stays put when the game ends; the menu puts
    its board here too when it fits, so nothing jumps when a game starts."""
    below_h = SidePanel.below_height(theme, chat_h, GameOverCard.height(theme, result_lines))
    return board_and_panel(size, theme.px, below_h)
