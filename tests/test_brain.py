"""The Gomocup brain: the protocol state machine, its time budget, and the real console script."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gomoku.core import Board, Rule
from gomoku.engine import driver
from gomoku.engine.api import DEFAULT_BUDGET_S, Level, SearchResult
from gomoku.engine.brain import Brain, TimeControl

SCRIPT = Path(sys.executable).parent / "pbrain-gomoku"


def fast_brain(level: Level = Level.EASY, **kwargs) -> Brain:
    """A started 15x15 brain that thinks about 0.1 s a move."""
    brain = Brain(level=level, **kwargs)
    assert brain.handle("INFO timeout_turn 200") == []
    assert brain.handle("START 15") == ["OK"]
    return brain


def move_of(replies: list[str]) -> tuple[int, int]:
    """The move in a reply: the last line, `x,y`; MESSAGE lines may come before it."""
    assert replies, "no reply"
    assert all(line.startswith("MESSAGE ") for line in replies[:-1]), replies
    x, y = replies[-1].split(",")
    return int(x), int(y)


def feed(brain: Brain, text: str) -> list[str]:
    replies: list[str] = []
    for line in text.splitlines():
        replies += brain.handle(line)
    return replies


# --- the protocol, without I/O ------------------------------------------------------------


@pytest.mark.parametrize("size", [15, 16, 19, 20])
def test_start_accepts_sizes_we_play(size):
    brain = Brain(level=Level.EASY)
    assert brain.handle(f"START {size}") == ["OK"]
    assert brain.board is not None and brain.board.size == size and brain.board.ply == 0


@pytest.mark.parametrize("command", ["START 14", "START 21", "START x", "START", "RECTSTART 20,15"])
def test_start_refuses_what_we_cannot_play(command):
    replies = Brain(level=Level.EASY).handle(command)
    assert len(replies) == 1 and replies[0].startswith("ERROR ")


def test_begin_opens_near_the_centre_and_remembers_the_stone():
    brain = fast_brain()
    x, y = move_of(brain.handle("BEGIN"))
    assert abs(x - 7) <= 2 and abs(y - 7) <= 2
    assert brain.board.moves == [(x, y)]


def test_turn_plays_the_opponent_then_answers_with_a_legal_move():
    brain = fast_brain()
    reply = move_of(brain.handle("TURN 7,7"))
    assert reply != (7, 7)
    assert brain.board.moves == [(7, 7), reply]


def test_commands_are_case_insensitive_and_crlf_is_accepted():
    brain = Brain(level=Level.EASY)
    assert brain.handle("start 15\r\n") == ["OK"]
    assert brain.handle("info\ttimeout_turn   200") == [] and brain.clock.timeout_turn_ms == 200
    assert move_of(brain.handle("turn\t7,7\r\n")) != (7, 7)


@pytest.mark.parametrize(
    "line, reason",
    [
        ("TURN 7,7", "already taken"),
        ("TURN 15,3", "off the 15x15 board"),
        ("TURN -1,3", "off the"),
        ("TURN 7;7", "expected x,y"),
        ("TURN", "expected x,y"),
    ],
)
def test_bad_turns_get_an_error_and_lose_nothing(line, reason):
    brain = fast_brain()
    first = move_of(brain.handle("BEGIN"))
    if first != (7, 7):
        pytest.skip("the engine did not open at the centre")
    replies = brain.handle(line)
    assert len(replies) == 1 and replies[0].startswith("ERROR ") and reason in replies[0]
    assert brain.board.moves == [(7, 7)]


def test_turn_before_start_is_an_error():
    replies = Brain(level=Level.EASY).handle("TURN 7,7")
    assert replies[0].startswith("ERROR ") and "START" in replies[0]


def test_board_sets_the_position_with_us_to_move():
    brain = fast_brain()
    # The opponent (2) has one stone more, so it is black and we play white.
    stones = ["3,3,2", "7,7,1", "4,3,2", "8,8,1", "5,3,2", "9,7,1", "6,3,2", "9,9,1", "12,12,2"]
    reply = move_of(feed(brain, "BOARD\n" + "\n".join(stones) + "\nDONE"))
    assert brain.board.ply == 10
    assert brain.board[reply] == 2  # our stone is white
    assert brain.board[(3, 3)] == 1 and brain.board[(7, 7)] == 2


def test_board_with_a_bad_line_is_refused_at_done_and_keeps_the_old_position():
    brain = fast_brain()
    first = move_of(brain.handle("BEGIN"))
    replies = feed(brain, "BOARD\n7,7,1\n8,x,2\nDONE")
    assert len(replies) == 1 and replies[0].startswith("ERROR ") and "8,x,2" in replies[0]
    assert brain.board.moves == [first]
    for block, reason in [
        ("7,7,1\n7,7,2", "twice"),
        ("7,7,1\n30,7,2", "off the"),
        ("7,7,4", "field"),
        ("7,7,1\n8,8,1", "alternate"),
        ("7,7,3", "continuous"),
    ]:
        replies = feed(brain, f"BOARD\n{block}\nDONE")
        assert len(replies) == 1 and reason in replies[0], (block, replies)
    assert brain.board.moves == [first]


def test_board_with_a_five_already_made_is_refused():
    brain = fast_brain()
    stones = [f"{x},5,2" for x in range(5)] + [f"{x},9,1" for x in range(4)] + ["12,12,1"]
    replies = feed(brain, "BOARD\n" + "\n".join(stones) + "\nDONE")
    assert len(replies) == 1 and replies[0].startswith("ERROR ") and "over" in replies[0]


def test_yxboard_sets_a_position_without_a_move():
    brain = fast_brain()
    assert feed(brain, "YXBOARD\n7,7,2\n8,8,1\n6,6,2\nDONE") == []
    assert brain.board.ply == 3 and brain.board[(8, 8)] == 2


def test_yxshowforbid_lists_blacks_forbidden_points_as_xxyy():
    brain = Brain(level=Level.EASY)
    brain.handle("INFO rule 4")
    brain.handle("START 15")
    # Black to move (the own side, 3 stones each) with a double three at 8,7:
    # 6,7 7,7 across and 8,5 8,6 down.
    feed(brain, "YXBOARD\n6,7,1\n0,0,2\n7,7,1\n14,0,2\n8,5,1\n0,14,2\n8,6,1\n14,14,2\nDONE")
    assert brain.board.rule is Rule.RENJU
    expected = brain.board.forbidden_points()
    reply = brain.handle("YXSHOWFORBID")
    assert len(reply) == 1 and reply[0].startswith("FORBID ") and reply[0].endswith(".")
    body = reply[0][len("FORBID ") : -1]
    listed = {(int(body[i : i + 2]), int(body[i + 2 : i + 4])) for i in range(0, len(body), 4)}
    assert listed == expected
    assert (8, 7) in listed


def test_yxshowforbid_under_freestyle_is_empty():
    brain = fast_brain()
    brain.handle("TURN 7,7")
    assert brain.handle("YXSHOWFORBID") == ["FORBID ."]


def test_info_sets_rule_level_and_clock_and_refuses_nonsense():
    brain = Brain(level=Level.HARD)
    assert brain.handle("INFO rule 1") == [] and brain.rule is Rule.STANDARD
    assert brain.handle("INFO rule 4") == [] and brain.rule is Rule.RENJU
    assert brain.handle("INFO rule 0") == [] and brain.rule is Rule.FREESTYLE
    assert brain.handle("INFO level medium") == [] and brain.level is Level.MEDIUM
    assert brain.handle("INFO timeout_turn 5000") == [] and brain.clock.timeout_turn_ms == 5000
    assert (
        brain.handle("INFO timeout_match 180000") == [] and brain.clock.timeout_match_ms == 180000
    )
    assert brain.handle("INFO time_left 90000") == [] and brain.clock.time_left_ms == 90000
    assert brain.handle("INFO max_memory 83886080") == []
    assert brain.handle("INFO max_depth 8") == [] and brain.clock.max_depth == 8
    assert brain.handle("INFO max_depth 1000") == [] and brain.clock.max_depth == 60
    assert brain.handle("INFO max_depth 0") == [] and brain.clock.max_depth == 0
    assert brain.handle("INFO game_type 1") == []
    assert brain.handle("INFO folder /tmp/x") == []
    assert brain.handle("INFO evaluate 3,4") == []
    for bad in [
        "INFO rule 8",
        "INFO rule x",
        "INFO level grandmaster",
        "INFO timeout_turn soon",
        "INFO max_depth deep",
    ]:
        replies = brain.handle(bad)
        assert len(replies) == 1 and replies[0].startswith("ERROR "), bad
    assert brain.rule is Rule.FREESTYLE and brain.level is Level.MEDIUM
    assert brain.clock.timeout_turn_ms == 5000


@pytest.mark.parametrize("value, rule", [(2, Rule.FREESTYLE), (3, Rule.STANDARD), (6, Rule.RENJU)])
def test_the_continuous_game_bit_plays_the_base_rule(value, rule):
    brain = fast_brain()
    assert brain.handle(f"INFO rule {value}") == []
    assert brain.rule is rule and brain.board.rule is rule
    assert brain.info["rule"] == str(value)


@pytest.mark.parametrize(
    "value, reason",
    [
        ("8", "caro"),
        ("9", "caro"),
        ("10", "caro"),
        ("12", "caro"),
        ("5", "not supported"),
        ("16", "not supported"),
        ("-1", "not supported"),
        ("1.5", "must be a number"),
    ],
)
def test_caro_and_unknown_rules_are_refused_and_the_rule_in_force_kept(value, reason):
    brain = fast_brain()
    assert brain.handle("INFO rule 4") == []
    replies = brain.handle(f"INFO rule {value}")
    assert len(replies) == 1 and replies[0].startswith("ERROR ") and reason in replies[0]
    assert "4 renju" in replies[0] or reason == "must be a number"  # says what we do play
    assert brain.rule is Rule.RENJU and brain.board.rule is Rule.RENJU
    assert brain.info["rule"] == "4"


def test_yxhashclear_starts_the_engine_afresh_without_a_reply():
    new_games: list[int] = []
    brain = fast_brain(new_game=lambda: new_games.append(1))
    brain.handle("TURN 7,7")
    assert brain.handle("YXHASHCLEAR") == [] and len(new_games) == 2  # START, then this
    assert brain.board.ply == 2  # the position stays
    assert brain.handle("yxhashclear\r\n") == [] and len(new_games) == 3


def test_yxstop_is_acknowledged_silently_and_the_game_goes_on():
    brain = fast_brain()
    assert brain.handle("YXSTOP") == []
    move_of(brain.handle("TURN 7,7"))
    assert brain.handle("YXSTOP") == [] and brain.board.ply == 2


def test_start_restart_and_yxhashclear_drop_the_searching_threads_tables():
    """The search runs on the thread that calls handle: its driver tables are the ones dropped."""
    brain = fast_brain(level=Level.MEDIUM)

    def tables() -> dict:
        return getattr(driver._local, "tables", {})

    for command in ["RESTART", "START 15", "YXHASHCLEAR"]:
        brain.handle("RESTART")
        move_of(brain.handle("TURN 7,7"))
        assert tables(), "the search keeps its tables between moves"
        brain.handle(command)
        assert tables() == {}, command


def test_rule_change_after_start_applies_to_the_board():
    brain = fast_brain()
    brain.handle("INFO rule 4")
    assert brain.board.rule is Rule.RENJU
    brain.handle("RESTART")
    assert brain.board.rule is Rule.RENJU and brain.board.ply == 0


def test_takeback_removes_only_the_last_stone():
    brain = fast_brain()
    reply = move_of(brain.handle("TURN 7,7"))
    assert brain.handle("TAKEBACK 7,7")[0].startswith("ERROR ")
    assert brain.handle(f"TAKEBACK {reply[0]},{reply[1]}") == ["OK"]
    assert brain.handle("TAKEBACK 7,7") == ["OK"]
    assert brain.board.ply == 0


def test_restart_clears_the_board_and_about_names_the_brain():
    brain = fast_brain()
    brain.handle("TURN 7,7")
    assert brain.handle("RESTART") == ["OK"] and brain.board.ply == 0
    (about,) = brain.handle("ABOUT")
    assert about.startswith('name="') and 'version="' in about and 'author="' in about
    assert 'country="' in about


def test_start_and_restart_begin_a_new_game_for_the_engine():
    new_games: list[int] = []
    brain = Brain(level=Level.EASY, new_game=lambda: new_games.append(1))
    brain.handle("START 15")
    brain.handle("TURN 7,7")
    brain.handle("RESTART")
    assert len(new_games) == 2


def test_unknown_and_empty_lines_and_end():
    brain = fast_brain()
    assert brain.handle("") == [] and brain.handle("   \r\n") == []
    assert brain.handle("FROBNICATE 3") == ["UNKNOWN command not understood: FROBNICATE 3"]
    # echoed without the control characters a terminal would act on, and never as a second line
    assert brain.handle("X\x1b[2J\u2028Y\rZ") == ["UNKNOWN command not understood: X[2J Y Z"]
    assert not brain.finished
    assert brain.handle("END") == [] and brain.finished


def test_a_failing_engine_still_answers_a_legal_move_in_time():
    def broken(position, level, limit, stop=None, on_progress=None):
        raise RuntimeError("out of memory")

    brain = fast_brain(think=broken)
    replies = brain.handle("TURN 7,7")
    assert replies[0].startswith("MESSAGE ") and "out of memory" in replies[0]
    move = move_of(replies)
    assert move != (7, 7) and brain.board.ply == 2


def test_a_failed_warm_up_is_reported_and_the_game_goes_on():
    def no_compiler() -> None:
        raise OSError("cache folder is read-only")

    brain = Brain(level=Level.EASY, warm_up=no_compiler)
    replies = brain.handle("START 15")
    assert replies[-1] == "OK" and "read-only" in replies[0] and replies[0].startswith("MESSAGE ")
    move_of(brain.handle("BEGIN"))
    assert brain.handle("RESTART") == ["OK"] and brain.handle("START 15") == ["OK"]  # warned once


def test_an_engine_ignoring_its_budget_is_stopped_by_the_watchdog():
    def stubborn(position, level, limit, stop=None, on_progress=None):
        while not stop.is_set():  # only the stop flag ends this search
            time.sleep(0.002)
        return SearchResult(move=(0, 0))

    brain = fast_brain(level=Level.HARD, think=stubborn)
    began = time.monotonic()
    assert move_of(brain.handle("TURN 7,7")) == (0, 0)
    assert time.monotonic() - began < 0.2  # timeout_turn is 200 ms


def test_an_engine_move_that_is_illegal_is_replaced():
    def wrong(position, level, limit, stop=None, on_progress=None):
        return SearchResult(move=position.moves[-1])

    brain = fast_brain(think=wrong)
    assert move_of(brain.handle("TURN 7,7")) != (7, 7)


# --- the time budget ------------------------------------------------------------------------


def test_budget_stays_inside_the_turn_limit_with_a_margin():
    # The driver's clock stops the search at DEADLINE_SHARE of the budget: that is the real
    # end of thinking, and it must leave room for the reply yet use most of the turn.
    clock = TimeControl(timeout_turn_ms=1000)
    assert 0.75 < clock.think_s(Level.HARD, 0) * driver.DEADLINE_SHARE < 0.9
    clock = TimeControl(timeout_turn_ms=200)
    assert 0.1 < clock.think_s(Level.HARD, 0) * driver.DEADLINE_SHARE < 0.18


def test_budget_shares_out_the_match_clock():
    # Hard aims at its share of the clock (target) and may go on to a few shares (budget).
    clock = TimeControl(timeout_turn_ms=30_000, timeout_match_ms=180_000, time_left_ms=12_000)
    assert clock.target_s(Level.HARD, 40) < 12.0 / 10
    assert clock.target_s(Level.HARD, 40) < clock.think_s(Level.HARD, 40) < 12.0 / 5
    assert clock.think_s(Level.MEDIUM, 40) < 12.0 / 10
    clock = TimeControl(timeout_turn_ms=30_000, timeout_match_ms=180_000)
    assert clock.target_s(Level.HARD, 0) < 180.0 / 20
    assert clock.think_s(Level.HARD, 0) < 30.0
    # A turn limit alone is used whole: nothing to save time for.
    assert TimeControl(timeout_turn_ms=1000).target_s(Level.HARD, 0) is None
    assert (
        TimeControl(timeout_turn_ms=30_000, time_left_ms=1).think_s(Level.HARD, 0) > 20
    )  # no match limit


def test_budget_without_limits_is_the_levels_pace_and_fast_means_fast():
    assert TimeControl().think_s(Level.EASY, 0) <= DEFAULT_BUDGET_S[Level.EASY]
    assert TimeControl().think_s(Level.HARD, 0) <= DEFAULT_BUDGET_S[Level.HARD]
    assert (
        TimeControl(timeout_turn_ms=60_000).think_s(Level.MEDIUM, 0)
        <= DEFAULT_BUDGET_S[Level.MEDIUM]
    )
    assert TimeControl(timeout_turn_ms=0).think_s(Level.HARD, 0) <= 0.05
    assert (
        TimeControl(timeout_turn_ms=10, timeout_match_ms=1, time_left_ms=-5).think_s(Level.HARD, 0)
        > 0
    )


# --- the real console script ----------------------------------------------------------------


class BrainProcess:
    """The installed `pbrain-gomoku` in a subprocess; every read has a timeout so a hang fails."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [str(SCRIPT), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\r\n"))

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\r\n")
        self.process.stdin.flush()

    def read(self, timeout: float) -> str:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no reply within {timeout} s") from None

    def read_reply(self, timeout: float) -> str:
        """The next line that is not a MESSAGE/DEBUG line."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.read(max(deadline - time.monotonic(), 0.001))
            if not line.startswith(("MESSAGE", "DEBUG")):
                return line

    def close(self) -> int:
        try:
            return self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def test_console_script_plays_a_session_end_to_end():
    brain = BrainProcess("--level", "easy")
    try:
        brain.send("INFO timeout_turn 1000")
        brain.send("INFO rule 0")
        brain.send("START 15")
        assert brain.read_reply(timeout=180) == "OK"  # warm-up: a cold numba cache compiles
        began = time.monotonic()
        brain.send("BEGIN")
        first = brain.read_reply(timeout=5)
        assert time.monotonic() - began < 1.0  # the first move is in time too
        board = Board()
        board.push(*map(int, first.split(",")))
        brain.send("TURN 0,0")
        board.push(0, 0)
        reply = tuple(map(int, brain.read_reply(timeout=5).split(",")))
        assert board.is_legal(*reply)
        brain.send("TURN 0,0")  # occupied
        assert brain.read_reply(timeout=5).startswith("ERROR ")
        brain.send("TURN 1,1,1,1")  # malformed
        assert brain.read_reply(timeout=5).startswith("ERROR ")
        brain.send("WHAT IS THIS")
        assert brain.read_reply(timeout=5).startswith("UNKNOWN ")
        for line in ["RESTART"]:
            brain.send(line)
            assert brain.read_reply(timeout=5) == "OK"
        for line in ["BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE"]:
            brain.send(line)
        move = tuple(map(int, brain.read_reply(timeout=5).split(",")))
        assert move not in {(7, 7), (8, 8), (7, 8)}
        for line in ["YXBOARD", "7,7,2", "DONE", "YXSHOWFORBID"]:
            brain.send(line)
        assert brain.read_reply(timeout=5) == "FORBID ."
        brain.send("ABOUT")
        assert brain.read_reply(timeout=5).startswith('name="')
        brain.send("END")
        assert brain.close() == 0
    finally:
        if brain.process.poll() is None:
            brain.process.kill()


MIDDLE_GAME = [
    "7,7,2",
    "8,8,1",
    "8,6,2",
    "6,8,1",
    "9,7,2",
    "7,9,1",
    "6,6,2",
    "9,9,1",
    "10,8,2",
    "5,7,1",
]
"""Ten stones of a tactical middle game: the opponent (2) is black, we play white."""


def test_console_script_hard_answers_inside_turn_and_match_limits():
    brain = BrainProcess()  # the default level: hard
    try:
        brain.send("INFO timeout_turn 500")
        brain.send("START 15")
        assert brain.read_reply(timeout=180) == "OK"
        began = time.monotonic()
        for line in ["BOARD", *MIDDLE_GAME, "DONE"]:
            brain.send(line)
        board_reply = brain.read_reply(timeout=5)
        assert time.monotonic() - began < 0.5, "over timeout_turn"
        # The match clock, not the 30 s turn limit, decides: 2 s left for the rest of the game.
        brain.send("INFO timeout_turn 30000")
        brain.send("INFO timeout_match 60000")
        brain.send("INFO time_left 2000")
        x, y = map(int, board_reply.split(","))
        board = Board.from_moves(
            [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9), (6, 6), (9, 9), (10, 8), (5, 7)]
        )
        board.push(x, y)
        opponent = next(
            p for p in [(11, 9), (10, 10), (4, 4), (3, 3), (12, 12)] if board.is_legal(*p)
        )
        began = time.monotonic()
        brain.send(f"TURN {opponent[0]},{opponent[1]}")
        reply = brain.read_reply(timeout=5)
        assert time.monotonic() - began < 0.4, "2 s left must not be spent on one move"
        board.push(*opponent)
        assert board.is_legal(*map(int, reply.split(",")))
        brain.send("END")
        assert brain.close() == 0
    finally:
        if brain.process.poll() is None:
            brain.process.kill()


def test_console_script_help_and_bad_flags():
    done = subprocess.run([str(SCRIPT), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--level" in done.stdout and "INFO level" in done.stdout
    done = subprocess.run(
        [str(SCRIPT), "--level", "godlike"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "godlike" in done.stderr


def test_console_script_yixin_commands_and_rule_bits():
    # Renju with the continuous bit, then caro refused: renju stays (black's double three at
    # 8,7 is listed as forbidden). YXHASHCLEAR and YXSTOP answer nothing, not UNKNOWN.
    script = [
        "INFO rule 6",
        "INFO rule 8",
        "START 15",
        "YXHASHCLEAR",
        "YXSTOP",
        "YXBOARD", "6,7,1", "0,0,2", "7,7,1", "14,0,2", "8,5,1", "0,14,2", "8,6,1", "14,14,2",
        "DONE",
        "YXSHOWFORBID",
        "END",
    ]  # fmt: skip
    done = subprocess.run(
        [str(SCRIPT), "--level", "easy"],
        input="\r\n".join(script) + "\r\n",
        capture_output=True,
        text=True,
        timeout=180,
    )
    replies = [line for line in done.stdout.splitlines() if not line.startswith("MESSAGE")]
    assert done.returncode == 0 and len(replies) == 3, done.stdout
    assert replies[0].startswith("ERROR ") and "caro" in replies[0]
    assert replies[1] == "OK"
    assert replies[2].startswith("FORBID ") and "0807" in replies[2]


def test_console_script_exits_cleanly_at_end_of_input():
    done = subprocess.run(
        [str(SCRIPT), "--level", "easy"],
        input="ABOUT\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.startswith('name="')


def test_a_depth_limit_makes_every_search_repeat_exactly():
    """INFO max_depth with a turn time the search finishes in: two fresh brains give the same
    move from the same search (depth, score, nodes), whatever else the machine is doing."""
    position = "BOARD\n7,7,1\n8,8,2\n8,6,1\n6,8,2\n9,5,1\n10,4,2\nDONE"
    answers = []
    for _ in range(2):
        brain = Brain(level=Level.HARD)
        for line in ("INFO timeout_turn 20000", "INFO max_depth 5", "START 15"):
            brain.handle(line)
        replies = feed(brain, position)
        message = replies[-2]
        assert " depth 5 " in message, message
        answers.append((move_of(replies), message.split(" time ")[0]))
    assert answers[0] == answers[1]


# --- any sequence of commands, as a confused or hostile manager sends them -----------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_NUMBER = st.sampled_from(["0", "1", "7", "14", "15", "19", "20", "-1", "99999999999999999999", "x", "", "1e3"])
_POINT = st.one_of(st.builds(lambda x, y: f"{x},{y}", _NUMBER, _NUMBER),  # mostly a real point, to play on
                   *[st.builds(lambda x, y: f"{x},{y}", st.integers(0, 14), st.integers(0, 14))] * 3)
_STONE = st.builds(lambda p, c: f"{p},{c}", _POINT, st.sampled_from(["1", "2", "3", "0", "9", "x"]))
_COMMAND = st.one_of(
    st.builds(lambda n: f"START {n}", st.sampled_from(["15", "20", "10", "25", "x", ""])),
    st.sampled_from(["RESTART", "BEGIN", "ABOUT", "YXHASHCLEAR", "YXSHOWFORBID", "YXSTOP", "", "DONE",
                     "SWAP2BOARD", "turn 7,7", "TURN", "TAKEBACK", "INFO", "RECTSTART 15,15", "RECTSTART 15,20"]),
    st.builds(lambda p: f"TURN {p}", _POINT),
    st.builds(lambda p: f"TAKEBACK {p}", _POINT),
    st.builds(lambda stones, yx: "\n".join([("YXBOARD" if yx else "BOARD"), *stones, "DONE"]),
              st.lists(_STONE, max_size=6), st.booleans()),
    st.builds(lambda k, v: f"INFO {k} {v}",
              st.sampled_from(["timeout_turn", "timeout_match", "time_left", "rule", "max_memory", "game_type",
                               "level", "max_depth", "folder", "evaluate", "x" * 40]),
              st.sampled_from(["0", "1", "4", "5", "100", "-5", "easy", "hard", "99999999999999999999", "a b"])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["START 15", "START 20", "RESTART"]), st.lists(_COMMAND, max_size=14))
def test_no_sequence_of_commands_makes_an_internal_error_or_an_illegal_move(start: str, commands: list[str]) -> None:
    # The real engine at easy, each search capped at 0.1 s whatever INFO says.
    brain = Brain(level=Level.EASY, think=lambda position, level, limit, *args, **kwargs: driver.think(
        position, level, type(limit)(time_s=min(limit.time_s, 0.1)), *args, **kwargs))
    for command in [start, *commands]:
        before = brain.board.copy() if brain.board is not None else None
        replies = feed(brain, command)
        assert not any("internal error" in reply for reply in replies), (command, replies)
        moves = [reply for reply in replies if not reply.startswith(("MESSAGE", "ERROR", "UNKNOWN", "OK", "DEBUG"))
                 and "," in reply and reply.replace(",", "").isdigit()]
        for reply in moves:  # a move is a legal one of the position it was asked in
            x, y = (int(part) for part in reply.split(","))
            board = brain.board
            assert board is not None and board.on_board(x, y), (command, replies)
            assert board.last_move == (x, y), (command, replies)  # it stands on the brain's own board
            if before is not None and command.split()[0].upper() in ("BEGIN", "TURN"):
                assert before[(x, y)] == 0, (command, replies)
