"""The UI's side of a LAN duel: one NetBridge, and a mirror of the game built from its events.

The app keeps one LanLink while a duel lasts, across scenes (the lobby creates it, the board
scene shows it, the records scene can be visited in between); `App.frame` pumps it every frame.
Everything here runs on the main thread: it reads the bridge's queue and never touches a
socket. The mirror Game changes only on the host's word (Moved, PositionSet, GameOver), so
the board shows what the host decided; `version` grows whenever the whole position changed.
"""

from __future__ import annotations

import logging
import queue
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from gomoku.core.board import Board
from gomoku.core.clock import Clock, TimeControl
from gomoku.core.game import Game, PlayerInfo
from gomoku.core.notation import format_point
from gomoku.core.types import Color, IllegalMoveError, Outcome, Point, Reason, Rule
from gomoku.net import events as ev
from gomoku.net.events import HostInfo, HostOptions
from gomoku.ui.game_over import REASON_TEXT

log = logging.getLogger(__name__)

EVENTS_PER_FRAME = 200  # a flood from the network is spread over frames, never a frozen one
CHAT_LINES = 50
MAX_HOSTS = 64

REQUEST_WORDS = {"undo": "take back a move", "restart": "start a new game"}


@dataclass(frozen=True)
class ChatLine:
    name: str
    text: str
    mine: bool


# The events after which a move we sent is no longer on its way: taken, refused, or overtaken.
ANSWERS_A_MOVE = (ev.Moved, ev.MoveRefused, ev.PositionSet, ev.GameOver, ev.ConnectionLost, ev.Reconnected,
                  ev.Closed, ev.Connected, ev.Failed)


def sentence(text: str, name: str = "") -> str:
    """The network's messages are phrase fragments ("nobody is hosting..."); shown alone, as a
    notice or on the card, they are sentences, as the game's own notices are. One that begins
    with the player `name` keeps it as that player typed it ("bob left.", not "Bob left.")."""
    text = text.strip()
    if text and text[-1] not in ".!?…":
        text += "."
    if name and text.startswith(name):
        return text
    return text[:1].upper() + text[1:]


class LanLink:
    """One LAN duel as the UI sees it: phase, hosts found, the connection, the mirror game.

    `phase` is "idle" (nothing yet, or after a failure), "hosting" (waiting for a guest),
    "joining", "connected", "lost" (reconnecting) or "closed". Not thread-safe: the main
    thread alone calls it.
    """

    def __init__(self, bridge: Any, name: str) -> None:
        self.bridge = bridge
        self.name = name
        self.phase = "idle"
        self.hosts: dict[str, HostInfo] = {}  # the games we may join: never our own (own_key)
        self.own_key: str | None = None  # the key our own hosted game is advertised under
        self.hosting: ev.Hosting | None = None
        self.info: ev.Connected | None = None
        self._their_name = ""  # the opponent's name as typed (info's may carry " (guest)")
        self.game: Game | None = None
        self.state = "waiting"  # "waiting" (un-ready) | "playing" | "over"
        self.ready_mine = False
        self.ready_theirs = False
        self.incoming_request: str | None = None  # the opponent asks; we answer with `reply`
        self.my_request: str | None = None  # we asked; the answer is awaited
        self.move_sent: Point | None = None  # our move on its way: no second one until it is answered
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_LINES)
        self.lost_deadline: float | None = None
        self.error: str | None = None  # the last failure, in plain words
        self.closed_reason = ""  # why the session ended, for the board's card
        self.notices: list[tuple[str, bool]] = []  # (text, is_error) for the scene to show
        self.sounds: list[str] = []  # sound names for the scene to play
        self.version = 0  # grows on every whole-position change (the board scene re-installs)
        self.placed = 0  # grows on every stone played
        self.last_sync_why = ""
        self._rejoined: Game | None = None  # the autosaved game a rejoin after a crash takes back
        self.bridge.start()

    # --- the UI's commands ---------------------------------------------------------------

    def browse(self, on: bool) -> None:
        self.bridge.browse(on)

    def host(self, options: HostOptions) -> None:
        self.error = None
        self.phase = "hosting"
        self.hosting = None
        self.bridge.host(options)

    def join(self, address: str, port: int, session: str | None = None, saved: Game | None = None) -> None:
        """Join a host; with the `session` of a seat this app lost by crashing, `saved` is the
        game its autosave kept, whose move times the host's sync does not carry."""
        self.error = None
        self.phase = "joining"
        self._rejoined = saved if session is not None else None
        self.bridge.join(address, port, self.name, session)

    def cancel(self) -> None:
        """Stop hosting or joining, or leave the duel (bye); the link stays for another try."""
        self.bridge.leave()
        self.phase = "idle"
        self.hosting = None
        self.info = None

    def close(self) -> None:
        """The duel is over for this app (menu, quit): bye, unregister, stop the thread."""
        try:
            self.bridge.close()
        except Exception:  # the app is leaving: a failing close must not stop it
            log.exception("closing the network bridge failed")
        self.phase = "closed"

    @property
    def my_color(self) -> Color | None:
        return self.info.my_color if self.info is not None else None

    @property
    def is_host(self) -> bool:
        return self.info is not None and self.info.role == "host"

    @property
    def my_turn(self) -> bool:
        return (self.game is not None and self.phase == "connected" and self.state == "playing"
                and not self.game.is_over and self.game.to_move is self.my_color and self.move_sent is None)

    def set_ready(self, flag: bool) -> None:
        self.bridge.ready(flag)

    def move(self, point: Point) -> None:
        self.move_sent = point  # (a double click's second click must not follow it: refused)
        self.bridge.move(point[0], point[1])

    def request(self, kind: str) -> None:
        self.my_request = kind
        self.bridge.request(kind)

    def reply(self, accept: bool) -> None:
        if self.incoming_request is not None:
            self.bridge.reply(self.incoming_request, accept)
            self.incoming_request = None

    def resign(self) -> None:
        self.bridge.resign()

    def say(self, text: str) -> bool:
        """Send a chat line; False, with a notice, while nobody is there to read it."""
        if self.phase != "connected":
            gone = "the connection is down" if self.phase == "lost" else "the other player has left"
            self.notices.append((f"Not sent: {gone}.", True))
            return False
        self.bridge.chat(text)
        return True

    def load(self, moves: list[Point], rule: Rule) -> None:
        self.bridge.load(moves, rule)

    def reconnect(self) -> None:
        self.bridge.reconnect()

    # --- the network's events ------------------------------------------------------------

    def pump(self, now: float) -> None:
        """Apply what the network thread reported since the last frame (bounded per frame)."""
        for _ in range(EVENTS_PER_FRAME):
            try:
                event = self.bridge.events.get_nowait()
            except queue.Empty:
                return
            if type(event) in ANSWERS_A_MOVE:
                self.move_sent = None
            handler = self._HANDLERS.get(type(event))
            if handler is None:
                log.warning("ignored a network event the UI does not know: %r", event)
                continue
            try:
                handler(self, event, now)
            except Exception:  # one bad event must not end the duel or the app
                log.exception("applying %r failed", event)
                self.notices.append(("Something from the network could not be shown.", True))

    def _on_host_found(self, event: ev.HostFound, now: float) -> None:
        if event.host.key == self.own_key:
            return
        if event.host.key in self.hosts or len(self.hosts) < MAX_HOSTS:
            self.hosts[event.host.key] = event.host

    def _on_host_lost(self, event: ev.HostLost, now: float) -> None:
        self.hosts.pop(event.key, None)

    def _on_advertised(self, event: ev.Advertised, now: float) -> None:
        self.own_key = event.key
        if event.key is not None:
            self.hosts.pop(event.key, None)  # in case our own record was found first

    def _on_hosting(self, event: ev.Hosting, now: float) -> None:
        self.phase = "hosting"
        self.hosting = event

    def _on_connected(self, event: ev.Connected, now: float) -> None:
        self.phase = "connected"
        self.info = told_apart(event)
        self._their_name = event.opponent_name  # as the network's messages name them
        self.error = None
        self.ready_mine = self.ready_theirs = False
        self.incoming_request = self.my_request = None
        self.lost_deadline = None
        self.chat.clear()
        full = event.time_control.game_s * 1000  # each side's whole game time until the first start
        self._set_position(ev.PositionSet((), event.rule, Color.BLACK, ev.ClockMs(full, full), "waiting"), now)
        self.sounds.append("tick")

    def _on_failed(self, event: ev.Failed, now: float) -> None:
        self.phase = "idle"
        self.error = sentence(event.message)
        self.notices.append((self.error, True))

    def _on_ready(self, event: ev.ReadyChanged, now: float) -> None:
        self.ready_mine, self.ready_theirs = event.mine, event.theirs

    def _on_position(self, event: ev.PositionSet, now: float) -> None:
        shown = list(self.game.board.moves) if self.game is not None else []
        self._set_position(event, now)
        if event.why == "load":
            self.notices.append(("The host loaded a position: press Ready to play it.", False))
        elif event.why in ("undo", "restart"):
            self.notices.append(("Move taken back." if event.why == "undo" else "New game.", False))
        elif event.why == "sync":
            self._resend_lost_stone(shown, list(event.moves))

    def _resend_lost_stone(self, shown: list[Point], synced: list[Point]) -> None:
        """After a reconnect, the host's position lacks the stone we showed last: it went out
        as the line dropped and never arrived (the stone would just vanish). It is still our
        turn on that same position, so the move goes again, as the player chose it."""
        if (self.game is None or self.info is None or self.state != "playing" or len(shown) != len(synced) + 1
                or shown[:-1] != synced or self.game.board.to_move is not self.my_color):
            return
        point = shown[-1]
        self.move(point)
        self.notices.append((f"Your move {format_point(point, self.game.board.size)} had not reached "
                             f"{self.info.opponent_name} when the connection dropped: it was sent again.", False))

    def _on_moved(self, event: ev.Moved, now: float) -> None:
        game = self.game
        if game is None:
            return
        try:
            game.play(event.point[0], event.point[1], now)
        except IllegalMoveError as error:  # our mirror disagrees with the host: the host wins
            log.warning("the host's move %s does not fit our board: %s", event.point, error)
            return
        self._adopt_clock(event.clock, now)
        self.placed += 1
        self.sounds.append("place")

    def _on_move_refused(self, event: ev.MoveRefused, now: float) -> None:
        self.notices.append((sentence(f"That move was refused: {event.message}"), True))
        self.sounds.append("invalid")

    def _on_request(self, event: ev.RequestReceived, now: float) -> None:
        self.incoming_request = event.kind if event.kind in REQUEST_WORDS else None

    def _on_answer(self, event: ev.RequestAnswered, now: float) -> None:
        self.my_request = None
        words = REQUEST_WORDS.get(event.kind, event.kind)
        if event.timed_out:
            self.notices.append((f"No answer in 30 s: the opponent did not agree to {words}.", False))
        elif not event.accepted:
            self.notices.append((f"The opponent refused to {words}.", False))

    def _on_game_over(self, event: ev.GameOver, now: float) -> None:
        self.state = "over"
        self.ready_mine = self.ready_theirs = False
        self.incoming_request = self.my_request = None
        game = self.game
        if game is None:
            return
        result = event.result
        outcome = Outcome(result.winner, Reason(result.reason))
        current = game.result
        if current is None or (current.winner, current.reason) != (outcome.winner, outcome.reason):
            line = current.line if current is not None and current.winner == outcome.winner else ()
            game.declare(Outcome(outcome.winner, outcome.reason, line), now)
        else:
            game.clock.pause(now)
        self._tell_if_contested(game)

    def _tell_if_contested(self, game: Game) -> None:
        """The host's result is shown as its word; say so where the board does not bear it out
        (a record of the game keeps what the board shows)."""
        outcome = game.result
        if not game.contested or outcome is None:
            return
        host = self.info.opponent_name if self.info is not None else "The host"
        winner = f"a win for {outcome.winner.label}" if outcome.winner is not None else "a draw"
        self.notices.append((f"{host} ended the game as {winner} ({REASON_TEXT[outcome.reason]}), which this "
                             "board does not show: a saved record keeps the board as it is.", True))

    def _on_chat(self, event: ev.ChatReceived, now: float) -> None:
        self.chat.append(ChatLine(event.name, event.text, event.mine))
        if not event.mine:
            self.sounds.append("tick")

    def _on_lost(self, event: ev.ConnectionLost, now: float) -> None:
        self.phase = "lost"
        self.lost_deadline = event.deadline_s
        if self.game is not None:
            self.game.clock.pause(now)

    def _on_reconnected(self, event: ev.Reconnected, now: float) -> None:
        self.phase = "connected"
        self.lost_deadline = None
        if self.game is not None and self.state == "playing":
            self.game.clock.resume(now)
        self.notices.append(("Reconnected: the game goes on.", False))

    def _on_closed(self, event: ev.Closed, now: float) -> None:
        if event.ours:  # the player cancelled or left: the phase is already theirs, and no toast
            return
        was_playing = self.state == "playing" and self.game is not None and not self.game.is_over
        never_back = self.phase == "lost"  # the line dropped and stayed down: nobody's fault we know
        self.phase = "closed"
        self.closed_reason = sentence(event.message, self._their_name)
        self.lost_deadline = None
        self.incoming_request = self.my_request = None
        if was_playing and self.game is not None and self.my_color is not None:
            if never_back:  # the host keeps the official result; we show no winner
                self.game.declare(Outcome(None, Reason.DISCONNECT), now)
            else:  # the other side said bye mid-game: whoever leaves loses, as on the host
                self.game.disconnect(self.my_color.other, now)
            self.state = "over"
        self.notices.append((self.closed_reason, False))

    def _on_notice(self, event: ev.Notice, now: float) -> None:
        self.notices.append((sentence(event.message, self._their_name), event.error))

    def _on_clock(self, event: ev.ClockUpdate, now: float) -> None:
        if self.game is not None and self.state == "playing" and self.game.to_move is event.to_move:
            self._adopt_clock(event.clock, now)

    _HANDLERS: dict[type, Callable[[LanLink, Any, float], None]] = {
        ev.HostFound: _on_host_found,
        ev.HostLost: _on_host_lost,
        ev.Advertised: _on_advertised,
        ev.Hosting: _on_hosting,
        ev.Connected: _on_connected,
        ev.Failed: _on_failed,
        ev.ReadyChanged: _on_ready,
        ev.PositionSet: _on_position,
        ev.Moved: _on_moved,
        ev.MoveRefused: _on_move_refused,
        ev.RequestReceived: _on_request,
        ev.RequestAnswered: _on_answer,
        ev.GameOver: _on_game_over,
        ev.ChatReceived: _on_chat,
        ev.ConnectionLost: _on_lost,
        ev.Reconnected: _on_reconnected,
        ev.Closed: _on_closed,
        ev.Notice: _on_notice,
        ev.ClockUpdate: _on_clock,
    }

    # --- the mirror game -----------------------------------------------------------------

    def _players(self) -> tuple[PlayerInfo, PlayerInfo]:
        info = self.info
        assert info is not None
        mine = PlayerInfo(info.my_name, "human")
        theirs = PlayerInfo(info.opponent_name, "remote")
        return (mine, theirs) if info.my_color is Color.BLACK else (theirs, mine)

    def _set_position(self, event: ev.PositionSet, now: float) -> None:
        info = self.info
        if info is None:
            return
        board = Board(info.size, event.rule)
        for x, y in event.moves:
            try:
                board.push(x, y)
            except IllegalMoveError as error:  # checked by the protocol; a host bug stops here
                log.warning("the host's position stops at an illegal move: %s", error)
                break
        black, white = self._players()
        control: TimeControl = info.time_control
        game = Game(board, black, white, Clock(control, board.to_move), self._kept_times(board, event.why))
        self.game = game
        self.state = event.state
        self.last_sync_why = event.why
        if event.state != "playing":
            self.ready_mine = self.ready_theirs = False
        self._adopt_clock(event.clock, now)
        if event.state == "over" and event.result is not None:
            outcome = board.outcome()
            if outcome is None or outcome.winner != event.result.winner:
                game.declare(Outcome(event.result.winner, Reason(event.result.reason)))
                self._tell_if_contested(game)
        elif event.state == "playing" and not game.is_over:
            game.start(now)
            if event.move_used_s > 0:  # a refused move: the turn's countdown goes on
                game.clock.continue_move(event.move_used_s, now)
            if self.phase == "lost":
                game.clock.pause(now)
        self.version += 1

    def _kept_times(self, board: Board, why: str) -> list[float]:
        """Move times for `board`'s stones: after an undo or a sync, those of the stones the
        shown game already had, or after a rejoin from the autosave the saved game had (the
        protocol carries no times, and the panel's "time used" and the saved record add them
        up); 0 for the rest and for a new game."""
        times = [0.0] * board.ply
        previous = self.game
        if why == "sync" and (previous is None or previous.board.ply == 0):
            previous = self._rejoined  # back after a crash: the shown game is new and empty
        if why not in ("undo", "sync") or previous is None:
            return times
        for index, (point, before) in enumerate(zip(board.moves, previous.board.moves, strict=False)):
            if point != before:
                break
            times[index] = previous.move_times[index]
        return times

    def _adopt_clock(self, clock: ev.ClockMs, now: float) -> None:
        game = self.game
        if game is None or not game.clock.control.game_s:
            return  # no game limit: the clock only measures, nothing to adopt
        for color in Color:
            game.clock.set_remaining(color, clock.of(color) / 1000, now)


def told_apart(event: ev.Connected) -> ev.Connected:
    """Two players of one name (both left at "Player") would read as one on the cards, the
    prompts and the record: the opponent's name then says which side of the duel it is."""
    if event.opponent_name.casefold() != event.my_name.casefold():
        return event
    theirs = "guest" if event.role == "host" else "host"
    return replace(event, opponent_name=f"{event.opponent_name} ({theirs})")
