"""The two sides of a game: the board scene asks the side to move for a move and polls it.

A player is a LocalPlayer (clicks on this screen), an AIPlayer (the engine worker thread) or a
RemotePlayer (moves arriving from a LAN session). The scene treats them alike: `begin_turn`,
then `poll()` each frame until it returns a point; undo and restart are requests the opponent
answers (`Agreement`). Everything here runs on the main thread; only the engine searches
elsewhere, on a copy of the position.
"""

from __future__ import annotations

import enum
import queue
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from gomoku.core.board import Board
from gomoku.core.clock import TimeControl
from gomoku.core.game import PlayerInfo
from gomoku.core.settings import Settings, check_value
from gomoku.core.types import MAX_SIZE, MIN_SIZE, Color, Point, Rule
from gomoku.engine.api import (
    Level,
    Position,
    Progress,
    SearchLimit,
    SearchResult,
    ai_limit,
)


class Agreement(enum.Enum):
    """An opponent's answer to an undo or restart request."""

    AGREED = "agreed"
    REFUSED = "refused"
    PENDING = "pending"  # asked, no answer yet (a remote player); poll `answer()`


class PlayerError(RuntimeError):
    """A player cannot produce a move (the engine failed, the connection dropped)."""


GUEST_NAME = "Guest"
COMPUTER_NAME = "Computer"
MODES = ("ai", "local")


@dataclass(frozen=True)
class GameSetup:
    """Who plays what: the board scene's enter data, checked and completed from the settings.

    `human_color` is the colour of the player at this screen (vs the computer) or of the
    first player (two players on one screen; the second is the guest).
    """

    mode: str = "ai"  # "ai" | "local"
    level: Level = Level.MEDIUM
    human_color: Color = Color.BLACK
    rule: Rule = Rule.FREESTYLE
    size: int = 15
    time_control: TimeControl = TimeControl()
    human_name: str = "Player"
    guest_name: str = GUEST_NAME  # the other player of a game for two (mode "local")

    @classmethod
    def from_data(
        cls, data: Mapping[str, Any], settings: Settings, rng: random.Random | None = None
    ) -> tuple[GameSetup, list[str]]:
        """The setup `data` asks for, with the settings filling what is missing.

        Returns the setup and a list of plain-words problems for values that were not
        valid (each replaced by the setting); never raises for bad data.
        """
        problems: list[str] = []

        def pick(key: str, setting: str, label: str) -> Any:
            value = data.get(key)
            if value is None:
                return getattr(settings, setting)
            error = check_value(setting, value)
            if error is not None:
                problems.append(f"{label} {error}")
                return getattr(settings, setting)
            return value

        mode = data.get("mode", "ai")
        if mode not in MODES:
            problems.append("the game mode must be ai or local")
            mode = "ai"
        level = Level(pick("level", "level", "the level"))
        rule = Rule(pick("rule", "rule", "the rule"))
        colour_name = pick("human_color", "human_color", "the colour")
        if colour_name == "random":
            colour_name = (rng or random).choice(("black", "white"))
        size = data.get("size")
        if size is None:
            size = settings.board_size if rule is Rule.FREESTYLE else 15
        elif not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
            problems.append(f"the board size must be {MIN_SIZE} to {MAX_SIZE}")
            size = settings.effective_board_size
        control = settings.time_control
        times = data.get("time_control")
        if times is not None:
            try:
                seconds = {name: int(times.get(name, 0)) for name in ("game_s", "increment_s", "move_s")}
            except (AttributeError, TypeError, ValueError, OverflowError):  # OverflowError: infinity
                problems.append("the time control must be whole seconds, not negative")
            else:
                limits = [f"{name} {error}" for name, value in seconds.items()
                          if (error := check_value(name, value)) is not None]
                if limits:
                    problems.append("the time control's " + "; ".join(limits))
                else:
                    control = TimeControl(**seconds)
        return (
            cls(
                mode=mode,
                level=level,
                human_color=Color[colour_name.upper()],
                rule=rule,
                size=size,
                time_control=control,
                human_name=pick("human_name", "player_name", "the first player's name"),
                guest_name=pick("guest_name", "guest_name", "the second player's name"),
            ),
            problems,
        )

    def to_data(self) -> dict[str, Any]:
        """The board scene's enter data for this setup (JSON-friendly)."""
        return {
            "mode": self.mode,
            "level": self.level.value,
            "human_color": self.human_color.label,
            "rule": self.rule.value,
            "size": self.size,
            "time_control": {
                "game_s": self.time_control.game_s,
                "increment_s": self.time_control.increment_s,
                "move_s": self.time_control.move_s,
            },
        }

    def swapped(self) -> GameSetup:
        """The same setup with colours swapped (a rematch)."""
        return replace(self, human_color=self.human_color.other)

    def player_infos(self) -> dict[Color, PlayerInfo]:
        """Name, kind and level of each colour."""
        human = PlayerInfo(self.human_name, "human")
        if self.mode == "ai":
            other = PlayerInfo(COMPUTER_NAME, "ai", self.level.value)
        else:
            other = PlayerInfo(self.guest_name, "human")
        return {self.human_color: human, self.human_color.other: other}


class EngineLike(Protocol):
    """What players need of gomoku.engine.worker.EngineWorker (app.engine)."""

    results: queue.Queue[tuple[int, Any]]

    def start(self, position: Position, level: Level, limit: SearchLimit) -> int: ...

    def stop(self) -> None: ...

    @property
    def busy(self) -> bool: ...


class EngineSession:
    """Shares the one engine worker between the AI player and the hint.

    One search runs at a time: `submit` stops any search in flight. `pump` drains the worker's
    queue and files each result under its request id; results for ids no longer wanted (a
    cancelled search, a search from before an undo) are dropped.
    """

    def __init__(self, worker: EngineLike | None = None,
                 level_ready: Callable[[Level], bool] | None = None) -> None:
        self.worker = worker  # None until the app has loaded the engine
        self.level_ready = level_ready  # None: every level searches as soon as a worker is here
        self._inboxes: dict[int, list[Any]] = {}
        self._live: int | None = None

    @property
    def ready(self) -> bool:
        """True once a worker is attached and searches can be submitted."""
        return self.worker is not None

    def bind(self, app: Any) -> bool:
        """Attach the app's worker once the app has loaded the engine; True when attached."""
        if self.worker is None and app.engine_loaded:
            self.worker = app.engine
            self.level_ready = app.engine_ready
        return self.ready

    def ready_for(self, level: Level) -> bool:
        """True once a search at `level` answers at once (its engine part is prepared)."""
        return self.worker is not None and (self.level_ready is None or self.level_ready(level))

    def submit(self, position: Position, level: Level, limit: SearchLimit) -> int:
        """Start a search on `position` (a copy, never the live board); returns its id.

        Raises RuntimeError if no worker is attached yet.
        """
        if self.worker is None:
            raise RuntimeError("the engine is not loaded yet")
        self.cancel_all()
        request = self.worker.start(position, level, limit)
        self._inboxes[request] = []
        self._live = request
        return request

    def cancel(self, request: int | None) -> None:
        """Forget `request`; stop the worker if it is the search in flight."""
        if request is None:
            return
        self._inboxes.pop(request, None)
        if request == self._live:
            self._live = None
            if self.worker is not None:
                self.worker.stop()

    def cancel_all(self) -> None:
        self.cancel(self._live)
        self._inboxes.clear()

    def pump(self) -> None:
        """Move everything the worker has reported into the inboxes; never blocks."""
        while self.worker is not None:
            try:
                request, item = self.worker.results.get_nowait()
            except queue.Empty:
                return
            inbox = self._inboxes.get(request)
            if inbox is not None:
                inbox.append(item)

    def take(self, request: int) -> list[Any]:
        """What arrived for `request` since the last call (Progress, SearchResult, Exception)."""
        self.pump()
        inbox = self._inboxes.get(request)
        if not inbox:
            return []
        items = list(inbox)
        inbox.clear()
        if any(not isinstance(item, Progress) for item in items):
            # A final answer (or failure) ends the request.
            self._inboxes.pop(request, None)
            if request == self._live:
                self._live = None
        return items


class Player:
    """One side of a game. Subclasses fill in how a move is found."""

    def __init__(self, color: Color, name: str) -> None:
        self.color = color
        self.name = name

    @property
    def thinking(self) -> bool:
        """True while a move is being computed off the main thread."""
        return False

    @property
    def depth(self) -> int:
        """The depth the search has reached for the current move (0 if not searching)."""
        return 0

    def describe(self) -> str:
        """A short label for the side panel, e.g. "Human" or "Computer (hard)"."""
        return "Human"

    def begin_turn(self, board: Board) -> None:
        """It is this player's turn on `board` (read only; copy what you keep)."""

    def poll(self) -> Point | None:
        """The chosen move once ready, else None; raises PlayerError if no move will come."""
        return None

    def cancel(self) -> None:
        """Stop working on the current move (undo, restart, leaving the scene)."""

    def opponent_moved(self, point: Point) -> None:
        """The other side played `point` (a remote player forwards it)."""

    def request_undo(self) -> Agreement:
        """The opponent of this player asks to take back moves; a local or AI player agrees."""
        return Agreement.AGREED

    def request_restart(self) -> Agreement:
        """The opponent of this player asks to start again; a local or AI player agrees."""
        return Agreement.AGREED

    def answer(self) -> Agreement:
        """The answer to the last request (PENDING until a remote player replies)."""
        return Agreement.AGREED

    def close(self) -> None:
        """The game is over or the scene is leaving: release what the player holds."""
        self.cancel()


class LocalPlayer(Player):
    """A person at this screen: the scene hands clicks over with `click`."""

    def __init__(self, color: Color, name: str) -> None:
        super().__init__(color, name)
        self._waiting = False
        self._chosen: Point | None = None

    def begin_turn(self, board: Board) -> None:
        self._waiting = True
        self._chosen = None

    def click(self, point: Point) -> bool:
        """Offer a clicked point as this player's move; False if it is not their turn."""
        if not self._waiting:
            return False
        self._chosen = point
        return True

    def poll(self) -> Point | None:
        if self._chosen is None:
            return None
        chosen, self._chosen = self._chosen, None
        self._waiting = False
        return chosen

    def cancel(self) -> None:
        self._waiting = False
        self._chosen = None


class AIPlayer(Player):
    """The computer: searches in the engine worker on a copy of the position."""

    def __init__(
        self,
        color: Color,
        name: str,
        engine: EngineSession,
        level: Level,
        limit: Callable[[], SearchLimit] | None = None,
    ) -> None:
        super().__init__(color, name)
        self.engine = engine
        self.level = level
        self._limit = limit or (lambda: ai_limit(level))
        self._request: int | None = None
        self._depth = 0
        self._budget_s = 0.0
        self._began = 0.0  # time.monotonic() when the current search was asked for

    @property
    def thinking(self) -> bool:
        return self._request is not None

    @property
    def budget_s(self) -> float:
        """The time budget of the search in flight (its SearchLimit), 0.0 when not thinking."""
        return self._budget_s if self._request is not None else 0.0

    def spent_s(self, now: float) -> float:
        """Seconds the search in flight has run at `now` (time.monotonic()), 0.0 when not thinking."""
        return max(0.0, now - self._began) if self._request is not None else 0.0

    def stood_still(self, seconds: float) -> None:
        """The process did not run for `seconds`: the search does not count them (its clock
        leaves them out), so neither does the time-spent bar."""
        self._began += seconds

    @property
    def depth(self) -> int:
        return self._depth

    @property
    def preparing(self) -> bool:
        """True while the engine is still being prepared for this level (a first launch):
        the scene waits, with this player's clock stopped, before `begin_turn`."""
        return not self.engine.ready_for(self.level)

    def describe(self) -> str:
        return f"Computer ({self.level.value})"

    def begin_turn(self, board: Board) -> None:
        self.cancel()
        self._depth = 0
        limit = self._limit()
        self._budget_s = limit.time_s
        self._began = time.monotonic()
        self._request = self.engine.submit(Position.from_board(board), self.level, limit)

    def poll(self) -> Point | None:
        if self._request is None:
            return None
        for item in self.engine.take(self._request):
            if isinstance(item, Progress):
                self._depth = max(self._depth, item.depth)
            elif isinstance(item, SearchResult):
                self._request = None
                self._depth = max(self._depth, item.depth)
                return item.move
            elif isinstance(item, BaseException):
                self._request = None
                raise PlayerError(f"the computer could not choose a move ({item})") from item
        return None

    def cancel(self) -> None:
        self.engine.cancel(self._request)
        self._request = None


class RemotePlayer(Player):
    """The opponent across the LAN. The scene feeds what the session reports.

    `send` carries outgoing messages as plain dicts ({"type": "move", "point": [x, y]},
    {"type": "undo_request"}, {"type": "restart_request"}); the network layer encodes them.
    """

    def __init__(self, color: Color, name: str, send: Callable[[dict[str, Any]], None]) -> None:
        super().__init__(color, name)
        self._send = send
        self._moves: list[Point] = []
        self._answer = Agreement.AGREED

    def describe(self) -> str:
        return "Remote"

    def receive_move(self, point: Point) -> None:
        """A move arrived from the network; `poll` hands it to the scene."""
        self._moves.append(point)

    def receive_answer(self, agreed: bool) -> None:
        """The remote player answered the last undo or restart request."""
        self._answer = Agreement.AGREED if agreed else Agreement.REFUSED

    def poll(self) -> Point | None:
        return self._moves.pop(0) if self._moves else None

    def opponent_moved(self, point: Point) -> None:
        self._send({"type": "move", "point": [point[0], point[1]]})

    def request_undo(self) -> Agreement:
        self._answer = Agreement.PENDING
        self._send({"type": "undo_request"})
        return self._answer

    def request_restart(self) -> Agreement:
        self._answer = Agreement.PENDING
        self._send({"type": "restart_request"})
        return self._answer

    def answer(self) -> Agreement:
        return self._answer
