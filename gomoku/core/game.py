"""A game: the board, who plays each colour, the clock, undo policy and the result.

UI-agnostic: the board scene, the Gomocup brain and the LAN session all drive a Game the
same way, passing `now` (monotonic seconds) wherever time matters. Not thread-safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from gomoku.core.board import Board
from gomoku.core.clock import Clock
from gomoku.core.types import Color, Illegal, IllegalMoveError, Outcome, Point, Reason

PlayerKind = Literal["human", "ai", "remote"]
OFF_BOARD_REASONS = (Reason.RESIGN, Reason.TIMEOUT, Reason.DISCONNECT)


def fits_board(board: Board, outcome: Outcome) -> bool:
    """Whether `outcome` can end a game standing as `board` does: a five or a full board there
    is the only result it allows; otherwise a winner by resign, timeout or disconnect."""
    own = board.outcome()
    if own is not None:
        return (own.winner, own.reason) == (outcome.winner, outcome.reason)
    return outcome.winner is not None and outcome.reason in OFF_BOARD_REASONS


@dataclass(frozen=True)
class PlayerInfo:
    """Who plays one colour: a name, what kind of player, and the AI level if it is one."""

    name: str
    kind: PlayerKind = "human"
    level: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in get_args(PlayerKind):
            raise ValueError(f"player kind must be human, ai or remote, not {self.kind!r}")


class Game:
    """One game between two players on `board`, timed by `clock` (an untimed one if None).

    `play` goes through Board.push, so every move has the same legality check. A game ends on
    the board (five, full board) or off it (resign, timeout, disconnect); `result` says how.
    """

    def __init__(
        self,
        board: Board,
        black: PlayerInfo,
        white: PlayerInfo,
        clock: Clock | None = None,
        move_times: list[float] | None = None,
    ) -> None:
        self.board = board
        self.players = {Color.BLACK: black, Color.WHITE: white}
        self.clock = clock if clock is not None else Clock(to_move=board.to_move)
        if not self.clock.started and self.clock.to_move is not board.to_move:
            # A fresh clock defaults to black; a position with white to move needs white's.
            self.clock.switch_to(board.to_move, 0.0)
        if move_times is None:
            move_times = [0.0] * board.ply
        if len(move_times) != board.ply:
            raise ValueError(f"{len(move_times)} move times for {board.ply} moves")
        self.move_times: list[float] = list(move_times)
        self._ended: Outcome | None = None  # resign, timeout or disconnect (off-board endings)

    # --- state ---------------------------------------------------------------------------

    @property
    def to_move(self) -> Color:
        return self.board.to_move

    def player(self, color: Color) -> PlayerInfo:
        return self.players[color]

    @property
    def result(self) -> Outcome | None:
        """How the game ended, or None while it is open."""
        return self._ended if self._ended is not None else self.board.outcome()

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def contested(self) -> bool:
        """A declared result (a LAN host's) that this board does not bear out."""
        return self._ended is not None and not fits_board(self.board, self._ended)

    @property
    def recorded_result(self) -> Outcome | None:
        """The result a record keeps: this board's own account where the declared one is
        contested (a record must load again, and its result must agree with its moves)."""
        return self.board.outcome() if self.contested else self.result

    # --- moves ---------------------------------------------------------------------------

    def start(self, now: float) -> None:
        """Start the clock for the side to move (`play` does it too if forgotten)."""
        if not self.is_over:
            self.clock.start(now)

    def play(self, x: int, y: int, now: float) -> Outcome | None:
        """Play (x, y) for the side to move; returns the outcome if the game ended.

        Raises IllegalMoveError (unchanged from Board.push, or GAME_OVER after a resign,
        timeout or disconnect); nothing changes then. Does not check flags: call check_clock.
        """
        if self._ended is not None:
            raise IllegalMoveError((x, y), Illegal.GAME_OVER)
        outcome = self.board.push(x, y)
        self.clock.start(now)
        self.move_times.append(self.clock.press(now))
        if outcome is not None:
            self.clock.pause(now)
        return outcome

    def plies_to_undo(self, asker: Color | None) -> int:
        """How many stones `undo(asker)` would take back (0: nothing to undo)."""
        if self._ended is not None and self._ended.reason in (Reason.TIMEOUT, Reason.DISCONNECT):
            return 0  # taking stones back gives no time back and no connection back
        ply = self.board.ply
        if asker is None:
            return 1 if ply else 0
        # Black's stones are at even indexes, white's at odd ones.
        last = ply - 1 if (ply - 1) % 2 == (asker - 1) else ply - 2
        return ply - last if last >= 0 else 0

    def can_undo(self, asker: Color | None) -> bool:
        return self.plies_to_undo(asker) > 0

    def undo(self, asker: Color | None, now: float) -> list[Point]:
        """Take back stones and return them, last first; reopens a finished game.

        None takes back one stone; a colour takes back to before that colour's last stone
        (so against the AI one request removes the AI's reply and the player's stone).
        Returns [] when there is nothing to take back (or the game ended on time/disconnect).
        """
        count = self.plies_to_undo(asker)
        if count == 0:
            return []
        was_over = self.is_over
        removed = [self.board.pop() for _ in range(count)]
        del self.move_times[len(self.move_times) - count :]
        self._ended = None
        self.clock.switch_to(self.board.to_move, now)
        if was_over:
            self.clock.resume(now)
        return removed

    def restart(self, now: float) -> None:
        """Clear the board (same Board object, same players) and start a fresh clock at `now`."""
        while self.board.ply:
            self.board.pop()
        self.move_times.clear()
        self._ended = None
        self.clock.reset()
        self.clock.start(now)

    # --- endings off the board -----------------------------------------------------------

    def resign(self, color: Color, now: float) -> Outcome:
        """`color` gives up: the other side wins. On a finished game, returns the result as is."""
        return self._end(Outcome(color.other, Reason.RESIGN), now)

    def timeout(self, color: Color, now: float | None = None) -> Outcome:
        """`color`'s time ran out: the other side wins (the clock stops at `now` if given)."""
        return self._end(Outcome(color.other, Reason.TIMEOUT), now)

    def disconnect(self, color: Color, now: float | None = None) -> Outcome:
        """`color` left or lost the connection for good: the other side wins."""
        return self._end(Outcome(color.other, Reason.DISCONNECT), now)

    def declare(self, outcome: Outcome, now: float | None = None) -> Outcome:
        """End the game as decided elsewhere (a LAN host's `result`), even if this board
        disagrees (see `contested`); on a finished game it replaces the result. Returns `outcome`."""
        self._ended = outcome
        if now is not None:
            self.clock.pause(now)
        else:
            self.clock.halt()
        return outcome

    def check_clock(self, now: float) -> Outcome | None:
        """End the game if the side to move has flagged at `now`; returns that new outcome."""
        if self.is_over:
            return None
        loser = self.clock.flagged(now)
        return self.timeout(loser, now) if loser is not None else None

    def _end(self, outcome: Outcome, now: float | None) -> Outcome:
        current = self.result
        if current is not None:
            return current
        return self.declare(outcome, now)

    def __repr__(self) -> str:
        return (
            f"Game({self.players[Color.BLACK].name} vs {self.players[Color.WHITE].name}, "
            f"{self.board!r}, result={self.result})"
        )
