"""Random and malformed input to a LIVE `pbrain-gomoku`, as a broken or hostile manager sends it.

Starts the brain (`python -m gomoku.engine.brain`, or `--brain CMD`) and writes it lines: a real
game now and then (START, BEGIN, TURN on an empty point near the stones, BOARD blocks), and
between them the same commands with bad numbers (negative, huge, non-ASCII digits, words),
BOARD blocks with junk lines and no DONE, INFO keys and values of every kind, unknown words,
control characters (ESC, NUL, CR, line and paragraph separators), invalid UTF-8, and lines
of 4,096, 4,097 and 100,000 characters. Time limits are kept short (`INFO timeout_turn` of
300 ms at most), so a move is quick. It reads every reply and reports:

    exit        the brain ended before END
    traceback   "Traceback" on the brain's stderr
    odd reply   a reply line that is not printable (a control character reached the manager,
                or a terminal) or is longer than MAX_REPLY_CHARS
    hang        no answer to an ABOUT probe (sent every PROBE_EVERY lines, after a DONE that
                ends a BOARD block left open) within HANG_S
    end         END not obeyed within HANG_S, or a nonzero exit status

and counts the replies by their first word. Exit status 1 on any finding.

    .venv/bin/python tools/brain_fuzz.py [--lines 3000] [--seed 1] [--brain "pbrain-gomoku --level easy"]
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import selectors
import shlex
import subprocess
import sys
import time

HANG_S = 20.0  # a probe's answer, or END, must come within this (a move takes 0.3 s at most)
PROBE_EVERY = 50  # lines between ABOUT probes
MAX_REPLY_CHARS = 1000  # the longest reply is a MESSAGE with a principal variation
SIZE = 15


class Fuzzer:
    """The lines to send: a real game's moves among malformed ones."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.stones: list[tuple[int, int]] = []

    def number(self) -> str:
        return self.rng.choice([str(self.rng.randint(-3, 25)), "99999999999999999999", "-0", "1e9", "x", "",
                                " 7", "0x10", "٣", "+5", "7.0", str(2**31), str(-2**63)])

    def point(self) -> tuple[int, int]:
        """An empty point near the stones (the centre on an empty board), as a manager sends."""
        if not self.stones:
            return SIZE // 2, SIZE // 2
        for _ in range(20):
            x, y = self.rng.choice(self.stones)
            point = (x + self.rng.randint(-2, 2), y + self.rng.randint(-2, 2))
            if 0 <= point[0] < SIZE and 0 <= point[1] < SIZE and point not in self.stones:
                return point
        return self.rng.randrange(SIZE), self.rng.randrange(SIZE)

    def junk(self) -> str:
        rng = self.rng
        return "".join(rng.choice(["\x1b[2J", "\x00", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\u202e", "\ud800",
                                   "€", "名", "\t", " ", chr(rng.randint(32, 0x2FFF))])
                       for _ in range(rng.randint(1, 30)))

    def line(self) -> str:
        rng, roll = self.rng, self.rng.random()
        if roll < 0.08:
            self.stones = []
            return rng.choice(["START 15", "RESTART", f"START {self.number()}", "RECTSTART 15,15"])
        if roll < 0.25:  # the game goes on
            if not self.stones and rng.random() < 0.3:
                return "BEGIN"
            point = self.point()
            self.stones.append(point)  # the brain's own answer is not tracked: a point may be taken
            return f"TURN {point[0]},{point[1]}"
        if roll < 0.32:
            return f"TURN {self.number()},{self.number()}" if rng.random() < 0.7 else f"TURN {self.junk()}"
        if roll < 0.40:
            lines = ["BOARD"]
            for _ in range(rng.randint(0, 8)):
                x, y = self.point() if rng.random() < 0.6 else (self.number(), self.number())
                lines.append(f"{x},{y},{rng.choice(['1', '2', '3', '0', self.number()])}")
            if rng.random() < 0.2:
                lines.append(self.junk())
            if rng.random() < 0.85:
                lines.append("DONE")
            self.stones = []
            return "\n".join(lines)
        if roll < 0.52:
            key = rng.choice(["timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule",
                              "folder", "evaluate", "max_depth", "thread_num", "caution_factor", "x" * 60,
                              self.junk()])
            value = self.number() if rng.random() < 0.5 else rng.choice(["100", "0", "1", "4", "8", self.junk()])
            if key in ("timeout_turn", "timeout_match", "time_left") and value.strip().isdigit():
                value = str(min(int(value), 300))  # moves stay quick
            return f"INFO {key} {value}"
        if roll < 0.60:
            return rng.choice(["ABOUT", f"TAKEBACK {self.number()},{self.number()}",
                               "SWAP2BOARD\nDONE", "YXSHOWFORBID", "YXHASHCLEAR", "PLAY 7,7", "board", "turn 7,7"])
        if roll < 0.75:
            return rng.choice(["", "FROB", "START", "TURN", "INFO"]) + " " + self.junk()
        if roll < 0.80:
            return "A" * rng.choice([4095, 4096, 4097, 10000, 100000])
        if roll < 0.90:
            return bytes(rng.randrange(256) for _ in range(rng.randint(1, 60))).decode("latin-1")
        return rng.choice(["ABOUT", "INFO timeout_turn 200", f"TURN {self.point()[0]},{self.point()[1]}"])


class BrainProcess:
    """The brain on pipes; replies read without blocking, split on \\n only."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        assert self.process.stdout is not None
        os.set_blocking(self.process.stdout.fileno(), False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        self.pending = b""
        self.replies: list[str] = []

    def send(self, text: str) -> bool:
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(text.encode("utf-8", "surrogatepass") + b"\n")
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def read(self, seconds: float, until: str | None = None) -> bool:
        """Read replies for `seconds`, or until one starts with `until`; True if it came."""
        deadline = time.monotonic() + seconds
        start = len(self.replies)
        while time.monotonic() < deadline:
            if self.selector.select(min(0.05, max(0.0, deadline - time.monotonic()))):
                chunk = self.process.stdout.read() if self.process.stdout else b""
                if chunk is None:  # nothing after all (a non-blocking read)
                    continue
                if not chunk:
                    return False  # end of file: the brain is gone
                *lines, self.pending = (self.pending + chunk).split(b"\n")
                self.replies.extend(line.decode("utf-8", "replace").rstrip("\r") for line in lines)
            if until is not None and any(reply.startswith(until) for reply in self.replies[start:]):
                return True
        return until is None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=3000, help="lines to send")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--brain", help="the brain's command line (default: this checkout's, level hard)")
    args = parser.parse_args(argv)
    command = shlex.split(args.brain) if args.brain else [sys.executable, "-m", "gomoku.engine.brain"]
    fuzzer = Fuzzer(random.Random(args.seed))
    brain = BrainProcess(command)
    findings: list[str] = []
    started = time.perf_counter()
    brain.send("INFO timeout_turn 200")
    for number in range(args.lines):
        line = fuzzer.line()
        if not brain.send(line) or brain.process.poll() is not None:
            findings.append(f"exit: the brain ended (status {brain.process.poll()}) at line {number}: {line[:80]!r}")
            break
        brain.read(0.002)
        if number % PROBE_EVERY == PROBE_EVERY - 1:
            brain.send("DONE\nABOUT")  # (a BOARD block left open takes every line up to DONE)
            if not brain.read(HANG_S, until="name="):
                findings.append(f"hang: no answer to ABOUT within {HANG_S:.0f} s after line {number}: {line[:80]!r}")
                break
    if not findings:
        brain.send("DONE\nABOUT")
        if not brain.read(HANG_S, until="name="):
            findings.append("hang: no answer to the last ABOUT")
    brain.send("DONE\nEND")
    try:
        status = brain.process.wait(HANG_S)
        if status != 0 and not findings:
            findings.append(f"end: END answered with exit status {status}")
    except subprocess.TimeoutExpired:
        findings.append(f"end: END not obeyed within {HANG_S:.0f} s")
        brain.process.kill()
        brain.process.wait()
    brain.read(0.2)
    stderr = brain.process.stderr.read().decode("utf-8", "replace") if brain.process.stderr else ""
    if "Traceback" in stderr:
        findings.append("traceback: " + stderr[stderr.index("Traceback"):][:2000])
    for reply in brain.replies:
        if not reply.isprintable() or len(reply) > MAX_REPLY_CHARS:
            findings.append(f"odd reply: {reply[:200]!r}")
    kinds = collections.Counter(reply.split(" ", 1)[0] if not reply[:1].isdigit() else "a move"
                                for reply in brain.replies if reply)
    print(f"brain_fuzz: {args.lines} lines, seed {args.seed}, {time.perf_counter() - started:.0f} s; "
          f"{len(brain.replies)} replies: " + ", ".join(f"{kind} {count}" for kind, count in kinds.most_common(8)))
    for finding in findings[:20]:
        print("---", finding)
    print(f"findings: {len(findings)}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
