"""A hostile LAN host for the real game app: what does the guest's screen do with it?

tools/net_fuzz.py throws frames at our host; this is the other direction. A raw-socket "host"
on 127.0.0.1 welcomes the real App (dummy drivers, a fresh home), joined from its lobby by
address as a player would, and then sends what the contract allows but no honest host would,
with some frames the contract forbids among them:

- positions: `start`, `sync` and `load` with random stones (up to a full board), games already
  won, renju positions full of black's forbidden shapes, any side to move, any state and
  result, clocks from 0 to 2**31 ms;
- moves: legal ones, and ones on taken points, out of turn, with a wrong ply, off the board;
- `result` while nothing is played, for either side, for any reason; `timeout`, `resign`;
- floods: 200 chat lines of 200 characters in any script, undo and restart requests one after
  another, `ready` flipping, `error` and `bye` with long text;
- silence (no pong: the guest must see the line as lost and come back with its token, which
  this host accepts, with a `sync`), a connection cut mid-frame, and frames the contract
  forbids (a bad length, a map without `type`, an unknown type).

Each act is tried once, in a shuffled order, before they are drawn at random. The guest
meanwhile readies, moves and chats at random. Checked after every frame the app runs: no
exception out of a frame, no ERROR logged by any thread (the network thread included), the
layout the layout tests check, every board the guest shows a legal game of its rule, and a
Save of a finished game a file that loads again. Printed: what was sent, by kind;
the findings; the slowest frame and p99; the chat lines and notices the guest holds (both
bounded). Exit status 1 on any finding.

    .venv/bin/python tools/hostile_host.py [--rounds 2000] [--seed 1] [--size 1280x800] [--shots DIR]

`--shots DIR` saves the guest's screen every 25 rounds (`round-N-<what was sent>.png`), to look at.
"""

from __future__ import annotations

import argparse
import collections
import logging
import os
import random
import secrets
import socket
import struct
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import msgpack  # noqa: E402
import pygame  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gomoku.core import Board, Rule, records  # noqa: E402
from gomoku.ui.app import App, AppOptions  # noqa: E402
from tests.layout_checks import layout_problems  # noqa: E402  (what the layout tests check)

LOOPBACK = "127.0.0.1"
TEXTS = ["gg", "名人戦 " * 30, "x" * 200, "\u202eevil", "e\u0301" * 90, "🎉 party", "a\tb\nc", " ", "%s{}"]


class Findings(logging.Handler):
    """Exceptions out of frames, ERRORs logged anywhere, broken boards, layout problems."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.items: list[str] = []
        self.keys: set[str] = set()

    def add(self, text: str, key: str | None = None) -> None:
        key = key or text
        if key not in self.keys:
            self.keys.add(key)
            self.items.append(text)
            print(f"--- {text}", flush=True)

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.add(f"logged: {text}")


ACTS = ("start", "sync", "load", "move", "bad_move", "result", "chat_flood", "requests", "ready",
        "resign", "timeout", "error", "silence", "cut", "forbidden", "bye")


class HostileHost:
    """The raw host: one listening socket, one guest connection at a time."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind((LOOPBACK, 0))
        self.server.listen(4)
        self.server.setblocking(False)
        self.port = self.server.getsockname()[1]
        self.conn: socket.socket | None = None
        self.buffer = b""
        self.session = secrets.token_hex(8)
        self.rule, self.size = Rule.FREESTYLE, 15
        self.moves: list[tuple[int, int]] = []  # the position the guest was last sent
        self.sent: collections.Counter[str] = collections.Counter()
        self.answer_pings = True
        # Every act once, in a shuffled order, before any is drawn at random: a run whose guest
        # spends most of it reconnecting still tries them all.
        self.untried = list(ACTS)
        rng.shuffle(self.untried)

    # --- the wire ------------------------------------------------------------------------

    def send_raw(self, data: bytes, kind: str) -> None:
        if self.conn is None:
            return
        try:
            self.conn.sendall(data)
            self.sent[kind] += 1
        except OSError:
            self.drop()

    def send(self, type_: str, **fields: object) -> None:
        payload = msgpack.packb({"type": type_, **fields}, use_bin_type=True)
        self.send_raw(struct.pack(">I", len(payload)) + payload, type_)

    def drop(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn, self.buffer = None, b""

    def pump(self) -> None:
        """Take a new connection (the guest, or the guest back with its token) and read what
        the guest sent: answer hello and pings, follow its moves."""
        try:
            conn, _ = self.server.accept()
        except (TimeoutError, OSError):
            conn = None
        if conn is not None:
            self.drop()
            self.conn = conn
            conn.setblocking(False)
        if self.conn is None:
            return
        try:
            chunk = self.conn.recv(65536)
            if not chunk:
                self.drop()
                return
            self.buffer += chunk
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self.drop()
            return
        while len(self.buffer) >= 4:
            length = struct.unpack(">I", self.buffer[:4])[0]
            if len(self.buffer) < 4 + length:
                break
            payload, self.buffer = self.buffer[4:4 + length], self.buffer[4 + length:]
            try:
                message = msgpack.unpackb(payload, raw=False)
            except Exception:  # (our guest never sends one: skipped)
                continue
            self.answer(message)

    def answer(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "hello":
            back = message.get("session") == self.session
            self.welcome()
            if back:
                self.send_sync()
        elif kind == "ping" and self.answer_pings:
            self.send("pong", t=message.get("t", 0))
        elif kind == "move" and self.rng.random() < 0.7:
            point = (message.get("x"), message.get("y"))
            self.moves.append(point)  # echo nothing: the guest's stone stands unless we say
            if self.rng.random() < 0.3:
                self.send("error", code="illegal_move", message="no " * self.rng.randint(1, 60))
                self.moves.pop()
                self.send_sync()

    # --- the host's side of the conversation ----------------------------------------------

    def welcome(self) -> None:
        self.rule = self.rng.choice(list(Rule))
        self.size = 15 if self.rule is not Rule.FREESTYLE else self.rng.choice([15, 15, 16, 20])
        clock = self.rng.choice([(0, 0, 0), (30, 0, 0), (0, 300, 3), (10, 60, 0), (0, 2**31 // 1000, 0)])
        self.send("welcome", proto=1, name=self.rng.choice(["Mallory", "M" * 32, "名人"]), session=self.session,
                  rule=self.rule.value, size=self.size, color=self.rng.choice(["black", "white"]),
                  clock={"move_s": clock[0], "game_s": clock[1], "increment_s": clock[2]})

    def random_position(self) -> list[tuple[int, int]]:
        """Stones from a random game of the rule (up to a full board), or any points at all."""
        count = self.rng.choice([0, 1, 5, 20, 60, self.size * self.size])
        if self.rng.random() < 0.2:  # not a game at all: any points, some twice
            return [(self.rng.randrange(self.size), self.rng.randrange(self.size)) for _ in range(min(count, 400))]
        board = Board(self.size, self.rule)
        points = [(x, y) for x in range(self.size) for y in range(self.size)]
        self.rng.shuffle(points)
        for point in points[:count]:
            if board.is_game_over() and self.rng.random() < 0.5:
                break
            try:
                board.push(*point)
            except ValueError:
                continue
        return list(board.moves)

    def clocks(self) -> dict[str, int]:
        return {side: self.rng.choice([0, 1, 999, 60_000, 2**31 - 1]) for side in ("black", "white")}

    def send_sync(self) -> None:
        state = self.rng.choice(["waiting", "playing", "over"])
        fields: dict[str, object] = {"moves": [list(p) for p in self.moves], "to_move": self.rng.choice(["black", "white"]),
                                     "clock_ms": self.clocks(), "state": state}
        if state == "over" or self.rng.random() < 0.1:
            fields["result"] = self.result()
        self.send("sync", **fields)

    def result(self) -> dict[str, object]:
        return {"winner": self.rng.choice(["black", "white", None]),
                "reason": self.rng.choice(["five", "resign", "timeout", "disconnect", "full_board"])}

    # --- one hostile act -----------------------------------------------------------------

    def act(self) -> str:
        rng = self.rng
        kind = self.untried.pop() if self.untried else rng.choice(ACTS)
        if kind == "start":
            self.moves = self.random_position()
            self.send("start", moves=[list(p) for p in self.moves], to_move=rng.choice(["black", "white"]),
                      clock_ms=self.clocks())
        elif kind == "sync":
            self.moves = self.random_position() if rng.random() < 0.5 else self.moves
            self.send_sync()
        elif kind == "load":
            self.moves = self.random_position()
            self.send("load", moves=[list(p) for p in self.moves], rule=self.rule.value)
        elif kind == "move":  # the next legal move of the position, by us
            board = Board(self.size, self.rule)
            try:
                for point in self.moves:
                    board.push(*point)
            except ValueError:
                return kind
            legal = board.legal_moves()
            if legal and not board.is_game_over():
                x, y = rng.choice(legal)
                self.moves.append((x, y))
                self.send("move", x=x, y=y, ply=len(self.moves), clock_ms=rng.choice([0, 5000, 2**31 - 1]))
        elif kind == "bad_move":
            x, y = rng.choice([*self.moves, (self.size, 0), (0, 0), (7, 7)] if self.moves else [(7, 7), (99, 0)])
            self.send("move", x=x, y=y, ply=rng.choice([0, 1, len(self.moves), len(self.moves) + 5, 10**6]),
                      clock_ms=rng.choice([0, 1000]))
        elif kind == "result":
            self.send("result", **self.result())
        elif kind == "chat_flood":
            for _ in range(rng.choice([1, 20, 200])):
                self.send("chat", text=rng.choice(TEXTS)[:200])
        elif kind == "requests":
            for _ in range(rng.choice([1, 10, 50])):
                kind_ = rng.choice(["undo_request", "restart_request", "undo_reply", "restart_reply"])
                if kind_.endswith("request"):
                    self.send(kind_, ply=rng.choice([0, len(self.moves), 10**6]))
                else:
                    self.send(kind_, accept=rng.random() < 0.5)
        elif kind == "ready":
            for _ in range(rng.choice([1, 30])):
                self.send("ready", ready=rng.random() < 0.5)
        elif kind in ("resign", "timeout"):
            self.send(kind)
        elif kind == "error":
            self.send("error", code=rng.choice(["illegal_move", "unsupported", "flood", "x" * 64]),
                      message="E" * rng.choice([1, 500, 60_000]))
        elif kind == "silence":
            self.answer_pings = not self.answer_pings  # long enough, the guest sees the line lost
        elif kind == "cut":
            payload = msgpack.packb({"type": "chat", "text": "cut"})
            self.send_raw(struct.pack(">I", len(payload)) + payload[:3], "cut mid-frame")
            self.drop()
        elif kind == "forbidden":
            frame = rng.choice([struct.pack(">I", 0), struct.pack(">I", 70_000) + b"x" * 10,
                                struct.pack(">I", 3) + msgpack.packb([1, 2]),
                                struct.pack(">I", 9) + msgpack.packb({"type": "warp", "z": 1})])
            self.send_raw(frame, "forbidden frame")
        elif kind == "bye":
            self.send("bye", reason="R" * rng.choice([0, 10, 5000]))
            self.drop()
        return kind


class Run:
    def __init__(self, seed: int, size: tuple[int, int]) -> None:
        self.rng = random.Random(seed)
        self.findings = Findings()
        logging.getLogger().addHandler(self.findings)
        threading.excepthook = lambda args: self.findings.add(
            "thread raised: " + "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)))
        self.home = tempfile.TemporaryDirectory(prefix="gomoku-hostile-")
        self.app = App(AppOptions(windowed=True, size=size, home=Path(self.home.name), lan_interface=LOOPBACK))
        self.host = HostileHost(self.rng)
        self.frames: list[float] = []
        self.joins = 0
        self.silences = 0  # 11 s without a pong, the guest's line lost
        self.phases: collections.Counter[str] = collections.Counter()  # the guest's link, frame by frame

    def join(self) -> None:
        """Into the lobby, type the host's address, Join: as a player would."""
        self.joins += 1
        self.app.switch("lobby", {})
        lobby = self.app.current
        if self.app.current_name == "lobby":
            lobby.address_input.text = f"{LOOPBACK}:{self.host.port}"
            lobby.join_typed()

    def frame(self, round_: int) -> None:
        started = time.perf_counter()
        try:
            self.app.frame()
        except Exception as error:
            self.findings.add(f"round {round_}: a frame raised in {self.app.current_name}:\n{traceback.format_exc()}",
                              key=f"raised {error!r}")
            if not self.app._recover(error):
                raise
        self.frames.append(time.perf_counter() - started)
        link = self.app.lan
        if link is not None:
            self.phases[link.phase] += 1
        if link is not None and link.game is not None:
            board = link.game.board
            try:
                Board.from_moves(list(board.moves), board.size, board.rule)
            except ValueError as error:
                self.findings.add(f"round {round_}: the guest shows an illegal game ({error})", key="illegal game")
            if link.game.is_over and self.app.current_name == "board":  # what Save would write must load
                try:
                    records.parse_record(records.format_record(self.app.current._record()))
                except records.RecordError as error:
                    self.findings.add(f"round {round_}: a save of the guest's game would not load ({error})",
                                      key="unloadable save")
        for problem in layout_problems(self.app) if self.app.current_name in ("board", "lobby") else []:
            self.findings.add(f"round {round_}: layout in {self.app.current_name}: {problem}",
                              key="layout " + "".join(c for c in problem if not c.isdigit()))

    def guest_acts(self) -> None:
        """What the player at the guest's screen does now and then."""
        link = self.app.lan
        if link is None or link.phase != "connected" or self.rng.random() < 0.6:
            return
        roll = self.rng.random()
        if roll < 0.4:
            link.set_ready(True)
        elif roll < 0.8 and link.my_turn and link.game is not None:
            legal = link.game.board.legal_moves()
            if legal:
                link.move(self.rng.choice(legal))
        elif roll < 0.9:
            link.say("hi")
        else:
            link.request(self.rng.choice(["undo", "restart"]))

    def stay_silent(self, round_: int) -> None:
        """No pong for 11 s: the guest must call the line lost, stop the clocks and come back
        with its token (answered with a welcome and a sync)."""
        until = time.perf_counter() + 11.0
        while time.perf_counter() < until:
            self.host.pump()
            self.frame(round_)
            time.sleep(1 / 60)
        self.host.answer_pings = True
        self.silences += 1

    def run(self, rounds: int, shots: Path | None = None) -> None:
        self.join()
        kind = "joined"
        for round_ in range(rounds):
            link = self.app.lan
            if link is None or link.phase in ("idle", "closed"):
                self.join()  # the host left or refused: join again, as a player would
            for _ in range(self.rng.choice([1, 2, 5, 20])):
                self.host.pump()
                self.frame(round_)
                time.sleep(0.002)
            self.guest_acts()
            if shots is not None and round_ % 25 == 0:
                shots.mkdir(parents=True, exist_ok=True)
                pygame.image.save(self.app.screen, str(shots / f"round-{round_:04d}-{kind}.png"))
            if self.host.conn is not None:
                kind = self.host.act()
            if kind == "silence" and not self.host.answer_pings and self.rng.random() < 0.3:
                self.stay_silent(round_)
        for _ in range(60):  # and the screen still answers
            self.host.pump()
            self.frame(rounds)

    def close(self) -> None:
        self.host.drop()
        self.app.close()
        self.home.cleanup()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--shots", type=Path, help="save the guest's screen every 25 rounds into this folder")
    args = parser.parse_args(argv)
    width, height = (int(part) for part in args.size.lower().split("x"))
    started = time.perf_counter()
    run = Run(args.seed, (width, height))
    try:
        run.run(args.rounds, args.shots)
        link = run.app.lan
        chat = len(link.chat) if link is not None else 0
        notices = len(run.app.notices)
    finally:
        run.close()
    frames = sorted(run.frames)
    print(f"hostile host: {args.rounds} rounds, seed {args.seed}, {time.perf_counter() - started:.0f} s, "
          f"{run.joins} join(s), {run.silences} silence(s) of 11 s")
    print("sent: " + ", ".join(f"{kind} {count}" for kind, count in sorted(run.host.sent.items())))
    print(f"frames: {len(frames)}, p99 {frames[int(len(frames) * 0.99)] * 1000:.1f} ms, "
          f"slowest {frames[-1] * 1000:.1f} ms; chat lines held {chat}, notices showing {notices}")
    print("the guest's link, in frames: " + ", ".join(f"{phase} {n}" for phase, n in run.phases.most_common()))
    print(f"findings: {len(run.findings.items)} (each printed where it came)")
    return 1 if run.findings.items else 0


if __name__ == "__main__":
    sys.exit(main())
