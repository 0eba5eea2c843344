"""The game in progress, kept for "Continue": written after every stone, undo and restart.

The file is a game record in the own format (gomoku.core.records); its `extra` holds what a
record alone does not: the setup (mode, level, the human's colour) next to the time control
and clock snapshot that `records.from_game` stores. A finished game clears the file, so
Continue is offered only while a game is open. A damaged file is moved aside to
`<name>.bak` and reported in plain words; the game goes on without it.
"""

from __future__ import annotations

import os
import queue
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from gomoku.core import records
from gomoku.core.game import Game
from gomoku.core.inputs import clean_text
from gomoku.core.records import GameRecord, RecordError
from gomoku.core.settings import Settings
from gomoku.core.types import Color
from gomoku.net.address import parse_address
from gomoku.ui.players import GameSetup

SETUP_KEY = "setup"


def record_of(game: Game, setup: GameSetup, now: float | None) -> GameRecord:
    """The record of `game` with `setup` in its extra (and the clock, given `now`)."""
    record = records.from_game(game, now)
    record.extra[SETUP_KEY] = setup.to_data()
    return record


def setup_of(record: GameRecord, settings: Settings) -> GameSetup:
    """The setup stored in `record`, or for a record from elsewhere: two players on this
    screen with the record's rule and size (the settings fill the rest)."""
    stored = record.extra.get(SETUP_KEY) if isinstance(record.extra, dict) else None
    data: dict[str, Any] = dict(stored) if isinstance(stored, dict) else {"mode": "local"}
    data["rule"], data["size"] = record.rule.value, record.size
    if "human_color" not in data:
        data["human_color"] = "black"
    setup, _ = GameSetup.from_data(data, settings)
    names = {Color.BLACK: record.black, Color.WHITE: record.white}
    human_name, guest_name = names[setup.human_color], names[setup.human_color.other]
    if setup.mode != "local":
        guest_name = setup.guest_name  # the other side is the computer: its name is not a guest's
    return replace(setup, human_name=human_name or setup.human_name, guest_name=guest_name or setup.guest_name)


def restore(record: GameRecord, settings: Settings) -> tuple[GameSetup, Game]:
    """The setup and the game (moves, clock, result) a record holds; RecordError if damaged."""
    return setup_of(record, settings), records.to_game(record)


def save(path: str | os.PathLike[str], game: Game, setup: GameSetup, now: float) -> None:
    """Write the game to `path` atomically; raises OSError if the disk refuses."""
    records.save_record(record_of(game, setup, now), path)


class AutosaveWriter:
    """Writes the autosave on one background thread so a frame never waits for the disk.

    Only the newest request matters: a write or clear queued while another is pending
    replaces it, and requests run in the order given. Failures come back as plain messages
    on `errors` (the scene shows them). Call `close` (it flushes) when the game is left.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.errors: queue.Queue[str] = queue.Queue()
        self._wake = threading.Condition()
        self._pending: tuple[str, GameRecord | None] | None = None
        self._working = False
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
        self._thread.start()

    def write(self, record: GameRecord) -> None:
        """Save `record` soon; returns at once."""
        self._request(("write", record))

    def clear(self) -> None:
        """Remove the autosave soon (after any write asked for before); returns at once."""
        self._request(("clear", None))

    def _request(self, job: tuple[str, GameRecord | None]) -> None:
        with self._wake:
            self._pending = job
            self._wake.notify()

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until every request so far is on disk; False if `timeout` seconds passed first."""
        with self._wake:
            return self._wake.wait_for(lambda: self._pending is None and not self._working, timeout)

    def close(self, timeout: float = 2.0) -> bool:
        """Flush, then end the thread; True if all was written in time."""
        done = self.flush(timeout)
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        self._thread.join(timeout)
        return done

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending is not None or self._closing)
                if self._pending is None:
                    return  # closing with nothing left to do
                job, self._pending = self._pending, None
                self._working = True
            try:
                kind, record = job
                if kind == "write" and record is not None:
                    records.save_record(record, self.path)
                else:
                    clear(self.path)
            except Exception as error:  # any failure is reported; the thread must live for the next move
                why = getattr(error, "strerror", None) or error  # a disk's words without "[Errno 28]"
                self.errors.put(f"Could not keep the game for Continue ({why}).")
            finally:
                with self._wake:
                    self._working = False
                    self._wake.notify_all()


def clear(path: str | os.PathLike[str]) -> None:
    """Remove the autosave (the game is over); harmless if there is none."""
    Path(path).unlink(missing_ok=True)


LAN_KEY = "lan"
REJOIN_WINDOW_S = 170.0  # the host keeps a lost guest's seat 180 s: a little less, to be safe


def lan_seat(info: Any, now_epoch: float) -> dict[str, Any]:
    """What a LAN guest's autosave keeps to rejoin after its app died (see `rejoin_of`)."""
    return {"address": info.address, "port": info.port, "session": info.session,
            "opponent": info.opponent_name, "saved_at": round(now_epoch, 3)}


def rejoin_of(path: str | os.PathLike[str], now_epoch: float) -> dict[str, Any] | None:
    """The LAN seat a guest's autosave holds, if it is recent enough to rejoin; else None.

    Every field is checked as outside input (the file may have been edited). Never raises."""
    try:
        record = records.load_record(Path(path))
    except Exception:  # a damaged file is the menu's business (load reports it)
        return None
    seat = record.extra.get(LAN_KEY) if isinstance(record.extra, dict) else None
    if not isinstance(seat, dict) or record.result:
        return None
    try:
        host, _ = parse_address(str(seat.get("address", "")))
    except ValueError:
        return None
    port, session, saved_at = seat.get("port"), seat.get("session"), seat.get("saved_at")
    if not (isinstance(port, int) and not isinstance(port, bool) and 1 <= port <= 65535):
        return None
    if not (isinstance(session, str) and 8 <= len(session) <= 64
            and all(c.isascii() and (c.isalnum() or c in "-_") for c in session)):
        return None
    if not isinstance(saved_at, (int, float)) or not 0 <= now_epoch - saved_at <= REJOIN_WINDOW_S:
        return None
    opponent = clean_text(seat.get("opponent"), 32) or "the host"
    return {"address": host, "port": port, "session": session, "opponent": opponent}


def has_unfinished_game(path: str | os.PathLike[str]) -> bool:
    """True when there is a game to continue (the menu shows Continue)."""
    return Path(path).is_file()


def load(
    path: str | os.PathLike[str], settings: Settings
) -> tuple[tuple[GameSetup, Game] | None, str | None]:
    """((setup, game), None) for the autosave at `path`; (None, None) if there is none;
    (None, a plain message) if it is damaged, after moving it aside to `<name>.bak`, so
    Continue is not offered again for the same file. Never raises."""
    source = Path(path)
    if not source.is_file():
        return None, None
    try:
        return restore(records.load_record(source), settings), None
    except (OSError, RecordError, ValueError) as error:
        return None, _set_aside(source, str(error)[:300])  # a message for a banner, not a dump
    except Exception as error:  # a bug must not keep Continue failing for ever either
        return None, _set_aside(source, f"{type(error).__name__}: {str(error)[:200]}")


def _set_aside(source: Path, why: str) -> str:
    backup = source.with_name(source.name + ".bak")
    try:
        os.replace(source, backup)
    except OSError:
        return f"The last game could not be continued: {why}."
    return f"The last game could not be continued ({why}); the file was kept as {backup.name}."
