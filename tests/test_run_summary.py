"""tools/run_summary.py: the arena's table again from a run folder's records, also when the
run was stopped early; damaged or foreign folders get a message, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from gomoku.core.records import RECORD_SUFFIX, format_record, load_record

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def run(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOLS / tool), *args], capture_output=True,
                          text=True, timeout=240)


def table(stdout: str) -> list[str]:
    """The summary's lines: from "N games, ..." to the score."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if " games, " in line)
    return lines[start:]


def rows(stdout: str) -> dict[str, list[int]]:
    """Each engine's W, L, D from the summary table."""
    found = {}
    for words in map(str.split, table(stdout)[2:]):
        if len(words) >= 4 and words[1].isdigit():
            found[words[0]] = [int(w) for w in words[1:4]]
    return found


def test_a_run_folder_gives_the_arenas_own_table_and_its_first_games(tmp_path):
    out = tmp_path / "run"
    played = run("arena.py", "easy", "medium", "--games", "4", "--time", "0.1", "--out", str(out))
    assert played.returncode == 0, played.stderr

    whole = run("run_summary.py", str(out))
    assert whole.returncode == 0, whole.stderr
    ours, arenas = table(whole.stdout), table(played.stdout)
    assert len(ours) == len(arenas)
    for mine, theirs in zip(ours, arenas, strict=True):
        words, expected = mine.split(), theirs.split()
        if len(words) >= 8 and words[1].isdigit():  # an engine's row: its times to the ms
            assert words[:6] == expected[:6]
            assert all(abs(float(a) - float(b)) <= 0.002
                       for a, b in zip(words[6:8], expected[6:8], strict=True)), (mine, theirs)
        else:
            assert mine == theirs

    # A run stopped after two games: the first two records only, each engine black once.
    (out / "summary.json").unlink()
    for number in (3, 4):
        (out / f"game-{number:03d}{RECORD_SUFFIX}").unlink()
    first = run("run_summary.py", str(out), "--games", "4")
    assert first.returncode == 0, first.stderr
    assert table(first.stdout)[0].startswith("2 games, 0.1 s per move")
    assert {name: sum(wld) for name, wld in rows(first.stdout).items()} == {"easy": 2, "medium": 2}
    assert rows(first.stdout)["easy"][0] == rows(first.stdout)["medium"][1]


def test_damaged_empty_or_mixed_folders_are_refused_with_a_message(tmp_path):
    out = tmp_path / "run"
    played = run("arena.py", "easy", "easy", "--games", "2", "--time", "0.1", "--out", str(out))
    assert played.returncode == 0, played.stderr
    records = sorted(out.glob(f"game-*{RECORD_SUFFIX}"))
    good = records[1].read_bytes()

    records[1].write_bytes(b"\x00not a record" * 10)
    done = run("run_summary.py", str(out))
    assert done.returncode == 2 and "game-002" in done.stderr and "Traceback" not in done.stderr

    # A game of another run in the folder: its players are not this run's.
    record = load_record(records[0])
    foreign = replace(record, white="stranger")
    records[1].write_text(format_record(foreign), encoding="utf-8")
    done = run("run_summary.py", str(out))
    assert done.returncode == 2 and "not the run's" in done.stderr, done.stderr
    records[1].write_bytes(good)
    assert run("run_summary.py", str(out)).returncode == 0
    # An arena entry that is not a table: the game still counts, from the record's own fields.
    records[1].write_text(format_record(replace(load_record(records[1]), extra={"arena": [1]})),
                          encoding="utf-8")
    done = run("run_summary.py", str(out))
    assert done.returncode == 0 and table(done.stdout)[0].startswith("2 games"), done.stderr

    empty = tmp_path / "empty"
    empty.mkdir()
    done = run("run_summary.py", str(empty))
    assert done.returncode == 2 and "no game records" in done.stderr
    done = run("run_summary.py", str(tmp_path / "missing"))
    assert done.returncode == 2 and "no folder" in done.stderr
    assert "at least 1" in run("run_summary.py", str(out), "--games", "0").stderr
