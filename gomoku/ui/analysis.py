"""The review's look at a whole game: the moves that missed a forced win or let one in.

Each position of a record is searched by hard for ANALYSIS_LIMIT, one after another on the
engine's worker (the UI only polls, so it never waits). A move is marked only where a search
proved a forced win (a five, an open four, fours and threes, or a mate score): a position the
search could not settle in its time makes no claim either way, so a missed win deeper than it
looks goes unmarked rather than a sound move being blamed.
"""

from __future__ import annotations

from gomoku.core.board import Board
from gomoku.core.notation import format_point
from gomoku.core.records import GameRecord
from gomoku.engine.api import FORCED_SCORE, Level, Position, SearchLimit, SearchResult
from gomoku.ui.players import EngineSession

ANALYSIS_LIMIT = SearchLimit(time_s=0.5)  # a 60-move game in about half a minute
DECIDED = "decided"  # a position with a five (or a full board) on it: nothing to search
FORCED_WIN_KINDS = ("win", "open four", "vcf/vct")  # the driver's answers that are proven wins


def forced(result: SearchResult) -> int:
    """1 if the search proved a win for the side to move, -1 a loss, 0 if it proved neither."""
    if result.info.get("kind") in FORCED_WIN_KINDS or result.score > FORCED_SCORE:
        return 1
    if result.info.get("kind") == "longest defence" or result.score < -FORCED_SCORE:
        return -1
    return 0


class GameAnalysis:
    """The looks at one record's positions (0 to its last move) and the notes they give.

    `advance` starts the next search when the engine is free; `poll` files its answer; `pause`
    gives the engine to another search (the position is searched again later)."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.looks: list[SearchResult | str | None] = [None] * (len(record.moves) + 1)
        self.notes: dict[int, str] = {}  # move number (1 = black's first) -> what was found
        self.request: int | None = None
        self.failed = False  # the engine could not search: the analysis stops where it is
        self._searching = -1  # the position the request is for

    def covers(self, record: GameRecord) -> bool:
        """True if `record` is this analysis's game (the same rule, size and moves)."""
        mine = self.record
        return (mine.rule, mine.size, list(mine.moves)) == (record.rule, record.size, list(record.moves))

    @property
    def done(self) -> bool:
        return self.failed or all(look is not None for look in self.looks)

    @property
    def looked(self) -> int:
        """How many positions have been looked at."""
        return sum(look is not None for look in self.looks)

    def pause(self, engine: EngineSession) -> None:
        """Stop the search in flight (the engine is wanted for another); it runs again later."""
        engine.cancel(self.request)
        self.request = None

    def advance(self, engine: EngineSession) -> None:
        """Start on the next position not looked at, unless a search of ours is running."""
        if self.request is not None or self.done:
            return
        index = self.looks.index(None)
        board = self._board_at(index)
        if board is None or board.is_game_over():
            self.looks[index] = DECIDED  # nothing to search (or a record that stops here)
            self._update_notes(index)
            return
        self.request = engine.submit(Position.from_board(board), Level.HARD, ANALYSIS_LIMIT)
        self._searching = index

    def poll(self, engine: EngineSession) -> None:
        """File the answer to the search in flight, if it has come."""
        if self.request is None:
            return
        for item in engine.take(self.request):
            if isinstance(item, SearchResult):
                self.request = None
                self.looks[self._searching] = item
                self._update_notes(self._searching)
            elif isinstance(item, BaseException):
                self.request = None
                self.failed = True

    def _board_at(self, index: int) -> Board | None:
        board = Board(self.record.size, self.record.rule)
        try:
            for x, y in self.record.moves[:index]:
                board.push(x, y)
        except ValueError:  # a hand-made record with an illegal move: the review stops there too
            return None
        return board

    def _update_notes(self, index: int) -> None:
        """A position's look judges the move that led to it and the move played from it."""
        for move in (index, index + 1):
            if 1 <= move <= len(self.record.moves):
                note = self.note(move)
                if note:
                    self.notes[move] = note
                else:
                    self.notes.pop(move, None)

    def note(self, move: int) -> str:
        """What the looks before and after move number `move` say of it ("" when nothing)."""
        before, after = self.looks[move - 1], self.looks[move]
        if not isinstance(before, SearchResult) or after is None:
            return ""
        mover, other = ("black", "white") if move % 2 else ("white", "black")
        played = self.record.moves[move - 1]
        size = self.record.size
        found = []
        kept = after == DECIDED or (isinstance(after, SearchResult) and forced(after) < 0)
        if forced(before) > 0 and before.move != played and not kept:
            found.append(f"{mover} could win by force with {format_point(before.move, size)}")
        if forced(before) >= 0 and isinstance(after, SearchResult) and forced(after) > 0:
            found.append(f"after {format_point(played, size)}, {other} wins by force")
        if not found:
            return ""
        text = "; ".join(found) + "."
        return text[0].upper() + text[1:]

    def summary(self) -> str:
        """One line for the whole game, once every position has been looked at."""
        if self.failed:
            return "The computer could not look at this game."
        if not self.notes:
            return "No forced win missed or let in, as far as the computer looked."
        size = self.record.size
        moves = ", ".join(f"{move} ({format_point(self.record.moves[move - 1], size)})" for move in sorted(self.notes))
        return f"Marked ?: move{'s' if len(self.notes) > 1 else ''} {moves}, a forced win missed or let in."
