"""Damaged files of every kind the game reads, each loaded as the game loads it.

Makes N files from good ones (own records, Piskvork .psq, settings.json, the autosave) with
a few hostile changes each: cuts, deleted or doubled lines, random bytes, NULs, lone
surrogates, deep JSON nesting, numbers of thousands of digits, names of up to a MiB, a BOM,
CRLF; one case in a hundred is a special file instead (a FIFO, a link to /dev/zero, a
folder, an empty or oversized file). Each is loaded the way the game does it: records with
load_record then the preview's replay, the autosave with autosave.load (Continue), settings
with load_settings then a save; every name that loads is fitted and drawn by the UI's Theme
(SDL's dummy driver). Prints, per kind and in all: loaded, clear error (a RecordError or a
plain warning), crash (any other exception) and over 1 s of CPU time (on a shared machine a
case can wait for the CPU: the cases over 1 s of wall time are counted on a line of their
own, with the most CPU time any of them used). Goal: 0 crashes, 0 over 1 s.

    .venv/bin/python tools/fuzz_files.py [--cases 1000] [--seed 1] [--keep DIR] [--memory-gib 3]

`--keep DIR` copies each crashing or slow file there, to reproduce it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (the SDL drivers must be chosen first)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gomoku.core import Board, Color, Rule  # noqa: E402
from gomoku.core.clock import Clock, TimeControl  # noqa: E402
from gomoku.core.game import Game, PlayerInfo  # noqa: E402
from gomoku.core.records import RecordError, export_psq, format_record, from_game, load_record  # noqa: E402
from gomoku.core.settings import Settings, load_settings, save_settings  # noqa: E402
from gomoku.ui import autosave  # noqa: E402
from gomoku.ui.players import GameSetup  # noqa: E402
from gomoku.ui.theme import Theme  # noqa: E402

KINDS = ("record", "psq", "settings", "autosave")
FILE_NAMES = {"record": "game.gomoku", "psq": "game.psq", "settings": "settings.json",
              "autosave": "autosave.gomoku"}
SLOW_S = 1.0
HANG_S = 20  # a case still running after this is stopped and counted as a crash
NAMES = ["Ann", "Bob", "Computer (hard)", "é 名前", "  spaced  ", '"quoted"', "pbrain-embryo21_e"]
FRAGMENTS = ["\x00", "\ud800", "\\ud800", "\\udfff", "\\u0000", "\u202e", "\ufeff", "\r\n", "\n", "\n\n",
             '"', "\\", "\t", "Moves:", "Move count: 99", "99. h8", "0,Renju", "8,", "-1", "1e999", "NaN",
             "Infinity", "-0", "Piskvorky 15x15, 0:0, 0", "Extra: {}", "Black: ", "Rule: renju", "Size: 20",
             "🙂", "\x1b[31m", "\u2028", "null", "[]", "{}", "true"]


# --- good files ------------------------------------------------------------------------------


def good_files(rng: random.Random) -> dict[str, list[str]]:
    """A few good files of each kind to damage."""
    found: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for _ in range(12):
        rule = rng.choice(list(Rule))
        size = 15 if rule is not Rule.FREESTYLE else rng.choice([15, 19, 20])
        board = Board(size, rule)
        for _ in range(rng.randint(0, 40)):
            legal = [p for p in board.legal_moves() if abs(p[0] - size // 2) + abs(p[1] - size // 2) < 7]
            if not legal or board.is_game_over():
                break
            board.push(*rng.choice(legal))
        control = TimeControl(rng.choice([0, 180, 600]), rng.choice([0, 2, 5]), rng.choice([0, 30]))
        black, white = rng.choice(NAMES), rng.choice(NAMES)
        game = Game(board, PlayerInfo(black), PlayerInfo(white), Clock(control, board.to_move),
                    [rng.random() * 5 for _ in board.moves])
        record = from_game(game, now=1.0, date="2026-11-22T06:00:00+00:00")
        found["record"].append(format_record(record))
        found["psq"].append(export_psq(record))
        if not board.is_game_over():
            setup = GameSetup(mode=rng.choice(["ai", "local"]), rule=rule, size=size, time_control=control)
            found["autosave"].append(format_record(autosave.record_of(game, setup, now=3.0)))
        settings = Settings(player_name=rng.choice(NAMES).strip(), move_s=rng.choice([0, 30]),
                            level=rng.choice(["easy", "medium", "hard"]), sfx_volume=rng.random())
        found["settings"].append(json.dumps(asdict(settings), indent=2))
    return found


# --- damage ----------------------------------------------------------------------------------


def hostile_piece(rng: random.Random) -> str:
    """One hostile fragment of text."""
    roll = rng.random()
    if roll < 0.35:
        return rng.choice(FRAGMENTS)
    if roll < 0.45:
        depth = rng.choice([40, 1000, 100_000, 300_000])
        return rng.choice("[{") * depth + ("]" * depth if rng.random() < 0.5 else "")
    if roll < 0.6:
        return rng.choice(["", "-"]) + "1" + "0" * rng.choice([16, 30, 400, 5000, 20_000]) + rng.choice(["", ".5", "e5"])
    if roll < 0.7:
        return rng.choice("Wé名x ") * rng.choice([100, 5000, 20_000, 300_000, 1_100_000])
    if roll < 0.85:
        return "".join(chr(rng.choice([rng.randint(0, 31), rng.randint(32, 0x2FFF), rng.randint(0xD800, 0xDFFF),
                                       rng.randint(0x10000, 0x10FFFF)])) for _ in range(rng.randint(1, 12)))
    return str(rng.choice([-1, 0, 1, 14, 21, 255, 2**31, 2**63, -(2**63)]))


def damage(text: str, rng: random.Random) -> bytes:
    """`text` with one to four hostile changes, as bytes (some not UTF-8 at all)."""
    for _ in range(rng.randint(1, 4)):
        where = rng.randint(0, len(text))
        action = rng.random()
        if action < 0.3:
            text = text[:where] + hostile_piece(rng) + text[where:]
        elif action < 0.45:
            piece = hostile_piece(rng)
            text = text[:where] + piece + text[where + len(piece):]
        elif action < 0.55:
            text = text[:where]  # cut anywhere
        elif action < 0.65:
            lines = text.split("\n")  # cut, drop or double a line
            at = rng.randrange(len(lines))
            choice = rng.random()
            lines = lines[:at] if choice < 0.4 else lines[:at] + lines[at + 1:] if choice < 0.7 else lines[:at + 1] + lines[at:]
            text = "\n".join(lines)
        elif action < 0.75:
            digits = [i for i, c in enumerate(text) if c.isdigit()]  # a number made absurd
            if digits:
                at = rng.choice(digits)
                text = text[:at] + hostile_piece(rng) + text[at + 1:]
        elif action < 0.8:
            text = text.replace("\n", "\r\n") if rng.random() < 0.5 else "\ufeff" + text
        else:
            data = bytearray(text.encode("utf-8", "surrogatepass"))  # raw byte noise
            for _ in range(rng.randint(1, 8)):
                if data:
                    data[rng.randrange(len(data))] = rng.randrange(256)
            return bytes(data)
    return text.encode("utf-8", "surrogatepass")


def special_file(path: Path, rng: random.Random) -> str:
    """Put a file that is not an ordinary small text file at `path`; returns its description."""
    kinds = ["empty", "oversized", "folder"] + (["fifo", "dev-zero"] if hasattr(os, "mkfifo") else [])
    kind = rng.choice(kinds)
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "oversized":
        with path.open("wb") as handle:  # sparse: no disk used
            handle.truncate(64 * 1024 * 1024)
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return kind


# --- loading as the game does ----------------------------------------------------------------


class Loader:
    """Loads one file of a kind as the game does; returns 'loaded' or 'clear error'."""

    def __init__(self) -> None:
        pygame.font.init()
        self.theme = Theme((1280, 800))

    def draw_names(self, *names: str) -> None:
        theme = self.theme
        for name in names:
            for px, width in ((theme.small_px, 300), (theme.text_px, 420)):
                theme.render(theme.fit_text(f"{name}  vs  {name}", px, width, bold=True), px)

    def load(self, kind: str, path: Path) -> str:
        if kind in ("record", "psq"):
            try:
                record = load_record(path)
                record.replay()  # the Load game preview
            except RecordError:
                return "clear error"
            except OSError:
                return "clear error"  # the screen says it could not be read
            self.draw_names(record.black, record.white)
            return "loaded"
        if kind == "autosave":
            loaded, problem = autosave.load(path, Settings())
            if loaded is None:
                if not problem and autosave.has_unfinished_game(path):
                    raise AssertionError("Continue offered, but no game and no message")
                return "clear error"  # a message, or (not a regular file) no Continue offered
            self.draw_names(*(loaded[1].player(color).name for color in Color))
            return "loaded"
        settings, warning = load_settings(path)
        if settings.problems():
            raise AssertionError(f"loaded settings with bad values: {settings.problems()}")
        self.draw_names(settings.player_name)
        save_settings(settings, path)  # the game saves what it loaded on the next change
        return "clear error" if warning else "loaded"


class Hang(Exception):
    """A case ran past HANG_S."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang(f"still running after {HANG_S} s")


def limit_memory(gib: float) -> None:
    """Cap this process's address space, so a loader that reads /dev/zero fails, not the machine."""
    try:
        import resource
    except ImportError:  # not on Windows
        return
    limit = int(gib * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run(cases: int, seed: int, keep: Path | None, report: Callable[[str], None] = print) -> Counter[tuple[str, str]]:
    rng = random.Random(seed)
    goods = good_files(rng)
    loader = Loader()
    counts: Counter[tuple[str, str]] = Counter()
    slowest = (0.0, "")
    crashes_shown = 0
    use_alarm = hasattr(signal, "SIGALRM")
    if use_alarm:
        signal.signal(signal.SIGALRM, _alarm)
    with tempfile.TemporaryDirectory(prefix="gomoku-fuzz-") as folder:
        work = Path(folder)
        began_all = time.monotonic()
        for case in range(cases):
            kind = KINDS[case % len(KINDS)]
            case_dir = work / "case"
            case_dir.mkdir()
            path = case_dir / FILE_NAMES[kind]
            if rng.random() < 0.01:
                what = special_file(path, rng)
            else:
                what = "damaged"
                path.write_bytes(damage(rng.choice(goods[kind]), rng))
            if keep is not None:
                kept_copy = path.read_bytes() if path.is_file() and path.stat().st_size < 4 << 20 else None
            began = time.perf_counter()
            began_cpu = time.process_time()
            if use_alarm:
                signal.alarm(HANG_S)
            try:
                outcome = loader.load(kind, path)
            except Exception as error:  # what the tool is here to find
                outcome = "crash"
                if crashes_shown < 10:
                    crashes_shown += 1
                    report(f"crash in case {case} ({kind}, {what}): {type(error).__name__}: {str(error)[:200]}")
            finally:
                if use_alarm:
                    signal.alarm(0)
            elapsed = time.perf_counter() - began
            cpu = time.process_time() - began_cpu
            counts[(kind, outcome)] += 1
            if cpu > SLOW_S:
                counts[(kind, "over 1 s")] += 1
                report(f"slow case {case} ({kind}, {what}): {cpu:.2f} s of CPU, {elapsed:.2f} s")
            if elapsed > SLOW_S:
                counts[("wall", "over 1 s")] += 1
                counts[("wall", "cpu ms")] = max(counts[("wall", "cpu ms")], round(cpu * 1000))
            if cpu > slowest[0]:
                slowest = (cpu, f"case {case} ({kind}, {what}), {elapsed * 1000:.0f} ms of wall time")
            if keep is not None and (outcome == "crash" or cpu > SLOW_S) and kept_copy is not None:
                keep.mkdir(parents=True, exist_ok=True)
                (keep / f"case{case}-{FILE_NAMES[kind]}").write_bytes(kept_copy)
            shutil.rmtree(case_dir, ignore_errors=True)
            if (case + 1) % 10_000 == 0:
                report(f"... {case + 1} cases, {time.monotonic() - began_all:.0f} s")
        report(f"most CPU time: {slowest[0] * 1000:.0f} ms, {slowest[1]}; all {cases} cases in "
               f"{time.monotonic() - began_all:.0f} s")
        report(f"over 1 s of wall time (waiting for a busy CPU included): {counts[('wall', 'over 1 s')]}, "
               f"using at most {counts[('wall', 'cpu ms')]} ms of CPU")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="how many files (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None, help="copy crashing or slow files here")
    parser.add_argument("--memory-gib", type=float, default=3.0, help="address space cap (default 3 GiB)")
    args = parser.parse_args(argv)
    limit_memory(args.memory_gib)
    counts = run(args.cases, args.seed, args.keep)
    columns = ("loaded", "clear error", "crash", "over 1 s")
    print(f"{'kind':<10}" + "".join(f"{c:>13}" for c in columns[:3]) + f"{'over 1 s CPU':>14}")
    for kind in (*KINDS, "all"):
        row = [sum(n for (k, o), n in counts.items() if o == c and k in KINDS and kind in (k, "all"))
               for c in columns]
        print(f"{kind:<10}" + "".join(f"{n:>13}" for n in row[:3]) + f"{row[3]:>14}")
    bad = sum(n for (k, o), n in counts.items() if o in ("crash", "over 1 s") and k in KINDS)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
