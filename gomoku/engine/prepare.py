"""Prepare the engine in child processes: numba compiles into its disk cache, the caller loads.

numba's compiler holds the GIL for tens of seconds on a first launch; in a child process it
cannot stall the game's frames or a brain's replies. A `Preparer` starts one or two children
(`python -m gomoku.engine.prepare PART...`), each compiling some of the driver's parts
(`driver.WARM_TASKS`) and printing `done PART SECONDS` as each is in the cache. The caller
then loads each finished part with `driver.warm_task` (a cache load: well under a second),
and passes the part's name to the other children's input: a child that is to compile a part
whose needs (`driver.TASK_NEEDS`) another child makes reads its input until their names come
(or the input ends: then it compiles the need itself; run by hand, give it </dev/null).
When every part is done a marker file in the cache folder says so, and later launches skip
the children. Importing this module imports numba (through the package) but compiles nothing.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numba

from gomoku import engine_cache
from gomoku.engine import CacheLoadError, driver, strict_cache_loads
from gomoku.engine.api import Level, Position, Progress, SearchLimit, SearchResult, StopFlag

SPLIT = (("tables", "shared", "ordering", "analysis", "easy", "threats", "hard"),
         ("core", "vcf", "search"))
"""Two children's parts, in order: the threat searches and what they need, and the main
search's chain (the moves, the VCF, the main search: the longest, so it leaves the pattern
tables to the other). Nothing is compiled twice: the first child compiles the small callees
both share ("shared"), the main search's move ordering and the analysis while the second
compiles the moves ("core") and the VCF, and each waits for what the other makes
(`driver.TASK_NEEDS`) and then loads it from the cache. The order serves every level: easy's
scorer fits in the first child's wait for the VCF."""
CHILD_NICE = 5  # the children's lower CPU priority
MAX_LINE = 200  # a child's progress line longer than this is not ours: ignored


def marker_path() -> Path:
    """The file that says this engine's cache is complete (numba and Python versions in its name)."""
    return Path(numba.config.CACHE_DIR) / engine_cache.marker_name(numba.__version__)


def source_stamp() -> str:
    """The engine files' modification times and sizes, the marker's content (see engine_cache)."""
    return engine_cache.source_stamp(Path(driver.__file__).parent)


def is_prepared() -> bool:
    """True if an earlier preparation filled the cache for this engine, numba and Python."""
    try:
        return engine_cache.marker_matches(marker_path(), source_stamp())
    except (OSError, UnicodeDecodeError):
        return False


def write_marker() -> None:
    """Mark the cache complete: the source stamp and every cache file's digest (engine_cache)."""
    marker_path().write_text(engine_cache.marker_text(Path(numba.config.CACHE_DIR), source_stamp()))


def discard_changed_files() -> bool:
    """Check a complete cache's files against the marker's digests before any is loaded:
    compiled code changed on disk (bit rot, a stray write) could crash the game as it runs,
    where numba would not notice. The changed files, the rest of their functions' files and
    the marker are removed (every file if the marker lists no digests), so that children
    compile them again. True if every file is as the marker vouches."""
    folder = Path(numba.config.CACHE_DIR)
    try:
        changed = engine_cache.changed_cache_files(folder, marker_path())
        if changed == []:
            return True
        marker_path().unlink(missing_ok=True)
        doomed = (engine_cache.cache_files(folder) if changed is None
                  else engine_cache.function_files(folder, changed))
        for path in doomed:
            path.unlink(missing_ok=True)
        why = ("its marker lists no files" if changed is None
               else f"{len(changed)} of its files changed since it was prepared")
    except (OSError, UnicodeDecodeError) as error:  # an unreadable marker or file: prepare again
        why = f"{type(error).__name__}: {error}"
    sys.stderr.write(f"gomoku: the engine cache is damaged or incomplete ({why}); "
                     "preparing it again\n")
    return False


def load_cache() -> bool:
    """Load every part from a complete cache (see `is_prepared`), in well under a second.

    False if a file changed since the cache was prepared (`discard_changed_files`), a function
    is missing from it or its file cannot be read: the marker is then removed, and the caller
    prepares the engine again in children, which compile only what is missing (compiling it
    here would hold the GIL for seconds). Parts loaded before stay loaded.
    """
    if not discard_changed_files():
        return False
    try:
        with strict_cache_loads():
            driver.warm_up()
    except CacheLoadError as error:
        sys.stderr.write(f"gomoku: the engine cache is damaged or incomplete ({error}); "
                         "preparing it again\n")
        with contextlib.suppress(OSError):  # (the children write it again when they are done)
            marker_path().unlink(missing_ok=True)
        return False
    return True


def usable_cores() -> int:
    """The cores this process may run on (at least 1).

    Not reduced by the load average: it lags a minute behind, and two children finish the
    parts no later than one even when both cores are busy (measured with tools/cold_start.py
    while two engine matches ran: hard ready at 40.8 s with two, 45.0 s with one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


@dataclass(frozen=True)
class PrepareState:
    """What the children have done: parts in the cache, of all parts; the error if one failed."""

    done: tuple[str, ...]
    total: int
    finished: bool
    error: str | None = None


class Preparer:
    """Runs the children and follows their progress. Every public method is thread-safe and
    returns at once, except `wait`. `close` ends children still running."""

    def __init__(self, jobs: int | None = None, first: Level = Level.MEDIUM,
                 plan: list[list[str]] | None = None) -> None:
        """`jobs` children (default GOMOKU_PREPARE_JOBS, else 2 when it may use two cores);
        `first` the level whose parts come first with one child; `plan` the parts per child
        instead (for tests)."""
        if jobs is None:
            setting = os.environ.get("GOMOKU_PREPARE_JOBS", "")
            jobs = int(setting) if setting.isdigit() else 0
        self.jobs = jobs if jobs > 0 else min(2, usable_cores())
        if plan is not None:
            self._plan = plan
        elif self.jobs >= 2:
            self._plan = [list(child) for child in SPLIT]  # in the order that serves every level
        else:
            # One child: the parts the chosen level needs and what they call first (WARM_TASKS
            # lists each part after its callees), the rest after; easy's scorer, the smallest
            # part, as soon as its callees are there, so an easy game need not wait for the search.
            needed = set(driver.LEVEL_TASKS[first])
            needed.update(*(driver.TASK_NEEDS.get(part, ()) for part in tuple(needed)))
            order = sorted(driver.WARM_TASKS, key=lambda part: part not in needed)
            order.remove("easy")
            order.insert(max(order.index(need) for need in driver.TASK_NEEDS["easy"]) + 1, "easy")
            self._plan = [order]
        self._lock = threading.Lock()
        self._done: list[str] = []
        self._error: str | None = None
        self._finished = threading.Event()
        self._changed = threading.Condition(self._lock)
        self._children: list[subprocess.Popen] = []
        self._stderr: list[IO[bytes]] = []

    def start(self) -> None:
        """Start the children (at once; the compiling happens in them)."""
        env = dict(os.environ, NUMBA_CACHE_DIR=str(numba.config.CACHE_DIR))
        for parts in self._plan:
            errors = tempfile.TemporaryFile()  # a file, not a pipe: warnings can never block it
            child = subprocess.Popen(
                [sys.executable, "-m", "gomoku.engine.prepare", *parts],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
                env=env, text=True, errors="replace",
            )
            self._children.append(child)
            self._stderr.append(errors)
            others = {part for plan in self._plan if plan is not parts for part in plan}
            if not any(others.intersection(driver.TASK_NEEDS.get(part, ())) for part in parts):
                self._tell(child, None)  # no other child makes what it needs: it never waits
        readers = [threading.Thread(target=self._follow, args=(c,), daemon=True,
                                    name="engine-prepare") for c in self._children]
        for reader in readers:
            reader.start()
        threading.Thread(target=self._reap, args=(readers,), daemon=True,
                         name="engine-prepare-wait").start()

    def state(self) -> PrepareState:
        with self._lock:
            return PrepareState(tuple(self._done), len(driver.WARM_TASKS),
                                self._finished.is_set(), self._error)

    def wait_change(self, timeout: float) -> None:
        """Wait up to `timeout` seconds for a part to finish or the children to end."""
        with self._changed:
            self._changed.wait(timeout)

    def wait_for(self, part: str, timeout: float | None = None) -> bool:
        """Wait until `part` is in the cache; False on timeout or if the children failed."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while part not in self._done and not self._finished.is_set():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._changed.wait(left)
            return part in self._done

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the children to end; True if every part is in the cache."""
        self._finished.wait(timeout)
        state = self.state()
        return state.finished and state.error is None and len(state.done) == state.total

    def close(self) -> None:
        """End children still running (the app is closing); their parts stay uncompiled."""
        for child in self._children:
            if child.poll() is None:
                child.kill()

    def _follow(self, child: subprocess.Popen) -> None:
        assert child.stdout is not None
        for line in child.stdout:
            words = line[:MAX_LINE].split()
            if len(words) == 3 and words[0] == "done" and words[1] in driver.WARM_TASKS:
                with self._changed:
                    if words[1] not in self._done:
                        self._done.append(words[1])
                    self._changed.notify_all()
                self._tell_others(child, words[1] + "\n")
        # This child has ended: another waiting for a part it would have made must not wait on.
        self._tell_others(child, None)

    def _tell_others(self, sender: subprocess.Popen, line: str | None) -> None:
        """Write `line` (a part now in the cache) to the other children's input; None ends it."""
        with self._lock:
            for child in self._children:
                if child is not sender:
                    self._tell(child, line)

    @staticmethod
    def _tell(child: subprocess.Popen, line: str | None) -> None:
        """Write `line` to a child's input, or end it (None); a child that has ended is left."""
        if child.stdin is None or child.stdin.closed:
            return
        try:
            if line is None:
                child.stdin.close()
            else:
                child.stdin.write(line)
                child.stdin.flush()
        except OSError:  # it has ended (its input closed by then)
            pass

    def _reap(self, readers: list[threading.Thread]) -> None:
        errors = []
        for child, reader, stderr in zip(self._children, readers, self._stderr, strict=True):
            reader.join()
            status = child.wait()
            with self._lock:
                self._tell(child, None)
            stderr.seek(0)
            tail = stderr.read()[-2000:].decode(errors="replace")
            stderr.close()
            if status != 0:
                last = tail.strip().splitlines()[-1:] or [f"exit status {child.returncode}"]
                errors.append(last[0][:MAX_LINE])
        with self._changed:
            complete = len(self._done) == len(driver.WARM_TASKS)
            if errors and not complete:  # (a child ended by `close` after its last part is fine)
                self._error = "; ".join(errors)
            elif complete:
                try:
                    write_marker()
                except OSError:  # a read-only cache: the next launch prepares again
                    pass
            self._finished.set()
            self._changed.notify_all()


class PreparedEngine:
    """The brain's engine on a cold cache: `start` returns at once, having started a Preparer
    and a thread that loads each part from the cache as a child finishes it; until the parts a
    level needs are loaded `think` answers with the driver's greedy stand-in (plain Python, a
    few ms), then searches (no move pays for a load). With a complete cache it is the driver
    itself. Not thread-safe (the brain is synchronous)."""

    def __init__(self, jobs: int | None = None) -> None:
        self._jobs = jobs
        self.preparer: Preparer | None = None
        self._loaded = False

    def start(self) -> None:
        """Load the engine if its cache is complete, else start preparing it in children."""
        if self._loaded or self.preparer is not None:
            return
        if is_prepared() and load_cache():
            self._loaded = True
        else:
            self.preparer = Preparer(self._jobs, first=Level.HARD)
            self.preparer.start()
            threading.Thread(target=self._load_parts, args=(self.preparer,), daemon=True,
                             name="engine-load").start()

    @staticmethod
    def _load_parts(preparer: Preparer) -> None:
        """Load each part as the children finish it (cache loads, off the brain's thread)."""
        pending = list(driver.WARM_TASKS)
        while pending:
            state = preparer.state()
            ready = [part for part in pending if part in state.done]
            if not ready:
                if state.finished:
                    return  # a child failed: driver.think compiles what is missing
                preparer.wait_change(0.25)
                continue
            driver.warm_task(ready[0])
            pending.remove(ready[0])

    def think(self, position: Position, level: Level, limit: SearchLimit,
              stop: StopFlag | None = None,
              on_progress: Callable[[Progress], None] | None = None) -> SearchResult:
        """`driver.think`, or the stand-in while the children compile (see the class)."""
        if not self._loaded and self.preparer is not None and not driver.level_ready(level):
            state = self.preparer.state()
            if not state.finished or state.error is None:
                return driver.stand_in_move(position, time.perf_counter())
            # A child failed: what is missing compiles here, with the driver's stand-in meanwhile.
            self._loaded = True
        return driver.think(position, level, limit, stop=stop, on_progress=on_progress)

    def close(self) -> None:
        """End a preparation still running (the brain is leaving); compiled parts stay cached."""
        if self.preparer is not None:
            self.preparer.close()


def main(argv: list[str] | None = None) -> int:
    """The child: compile the named parts in order, reporting each as it is cached."""
    parts = sys.argv[1:] if argv is None else argv
    for part in parts:
        if part not in driver.WARM_TASKS:
            print(f"unknown part {part!r}", file=sys.stderr)
            return 2
    try:
        os.nice(CHILD_NICE)  # the game's frames come first on a busy machine
    except (AttributeError, OSError):  # no nice on Windows; a refused one changes nothing
        pass
    told: set[str] = set()
    for part in parts:
        for need in driver.TASK_NEEDS.get(part, ()):
            if need not in parts:
                _wait_until_told(need, told)
        began = time.perf_counter()
        driver.warm_task(part)
        print(f"done {part} {time.perf_counter() - began:.2f}", flush=True)
    return 0


def _wait_until_told(part: str, told: set[str]) -> None:
    """Read the parts other children finished (the parent relays them, one a line) until
    `part` is among them or the input ends: then it is in the cache, or compiled here."""
    while part not in told:
        line = sys.stdin.readline(MAX_LINE)
        if not line:
            return
        told.add(line.strip())


if __name__ == "__main__":
    sys.exit(main())
