"""The board scene: a game in progress vs the computer or between two players on one screen.

Enter data (all optional, the settings fill the rest): mode "ai"|"local", level, human_color,
human_name and guest_name (the players' names), rule, size, time_control {game_s, increment_s,
move_s}, resume (load the autosave),
record_path (start from a saved record), moves [[x, y], ...] (start from a position),
snapshot (a game handed back by the records scene, as the autosave stores it).
mode "lan" shows the app's LAN duel (app.lan): its mirror game, with the duel's card and chat.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame

from gomoku.core import records
from gomoku.core.board import Board
from gomoku.core.clock import Clock
from gomoku.core.game import Game
from gomoku.core.notation import format_point
from gomoku.core.records import GameRecord, RecordError
from gomoku.core.types import Color, IllegalMoveError, Outcome, Point, Rule
from gomoku.engine.api import Level, Position, SearchLimit, SearchResult
from gomoku.ui import autosave
from gomoku.ui.board_view import BoardView, Overlay
from gomoku.ui.duel_overlay import DuelOverlay
from gomoku.ui.game_over import GameOverCard, reason_text, result_title
from gomoku.ui.lan_link import LanLink
from gomoku.ui.move_list import MoveList
from gomoku.ui.players import (
    Agreement,
    AIPlayer,
    EngineSession,
    GameSetup,
    LocalPlayer,
    Player,
    PlayerError,
    RemotePlayer,
    ai_limit,
)
from gomoku.ui.scene import Scene
from gomoku.ui.side_panel import (
    CONFIRM_TEXT,
    FORBIDDEN_HINT,
    KEYS_HINT,
    LABELS,
    CardContent,
    PanelContent,
    SidePanel,
    card_content,
    game_arrangement,
    warn_seconds,
)
from gomoku.ui.widgets import Button

HINT_LIMIT = SearchLimit(time_s=1.0)
SETTLE_SECONDS = 0.14  # a new stone lands slightly large and settles in this time
SETTLE_GROW = 0.12
CONFIRM_SECONDS = 3.0
ARROW_STEPS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1)}
PLACE_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
STUCK_STATUS = "Stuck: undo or restart"  # the notice says why; the status line is short


def _confirm_text(key: str) -> str:
    if key == "leave":  # the Menu button in a LAN duel
        return "Press Menu again to leave the duel."
    return f"Press {key.capitalize()} again to confirm."


def point_name(point: Point, size: int) -> str:
    """A point as players write it: "h8"."""
    return format_point(point, size)


class BoardScene(Scene):
    """Plays one game; the two players are asked for moves the same way (see players.py)."""

    name = "board"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        theme = app.theme
        self.view = BoardView(15)
        self.board_area = pygame.Rect(0, 0, 600, 600)
        self.panel_rect = pygame.Rect(600, 0, 400, 600)
        self.panel = SidePanel(theme)  # the cards, status, move list and buttons
        self.result_card = GameOverCard(theme)  # in the panel once the game is over
        self._result_shown = False  # the panel is laid out with the result card
        self._chat_rows = 0  # a duel's panel is laid out for this many chat lines
        self._placed_at = -1.0  # when the newest stone landed (monotonic seconds)
        self._pending_request: str | None = None  # "undo" or "restart" awaiting a remote answer
        self.setup = GameSetup()
        infos = self.setup.player_infos()
        self.game = Game(Board(), infos[Color.BLACK], infos[Color.WHITE])
        self.players: dict[Color, Player] = {}
        self.engine = EngineSession()  # the worker is attached once the app has loaded it
        self._paused_for_engine = False  # the clock stopped while the engine is prepared
        self.hover: Point | None = None
        self._keyboard_cursor = False  # the arrows moved the preview last (it gets a square)
        self.hint: Point | None = None
        self._hint_request: int | None = None
        self._hint_ply = -1
        self._hint_waiting = -1  # the ply whose hint was asked while the engine was being prepared
        self._pressed_point: Point | None = None
        self._turn_begun = False
        self._stalled = False
        self._stall_status = STUCK_STATUS
        self._finished_handled = False
        self._saved_once = False
        self.autosaver: autosave.AutosaveWriter | None = None  # started with the first write
        self._forbidden: frozenset[Point] = frozenset()
        self._forbidden_ply = -1
        self._last_tick: int | None = None
        self._armed: str | None = None  # a button waiting for its confirming second click
        self._armed_left = 0.0
        self.status = ""
        self._backdrop: pygame.Surface | None = None  # background + settled board + panel, see draw
        self._board_key: tuple[Any, ...] | None = None
        self._board_look: tuple[Any, ...] | None = None
        self._frame_key: int | None = None  # the surface the last full frame went to (see draw)
        self._tip_rect: pygame.Rect | None = None  # the button tooltip on the screen, if any
        self.lan: LanLink | None = None  # the LAN duel shown, if this is one
        self._lan_version = -1  # the link's position version this scene installed
        self._lan_placed = 0
        self.duel = DuelOverlay(theme)

    # The panel and the result card own these; the scene's names stay for its callers and tests.
    @property
    def buttons(self) -> dict[str, Button]:
        return self.panel.buttons

    @property
    def move_list(self) -> MoveList:
        return self.panel.move_list

    @property
    def end_buttons(self) -> dict[str, Button]:
        return self.result_card.buttons

    @property
    def banner_rect(self) -> pygame.Rect:
        return self.result_card.rect

    @property
    def _card_rects(self) -> dict[Color, pygame.Rect]:
        return self.panel.card_rects

    @property
    def _status_rect(self) -> pygame.Rect:
        return self.panel.status_rect

    # --- entering and leaving ------------------------------------------------------------

    def enter(self, data: dict[str, Any]) -> None:
        """Start the game `data` describes (see the module docstring)."""
        self._frame_key = None  # the screen shows another scene: draw the first frame in full
        self._close_players()
        now = time.monotonic()
        self.lan = None
        self.app.tell_if_no_autosave()  # said at launch too; a game starting is when it matters
        if data.get("mode") == "lan":
            self._enter_lan(now, data)
            return
        if data.get("resume"):
            loaded, problem = autosave.load(self.app.paths.autosave_file, self.app.settings)
            if problem:
                self.app.notify(problem, error=True)
            if loaded is not None:
                self._install(*loaded, now)
                self._saved_once = True
                return
            # Nothing to continue: back to the menu and its notice, not a fresh game; an
            # empty game first, so leaving writes no older game over the set-aside file.
            infos = self.setup.player_infos()
            self.game = Game(Board(), infos[Color.BLACK], infos[Color.WHITE])
            self.app.switch("menu", {})
            return
        snapshot = data.get("snapshot")
        if isinstance(snapshot, GameRecord):
            try:
                self._install(*autosave.restore(snapshot, self.app.settings), now)
                return
            except RecordError as error:
                self.app.notify(f"Could not go back to that game ({error}).", error=True)
        setup, problems = GameSetup.from_data(data, self.app.settings)
        if problems:
            self.app.notify("Some game choices were not valid (" + "; ".join(problems)
                            + "); your settings are used for them.", error=True)
        moves: list[Point] = []
        if data.get("record_path"):
            path = Path(str(data["record_path"]))
            try:
                record = records.load_record(path)
            except (OSError, RecordError) as error:
                self.app.notify(f"Could not open {path.name}: {error}", error=True)
            else:
                setup = replace(setup, rule=record.rule, size=record.size)
                moves = list(record.moves)
        elif data.get("moves"):
            try:
                moves = [(int(x), int(y)) for x, y in data["moves"]]
            except (TypeError, ValueError):
                self.app.notify("The starting position was not a list of points; starting empty.", error=True)
        self._new_game(setup, moves, now)

    def _new_game(self, setup: GameSetup, moves: list[Point], now: float) -> None:
        board = Board(setup.size, setup.rule)
        for x, y in moves:
            try:
                board.push(x, y)
            except (IllegalMoveError, IndexError) as error:
                self.app.notify(f"The starting position stops at an illegal move ({error}).", error=True)
                break
        infos = setup.player_infos()
        self._install(setup, Game(board, infos[Color.BLACK], infos[Color.WHITE], Clock(setup.time_control)), now)

    def _enter_lan(self, now: float, data: dict[str, Any]) -> None:
        """Show the app's LAN duel; without one (it ended meanwhile), back to the lobby."""
        link = self.app.lan
        if link is None or link.game is None or link.info is None:
            self.app.notify("The LAN duel has ended.")
            self.app.switch("lobby", {})
            return
        self.lan = link
        self._install_lan(now)
        picked = data.get("picked_record")
        if isinstance(picked, GameRecord):
            self._load_for_duel(link, picked)

    def _load_for_duel(self, link: LanLink, record: GameRecord) -> None:
        """The host loads a saved game's position: both sides become un-ready and see it."""
        if not link.is_host or link.state == "playing" or link.info is None:
            self.app.notify("Only the host can load a position, between games.", error=True)
        elif record.size != link.info.size:
            self.app.notify(f"That game is on a {record.size}x{record.size} board; this duel is "
                            f"{link.info.size}x{link.info.size}.", error=True)
        else:
            link.load(list(record.moves), record.rule)
    def _install_lan(self, now: float) -> None:
        """Take the link's current game (a start, undo, restart, load or sync replaced it)."""
        link = self.lan
        assert link is not None and link.game is not None and link.info is not None
        info = link.info
        setup = GameSetup(mode="local", human_color=info.my_color, rule=link.game.board.rule,
                          size=info.size, time_control=info.time_control, human_name=info.my_name)
        self._install(setup, link.game, now, start_clock=False)
        mine = info.my_color
        self.players = {mine: LocalPlayer(mine, info.my_name),
                        mine.other: RemotePlayer(mine.other, info.opponent_name, lambda message: None)}
        self._lan_version = link.version
        self._lan_placed = link.placed

    def _install(self, setup: GameSetup, game: Game, now: float, start_clock: bool = True) -> None:
        self.setup = setup
        self.game = game
        if self.view.size != setup.size:  # the same size keeps its drawn board: no pause at 4K
            self.view = BoardView(setup.size)
        self.resize(self.app.screen_size)
        self.players = {}
        for color in (Color.BLACK, Color.WHITE):
            info = game.player(color)
            if info.kind == "ai":
                self.players[color] = AIPlayer(
                    color, info.name, self.engine, setup.level,
                    limit=functools.partial(self._ai_limit, color),
                )
            else:
                self.players[color] = LocalPlayer(color, info.name)
        self.hint = None
        self._hint_request = None
        self._hint_waiting = -1
        self._pending_request = None
        self._stalled = False
        self._stall_status = STUCK_STATUS
        self._finished_handled = game.is_over
        self._saved_once = False
        self._turn_begun = False
        self._forbidden_ply = -1
        self._disarm()
        self._last_tick = None
        if not game.is_over and start_clock:
            game.start(now)
        self._refresh_status()

    def _bind_engine(self) -> bool:
        """Attach the app's worker to the session once the engine has loaded; True when ready."""
        return self.engine.bind(self.app)

    def leave(self) -> None:
        """Stop every search and keep the game for Continue (on disk before the scene goes)."""
        self._write_autosave()
        self._close_players()
        if self.autosaver is not None:
            self.autosaver.close()
            self.autosaver = None

    def _close_players(self) -> None:
        for player in self.players.values():
            player.close()
        self.engine.cancel_all()
        self._hint_request = None

    # --- layout --------------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        theme = self.app.theme
        self._frame_key = None
        chat_h = DuelOverlay.chat_height(theme) if self.lan is not None else None
        self.board_area, self.panel_rect = game_arrangement(size, theme, chat_h, 2 if self.lan else 1)
        self.view.layout(self.board_area)
        self._layout_panel()

    def _layout_panel(self) -> None:
        """The panel's parts, with the result card once the game is over; in a LAN duel also
        the chat box (in the panel) and the duel's card (over the board)."""
        theme = self.app.theme
        chat_h = None
        if self.lan is not None:  # the chat box grows with the chat, up to its few lines
            self._chat_rows = DuelOverlay.chat_rows(self.lan)
            chat_h = DuelOverlay.chat_height(theme, self._chat_rows)
        lines = 2 if self.lan is not None else 1  # a duel's reason may add "... wants a rematch"
        self._result_shown = self.game.is_over
        result_h = GameOverCard.height(theme, lines) if self._result_shown else 0
        chat_rect = self.panel.layout(self.panel_rect, chat_h, result_h)
        if self.panel.result_rect is not None:
            self.result_card.place(self.panel.result_rect, lines)
        if chat_rect is not None:
            self.duel.layout(self.board_area, chat_rect, self._stone_centres())

    def stood_still(self, since: float, now: float) -> None:
        """The time no frame ran is nobody's: the side to move's clock is not charged for it (a
        LAN duel's clocks are the host's, whose network thread sees the same stop)."""
        if self.lan is None and not self.game.is_over:
            self.game.clock.skip(since, now)
        for player in self.players.values():
            if isinstance(player, AIPlayer):
                player.stood_still(now - since)

    @property
    def notice_area(self) -> pygame.Rect:
        """Where the app's toasts go: over the board's corner, not the panel's names and clocks;
        while a duel's card is up, the larger part of the board above or below it, so that a
        toast never lies over the card's buttons (a click there would only dismiss the toast)."""
        area = self.board_area
        if self.lan is None or self.duel.card(self.lan, time.monotonic()) is None:
            return area
        card = self.duel.card_rect
        above = pygame.Rect(area.left, area.top, area.width, max(0, card.top - area.top))
        below = pygame.Rect(area.left, card.bottom, area.width, max(0, area.bottom - card.bottom))
        return below if below.height >= above.height else above

    def _stone_centres(self) -> list[tuple[int, int]]:
        return [self.view.geometry.center(point) for point in self.game.board.moves]

    # --- input ---------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.lan is not None and self._handle_lan_event(event):
            return
        if self.game.is_over:
            end_key = self.result_card.handle_event(event)
            if end_key is not None:
                self._end_action(end_key)
                return
        for key, button in self.buttons.items():
            if button.handle_event(event):
                self._action(key)
                return
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            self.move_list.handle_event(event)  # hover and the wheel scroll the list
        if event.type == pygame.KEYDOWN and event.key == pygame.K_n:
            self.app.settings.show_move_numbers = not self.app.settings.show_move_numbers
            self.app.save_settings()
        elif event.type == pygame.KEYDOWN and event.key in ARROW_STEPS:
            self._move_cursor(*ARROW_STEPS[event.key])
            self._keyboard_cursor = True
        elif event.type == pygame.KEYDOWN and event.key in PLACE_KEYS and not self.game.is_over:
            if self.hover is not None:
                self._click(self.hover)
        elif event.type == pygame.MOUSEMOTION:
            self.hover = self.view.point_at(event.pos)
            self._keyboard_cursor = False
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._pressed_point = self.view.point_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            point = self.view.point_at(event.pos)
            if point is not None and point == self._pressed_point:
                self._click(point)
            self._pressed_point = None

    def _handle_lan_event(self, event: pygame.event.Event) -> bool:
        """The duel's card and chat first; True when the event was theirs (typing in the chat
        keeps every key from the board's hotkeys)."""
        link = self.lan
        assert link is not None
        action = self.duel.handle_event(event, link, time.monotonic())
        if action == "chat":
            text = self.duel.take_chat()
            if not link.say(text):
                self.duel.chat_input.set_text(text)  # kept, to send once the other side is back
        elif action in ("ready", "unready"):
            link.set_ready(action == "ready")
        elif action in ("accept", "refuse"):
            link.reply(action == "accept")
        elif action == "reconnect":
            link.reconnect()
        elif action == "lobby":
            self.app.close_lan()
            self.app.switch("lobby", {})
        elif action == "load":
            self.app.switch("records", {"pick": True, "back": "board", "back_data": {"mode": "lan"}})
        return action is not None or self.duel.typing

    def _move_cursor(self, dx: int, dy: int) -> None:
        """Arrow keys: the preview stone (the same as under the mouse) moves one point; the
        first press puts it by the last stone, or in the middle of an empty board."""
        size = self.game.board.size
        if self.hover is None:
            self.hover = self.game.board.last_move or (size // 2, size // 2)
            return
        x, y = self.hover
        self.hover = (min(size - 1, max(0, x + dx)), min(size - 1, max(0, y + dy)))

    def _click(self, point: Point) -> None:
        if self.game.is_over:
            return
        if self.lan is not None:
            self._click_lan(point)
            return
        player = self.players[self.game.to_move]
        if not isinstance(player, LocalPlayer) or self._stalled:
            return  # not a human's turn: the click means nothing
        if not self._turn_begun:
            player.begin_turn(self.game.board)
            self._turn_begun = True
        if self._refused(point):
            return
        player.click(point)

    def _refused(self, point: Point) -> bool:
        """True (with a sound, and the reason for an empty point) if the rules refuse `point`."""
        problem = self.game.board.check_move(*point)
        if problem is None:
            return False
        self.app.audio.play("invalid")
        if self.game.board[point] == 0:  # occupied points need no explanation
            self.app.notify(f"{point_name(point, self.game.board.size)} is {problem.value}.")
        return True

    def _click_lan(self, point: Point) -> None:
        """Our stone goes to the host; it shows when the host has accepted it (Moved)."""
        link = self.lan
        assert link is not None
        if not link.my_turn:
            self.app.audio.play("invalid")
            if link.state == "waiting":
                self.app.notify("The game starts when both players are ready.")
            return
        if not self._refused(point):
            link.move(point)

    def _lan_action(self, key: str) -> bool:
        """Undo, restart, resign and menu in a LAN duel; True when `key` was handled here."""
        link = self.lan
        assert link is not None
        if key == "menu":
            if link.phase in ("connected", "lost") and not self._confirm("leave"):
                return True
            self.app.close_lan()
            self.app.switch("menu", {})
        elif key in ("undo", "restart"):
            if link.my_request is not None:
                self.app.notify("Still waiting for the answer to your last request.")
            elif key == "undo" and not self.game.can_undo(self.setup.human_color):
                self.app.audio.play("invalid")
            else:
                link.request(key)
                words = "take back your last move" if key == "undo" else "start a new game"
                self.app.notify(f"Asked {link.info.opponent_name if link.info else 'the opponent'} to {words}...")
        elif key == "resign":
            if self._confirm("resign"):
                link.resign()
        elif key == "hint":
            self.app.notify("No hints in a LAN duel.")
        else:
            return False
        return True

    def _action(self, key: str) -> None:
        if self.lan is not None and self._lan_action(key):
            return
        if key == "menu":
            self.app.switch("menu", {})
        elif key == "undo":
            self.undo()
        elif key == "restart":
            if self.game.board.ply and not self.game.is_over and not self._confirm("restart"):
                return
            self.restart()
        elif key == "resign":
            if not self._confirm("resign"):
                return
            self.resign()
        elif key == "hint":
            self.request_hint()
        elif key == "save":
            self.open_save()

    def _end_action(self, key: str) -> None:
        if key == "rematch" and self.lan is not None:
            self.lan.set_ready(True)  # both ready again: the host starts a fresh game
        elif key == "rematch":
            self._close_players()
            self._new_game(self.setup.swapped(), [], time.monotonic())
        elif key == "review":
            record = self._record()
            back = {"mode": "lan"} if self.lan is not None else {"snapshot": record}
            self.app.switch("review", {"record": record, "back": "board", "back_data": back})

    def _confirm(self, key: str) -> bool:
        """A second click within a few seconds confirms `key`; the first one asks."""
        if self._armed == key:
            self._disarm()
            return True
        self._disarm()
        self._armed = key
        self._armed_left = CONFIRM_SECONDS
        self.app.notify(_confirm_text(key))
        return False

    def _disarm(self) -> None:
        """Forget a half-confirmed Resign or Restart, and take its question off the screen."""
        if self._armed is not None:
            self.app.dismiss(_confirm_text(self._armed))
            self._armed = None

    # --- actions -------------------------------------------------------------------------

    def _requester(self) -> Color | None:
        """Whose undo it is: the human's colour when the other side is not at this screen
        (the computer, a remote player), else None (two players: one stone back)."""
        human = self.setup.human_color
        other = self.players.get(human.other)
        return human if other is not None and not isinstance(other, LocalPlayer) else None

    def _opponent_of_requester(self) -> Player:
        """Who must agree: the other side of the requester, or (two players) the side to move,
        whose opponent played the stone to take back."""
        asker = self._requester()
        return self.players[asker.other if asker is not None else self.game.to_move]

    def undo(self) -> bool:
        """Take back the last move (vs the computer: the player's last stone and the reply).

        The opponent is asked first; a remote one may answer later (see `_poll_request`).
        """
        if not self.game.can_undo(self._requester()):
            self.app.audio.play("invalid")
            return False
        return self._ask("undo", self._opponent_of_requester().request_undo())

    def restart(self) -> bool:
        """Start the same game again from an empty board (same colours), once the opponent agrees."""
        return self._ask("restart", self._opponent_of_requester().request_restart())

    def _ask(self, request: str, answer: Agreement) -> bool:
        if answer is Agreement.PENDING:
            self._pending_request = request
            self.app.notify(f"Asked the opponent to {'take back a move' if request == 'undo' else 'restart'}...")
            return False
        if answer is Agreement.REFUSED:
            self.app.notify(f"The opponent did not agree to {'take the move back' if request == 'undo' else 'restart'}.")
            return False
        self._carry_out(request)
        return True

    def _carry_out(self, request: str) -> None:
        self._cancel_turns()
        now = time.monotonic()
        if request == "undo":
            self.game.undo(self._requester(), now)
        else:
            self.game.restart(now)
        self._after_position_change()

    def _poll_request(self) -> None:
        """A remote opponent's answer to the undo or restart asked for."""
        if self._pending_request is None:
            return
        answer = self._opponent_of_requester().answer()
        if answer is Agreement.PENDING:
            return
        request, self._pending_request = self._pending_request, None
        self._ask(request, answer)

    def resign(self) -> None:
        """The human gives up (two players: the side to move)."""
        if self.game.is_over:
            return
        loser = self._requester() or self.game.to_move
        self._cancel_turns()
        self.game.resign(loser, time.monotonic())

    def request_hint(self) -> None:
        """Ask the engine (hard, a short budget) what it would play for the human to move."""
        if self.game.is_over or not isinstance(self.players[self.game.to_move], LocalPlayer):
            self.app.audio.play("invalid")
            return
        if not self._bind_engine() or not self.engine.ready_for(Level.HARD):
            if self.app.engine_error is not None:
                self.app.notify(f"No hints: the computer cannot play ({self.app.engine_error}).", error=True)
            else:  # asked for once: it comes by itself when the engine is ready (_poll_hint)
                self._hint_waiting = self.game.board.ply
                self.app.notify("The hint comes as soon as the computer is ready.")
            return
        self._hint_request = self.engine.submit(Position.from_board(self.game.board), Level.HARD, HINT_LIMIT)
        self._hint_ply = self.game.board.ply
        self.hint = None

    def open_save(self) -> None:
        """Open the records scene in save mode; it comes back to this game."""
        record = self._record()
        back = {"mode": "lan"} if self.lan is not None else {"snapshot": record}
        self.app.switch("records", {"save": record, "back": "board", "back_data": back})

    def _cancel_turns(self) -> None:
        for player in self.players.values():
            player.cancel()
        self.engine.cancel(self._hint_request)
        self._hint_request = None
        self._hint_waiting = -1
        self.hint = None
        self._disarm()

    def _after_position_change(self) -> None:
        self._turn_begun = False
        self._stalled = False
        self._stall_status = STUCK_STATUS
        self._finished_handled = self.game.is_over
        self._last_tick = None
        self._write_autosave()

    # --- the frame -----------------------------------------------------------------------

    def update(self, dt: float) -> None:
        now = time.monotonic()
        if self._armed is not None:
            self._armed_left -= dt
            if self._armed_left <= 0:
                self._disarm()
        if self.lan is not None:
            self._update_lan(now)
            return
        if not self.game.is_over:
            if self.game.check_clock(now) is None:
                self._tick_countdown(now)
                self._play_turn(now)
        self._poll_hint()
        self._poll_request()
        self._report_autosave_errors()
        if self.game.is_over and not self._finished_handled:
            self._finish()
        if self.game.is_over != self._result_shown:  # ended, or reopened by an undo
            self._layout_panel()
        self._refresh_status()

    def _update_lan(self, now: float) -> None:
        """Follow the link (the app pumped it this frame): the host decides, this screen shows.

        No local flagging: the host keeps the clocks and declares a timeout."""
        link = self.lan
        assert link is not None
        if link is not self.app.lan or link.game is None:
            self.lan = None
            self.app.notify("The LAN duel has ended.")
            self.app.switch("menu", {})
            return
        if link.version != self._lan_version:
            self._cancel_turns()
            self._install_lan(now)
            self._write_autosave()
        elif link.placed != self._lan_placed:
            self._lan_placed = link.placed
            self.duel.layout(self.board_area, self.duel.chat_rect, self._stone_centres())
            self._placed_at = now
            self.hint = None
            self._last_tick = None
            self._disarm()
            self._write_autosave()
        if not self.game.is_over and link.my_turn:
            self._tick_countdown(now)
        if self.game.is_over and not self._finished_handled:
            self._finish()
        if self.game.is_over != self._result_shown or DuelOverlay.chat_rows(link) != self._chat_rows:
            self._layout_panel()
        rematch = self.end_buttons["rematch"]
        rematch.text = "Waiting..." if link.ready_mine else "Rematch"
        rematch.enabled = link.phase == "connected" and not link.ready_mine
        self._report_autosave_errors()
        self._refresh_status()

    def _play_turn(self, now: float) -> None:
        color = self.game.to_move
        player = self.players[color]
        if self._stalled:
            return
        if not self._turn_begun:
            if isinstance(player, AIPlayer) and (not self._bind_engine() or player.preparing):
                failure = self.app.engine_error
                if failure is not None:
                    self._stalled = True
                    self._stall_status = "The computer cannot play"
                    self.app.notify(f"The computer cannot play: {failure}.", error=True)
                elif self.game.clock.running:  # no time lost to the engine's preparation
                    self.game.clock.pause(now)
                    self._paused_for_engine = True
                return  # the engine is still loading: ask once it is there
            if self._paused_for_engine:
                self._paused_for_engine = False
                self.game.clock.resume(now)
            player.begin_turn(self.game.board)
            self._turn_begun = True
        try:
            move = player.poll()
        except PlayerError as error:
            self._stalled = True
            message = str(error)
            self.app.notify(f"{message[:1].upper()}{message[1:]}. Undo, restart or go back to the menu.", error=True)
            return
        if move is None:
            return
        try:
            self.game.play(move[0], move[1], now)
        except IllegalMoveError as error:
            self._stalled = True
            self.app.notify(f"{player.name} tried an illegal move: {error.reason.value}.", error=True)
            return
        self.app.audio.play("place")
        self._placed_at = time.monotonic()
        self.players[color.other].opponent_moved(move)
        self.hint = None
        self._turn_begun = False
        self._last_tick = None
        self._write_autosave()

    def _tick_countdown(self, now: float) -> None:
        """A tick each second in the last seconds of a human's time (side_panel.warn_seconds)."""
        if not isinstance(self.players[self.game.to_move], LocalPlayer):
            return
        left = self._time_left(now)
        if left > warn_seconds(self.game.clock.control.move_s):
            return
        second = math.ceil(left)
        if second != self._last_tick:
            self._last_tick = second
            self.app.audio.play("tick")

    def _time_left(self, now: float) -> float:
        clock = self.game.clock
        return min(clock.remaining(self.game.to_move, now), clock.move_remaining(now))

    def _ai_limit(self, color: Color) -> SearchLimit:
        now = time.monotonic()
        clock = self.game.clock
        remaining = clock.remaining(color, now)
        move = clock.move_remaining(now)
        return ai_limit(
            self.setup.level,
            None if math.isinf(remaining) else remaining,
            None if math.isinf(move) else move,
        )

    def _poll_hint(self) -> None:
        if self._hint_waiting >= 0:
            waited, self._hint_waiting = self._hint_waiting, -1
            if waited == self.game.board.ply and not self.game.is_over:
                if self.app.engine_error is not None or self._bind_engine() and self.engine.ready_for(Level.HARD):
                    self.request_hint()  # (or says why there is none)
                else:
                    self._hint_waiting = waited
        if self._hint_request is None:
            return
        for item in self.engine.take(self._hint_request):
            if isinstance(item, SearchResult):
                self._hint_request = None
                if self.game.board.ply == self._hint_ply and not self.game.is_over:
                    self.hint = item.move
            elif isinstance(item, BaseException):
                self._hint_request = None
                self.app.notify(f"No hint this time ({item}).", error=True)

    def _finish(self) -> None:
        """The game just ended: sound, no more searching, no more Continue."""
        self._finished_handled = True
        self._cancel_turns()
        outcome = self.game.result
        assert outcome is not None
        if self._requester() is not None and outcome.winner not in (None, self.setup.human_color):
            self.app.audio.play("lose")
        else:
            self.app.audio.play("win")
        self._write_autosave()

    # --- autosave ------------------------------------------------------------------------

    def _record(self) -> GameRecord:
        """The game so far as a record, with its setup and clock (for saving and review); a LAN
        guest's also keeps its seat, so the game can be rejoined if this app dies."""
        record = autosave.record_of(self.game, self.setup, time.monotonic())
        link = self.lan
        quitting = not self.app.running  # a deliberate quit says bye: no seat kept
        if (link is not None and link.info is not None and not link.is_host and link.state == "playing"
                and not quitting):
            record.extra[autosave.LAN_KEY] = autosave.lan_seat(link.info, time.time())
        return record

    def _write_autosave(self) -> None:
        """Keep the game in progress for Continue; a finished or emptied game clears it. A duel
        whose line never came back (or whose host's result the board does not bear out) is
        unfinished on this board, and so stays for Continue, to play on one screen.

        The record is taken here; the autosave thread writes it, so no frame waits for the disk.
        """
        if getattr(self.app.options, "screenshot", None) is not None or not self.app.keeps_autosave:
            return  # a screenshot run, or a second copy of the game, must not replace the player's game
        if self.autosaver is None:
            self.autosaver = autosave.AutosaveWriter(self.app.paths.autosave_file)
        if self.game.recorded_result is not None or (self.game.board.ply == 0 and self._saved_once):
            self.autosaver.clear()
            self._saved_once = False
        elif self.game.board.ply > 0:
            self.autosaver.write(self._record())
            self._saved_once = True

    def _report_autosave_errors(self) -> None:
        if self.autosaver is None:
            return
        while not self.autosaver.errors.empty():
            self.app.notify(self.autosaver.errors.get_nowait(), error=True)

    # --- drawing -------------------------------------------------------------------------

    def _refresh_status(self) -> None:
        game = self.game
        outcome = game.result
        if outcome is not None:
            self.status = self._result_title(outcome)
            return
        if self.lan is not None:
            self.status = self._lan_status(self.lan)
            return
        player = self.players.get(game.to_move)
        if self._stalled:
            self.status = self._stall_status
        elif isinstance(player, AIPlayer):
            dots = "." * (1 + int(time.monotonic() * 3) % 3)  # moving dots: the window is alive
            if player.preparing:
                progress = self.app.engine_preparing  # (parts done, parts) or None
                count = f", {progress[0]} of {progress[1]} parts" if progress else ""
                short = f", {progress[0]}/{progress[1]}" if progress else ""
                # The longest wording that fits in full (measured with three dots: no flicker).
                theme = self.app.theme
                wording = theme.first_fitting(
                    (f"Preparing the engine (first launch){count}...", f"Preparing the engine{count}...",
                     f"Preparing the engine{short}...", "Preparing the engine..."),
                    theme.text_px, self.panel.status_rect.width, bold=True)
                self.status = wording.removesuffix("...") + dots
            elif not player.thinking:
                self.status = f"Computer getting ready{dots}"
            else:  # the computer's card shows the depth, and its spinner says it is alive
                self.status = "Computer thinking..."
        elif self._hint_request is not None:
            self.status = "Looking for a good move..."
        elif self._hint_waiting >= 0:
            self.status = self._fitting("Hint: the computer is getting ready...", "Hint: getting ready...")
        elif self.hint is not None:
            self.status = f"Hint: {point_name(self.hint, game.board.size)}"
        elif player is not None:
            who = "Your move" if self._requester() is not None else f"{player.name} to move"
            self.status = self._fitting(f"{who} ({game.to_move.label})", f"{game.to_move.label.capitalize()} to move")

    def _lan_status(self, link: LanLink) -> str:
        opponent = link.info.opponent_name if link.info is not None else "The opponent"
        if link.phase == "lost":
            return self._fitting("Connection lost: clocks stopped", "Connection lost")
        if link.phase == "closed":
            return "The connection is closed"
        if link.state == "waiting":
            return "Press Ready to start" if not link.ready_mine else self._fitting(f"Waiting for {opponent}...",
                                                                                   "Waiting for the other player...",
                                                                                   "Waiting...")
        if link.my_request is not None:
            return "Waiting for an answer..."
        if link.my_turn:
            return f"Your move ({self.game.to_move.label})"
        colour = self.game.to_move.label  # the colour tells apart two of one name
        return self._fitting(f"{opponent} to move ({colour})", f"{colour.capitalize()} to move")

    def _fitting(self, *wordings: str) -> str:
        """The first of a status's `wordings` (longest first) that the status line shows whole:
        a small window or a long name gets a shorter one rather than a cut one."""
        theme = self.app.theme
        return theme.first_fitting(wordings, theme.text_px, self.panel.status_rect.width, bold=True)

    def _result_title(self, outcome: Outcome) -> str:
        return result_title(outcome, self.game, self.players, self._requester())

    def _reason_text(self, outcome: Outcome) -> str:
        link = self.lan
        rematch_from = None
        if link is not None and link.ready_theirs and link.info is not None:
            rematch_from = link.info.opponent_name
        return reason_text(outcome, self.game, self._requester(), rematch_from)

    def _overlay(self) -> Overlay:
        game = self.game
        board = game.board
        player = self.players.get(game.to_move)
        human_turn = isinstance(player, LocalPlayer) and not game.is_over and not self._stalled
        if self.lan is not None:
            human_turn = self.lan.my_turn
        forbidden: frozenset[Point] = frozenset()
        if board.rule is Rule.RENJU and board.to_move is Color.BLACK and not game.is_over:
            if self._forbidden_ply != board.ply:
                self._forbidden = frozenset(board.forbidden_points())
                self._forbidden_ply = board.ply
            forbidden = self._forbidden
        hover = self.hover if human_turn and self.hover not in forbidden else None
        outcome = game.result
        return Overlay(
            hover=hover,
            hover_color=game.to_move,
            hint=self.hint,
            forbidden=forbidden,
            winning_line=outcome.line if outcome is not None else (),
            show_numbers=bool(self.app.settings.show_move_numbers),
            last_grow=SETTLE_GROW * max(0.0, 1.0 - (time.monotonic() - self._placed_at) / SETTLE_SECONDS),
            cursor=self.hover if self._keyboard_cursor and not game.is_over else None,
        )

    def draw(self, surface: pygame.Surface) -> None:
        """Bring the cached backdrop up to date, copy to the screen only the parts that changed,
        then draw what moves over the board: the newest stone, markers, a duel's card.

        The screen keeps the last frame, so an unchanged part is not copied again; after a
        notice (the app draws those on top) or another scene, the whole backdrop is."""
        self.view.show_coordinates(bool(self.app.settings.show_coordinates))
        changed = self._update_backdrop(surface.get_size())
        overlay = self._overlay()
        now = time.monotonic()
        duel_look = self.duel.appearance(self.lan, now) if self.lan is not None else None
        board_look = (overlay, duel_look)
        covered = bool(self.app.notices) or self._covered_last_frame
        self._covered_last_frame = bool(self.app.notices)
        backdrop = self._backdrop
        assert backdrop is not None
        self._unchanged = False
        tip = next((button for button in self.buttons.values() if button.tooltip_rect(surface.get_rect())), None)
        tip_rect = tip.tooltip_rect(surface.get_rect()) if tip is not None else None
        old_tip = self._tip_rect if self._tip_rect != tip_rect else None  # a tooltip gone or moved
        if changed is None or covered or self._frame_key != id(surface):
            self._frame_key = id(surface)
            surface.blit(backdrop, (0, 0))
            redraw_board = True
        else:
            redraw_board = (board_look != self._board_look or self.board_area in changed
                            or (old_tip is not None and old_tip.colliderect(self.board_area)))
            if redraw_board and self.board_area not in changed:
                changed.append(self.board_area)  # clean wood under the overlay about to be drawn
            if old_tip is not None:
                changed.append(old_tip)
            for rect in changed:
                surface.blit(backdrop, rect, rect)
        self._board_look = board_look
        self._unchanged = not changed and not redraw_board and tip_rect == self._tip_rect
        if redraw_board:
            self.view.draw_overlay(surface, self.game.board, overlay)
            if self.lan is not None:
                self.duel.draw_card(surface, self.lan, now)
        if tip is not None:  # over everything; drawn each frame, as what lies under it may change
            tip.draw_tooltip(surface)
        self._tip_rect = tip_rect

    def forget_screen(self) -> None:
        super().forget_screen()
        self._frame_key = None

    def _update_backdrop(self, size: tuple[int, int]) -> list[pygame.Rect] | None:
        """Redraw the parts of the cached backdrop (background, board with its settled stones,
        the panel's parts) whose content changed; returns their rects, or None if all is new."""
        theme = self.app.theme
        changed: list[pygame.Rect] | None = []
        if self._backdrop is None or self._backdrop.get_size() != size:
            self._backdrop = pygame.Surface(size)
            theme.draw_background(self._backdrop)
            self._board_key = None
            self.panel.forget()
            changed = None
        backdrop = self._backdrop
        board = self.game.board
        show_numbers = bool(self.app.settings.show_move_numbers)
        board_key = (tuple(self.view.geometry.wood), self.view.size, self.view.coordinates,
                     tuple(board.moves), show_numbers)
        if board_key != self._board_key:
            self.view.draw_settled(backdrop, board, show_numbers)
            self._board_key = board_key
            if changed is not None:
                changed.append(self.board_area)
        lan, outcome = self.lan, self.game.result
        draw_chat = (lambda surface: self.duel.draw_chat(surface, lan)) if lan is not None else None
        draw_result = None
        if outcome is not None:
            title, reason = self._result_title(outcome), self._reason_text(outcome)
            draw_result = functools.partial(self.result_card.draw, title=title, reason=reason)
        panel_changed = self.panel.refresh(backdrop, self._panel_content(time.monotonic()), self.view.stone,
                                           draw_chat, draw_result)
        if changed is not None:
            changed += panel_changed
        return changed

    def _panel_content(self, now: float) -> PanelContent:
        """What the side panel shows this frame (it redraws only the parts that changed)."""
        colors = self.app.theme.colors
        self._sync_buttons()
        self.move_list.set_moves(self.game.board.moves, self.game.board.size)
        move_text = f"Move {self.game.board.ply + (0 if self.game.is_over else 1)}"
        outcome = self.game.result
        status_colour = colors.accent if self.game.is_over else colors.text
        return PanelContent(
            title=self._panel_title(),
            cards=(self._card_content(Color.BLACK, now), self._card_content(Color.WHITE, now)),
            move_text=move_text,
            status=self.status,
            status_colour=status_colour,
            keys=self._keys_text(),
            chat=self.duel.chat_appearance(self.lan) if self.lan is not None else None,
            result=(self.result_card.appearance(self._result_title(outcome), self._reason_text(outcome))
                    if outcome is not None else None),
        )

    def _keys_text(self) -> str:
        """The line above the buttons: the keys, or what the red crosses mean while they show."""
        board = self.game.board
        if (board.rule is Rule.RENJU and board.to_move is Color.BLACK and not self.game.is_over
                and self._forbidden_ply == board.ply and self._forbidden):
            return FORBIDDEN_HINT
        return KEYS_HINT

    def _panel_title(self) -> str:
        rule_text = {Rule.FREESTYLE: "Freestyle", Rule.STANDARD: "Standard", Rule.RENJU: "Renju"}[self.setup.rule]
        mode_text = "vs Computer" if self.setup.mode == "ai" else "Two players"
        if self.lan is not None:
            mode_text = "LAN duel (host)" if self.lan.is_host else "LAN duel"
        return f"{mode_text}  ·  {rule_text} {self.setup.size}x{self.setup.size}"

    def _sync_buttons(self) -> None:
        game = self.game
        human_turn = isinstance(self.players.get(game.to_move), LocalPlayer) and not game.is_over
        self.buttons["undo"].enabled = game.can_undo(self._requester())
        self.buttons["hint"].enabled = human_turn and self._hint_request is None and self._hint_waiting < 0
        self.buttons["resign"].enabled = not game.is_over
        self.buttons["save"].enabled = game.board.ply > 0
        for key, armed in (("resign", "resign"), ("restart", "restart"), ("menu", "leave")):
            button = self.buttons[key]  # waiting for the second click: lit, and (with room) says so
            button.text = CONFIRM_TEXT if self._armed == armed else LABELS[key]
            button.primary = self._armed == armed
        link = self.lan
        if link is not None:
            playing = link.phase == "connected" and link.state == "playing" and not game.is_over
            self.buttons["hint"].enabled = False
            self.buttons["undo"].enabled = (playing and link.my_request is None
                                            and game.can_undo(self.setup.human_color))
            self.buttons["restart"].enabled = playing and link.my_request is None
            self.buttons["resign"].enabled = playing

    def _card_content(self, color: Color, now: float) -> CardContent:
        """What one player's card shows (see side_panel.card_content)."""
        return card_content(self.app.theme, self.game, color, self.players.get(color), now, self._time_left(now))
