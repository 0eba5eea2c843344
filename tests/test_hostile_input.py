"""Issue 10: hostile files, names and numbers give a clear message, never a crash or a freeze.

One test (or a few) per reproduction in the issue, numbered as there, then a fuzz of the
loaders that also draws every loaded name through the UI's text fitting.
"""

from __future__ import annotations

import inspect
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pygame
import pytest
from app_input import click
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gomoku.core import Board, Rule
from gomoku.core.clock import Clock, ClockState, TimeControl
from gomoku.core.game import Game, PlayerInfo
from gomoku.core.records import (
    MAX_RECORD_NAME,
    GameRecord,
    RecordError,
    export_psq,
    format_record,
    from_game,
    load_record,
)
from gomoku.core.settings import Settings, load_settings, save_settings
from gomoku.core.types import Color
from gomoku.engine.api import Level, SearchResult
from gomoku.engine.brain import MAX_INFO_KEYS, MAX_LINE_CHARS, Brain, serve
from gomoku.ui import autosave
from gomoku.ui.app import App, AppOptions
from gomoku.ui.players import GameSetup
from gomoku.ui.theme import Theme

DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "1" + "0" * 400
SLACK_S = 5.0  # an upper bound with big slack, for a busy machine: the bugs took minutes to hours


def _record(moves: int = 4, black: str = "Ann", white: str = "Bob") -> GameRecord:
    board = Board(15, Rule.FREESTYLE)
    for point in [(7, 7), (8, 8), (7, 8), (8, 7), (6, 6), (9, 9), (6, 9), (9, 6)][:moves]:
        board.push(*point)
    game = Game(board, PlayerInfo(black), PlayerInfo(white), Clock(TimeControl(300, 2, 0)))
    return from_game(game, now=10.0, date="2026-11-22T06:00:00+00:00")


def _autosave_text(**clock: object) -> str:
    setup = GameSetup(mode="local", time_control=TimeControl(300, 2, 0))
    record = autosave.record_of(
        Game(Board(15), PlayerInfo("Ann"), PlayerInfo("Bob"), Clock(setup.time_control)), setup, now=5.0
    )
    record.extra["clock"].update(clock)
    return format_record(record)


def _extra_line(text: str, extra: str) -> str:
    """`text` (own format) with its Extra header replaced by `extra` verbatim."""
    return "\n".join(f"Extra: {extra}" if line.startswith("Extra:") else line for line in text.split("\n"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def make_app(home: Path):
    apps: list[App] = []

    def build() -> App:
        app = App(AppOptions(windowed=True, size=(1280, 800), home=home))
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.close()


def _continue_fails_once(home: Path, make_app) -> App:
    """Continue with a damaged autosave: reported, set aside once, and the menu stays without
    Continue (no fresh game against the computer)."""
    damaged = (home / "autosave.gomoku").read_bytes()
    app = make_app()
    app.frame()
    assert app.current_name == "menu" and app.current.continue_button.visible
    click(app, app.current.continue_button.rect)
    assert app.current_name == "menu"
    assert any(n.error and "could not be continued" in n.text for n in app.notices)
    assert not app.current.continue_button.visible  # no Continue loop
    assert sorted(p.name for p in home.iterdir() if p.name.startswith("autosave")) == ["autosave.gomoku.bak"]
    assert (home / "autosave.gomoku.bak").read_bytes() == damaged
    return app


# --- 1. deep JSON nesting -----------------------------------------------------------------------


def test_1_deep_nesting_in_a_records_extra_line_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.gomoku"
    path.write_text(_extra_line(format_record(_record()), DEEP), encoding="utf-8")
    with pytest.raises(RecordError, match="line 9.*nests deeper"):
        load_record(path)


def test_1_deep_nesting_in_the_autosave_is_set_aside_once(home: Path, make_app) -> None:
    (home / "autosave.gomoku").write_text(_extra_line(_autosave_text(), DEEP), encoding="utf-8")
    _continue_fails_once(home, make_app)


def test_1_deep_nesting_in_settings_json_still_starts_the_game(home: Path, make_app) -> None:
    deep = "[" * 30_000 + "]" * 30_000  # under the settings file's size cap
    (home / "settings.json").write_text(deep, encoding="utf-8")
    app = make_app()
    assert app.settings == Settings()
    assert any(n.error and "nests deeper" in n.text for n in app.notices)
    assert (home / "settings.json.bak").read_text(encoding="utf-8") == deep


# --- 2. huge numbers ----------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["move_ms", "black_ms"])
def test_2_a_huge_clock_figure_in_the_autosave_is_set_aside_once(home: Path, make_app, field: str) -> None:
    text = _autosave_text().replace(f'"{field}": ', f'"{field}": {HUGE}, "was": ', 1)
    (home / "autosave.gomoku").write_text(text, encoding="utf-8")
    _continue_fails_once(home, make_app)


def test_2_a_huge_game_time_in_the_autosave_is_set_aside_once(home: Path, make_app) -> None:
    text = _autosave_text().replace('"game_s": 300', f'"game_s": {HUGE}')
    (home / "autosave.gomoku").write_text(text, encoding="utf-8")
    _continue_fails_once(home, make_app)


def test_2_the_clock_refuses_figures_it_cannot_hold() -> None:
    with pytest.raises(ValueError, match="whole milliseconds"):
        ClockState(int(HUGE), 0, Color.BLACK)
    with pytest.raises(ValueError, match="at most a year"):
        TimeControl(game_s=int(HUGE))
    with pytest.raises(ValueError, match="whole milliseconds"):
        ClockState.from_dict({"black_ms": 10**5000, "white_ms": 0, "to_move": "black"})


def test_2_a_move_time_of_5000_digits_in_settings_json_falls_back_alone(home: Path, make_app) -> None:
    (home / "settings.json").write_text('{"move_s": 1' + "0" * 5000 + ', "level": "hard"}', encoding="utf-8")
    app = make_app()
    assert app.settings.move_s == 0 and app.settings.level == "hard"
    assert any(n.error and "move_s" in n.text for n in app.notices)


# --- 3. NUL and lone surrogates in names -------------------------------------------------------


def test_3_a_nul_in_a_saved_name_is_dropped_and_the_load_screen_draws(home: Path, make_app) -> None:
    saves = home / "saves"
    saves.mkdir()
    text = format_record(_record()).replace("Black: Ann", 'Black: "A\\u0000B\\ud800"')
    (saves / "nul.gomoku").write_text(text, encoding="utf-8")
    assert load_record(saves / "nul.gomoku").black == "AB"
    app = make_app()
    app.switch("records", {})
    app.frame()
    assert app.current_name == "records" and not isinstance(app.current.preview, str)
    assert not any("went wrong" in n.text for n in app.notices)


def test_3_a_nul_in_the_settings_name_is_refused_and_every_screen_draws(home: Path, make_app) -> None:
    (home / "settings.json").write_text(json.dumps({"player_name": "A\u0000B", "level": "easy"}), encoding="utf-8")
    app = make_app()
    assert app.settings.player_name == "Player" and app.settings.level == "easy"
    for scene, data in (("settings", {}), ("board", {"mode": "local"})):
        app.switch(scene, data)
        app.frame()
        assert app.current_name == scene
    assert not any("went wrong" in n.text for n in app.notices)


def test_3_a_nul_in_a_psq_is_an_error_naming_its_line(tmp_path: Path) -> None:
    path = tmp_path / "nul.psq"
    path.write_bytes(b"Piskvorky 15x15, 0:0, 0\n8,8,0\n9,9\x00,0\n10,10,0\nAnn\nBob\n0\n")
    with pytest.raises(RecordError, match="line 3: a control character"):
        load_record(path)
    path.write_bytes(b"Piskvorky 15x15, 0:0, 0\n8,8,0\nA\x00nn\nBob\n0\n")
    with pytest.raises(RecordError, match="line 3: a control character"):
        load_record(path)


def test_3_saving_a_game_with_a_lone_surrogate_in_it_is_no_crash(home: Path, make_app) -> None:
    app = make_app()
    record = _record(black="A\ud800nn")
    record.extra["note"] = "x\udfffy"
    app.switch("records", {"save": record, "back": "menu"})
    app.current.name_input.set_text("my \ud800game")
    assert app.current.save()
    saved = load_record(home / "saves" / "my game.gomoku")
    assert saved.black == "Ann" and saved.extra["note"] == "x\udfffy"


# --- 4. long names ------------------------------------------------------------------------------


def test_4_long_names_are_capped_when_read_and_fitted_in_a_few_measurements(home: Path, make_app) -> None:
    saves = home / "saves"
    saves.mkdir()
    long_name = "W" * 1_000_000  # just under the file size cap
    text = format_record(_record()).replace("Black: Ann", f"Black: {long_name}")
    (saves / "long.gomoku").write_text(text, encoding="utf-8")
    assert len(load_record(saves / "long.gomoku").black) <= MAX_RECORD_NAME
    app = make_app()
    began = time.perf_counter()
    app.switch("records", {})
    app.frame()
    app.current.load_selected()
    app.frame()
    assert app.current_name == "review"
    assert time.perf_counter() - began < SLACK_S  # it froze for hours


def test_4_fit_text_takes_logarithmic_measurements() -> None:
    pygame.font.init()
    theme = Theme((1280, 800))
    calls = 0
    font = theme.font(theme.text_px)
    measure = font.size

    class Counting:
        def size(self, text: str) -> tuple[int, int]:
            nonlocal calls
            calls += 1
            return measure(text)

    theme._fonts[(theme.text_px, False)] = Counting()  # type: ignore[assignment]
    fitted = theme.fit_text("W" * 20_000, theme.text_px, 300)
    assert fitted.endswith("...") and measure(fitted)[0] <= 300
    assert calls <= 20  # one a character before: 20,000 measurements of up to 20,000 characters


# --- 5. the brain's numbers ---------------------------------------------------------------------


def _brain() -> Brain:
    """A started brain whose 'search' plays the first legal point at once."""

    def think(position, level, limit, stop=None) -> SearchResult:
        assert brain.board is not None
        return SearchResult(move=brain.board.legal_moves()[0])

    brain = Brain(level=Level.EASY, think=think, warm_up=lambda: None, new_game=lambda: None)
    assert brain.handle("START 15") == ["OK"]
    return brain


@pytest.mark.parametrize(
    "lines",
    [
        [f"INFO timeout_turn {HUGE}"],
        [f"INFO timeout_match {HUGE}", f"INFO time_left {HUGE}"],
        ["INFO timeout_turn 1" + "0" * 29],
        [f"INFO time_left -{HUGE}", "INFO timeout_match 5000"],
        ["INFO timeout_turn 1" + "0" * 5000],
    ],
)
def test_5_huge_info_numbers_are_clamped_and_the_brain_plays(lines: list[str]) -> None:
    brain = _brain()
    for line in lines:
        assert brain.handle(line) == []
    replies = brain.handle("TURN 0,0")
    assert not replies[-1].startswith("ERROR"), replies
    assert brain.board is not None and brain.board.ply == 2
    assert brain.clock.available_s(Level.EASY, 2) < 10**7


def test_5_a_command_that_fails_leaves_no_stone_behind() -> None:
    class Broken:
        """A result that fails when described, after the search's own guard."""

        move, score, depth, nodes = (5, 5), 0, 1, 1

        @property
        def pv(self) -> tuple:
            raise RuntimeError("broken result")

    brain = _brain()
    good_think = brain._think
    brain._think = lambda position, level, limit, stop=None: Broken()
    replies = brain.handle("TURN 0,0")
    assert replies[-1].startswith("ERROR internal error")
    assert brain.board is not None and brain.board.ply == 0  # the opponent's stone is gone too
    brain._think = good_think
    assert not brain.handle("TURN 0,0")[-1].startswith("ERROR")  # not "already taken"


def test_5_a_refused_rule_change_keeps_the_rule() -> None:
    brain = _brain()
    # Black (the opponent) made a double three with its last stone: fine in freestyle only.
    black = ["5,7", "6,7", "7,5", "7,6", "7,7"]
    white = ["0,0", "0,2", "0,4", "0,6"]
    lines = ["BOARD", *(f"{p},2" for p in black), *(f"{p},1" for p in white), "DONE"]
    replies = [reply for line in lines for reply in brain.handle(line)]
    assert not replies[-1].startswith("ERROR") and brain.board is not None and brain.board.ply == 10
    assert brain.handle("INFO rule 4")[0].startswith("ERROR")
    assert brain.rule is Rule.FREESTYLE and brain.board.rule is Rule.FREESTYLE


class _CountingInput(io.StringIO):
    """Input that remembers the longest piece `serve` asked for in one read."""

    longest_read = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline(size)
        self.longest_read = max(self.longest_read, len(line))
        return line


def test_5_an_endless_line_is_dropped_in_bounded_reads_and_the_next_commands_answer() -> None:
    brain = _brain()
    stdin = _CountingInput("INFO folder " + "A" * 1_000_000 + "\nTURN 7,7\nABOUT\nEND\n")
    stdout = io.StringIO()
    serve(brain, stdin, stdout)
    replies = [line for line in stdout.getvalue().splitlines() if not line.startswith("MESSAGE")]
    assert replies[0] == f"ERROR a line longer than {MAX_LINE_CHARS} characters was ignored"
    assert re.fullmatch(r"\d+,\d+", replies[1]) and replies[2].startswith("name=")
    assert "folder" not in brain.info  # nothing of the line was taken
    assert stdin.longest_read <= MAX_LINE_CHARS + 1


def test_5_an_endless_line_in_a_board_block_is_refused_at_done_and_keeps_the_position() -> None:
    brain = _brain()
    brain.handle("TURN 7,7")
    stdin = io.StringIO("BOARD\n1,1,2\n" + "9" * 100_000 + ",2,1\nDONE\n")
    stdout = io.StringIO()
    serve(brain, stdin, stdout)
    assert stdout.getvalue().splitlines() == [
        f"ERROR BOARD: a line longer than {MAX_LINE_CHARS} characters"]
    assert brain.board is not None and brain.board.ply == 2  # the game before the block


def test_5_a_flood_of_info_keys_is_recorded_only_up_to_a_cap_and_the_rule_still_applies() -> None:
    brain = _brain()
    for index in range(5_000):
        assert brain.handle(f"INFO key{index} {index}") == []
    assert brain.handle("INFO rule 4") == []
    assert brain.rule is Rule.RENJU
    assert len(brain.info) == MAX_INFO_KEYS


# --- 6. FIFOs and symlinks to devices ----------------------------------------------------------

_LOADER = textwrap.dedent(
    """
    import sys
    from gomoku.core.records import load_record, RecordError
    from gomoku.core.settings import load_settings
    try:
        load_record(sys.argv[1])
    except RecordError as error:
        print("record:", error)
    settings, warning = load_settings(sys.argv[2])
    print("settings:", warning)
    """
)


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="POSIX only")
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_6_a_fifo_or_a_link_to_dev_zero_is_refused_without_reading(tmp_path: Path, kind: str) -> None:
    record, settings_file = tmp_path / "game.gomoku", tmp_path / "settings.json"
    for path in (record, settings_file):
        if kind == "fifo":
            os.mkfifo(path)
        else:
            path.symlink_to("/dev/zero")
    # In a child with a memory limit and a timeout: before the fix this hung or ate all memory.
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
    done = subprocess.run([sys.executable, "-c", limit + _LOADER, str(record), str(settings_file)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "record: not a game record: it is not a regular file" in done.stdout
    assert "settings: " in done.stdout and "not a regular file" in done.stdout
    assert (tmp_path / "settings.json.bak").is_symlink() or (tmp_path / "settings.json.bak").exists()


# --- 7. a cache folder that cannot be written --------------------------------------------------


def test_7_the_brain_starts_when_its_cache_folder_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(blocker / "cache")  # cannot be made, even by root
    # Only numba's own locator for our folder: as with a read-only package folder.
    env["NUMBA_CACHE_LOCATOR_CLASSES"] = "UserProvidedCacheLocator"
    script = Path(sys.executable).parent / "pbrain-gomoku"
    done = subprocess.run([str(script)], input="ABOUT\nEND\n", env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith('name="gomoku"')
    assert "cannot keep the engine cache" in done.stderr and "Traceback" not in done.stderr


@pytest.fixture
def small_disk(tmp_path: Path):
    """A folder on a real file system of 17 MB, room for a cache and a little more (a tmpfs:
    root only)."""
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=17m", "tmpfs", str(folder)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("mounting a small file system needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder: str) -> None:
    """Write into `folder` until its disk has no space left."""
    with open(folder + "/filler", "wb") as filler:
        try:
            while True:
                filler.write(bytes(65536))
                filler.flush()
        except OSError:  # no space left: as wanted
            pass


def test_7_the_brain_searches_when_its_cache_disk_is_full(small_disk: Path) -> None:
    """The folder could be written (an empty file takes no room), so numba's first save raised
    "No space left on device" and the brain played only its stand-in, for good. Now a disk
    without room for a cache sends it to a temporary folder for the run."""
    from test_engine_prepare import brain_until_it_searches

    fill(str(small_disk))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(small_disk)
    searched, errors = brain_until_it_searches(env)
    assert searched, errors[-2000:]
    assert "MB free on its disk" in errors and "for this run" in errors, errors[-2000:]
    assert "Traceback" not in errors, errors[-2000:]


def test_7_a_folder_named_by_numba_cache_dir_is_used_while_it_can_be_written(small_disk: Path) -> None:
    """The children that prepare the engine get their parent's folder this way: each must
    compile into it, even if the room left when it starts looks too small."""
    fill(str(small_disk))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(small_disk))
    done = subprocess.run([sys.executable, "-c", "import numba, gomoku.engine; "
                           "print(numba.config.CACHE_DIR)"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.strip() == str(small_disk) and done.stderr == "", done.stderr[-2000:]


FILLS_UP = inspect.getsource(fill) + """
import sys
from gomoku.engine import driver
fill(sys.argv[1])  # the disk fills up after the engine chose its cache folder
driver.warm_task("shared")
print("compiled")
"""


def test_7_a_cache_the_disk_cannot_take_is_left_out(small_disk: Path) -> None:
    """A disk that fills up while the engine compiles: each function compiles all the same,
    with one warning that it is not kept."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(small_disk / "cache"))
    done = subprocess.run([sys.executable, "-c", FILLS_UP, str(small_disk)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "compiled", done.stderr[-2000:]
    assert done.stderr.count("cannot write the engine cache") == 1, done.stderr[-2000:]


# --- 8. the smaller ones ------------------------------------------------------------------------


def test_8_an_unreadable_settings_file_is_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.symlink_to(path)  # a loop: unreadable even for root, like mode 000 for a user
    settings_value, warning = load_settings(path)
    assert settings_value == Settings() and warning is not None and "settings.json.bak" in warning
    assert (tmp_path / "settings.json.bak").is_symlink() and not path.is_symlink()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads a mode-000 file")
def test_8_a_mode_000_settings_file_is_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    save_settings(Settings(player_name="Eve"), path)
    path.chmod(0)
    _, warning = load_settings(path)
    assert warning is not None and "settings.json.bak" in warning
    save_settings(Settings(), path)
    (tmp_path / "settings.json.bak").chmod(0o600)
    assert json.loads((tmp_path / "settings.json.bak").read_text())["player_name"] == "Eve"


def test_8_a_settings_file_with_a_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"player_name": "Eve"}).encode())
    assert load_settings(path) == (Settings(player_name="Eve"), None)


@pytest.mark.parametrize("ending", ["1,", "10,", "10,10,"])
def test_8_a_psq_ending_in_half_a_move_looks_truncated(tmp_path: Path, ending: str) -> None:
    path = tmp_path / "cut.psq"
    path.write_text("Piskvorky 15x15, 0:0, 0\n8,8,0\n9,9,0\n" + ending, encoding="utf-8")
    with pytest.raises(RecordError, match="line 4: the file looks truncated"):
        load_record(path)


@pytest.mark.parametrize("cut", ["after Size", "before Moves", "after one move", "one move short"])
def test_8_an_own_record_cut_at_a_line_looks_truncated(tmp_path: Path, cut: str) -> None:
    full = format_record(_record(moves=6)).split("\n")
    moves_line = full.index("Moves:")
    keep = {"after Size": 3, "before Moves": moves_line, "after one move": moves_line + 2,
            "one move short": len(full) - 2}[cut]
    path = tmp_path / "cut.gomoku"
    path.write_text("\n".join(full[:keep]) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match="truncated"):
        load_record(path)


def test_8_stale_temporary_files_of_interrupted_saves_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    old, fresh, other = (tmp_path / name for name in (".settings.json.a1.tmp", ".settings.json.b2.tmp", ".x.c3.tmp"))
    for leftover in (old, fresh, other):
        leftover.write_text("{")
    two_hours_ago = time.time() - 7200
    os.utime(old, (two_hours_ago, two_hours_ago))
    os.utime(other, (two_hours_ago, two_hours_ago))
    save_settings(Settings(), path)
    assert not old.exists()  # left by a save killed long ago
    assert fresh.exists()  # may be a save in progress
    assert other.exists()  # another file's business


# --- the fuzz -----------------------------------------------------------------------------------

HOSTILE = [
    "\x00", "\ud800", "\\ud800", "\\u0000", "[" * 200, "{" * 50, "1" + "0" * 400, "1e999", "NaN", "-1",
    "W" * 5000, "\u202e", "\ufeff", "\r", "\n", "\n\n", '"', "\\", "Moves:", "Move count: 99", "99. h8",
    "0,Renju", "8,", "Piskvorky 15x15, 0:0, 0", "Extra: ", "Black: ", "é", "🙂",
]


@st.composite
def damaged(draw: st.DrawFn, base: str) -> bytes:
    """`base` with a few hostile cuts, insertions and replacements."""
    text = base
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "replace", "cut", "truncate"]))
        piece = draw(st.sampled_from(HOSTILE) | st.text(max_size=8))
        if action == "insert":
            text = text[:where] + piece + text[where:]
        elif action == "replace":
            text = text[:where] + piece + text[where + len(piece):]
        elif action == "cut":
            text = text[:where] + text[where + draw(st.integers(1, 20)):]
        else:
            text = text[:where]
    return text.encode("utf-8", "surrogatepass")


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_THEME: list[Theme] = []


def _fit_names_in_time(*names: str) -> None:
    if not _THEME:
        pygame.font.init()
        _THEME.append(Theme((1280, 800)))
    theme = _THEME[0]
    began = time.perf_counter()
    for name in names:
        for px in (theme.small_px, theme.text_px):
            theme.render(theme.fit_text(f"{name}  vs  {name}", px, 400, bold=True), px)
    assert time.perf_counter() - began < 1.0  # a frame is 1/60 s: big slack for a busy machine


@FUZZ
@given(data=st.data(), kind=st.sampled_from(["record", "psq", "autosave"]))
def test_fuzzed_records_load_or_give_a_record_error_and_names_draw(tmp_path: Path, data, kind: str) -> None:
    record = _record(moves=6, black="Ann Black", white="Bob White")
    base = {"record": format_record(record), "psq": export_psq(record), "autosave": _autosave_text()}[kind]
    path = tmp_path / f"fuzz.{kind}"
    path.write_bytes(data.draw(damaged(base)))
    if kind == "autosave":
        loaded, problem = autosave.load(path, Settings())
        assert (loaded is None) == (problem is not None)
        if loaded is not None:
            _fit_names_in_time(*(loaded[1].player(color).name for color in Color))
        return
    try:
        result = load_record(path)
    except RecordError as error:
        assert str(error)
        return
    _fit_names_in_time(result.black, result.white)


@FUZZ
@given(data=st.data())
def test_fuzzed_settings_load_with_defaults_and_the_name_draws(tmp_path: Path, data) -> None:
    base = json.dumps({"player_name": "Eve", "move_s": 30, "sfx_volume": 0.5, "level": "hard"}, indent=2)
    path = tmp_path / "settings.json"
    path.write_bytes(data.draw(damaged(base)))
    loaded, _ = load_settings(path)
    assert loaded.problems() == {}
    _fit_names_in_time(loaded.player_name)
    save_settings(loaded, path)  # whatever was read can be saved again


def test_the_fuzz_tool_runs_and_finds_nothing_on_a_small_run() -> None:
    tool = Path(__file__).resolve().parent.parent / "tools" / "fuzz_files.py"
    done = subprocess.run([sys.executable, str(tool), "--cases", "80", "--seed", "7"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    total = next(line for line in done.stdout.splitlines() if line.startswith("all "))
    loaded, errors, crashes, slow = (int(n) for n in total.split()[1:])
    assert loaded + errors == 80 and crashes == slow == 0


def test_8_a_fuzzing_manager_gets_printable_answers_and_the_brain_lives_on() -> None:
    """tools/brain_fuzz.py against the real brain: bad numbers, control characters, invalid
    UTF-8, overlong lines and open BOARD blocks among a real game's moves. Every reply is
    printable (an unknown command was echoed raw, ESC and all, until 2026-12-07), the brain
    answers ABOUT after every 50 lines, and it ends on END."""
    tool = Path(__file__).resolve().parent.parent / "tools" / "brain_fuzz.py"
    done = subprocess.run([sys.executable, str(tool), "--lines", "800", "--seed", "7"], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0 and "findings: 0" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    counts = dict(re.findall(r"(ERROR|UNKNOWN|OK|a move) (\d+)", done.stdout))
    assert {"ERROR", "UNKNOWN", "OK", "a move"} <= set(counts), done.stdout  # the game was played too
