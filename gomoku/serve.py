"""`gomoku serve`: a LAN host without a window whose moves come from the engine.

It advertises like a player's host, plays one guest after another (accepting every undo and
restart, ready again after each game for a rematch), and prints a line per event and per
game result; `--log FILE` appends the results there too. Ctrl-C says bye, unregisters and
exits cleanly. The network runs on the bridge's thread; the engine thinks on this one.
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import re
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from gomoku.core.board import Board
from gomoku.core.clock import TimeControl
from gomoku.core.notation import counted
from gomoku.core.settings import check_value
from gomoku.core.types import MAX_SIZE, MIN_SIZE, Color, IllegalMoveError, Rule
from gomoku.net import events as ev
from gomoku.net.events import DEFAULT_PORT, HostOptions
from gomoku.signals import interrupt, quit_on_signals

log = logging.getLogger("gomoku.serve")

TIME_FORMS = "none, 30s (a move), 10 (minutes), 5+3 (minutes + seconds a move)"
DEFAULT_IDLE_MIN = 10.0
MAX_IDLE_MIN = 24 * 60.0
# What a guest does: each starts its idle time afresh (as does our own move: its turn begins).
GUEST_DOING = (ev.Connected, ev.Reconnected, ev.ReadyChanged, ev.Moved, ev.RequestReceived,
               ev.ChatReceived, ev.PositionSet, ev.GameOver)


def parse_time(text: str) -> TimeControl:
    """'none', '30s' (a move), '10' (minutes a side) or '5+3' (minutes + increment seconds)."""
    text = text.strip().lower()
    if text in ("", "none", "0"):
        return TimeControl()
    if match := re.fullmatch(r"(\d{1,4})s", text):
        seconds = int(match.group(1))
        if not 1 <= seconds <= 3600:
            raise ValueError("a move limit must be 1 to 3600 seconds")
        return TimeControl(move_s=seconds)
    if match := re.fullmatch(r"(\d{1,3})(?:\+(\d{1,3}))?", text):
        minutes, increment = int(match.group(1)), int(match.group(2) or 0)
        if not 1 <= minutes <= 600 or increment > 600:
            raise ValueError("the game time must be 1 to 600 minutes, the increment at most 600 s")
        return TimeControl(game_s=minutes * 60, increment_s=increment)
    raise ValueError(f"time must be one of: {TIME_FORMS}; not {text!r}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gomoku serve",
        description="Host LAN duels without a window: the engine plays every guest, one after another.",
    )
    parser.add_argument("--level", choices=("easy", "medium", "hard"), default="hard")
    parser.add_argument("--name", default="Computer", help="the name guests see (1 to 24 characters)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT}; 0 or taken: any free port)")
    parser.add_argument("--lan-interface", metavar="ADDR", default=os.environ.get("GOMOKU_LAN_INTERFACE", ""),
                        help="serve on this interface only, e.g. 127.0.0.1 "
                        "(default: $GOMOKU_LAN_INTERFACE, else all)")
    parser.add_argument("--rule", choices=[rule.value for rule in Rule], default="freestyle")
    parser.add_argument("--size", type=int, default=15, help=f"board size {MIN_SIZE}-{MAX_SIZE} (freestyle only)")
    parser.add_argument("--time", default="none", help=f"time control: {TIME_FORMS}")
    parser.add_argument("--color", choices=("black", "white", "random"), default="random",
                        help="the engine's colour (default: drawn for each guest)")
    parser.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    parser.add_argument("--idle", type=float, default=DEFAULT_IDLE_MIN, metavar="MINUTES",
                        help="send a guest away who neither moves nor readies for this long, so the next "
                        f"one can play (default {DEFAULT_IDLE_MIN:g}; 0: never); a game in progress is "
                        "lost on time")
    parser.add_argument("--no-advertise", action="store_true", help="do not announce on mDNS")
    parser.add_argument("--log", metavar="FILE", type=Path, help="append each game's result to FILE")
    return parser


@dataclass(frozen=True)
class ServeOptions:
    host: HostOptions
    level: str
    interface: str
    games: int
    log_file: Path | None
    idle_s: float = DEFAULT_IDLE_MIN * 60  # 0: a guest may stay idle for ever


def parse_args(argv: list[str] | None) -> ServeOptions:
    """The command line as ServeOptions; exits with a usage message on bad input."""
    parser = build_parser()
    args = parser.parse_args(argv)
    problems = [f"--name {error}" for error in [check_value("player_name", args.name.strip())] if error]
    problems += [f"--lan-interface {error}" for error in [check_value("lan_interface", args.lan_interface)] if error]
    if not 0 <= args.port <= 65535:
        problems.append("--port must be 0 to 65535")
    rule = Rule(args.rule)
    if not MIN_SIZE <= args.size <= MAX_SIZE or (rule is not Rule.FREESTYLE and args.size != 15):
        problems.append(f"--size must be {MIN_SIZE} to {MAX_SIZE} for freestyle, 15 otherwise")
    try:
        control = parse_time(args.time)
    except ValueError as error:
        problems.append(f"--time: {error}")
        control = TimeControl()
    if args.games < 0:
        problems.append("--games must not be negative")
    if not 0 <= args.idle <= MAX_IDLE_MIN:  # (also refuses nan)
        problems.append(f"--idle must be 0 to {MAX_IDLE_MIN:g} minutes")
    if problems:
        parser.error("; ".join(problems))
    host_color = None if args.color == "random" else Color[args.color.upper()]
    options = HostOptions(name=args.name.strip(), rule=rule, size=args.size, time_control=control,
                          host_color=host_color, port=args.port, advertise=not args.no_advertise)
    return ServeOptions(options, args.level, args.lan_interface, args.games, args.log, args.idle * 60)


class Server:
    """The serve loop: network events in, engine moves out. Not thread-safe (one thread)."""

    def __init__(self, options: ServeOptions, bridge: object) -> None:
        from gomoku.engine.api import Level

        self.options = options
        self.bridge = bridge
        self.level = Level(options.level)
        self.board: Board | None = None
        self.my_color: Color | None = None
        self.opponent = ""
        self.playing = False
        self.games_done = 0
        self.clock_ms = ev.ClockMs()
        self.running = True
        self.failed = False
        self._awaiting_ply = -1  # the ply our last move was sent at (its echo is awaited)
        self.connected = False  # a guest is on the line (not away in a reconnect window)
        self.guest_since = time.monotonic()  # when the guest last did something

    def say(self, text: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)

    def handle(self, event: ev.NetEvent) -> None:
        bridge = self.bridge
        if isinstance(event, GUEST_DOING):
            self.guest_since = time.monotonic()
        if isinstance(event, (ev.Connected, ev.Reconnected)):
            self.connected = True
        elif isinstance(event, (ev.ConnectionLost, ev.Closed)):
            self.connected = False
        if isinstance(event, ev.Hosting):
            self.say(f"serving {self.options.host.name!r} on {event.address} port {event.port}")
            # The next guest's seat opens on this same port: the address people were told.
            host = replace(self.options.host, port=event.port)
            self.options = replace(self.options, host=host)
        elif isinstance(event, ev.Failed):
            self.say(f"error: {event.message}")
            if self.board is None:
                self.failed, self.running = True, False  # could not even open the port
        elif isinstance(event, ev.Connected):
            self.my_color, self.opponent = event.my_color, event.opponent_name
            self.board = Board(event.size, event.rule)
            self.playing = False
            self.say(f"{event.opponent_name} joined; the engine plays {event.my_color.label}")
            bridge.ready(True)
        elif isinstance(event, ev.ReadyChanged):
            if not event.mine and not self.playing:
                bridge.ready(True)
        elif isinstance(event, ev.PositionSet):
            if self.board is None:
                return
            self.board = Board(self.board.size, event.rule)
            for x, y in event.moves:
                self.board.push(x, y)
            self.playing = event.state == "playing"
            self.clock_ms = event.clock
            if event.state == "waiting":
                bridge.ready(True)
        elif isinstance(event, ev.Moved):
            if self.board is not None:
                try:
                    self.board.push(*event.point)
                except IllegalMoveError as error:
                    log.warning("a move that does not fit our board: %s", error)
                self.clock_ms = event.clock
        elif isinstance(event, ev.RequestReceived):
            bridge.reply(event.kind, True)  # a practice partner agrees to everything
        elif isinstance(event, ev.GameOver):
            self.playing = False
            self.games_done += 1
            self._log_result(event.result)
            if self.options.games and self.games_done >= self.options.games:
                self.running = False
            else:
                bridge.ready(True)
        elif isinstance(event, ev.ChatReceived) and not event.mine:
            self.say(f"{event.name} says: {event.text}")
        elif isinstance(event, ev.ConnectionLost):
            self.say(f"lost {self.opponent}; waiting for a reconnect")
        elif isinstance(event, ev.Reconnected):
            self.say(f"{self.opponent} is back")
        elif isinstance(event, ev.Closed):
            self.say(f"session closed: {event.message}")
            self.board, self.my_color, self.playing = None, None, False
            if self.running:
                bridge.host(self.options.host)  # the next guest, please
        elif isinstance(event, ev.Notice):
            self.say(event.message)

    def _log_result(self, result: ev.Result) -> None:
        if result.winner is None:
            outcome = "draw"
        else:
            outcome = "engine won" if result.winner is self.my_color else f"{self.opponent} won"
        moves = self.board.ply if self.board is not None else 0
        line = f"game {self.games_done}: {outcome} ({result.reason}, {counted(moves, 'move')}) vs {self.opponent}"
        self.say(line)
        if self.options.log_file is not None:
            try:
                with self.options.log_file.open("a", encoding="utf-8") as handle:
                    handle.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line}\n")
            except OSError as error:
                self.say(f"could not write the log ({error.strerror or error})")

    def my_turn(self) -> bool:
        board = self.board
        return (self.playing and board is not None and board.outcome() is None
                and board.to_move is self.my_color)

    def idle_too_long(self, now: float) -> bool:
        """True when the guest on the line has neither moved nor readied for --idle (the
        engine's own turn and a reconnect window do not count: those are not the guest's; in a
        game with a move limit its countdown already says how long a move may take)."""
        idle_s = self.options.idle_s
        if idle_s <= 0 or not self.connected or self.my_turn():
            return False
        if self.playing and self.options.host.time_control.move_s:
            return False
        return now - self.guest_since >= idle_s

    def send_idle_guest_away(self) -> None:
        minutes = self.options.idle_s / 60
        self.say(f"{self.opponent} did nothing for {minutes:g} minutes; sending them away")
        self.connected = False
        self.bridge.leave(f"no move or ready for {minutes:g} minutes; others may want to play")

    def play_one(self) -> None:
        """Think on the current position and send the move (blocks for the level's budget)."""
        from gomoku.engine.api import Position, ai_limit
        from gomoku.engine.driver import think

        board = self.board
        assert board is not None and self.my_color is not None
        control = self.options.host.time_control
        remaining = self.clock_ms.of(self.my_color) / 1000 if control.game_s else None
        limit = ai_limit(self.level, remaining, float(control.move_s) if control.move_s else None)
        result = think(Position.from_board(board), self.level, limit)
        self.bridge.move(*result.move)
        # Wait for the host's echo before thinking again: the board changes only on Moved.
        self._awaiting_ply = board.ply

    def run(self) -> int:
        bridge = self.bridge
        try:
            bridge.start()
            bridge.host(self.options.host)
            while self.running:
                try:
                    event = bridge.events.get(timeout=0.2)
                except queue.Empty:
                    event = None
                if event is not None:
                    self.handle(event)
                    continue  # drain everything before thinking
                if self.my_turn() and self.board is not None and self.board.ply != self._awaiting_ply:
                    self.play_one()
                elif self.idle_too_long(time.monotonic()):
                    self.send_idle_guest_away()
        except KeyboardInterrupt:
            self.say("stopping")
        finally:
            bridge.close()
        return 1 if self.failed else 0


def main(argv: list[str] | None = None) -> int:
    """`gomoku serve ...`; returns the process exit code."""
    logging.basicConfig(level=logging.WARNING, format="gomoku serve: %(levelname)s: %(message)s")
    options = parse_args(argv)
    try:
        from gomoku.engine import driver, prepare
        from gomoku.net.bridge import NetBridge

        started = time.monotonic()
        print("preparing the engine (the first run compiles it: up to a minute)...", flush=True)
        if prepare.is_prepared():  # a cache file changed on disk since is compiled again, never run
            prepare.discard_changed_files()
        driver.warm_up()  # compile or load the engine before the first guest waits for it
        print(f"engine ready in {time.monotonic() - started:.1f} s", flush=True)
        server = Server(options, NetBridge(options.interface))
    except KeyboardInterrupt:  # Ctrl-C before anything was hosted: nothing to say goodbye to
        print("stopped", flush=True)
        return 130
    # From here a `kill` or a closed terminal stops as Ctrl-C does, with a goodbye to the guest.
    # (Not before: a first run's compile would hold it off for seconds, with no one to tell.)
    quit_on_signals(interrupt)
    return server.run()


if __name__ == "__main__":
    sys.exit(main())
