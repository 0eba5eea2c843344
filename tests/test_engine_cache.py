"""numba's cache folder follows the engine's sources, so no stale compiled code survives an
upgrade (compiled functions inline code from other files, which numba does not track)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numba

import gomoku.engine
from gomoku import engine_cache
from gomoku.engine import engine_cache_dir

ENGINE = Path(gomoku.engine.__file__).parent


def test_the_cache_folder_changes_with_any_engine_source(tmp_path):
    copy = tmp_path / "engine"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = engine_cache_dir(copy)
    assert before == engine_cache_dir(copy)  # the same sources, the same folder
    threats = copy / "threats.py"
    threats.write_text(threats.read_text() + "\n# a change in one file only\n")
    assert engine_cache_dir(copy) != before


def test_the_engine_caches_in_the_user_cache_unless_told_otherwise(tmp_path):
    code = "import numba, gomoku.engine; print(numba.config.CACHE_DIR)"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    shown = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True).stdout.strip()
    assert Path(shown) == tmp_path / "cache" / "gomoku" / "numba" / engine_cache_dir(ENGINE).name
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    shown = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True).stdout.strip()
    assert shown == str(tmp_path / "mine")


FIRST_MOVES = """
import json
from numba.core.registry import CPUDispatcher
from gomoku.core import Board
from gomoku.core.notation import parse_moves
from gomoku.engine import driver, search, state, threats
from gomoku.engine.api import Level, Position, SearchLimit

def signatures():
    return {f"{m.__name__}.{name}": len(f.signatures) for m in (search, threats, state)
            for name, f in vars(m).items() if isinstance(f, CPUDispatcher)}

driver.warm_up()
warmed = signatures()
tables_built = driver.evaluation.cache_info().currsize
board = Board.from_moves(parse_moves("h8 i9 g9 h10 j8 g10 i8 h7 k8", 15), 15)
for level in Level:
    driver.think(Position.from_board(board), level, SearchLimit(0.2))
print(json.dumps({name: [warmed[name], count] for name, count in signatures().items()
                  if count != warmed[name]}))
print(driver.evaluation.cache_info().currsize - tables_built)
"""


def test_after_the_warm_up_no_level_compiles_or_builds_anything_at_its_first_move():
    """The warm-up (what the preparing children compile) covers the types every level's move
    uses. A table of another layout is another type: numba would compile the searches again
    in the game's own process at the first hard move, seconds with the GIL held (the window
    froze; the trained table once came out Fortran-ordered). A fresh process, so signatures
    another test compiled cannot hide one."""
    done = subprocess.run([sys.executable, "-c", FIRST_MOVES], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    compiled, built = done.stdout.split()
    assert compiled == "{}", f"compiled at the first move: {compiled}"
    assert built == "0", "an evaluation table was built at the first move"


QUICK_AND_REAL = """
import sys
from gomoku import engine_cache
quick = engine_cache.is_prepared()
assert "numba" not in sys.modules  # the menu's first frame must not wait for numba's import
from gomoku.engine import prepare
before = (quick, prepare.is_prepared())
prepare.marker_path().write_text(prepare.source_stamp())  # as a finished preparation leaves it
print(before, (engine_cache.is_prepared(), prepare.is_prepared()))
"""


def test_the_quick_check_answers_as_the_engine_does_without_importing_numba(tmp_path):
    """`engine_cache.is_prepared` finds the marker `prepare` writes, in the default cache folder
    (a fresh process: this one's numba cache folder is fixed already)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-c", QUICK_AND_REAL], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "(False, False) (True, True)"


def test_the_quick_check_says_no_to_a_stale_or_foreign_marker(tmp_path, monkeypatch):
    from gomoku.engine import prepare

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    marker = prepare.marker_path()
    marker.write_text(prepare.source_stamp())
    assert engine_cache.is_prepared() and prepare.is_prepared()
    marker.write_text(prepare.source_stamp().replace(".py ", ".py 1", 1))  # other engine files
    assert not engine_cache.is_prepared() and not prepare.is_prepared()
    marker.rename(tmp_path / "prepared-0.1-py39")  # another numba's and Python's cache
    assert not engine_cache.is_prepared() and not prepare.is_prepared()


def test_the_quick_check_counts_the_parts_the_driver_warms() -> None:
    from gomoku.engine import driver

    assert engine_cache.WARM_PARTS == len(driver.WARM_TASKS)


def test_an_oversized_marker_is_not_taken_for_ours(tmp_path, monkeypatch):
    """The marker is read only up to a bound; the stamp with megabytes after it is not a match."""
    from gomoku.engine import prepare

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    prepare.marker_path().write_text(prepare.source_stamp() + "x" * (4 * engine_cache.MARKER_LIMIT))
    assert not engine_cache.is_prepared() and not prepare.is_prepared()
    prepare.marker_path().write_text(prepare.source_stamp())
    assert engine_cache.is_prepared() and prepare.is_prepared()


def test_a_cache_file_changed_after_preparation_is_removed_with_its_function_before_loading(
        tmp_path, monkeypatch, capsys):
    """Compiled code changed on disk after the cache was marked complete (one byte of the main
    search's machine code, which numba would load and run) is caught by the marker's digests:
    that function's files and the marker go, so children compile it again; the rest stays."""
    from gomoku.engine import driver, prepare

    driver.warm_up()  # this process's cache, complete
    folder = tmp_path / "cache"
    shutil.copytree(numba.config.CACHE_DIR, folder)
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(folder))
    prepare.write_marker()
    assert prepare.discard_changed_files()  # as prepared: nothing to remove
    everything = engine_cache.cache_files(folder)
    flipped = sorted(folder.glob("*/search.negamax-*.nbc"))[0]
    code = bytearray(flipped.read_bytes())
    code[len(code) // 2] ^= 0x01
    flipped.write_bytes(bytes(code))

    assert prepare.is_prepared()  # the quick check reads no files
    assert not prepare.discard_changed_files()
    assert "1 of its files changed since it was prepared" in capsys.readouterr().err
    gone = set(everything) - set(engine_cache.cache_files(folder))
    assert gone == {flipped, flipped.parent / flipped.name.replace(".1.nbc", ".nbi")}
    assert not prepare.marker_path().exists() and not prepare.is_prepared()


def test_the_marker_vouches_for_the_files_it_lists_and_no_path_out_of_the_folder(tmp_path):
    folder = tmp_path / "cache"
    (folder / "engine_1").mkdir(parents=True)
    (folder / "engine_1" / "search.negamax-184.py311.nbi").write_bytes(b"index")
    marker = folder / "prepared"
    marker.write_text("stamp\n")
    assert engine_cache.changed_cache_files(folder, marker) is None
    marker.write_text(engine_cache.marker_text(folder, "stamp\n"))
    assert engine_cache.changed_cache_files(folder, marker) == []
    outside = f"{'0' * 64} ../../etc/passwd\n"
    marker.write_text(engine_cache.marker_text(folder, "stamp\n") + outside)
    assert engine_cache.changed_cache_files(folder, marker) is None
    (folder / "engine_1" / "stray.py311.nbi").write_bytes(b"not listed")
    marker.write_text(engine_cache.marker_text(folder, "stamp\n"))
    (folder / "engine_1" / "search.vcf-90.py311.nbi").write_bytes(b"compiled later, not listed")
    assert engine_cache.changed_cache_files(folder, marker) == []
    (folder / "engine_1" / "stray.py311.nbi").unlink()
    assert engine_cache.changed_cache_files(folder, marker) == ["engine_1/stray.py311.nbi"]
