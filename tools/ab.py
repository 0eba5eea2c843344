#!/usr/bin/env python3
"""Play the engine of one git revision against another, each side running its own code.

    .venv/bin/python tools/ab.py HEAD~1 work --level hard --games 20 --time 0.5 --out ab-out
    .venv/bin/python tools/ab.py HEAD --against /path/to/pbrain-rapfi --games 100 --time 0.5 \
        --time2 1 --nodes2 14000

The second form plays one revision against an outside brain (any command line, the arena's
second engine, so --time2 and --nodes2 apply to it): a change measured against the engine we
most want to beat, with no work tree of the revision checked out by hand.

A revision is anything git names (a commit, `HEAD~2`, a branch, a tag) or the word `work`: the
work tree as it is, uncommitted changes included. The other options (`--games --time --rule
--size --seed --out --jobs --opening-stones --tolerance`) go to tools/arena.py unchanged, and
the arena's summary names each side by its short sha (or `work`).

Why not an old copy on PYTHONPATH: the editable install's import finder sits in sys.meta_path
and wins over sys.path, so such a copy silently runs the work tree's code on both sides. So:

- a revision is extracted once (`git archive <sha> gomoku`) into `<cache>/<full sha>/` (default
  cache: $TMPDIR/gomoku-ab), reused when present; numba keeps its cache in `<that dir>/nbcache`
  so compiled code never mixes between revisions;
- each side runs through a small runner script written beside it (named by the short sha, or
  `work`) that drops the editable finder for `gomoku` from sys.meta_path, forgets any imported
  `gomoku` modules, puts its directory first on sys.path and runs `gomoku.engine.brain` as
  `__main__`. The `work` side keeps the normal import, i.e. what `pbrain-gomoku` runs;
- every runner checks, before it answers a single command, that every `gomoku` module it has
  loaded comes from its own directory, writes `gomoku-ab: origin <dir> ...` to stderr (the
  arena keeps it in the engine logs) and refuses to run otherwise (exit code 3);
- before the match, the tool starts each side once and asks it for moves until one is searched
  (the brain plays stand-in moves while its engine is prepared: none reach the match), prints
  the origin the side reported and the times, and stops unless each side imported gomoku from
  its own directory. The runner also runs from its own directory with it on PYTHONPATH, so the
  brain's preparing children (`python -m gomoku.engine.prepare`) compile that revision too.

Cost: a revision's first use compiles its engine (~25-30 s on two cores; later starts load
the cache in under a second). Each extracted revision takes about 7 MB with its compiled code;
the cache folder can be deleted at any time.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
import arena  # noqa: E402  (tools/ is not a package)

WORK = "work"
ORIGIN_TAG = "gomoku-ab: origin "
REFUSED_EXIT = 3
PREFLIGHT_TIMEOUT_S = 600.0  # a cold numba compile on a busy two-core machine
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "gomoku-ab"

RUNNER = '''\
#!{python}
"""gomoku-ab runner for {label}: the Gomocup brain, importing gomoku from {root} only."""
import atexit
import importlib
import importlib.machinery
import importlib.util
import os
import runpy
import sys

ROOT = {root!r}
ISOLATE = {isolate!r}  # False for the work tree: the normal (editable) import is the one wanted
PACKAGE = os.path.join(ROOT, "gomoku")


def _ours(name):
    return name == "gomoku" or name.startswith("gomoku.")


def _inside(path):
    return bool(path) and os.path.abspath(path).startswith(PACKAGE + os.sep)


def _finds_gomoku_elsewhere(finder):
    try:
        spec = finder.find_spec("gomoku", None)
    except Exception:
        return False
    return spec is not None and not _inside(spec.origin)


if ISOLATE:
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(ROOT, "nbcache")
    # The brain prepares the engine in child processes (python -m gomoku.engine.prepare): they
    # must compile this revision too, not the work tree found from the current directory.
    os.environ["PYTHONPATH"] = ROOT
    os.chdir(ROOT)
    sys.meta_path[:] = [
        finder for finder in sys.meta_path
        if finder is importlib.machinery.PathFinder or not _finds_gomoku_elsewhere(finder)
    ]
    for name in [name for name in sys.modules if _ours(name)]:
        del sys.modules[name]
    sys.path.insert(0, ROOT)
    importlib.invalidate_caches()


def _strays():
    return sorted(
        f"{{name}} from {{getattr(module, '__file__', None)}}"
        for name, module in list(sys.modules.items())
        if _ours(name) and not _inside(getattr(module, "__file__", None))
    )


def _refuse(why):
    sys.stderr.write(f"gomoku-ab: REFUSED ({{why}}); expected every gomoku module in {{PACKAGE}}\\n")
    sys.stderr.flush()
    os._exit({refused})


importlib.import_module("gomoku.engine.driver")  # the engine and everything the brain uses
brain_spec = importlib.util.find_spec("gomoku.engine.brain")
if brain_spec is None or not _inside(brain_spec.origin):
    _refuse(f"the brain would come from {{brain_spec and brain_spec.origin}}")
if _strays():
    _refuse("; ".join(_strays()))
loaded = sum(1 for name in sys.modules if _ours(name))
sys.stderr.write(f"{origin_tag}{{PACKAGE}} ({{loaded}} gomoku modules, python {{sys.executable}})\\n")
sys.stderr.flush()


@atexit.register
def _check_at_exit():
    if _strays():
        sys.stderr.write("gomoku-ab: at exit, modules from elsewhere: " + "; ".join(_strays()) + "\\n")


runpy.run_module("gomoku.engine.brain", run_name="__main__", alter_sys=True)
'''


class AbError(Exception):
    """A revision that cannot be prepared, or a side that does not prove its origin."""


@dataclass(frozen=True)
class Side:
    """One side of the match: the code of `rev`, run by `runner` from `root`."""

    rev: str  # as given on the command line
    label: str  # the short sha, or "work"
    sha: str | None  # the full commit, None for the work tree
    root: Path  # the directory holding the `gomoku` package
    runner: Path

    @property
    def package(self) -> Path:
        return self.root / "gomoku"

    def command(self, level: str) -> list[str]:
        return [str(self.runner), "--level", level]


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)
    if done.returncode != 0:
        raise AbError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


def repo_root() -> Path:
    return Path(git(TOOLS, "rev-parse", "--show-toplevel"))


def extract(repo: Path, sha: str, cache: Path) -> Path:
    """`<cache>/<sha>/gomoku` from `git archive`, made once (atomically) and then reused."""
    target = cache / sha
    if (target / "gomoku" / "__init__.py").is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["git", "archive", "--format=tar", sha, "gomoku"], cwd=repo, capture_output=True
    )
    if done.returncode != 0:
        raise AbError(f"git archive {sha} gomoku: {done.stderr.decode(errors='replace').strip()}")
    staging = Path(tempfile.mkdtemp(prefix=f".{sha[:12]}-", dir=cache))
    try:
        with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
            if hasattr(tarfile, "data_filter"):
                archive.extractall(staging, filter="data")
            else:  # Python before 3.10.12: the archive is our own repository's
                archive.extractall(staging)
        try:
            staging.rename(target)
        except OSError:  # another run extracted it meanwhile
            if not (target / "gomoku" / "__init__.py").is_file():
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target


def write_runner(path: Path, root: Path, label: str, isolate: bool) -> Path:
    """The runner script at `path` (executable, replaced atomically when it changes)."""
    text = RUNNER.format(
        python=sys.executable,
        label=label,
        root=str(root),
        isolate=isolate,
        refused=REFUSED_EXIT,
        origin_tag=ORIGIN_TAG,
    )
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f".{path.name}.{os.getpid()}")
    staging.write_text(text, encoding="utf-8")
    staging.chmod(0o755)
    os.replace(staging, path)
    return path


def prepare(rev: str, repo: Path, cache: Path) -> Side:
    """The side for `rev`: extracted (revisions) or the work tree, with its runner written."""
    if rev == WORK:
        key = hashlib.sha1(str(repo).encode()).hexdigest()[:10]
        runner = write_runner(cache / f"work-{key}" / WORK, repo, WORK, isolate=False)
        return Side(rev, WORK, None, repo, runner)
    try:
        sha = git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except AbError:
        raise AbError(f"{rev!r} is not a commit in {repo} (nor the word {WORK!r})") from None
    label = git(repo, "rev-parse", "--short", sha)
    root = extract(repo, sha, cache)
    runner = write_runner(root / label, root, label, isolate=True)
    return Side(rev, label, sha, root, runner)


@dataclass(frozen=True)
class Preflight:
    origin: str  # the package directory the side's brain reported
    start_s: float  # START's wall time
    ready_s: float  # until the side searched a move: its engine compiled or loaded from cache
    about: str


READY_PROBE = "BOARD\n{c},{c},2\nDONE"  # the opponent's stone in the centre: ours to move
STAND_IN = "(fallback)"  # the brain's word for a move played while its engine is prepared


def preflight(side: Side, level: str, rule_code: int, size: int) -> Preflight:
    """Runs the side (START, moves until one is searched, ABOUT, END); AbError unless it imports
    its own gomoku.

    START returns at once and the engine is prepared in the background, with stand-in moves
    meanwhile: waiting here for a searched move keeps those out of the match's first game.
    """
    began = time.monotonic()
    errors = tempfile.TemporaryFile()
    try:
        brain = subprocess.Popen(side.command(level), stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=errors, text=True, bufsize=1)
    except OSError as error:
        raise AbError(f"{side.label}: cannot run {side.runner}: {error}") from None

    def tell(command: str) -> None:  # a command with no reply (INFO)
        brain.stdin.write(command + "\n")
        brain.stdin.flush()

    def ask(command: str) -> list[str]:
        """The MESSAGE lines and the reply to `command` (the reply last)."""
        tell(command)
        lines = []
        while True:
            line = brain.stdout.readline()
            if not line:
                raise EOFError
            lines.append(line.strip())
            if not line.startswith("MESSAGE"):
                return lines

    timer = threading.Timer(PREFLIGHT_TIMEOUT_S, brain.kill)  # a hung side cannot hang us
    timer.start()
    try:
        tell(f"INFO rule {rule_code}")
        started = ask(f"START {size}")
        start_s = time.monotonic() - began
        if started[-1] != "OK":
            raise AbError(f"{side.label} did not accept START: {started[-1]!r}")
        tell("INFO timeout_turn 200")
        while True:
            answer = ask(READY_PROBE.format(c=size // 2))
            if answer[-1].startswith("ERROR"):
                raise AbError(f"{side.label} refused a first move: {answer[-1]!r}")
            if not any(STAND_IN in line for line in answer):
                break
            time.sleep(0.5)  # the engine is still being prepared
            ask("RESTART")
        ready_s = time.monotonic() - began
        about = ask("ABOUT")[-1]
        brain.stdin.write("END\n")
        brain.stdin.close()
        brain.wait(timeout=30)
    except (EOFError, OSError, subprocess.TimeoutExpired):  # it exited (or hung): see stderr
        brain.kill()
        brain.wait()
        if not timer.is_alive():
            raise AbError(f"{side.label}: not ready within {PREFLIGHT_TIMEOUT_S:g} s") from None
        start_s = ready_s = time.monotonic() - began
        about = ""
    finally:
        timer.cancel()
        if brain.poll() is None:  # an AbError above: no process is left behind
            brain.kill()
            brain.wait()
    with errors:
        errors.seek(0)
        stderr = errors.read().decode("utf-8", "replace")
    origins = [line[len(ORIGIN_TAG):] for line in stderr.splitlines() if line.startswith(ORIGIN_TAG)]
    if brain.returncode != 0 or not origins:
        tail = "\n  ".join(stderr.strip().splitlines()[-6:])
        raise AbError(f"{side.label} ({side.runner}) exited {brain.returncode}:\n  {tail}")
    origin = origins[0].split(" (", 1)[0]
    if Path(origin) != side.package:
        raise AbError(f"{side.label} imported gomoku from {origin}, not from {side.package}")
    return Preflight(origin, start_s, ready_s, about)


def describe_work(repo: Path) -> str:
    head = git(repo, "rev-parse", "--short", "HEAD")
    changed = git(repo, "status", "--porcelain", "--", "gomoku")
    if not changed:
        return f"the work tree (HEAD {head}, gomoku/ unchanged)"
    count = len(changed.splitlines())
    return f"the work tree (HEAD {head} plus {count} changed path(s) in gomoku/)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Play the engine of one git revision against another, or against an outside "
        "brain (tools/arena.py).",
        epilog="REV is a git revision or 'work' (the work tree, uncommitted changes included). "
        "Other options go to tools/arena.py: --games --time --rule --size --seed --out --jobs "
        "--opening-stones --tolerance.",
    )
    parser.add_argument("rev_a", metavar="REV_A")
    parser.add_argument("rev_b", metavar="REV_B", nargs="?", help="omitted with --against")
    parser.add_argument(
        "--against",
        metavar="CMD",
        help="play REV_A against this brain command line instead of REV_B (e.g. pbrain-rapfi)",
    )
    parser.add_argument(
        "--level",
        choices=list(arena.LEVELS),
        default="hard",
        help="level both sides play (default hard)",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=DEFAULT_CACHE,
        help=f"where revisions are extracted (default {DEFAULT_CACHE})",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, arena_args = parser.parse_known_args(argv)
    if (args.rev_b is None) == (args.against is None):
        parser.error("give REV_B or --against CMD, not both or neither")
    try:
        repo = repo_root()
        revs = (args.rev_a,) if args.against else (args.rev_a, args.rev_b)
        sides = [prepare(rev, repo, args.cache.resolve()) for rev in revs]
        specs = [shlex.join(side.command(args.level)) for side in sides]
        if args.against:
            specs.append(args.against)
        # The arena's own checks first (bad flags end here, before any compile).
        arena_options = arena.build_parser().parse_args([*specs, *arena_args])
        rule = arena.Rule(arena_options.rule)
        for name, side in zip("ab", sides, strict=False):  # one side with --against
            what = describe_work(repo) if side.sha is None else f"{side.rev} = {side.sha}"
            print(f"{name}: {side.label}: {what}", flush=True)
            check = preflight(side, args.level, arena.RULE_CODES[rule], arena_options.size)
            print(
                f"   gomoku imported from {check.origin}; START took {check.start_s:.1f} s, "
                f"its engine searched after {check.ready_s:.1f} s",
                flush=True,
            )
        if len(sides) == 2 and sides[0].package == sides[1].package and sides[0].sha != sides[1].sha:
            raise AbError("both sides import the same directory")
    except AbError as error:
        print(f"ab: {error}", file=sys.stderr)
        return 1
    if args.against:
        print(f"b: {args.against} (an outside brain)", flush=True)
    elif sides[0].sha == sides[1].sha:
        print("note: both sides run the same code (an A/A match: a measure of noise)", flush=True)
    return arena.main([*specs, *arena_args])


if __name__ == "__main__":
    sys.exit(main())
