"""The arena: real brains in subprocesses, a summary that adds up, records that replay."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from gomoku.core.records import PSQ_SUFFIX, RECORD_SUFFIX, GameRecord, load_record

ARENA = Path(__file__).resolve().parent.parent / "tools" / "arena.py"

LAZY_BRAIN = """
import sys
for line in sys.stdin:
    word = line.strip().split(" ")[0].upper()
    if word == "START":
        print("OK", flush=True)
    elif word == "END":
        break
    # never answers a move: it must lose on time
"""

STUBBORN_BRAIN = """
import sys
for line in sys.stdin:
    word = line.strip().split(" ")[0].upper()
    if word == "START":
        print("OK", flush=True)
    elif word in ("TURN", "DONE", "BEGIN"):
        print("MESSAGE always the corner", flush=True)
        print("0,0", flush=True)
    elif word == "END":
        break
"""

SLOW_START_BRAIN = """
import sys
taken, answers = set(), 0
def move():
    global answers
    answers += 1
    if answers <= 2:  # a stand-in while it compiles: a move no game could take
        print("MESSAGE white depth 0 score 0 nodes 0 time 0.001s of 1.000s (fallback)")
        return "99,99"
    spot = next((x, y) for y in range(15) for x in range(15) if (x, y) not in taken)
    taken.add(spot)
    return f"{spot[0]},{spot[1]}"
in_board = False
for line in sys.stdin:
    words = line.strip().replace(",", " ").split()
    word = words[0].upper() if words else ""
    if in_board:
        if word == "DONE":
            in_board = False
            print(move(), flush=True)
        else:
            taken.add((int(words[0]), int(words[1])))
    elif word in ("START", "RESTART"):
        taken = set()
        print("OK", flush=True)
    elif word == "BOARD":
        taken, in_board = set(), True
    elif word == "TURN":
        taken.add((int(words[1]), int(words[2])))
        print(move(), flush=True)
    elif word == "END":
        break
"""


def ready_brain(path: Path, *edits: tuple[str, str]) -> str:
    """SLOW_START_BRAIN without its stand-in moves (it searches at once), with each (old, new)
    edit made wherever `old` stands (it must stand somewhere: an edit that misses would test
    nothing), written to `path`; returns the command line that runs it."""
    text = SLOW_START_BRAIN.replace("answers <= 2", "answers <= 0")
    for old, new in edits:
        assert old in text, f"the brain script has no {old!r}"
        text = text.replace(old, new)
    path.write_text(text)
    return f"{sys.executable} {path}"


def run_arena(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ARENA), *args], capture_output=True, text=True, timeout=timeout
    )


def records_in(folder: Path) -> list[GameRecord]:
    """Every saved game, in order, checked against its .psq twin."""
    paths = sorted(folder.glob(f"game-*{RECORD_SUFFIX}"))
    records = [load_record(path) for path in paths]
    for path, record in zip(paths, records, strict=True):
        assert load_record(path.with_suffix(PSQ_SUFFIX)).moves == record.moves
    return records


def assert_every_game_played_out(done: subprocess.CompletedProcess, folder: Path) -> None:
    """The arena ran, and every game ended on the board (five or full), none by a failure."""
    assert done.returncode == 0, done.stderr
    for record in records_in(folder):
        assert record.extra["arena"]["reason"] in ("five", "full_board"), record.extra


def test_two_games_between_our_levels_add_up_and_replay(tmp_path):
    done = run_arena(
        "easy", "medium", "--games", "2", "--time", "0.2", "--seed", "7", "--out", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    rows = {
        words[0]: words
        for words in map(str.split, done.stdout.splitlines())
        if words[:1] in (["easy"], ["medium"]) and words[1].isdigit()
    }
    assert set(rows) == {"easy", "medium"}
    for name, row in rows.items():
        wins, losses, draws = map(int, row[1:4])
        assert wins + losses + draws == 2, name
        # Each engine had black once and white once.
        assert sum(map(int, row[4].split("/"))) == 1 and sum(map(int, row[5].split("/"))) == 1
        assert 0 < float(row[7]) < 0.3  # max seconds per move, within the limit
    assert int(rows["easy"][1]) == int(rows["medium"][2])  # easy's wins are medium's losses

    records = records_in(tmp_path)
    assert len(records) == 2
    for record in records:
        board = record.replay()  # every stone legal, and the stored result agrees with the board
        outcome = board.outcome()
        assert outcome is not None and outcome.winner is not None
        assert record.result == outcome.winner.label and record.reason == "five"
        assert record.extra["arena"]["opening_stones"] == 3
        assert all(0 <= t < 0.3 for t in record.times[3:]) and record.times[:3] == [0.0] * 3
    assert records[0].moves[:3] == records[1].moves[:3]  # one opening, colours swapped
    assert (records[0].black, records[0].white) == (records[1].white, records[1].black)

    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["games"] == 2 and summary["time_per_move_s"] == 0.2
    for engine in (1, 2):  # each game's lines are marked in each engine's log (advantage.py)
        log = (tmp_path / f"engine{engine}-job1.log").read_text().splitlines()
        assert [line for line in log if line.startswith("arena: game")] == [
            "arena: game 1", "arena: game 2"]


def test_a_silent_engine_loses_on_time(tmp_path):
    lazy = tmp_path / "lazy.py"
    lazy.write_text(LAZY_BRAIN)
    stubborn = tmp_path / "stubborn.py"
    stubborn.write_text(STUBBORN_BRAIN)
    out = tmp_path / "out"
    done = run_arena(
        f"{sys.executable} {lazy}", f"{sys.executable} {stubborn}",
        "--games", "2", "--time", "0.1", "--tolerance", "0.05", "--opening-stones", "2", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for record in records_in(out):
        winner = record.black if record.result == "black" else record.white
        assert "stubborn.py" in winner and record.reason == "timeout", record
    lazy_tally, stubborn_tally = json.loads((out / "summary.json").read_text())["tallies"]
    assert lazy_tally["losses_by_reason"] == {"timeout": 2} and stubborn_tally["wins"] == 2


def test_an_illegal_move_loses_also_with_parallel_jobs(tmp_path):
    stubborn = tmp_path / "stubborn.py"
    stubborn.write_text(STUBBORN_BRAIN)
    engine = f"{sys.executable} {stubborn}"
    done = run_arena(
        engine, engine, "--games", "4", "--jobs", "2", "--time", "0.5", "--opening-stones", "3",
        "--openings", "random", "--out", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = records_in(tmp_path)
    assert [r.extra["arena"]["game"] for r in records] == [1, 2, 3, 4]
    # After three opening stones white takes 0,0; black asks for it again and forfeits: twice
    # with each engine as black.
    for record in records:
        assert record.result == "white" and record.extra["arena"]["reason"] == "illegal"
        assert record.reason == "resign" and record.moves[-1] == (0, 0)
    assert "stubborn.py#1 scores 50.0% (Elo difference +0; 95% interval 15.0-85.0%)" in done.stdout


def test_bad_arguments_are_refused_with_a_message(tmp_path):
    done = run_arena("easy", "/no/such/pbrain-x", "--out", str(tmp_path), timeout=60)
    assert done.returncode == 2 and "cannot find" in done.stderr
    done = run_arena("easy", "medium", "--games", "0", "--out", str(tmp_path), timeout=60)
    assert done.returncode == 2 and "--games" in done.stderr


def test_balanced_openings_are_reproducible_and_within_the_bound(tmp_path):
    def play(out: Path) -> dict:
        done = run_arena(
            "easy", "easy", "--games", "4", "--time", "0.1", "--seed", "3", "--balance", "400",
            "--openings", "random", "--out", str(out),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "openings: 2 kept of" in done.stdout
        return json.loads((out / "summary.json").read_text())

    first, second = play(tmp_path / "a"), play(tmp_path / "b")
    assert first["openings"] == second["openings"] and first["balance"] == 400
    sys.path.insert(0, str(ARENA.parent))
    import arena

    from gomoku.core import Rule
    from gomoku.core.notation import parse_moves

    for opening in first["openings"]:
        score = arena.opening_score(tuple(parse_moves(opening, 15)), 15, Rule.FREESTYLE)
        assert score is not None and abs(score) <= 400
    # --balance 0: plain random openings, nothing judged.
    done = run_arena("easy", "easy", "--games", "4", "--time", "0.1", "--seed", "3",
                     "--balance", "0", "--openings", "random", "--out", str(tmp_path / "c"))
    assert done.returncode == 0 and "openings:" not in done.stdout


def test_games_start_from_an_opening_file_in_order_and_the_default_set_is_balanced(tmp_path):
    openings = tmp_path / "mine.txt"
    openings.write_text("# rule freestyle size 15\nh8 i9 g7  # a comment\n\nh8 h9\n")
    done = run_arena("easy", "easy", "--games", "4", "--time", "0.1", "--openings", str(openings),
                     "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert f"openings: 2 of the 2 in {openings}, in order" in done.stdout
    starts = [record.moves[:3] for record in records_in(tmp_path / "out")]
    assert starts[0] == starts[1] == [(7, 7), (8, 6), (6, 8)]
    assert starts[2][:2] == starts[3][:2] == [(7, 7), (7, 6)] and starts[2][2] != (6, 8)
    # A set for another rule, or an illegal opening, is refused before any game.
    done = run_arena("easy", "easy", "--rule", "renju", "--openings", str(openings),
                     "--out", str(tmp_path / "x"), timeout=60)
    assert done.returncode == 2 and "not renju on 15x15" in done.stderr
    openings.write_text("h8 h8\n")
    done = run_arena("easy", "easy", "--openings", str(openings), "--out", str(tmp_path / "x"),
                     timeout=60)
    assert done.returncode == 2 and "mine.txt:1" in done.stderr
    # The checked-in set is the default, and every opening in it is legal and distinct.
    sys.path.insert(0, str(ARENA.parent))
    import arena

    from gomoku.core import Rule

    default = arena.default_openings_file(Rule.FREESTYLE, 15)
    assert default is not None and default.name == "freestyle-15.txt"
    chosen = arena.read_openings(default, 15, Rule.FREESTYLE)
    assert len(chosen) >= 20 and len(set(chosen)) == len(chosen)


def test_no_game_is_played_by_a_brain_still_preparing_its_engine(tmp_path):
    # Our brain answers START at once and plays a stand-in while it compiles: the arena probes
    # until it searches, so the stand-in's moves (here off the board) never reach a game.
    slow = tmp_path / "slow.py"
    slow.write_text(SLOW_START_BRAIN)
    done = run_arena(f"{sys.executable} {slow}", "easy", "--games", "2", "--time", "0.5",
                     "--out", str(tmp_path / "out"))
    assert_every_game_played_out(done, tmp_path / "out")


def test_a_brain_busy_for_a_moment_after_its_move_is_not_forfeited(tmp_path):
    # Like Rapfi: for a moment after printing a move it still counts as thinking and drops a
    # command; the arena gives it that moment even when the opponent answers at once.
    busy = ready_brain(
        tmp_path / "busy.py",
        ("for line in sys.stdin:",
         "import time\nreplied = 0.0\nfor line in sys.stdin:\n"
         "    if time.monotonic() - replied < 0.02:\n"
         "        print('ERROR Unknown command: busy', flush=True)\n"
         "        continue"),
        ("print(move(), flush=True)", "print(move(), flush=True); replied = time.monotonic()"))
    instant = ready_brain(tmp_path / "instant.py")
    done = run_arena(busy, instant, "--games", "2", "--time", "0.5", "--out", str(tmp_path / "out"))
    assert_every_game_played_out(done, tmp_path / "out")


def test_the_probe_stone_is_cleared_before_the_first_game(tmp_path):
    # Like Pela, by the protocol's letter: BOARD adds to the board, only START or RESTART
    # clears it, and it will not move after a stone on a taken point. The probe's stone
    # (the centre) must not stay into the first game.
    strict = tmp_path / "strict.py"
    ready_brain(
        strict,
        ("        taken, in_board = set(), True", "        in_board = True"),
        ("            print(move(), flush=True)\n        else:",
         "            print(move() if not clash else 'ERROR that point is taken', flush=True)\n"
         "            clash = False\n        else:\n"
         "            clash = clash or (int(words[0]), int(words[1])) in taken"))
    strict.write_text("clash = False\n" + strict.read_text())
    centre_opening = tmp_path / "centre.txt"
    centre_opening.write_text("h8 h9 i9\n")  # the probe's point is taken by the opening
    done = run_arena(f"{sys.executable} {strict}", "easy", "--games", "2", "--time", "0.5",
                     "--openings", str(centre_opening), "--out", str(tmp_path / "out"))
    assert_every_game_played_out(done, tmp_path / "out")


def test_time2_gives_the_second_engine_its_own_time_per_move(tmp_path):
    # Both engines take 0.4 s a move; the second has 1 s (--time2), the first 0.2 s (--time):
    # the first loses every game on time, the second is never held to --time.
    dawdler = tmp_path / "dawdler.py"
    engine = ready_brain(
        dawdler,
        ("def move():\n", "def move():\n    import time\n    time.sleep(0.4)\n"),
        ("    elif word == \"END\":",
         "    elif word == \"INFO\":\n        print(line.strip(), file=sys.stderr, flush=True)\n"
         "    elif word == \"END\":"))
    out = tmp_path / "out"
    done = run_arena(engine, engine, "--games", "2", "--time", "0.2", "--time2", "1",
                     "--tolerance", "0.05", "--out", str(out))
    assert done.returncode == 0, done.stderr
    name = f"{Path(sys.executable).name} {dawdler}"
    assert f"2 games, 0.2 s per move for {name}#1, 1 s for {name}#2" in done.stdout
    records = records_in(out)
    for record in records:
        winner = record.black if record.result == "black" else record.white
        assert winner.endswith("dawdler.py#2") and record.reason == "timeout", record
        assert record.extra["arena"]["time2_per_move_s"] == 1
    # Game 1: the opening leaves white to move, the second engine: its slow move stands.
    assert len(records[0].moves) == 4 and records[0].times[3] > 0.3
    first, second = json.loads((out / "summary.json").read_text())["tallies"]
    assert first["losses_by_reason"] == {"timeout": 2} and second["losses"] == 0
    assert "INFO timeout_turn 200" in (out / "engine1-job1.log").read_text()
    assert "INFO timeout_turn 1000" in (out / "engine2-job1.log").read_text()
    # --time2 must be positive, like --time.
    done = run_arena("easy", "easy", "--time2", "0", "--out", str(tmp_path / "x"), timeout=60)
    assert done.returncode == 2 and "--time2" in done.stderr


def test_nodes2_sends_the_second_engine_its_node_limit(tmp_path):
    # This brain refuses START unless it was told INFO max_node 1234 first: with --nodes2 1234
    # every game is played out, without it the brain loses every game at the start.
    engine = ready_brain(
        tmp_path / "picky.py",
        ("taken, answers = set(), 0\n", "taken, answers, limit = set(), 0, None\n"),
        ("    elif word in (\"START\", \"RESTART\"):\n        taken = set()\n        print(\"OK\", flush=True)",
         "    elif word == \"INFO\" and words[1] == \"max_node\":\n        limit = words[2]\n"
         "    elif word in (\"START\", \"RESTART\"):\n        taken = set()\n"
         "        print(\"OK\" if limit == \"1234\" else \"ERROR no node limit\", flush=True)"))
    out = tmp_path / "out"
    done = run_arena("medium", engine, "--games", "2", "--time", "0.3", "--time2", "1",
                     "--nodes2", "1234", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "is sent INFO max_node 1234" in done.stdout
    assert len(records_in(out)) == 2
    assert json.loads((out / "summary.json").read_text())["nodes2"] == 1234
    for record in records_in(out):
        assert record.reason != "refused START" and record.extra["arena"]["reason"] != "crash"
    refused = run_arena("medium", engine, "--games", "2", "--time", "0.3", "--out", str(tmp_path / "no"))
    assert refused.returncode == 0, refused.stderr
    assert all(r.extra["arena"]["reason"] == "refused START" for r in records_in(tmp_path / "no"))
    assert "must be at least 1" in run_arena("medium", engine, "--nodes2", "0").stderr


def test_depth1_holds_our_first_engine_to_a_depth(tmp_path):
    """Hard told INFO max_depth 2 never reports a deeper search, and the records say so."""
    out = tmp_path / "out"
    done = run_arena("hard", "medium", "--games", "2", "--time", "2", "--depth1", "2",
                     "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "hard is sent INFO max_depth 2" in done.stdout
    assert json.loads((out / "summary.json").read_text())["depth1"] == 2
    log = (out / "engine1-job1.log").read_text()  # what hard wrote: its MESSAGE lines
    depths = [int(d) for d in re.findall(r"MESSAGE \w+ depth (\d+) ", log)]
    assert depths and max(depths) == 2
    assert "must be at least 1" in run_arena("hard", "medium", "--depth1", "0").stderr


def test_the_report_says_what_each_engine_said_at_start(tmp_path):
    # An outside brain that names its config when launched (as Rapfi does), with a terminal
    # escape in it: the report shows the words once, the escape's control character dropped
    # (core.inputs.clean_text); our brain says nothing.
    engine = ready_brain(
        tmp_path / "talker.py",
        ("taken, answers = set(), 0\n",
         "taken, answers = set(), 0\nprint('MESSAGE Load config from config.toml\\x1b[2J', flush=True)\n"))
    done = run_arena("medium", engine, "--games", "2", "--time", "0.3", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stdout.splitlines() if " at START: " in line]
    assert said == ["medium at START: (no message)",
                    f"{Path(sys.executable).name} {tmp_path / 'talker.py'} at START: Load config from "
                    "config.toml[2J"]
