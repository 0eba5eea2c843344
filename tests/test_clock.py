"""Clock arithmetic with hand-checked numbers: increment, per-move countdown, pause, snapshot."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gomoku.core.clock import Clock, ClockState, TimeControl
from gomoku.core.types import Color

B, W = Color.BLACK, Color.WHITE


def test_nothing_runs_before_start() -> None:
    clock = Clock(TimeControl(game_s=60))
    assert clock.remaining(B, 1000.0) == 60.0
    assert clock.flagged(1000.0) is None
    with pytest.raises(RuntimeError):
        clock.press(1000.0)


def test_game_time_with_increment() -> None:
    clock = Clock(TimeControl(game_s=60, increment_s=2))
    clock.start(100.0)
    assert clock.remaining(B, 110.0) == 50.0  # black's time runs
    assert clock.remaining(W, 110.0) == 60.0  # white's does not
    assert clock.press(110.0) == 10.0  # black took 10 s
    assert clock.to_move is W
    assert clock.remaining(B, 200.0) == 52.0  # 60 - 10 + 2, frozen while white thinks
    assert clock.press(115.0) == 5.0
    assert clock.remaining(W, 115.0) == 57.0  # 60 - 5 + 2
    assert clock.remaining(B, 150.0) == 17.0  # 52 - 35 on black's second move


def test_game_time_flags_and_never_goes_negative() -> None:
    clock = Clock(TimeControl(game_s=30))
    clock.start(0.0)
    assert clock.flagged(29.9) is None
    assert clock.flagged(30.0) is B
    assert clock.remaining(B, 45.0) == 0.0


def test_move_countdown_restarts_each_move() -> None:
    clock = Clock(TimeControl(move_s=10))
    clock.start(0.0)
    assert clock.move_remaining(4.0) == 6.0
    clock.press(4.0)
    assert clock.move_remaining(4.0) == 10.0  # white gets a fresh 10 s
    assert clock.move_remaining(13.0) == 1.0
    assert clock.flagged(13.0) is None
    assert clock.flagged(14.0) is W
    assert clock.remaining(B, 14.0) == math.inf  # no game limit


def test_pause_stops_time_and_resume_continues() -> None:
    clock = Clock(TimeControl(game_s=60, move_s=20))
    clock.start(0.0)
    clock.pause(5.0)
    assert not clock.running
    assert clock.remaining(B, 500.0) == 55.0 and clock.move_remaining(500.0) == 15.0
    clock.pause(600.0)  # a second pause changes nothing
    clock.resume(500.0)
    assert clock.remaining(B, 503.0) == 52.0 and clock.move_remaining(503.0) == 12.0
    assert clock.press(503.0) == 8.0  # 5 s before the pause + 3 s after


def test_a_skipped_stretch_is_charged_to_nobody_and_a_paused_clock_stays_paused() -> None:
    clock = Clock(TimeControl(game_s=60, move_s=20))
    clock.start(0.0)
    clock.skip(5.0, 35.0)  # the process stood still for 30 s
    assert clock.running and clock.remaining(B, 37.0) == 53.0 and clock.move_remaining(37.0) == 13.0
    clock.pause(40.0)
    clock.skip(41.0, 90.0)
    assert not clock.running and clock.remaining(B, 100.0) == 50.0


def test_press_while_paused_switches_sides_and_stays_paused() -> None:
    clock = Clock(TimeControl(game_s=60))
    clock.start(0.0)
    clock.pause(4.0)
    assert clock.press(50.0) == 4.0
    assert clock.to_move is W and not clock.running
    assert clock.remaining(W, 99.0) == 60.0


def test_time_going_backwards_counts_as_none() -> None:
    clock = Clock(TimeControl(game_s=60))
    clock.start(10.0)
    assert clock.remaining(B, 5.0) == 60.0


def test_switch_to_charges_without_increment() -> None:
    clock = Clock(TimeControl(game_s=60, increment_s=5))
    clock.start(0.0)
    clock.switch_to(B, 7.0)  # e.g. an undo on black's own turn
    assert clock.remaining(B, 7.0) == 53.0 and clock.move_remaining(7.0) == math.inf
    clock.switch_to(W, 9.0)
    assert clock.to_move is W and clock.remaining(B, 20.0) == 51.0


def test_snapshot_and_restore_keep_every_figure() -> None:
    control = TimeControl(game_s=300, increment_s=3, move_s=30)
    clock = Clock(control)
    clock.start(0.0)
    clock.press(12.5)  # black: 300 - 12.5 + 3 = 290.5
    state = clock.snapshot(20.0)  # white used 7.5 s of this move
    assert state == ClockState(black_ms=290_500, white_ms=292_500, to_move=W, move_ms=7_500)
    assert ClockState.from_dict(state.to_dict()) == state
    restored = Clock.restore(control, state)
    assert not restored.started
    restored.start(1000.0)
    assert restored.remaining(W, 1002.0) == 290.5
    assert restored.move_remaining(1002.0) == 20.5
    assert restored.remaining(B, 1002.0) == 290.5


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"black_ms": 1},
        {"black_ms": -1, "white_ms": 0, "to_move": "black"},
        {"black_ms": 1, "white_ms": 0, "to_move": "red"},
    ],
)
def test_clock_state_from_bad_data_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ValueError):
        ClockState.from_dict(bad)


def test_set_remaining_adopts_a_given_figure() -> None:
    clock = Clock(TimeControl(game_s=60))
    clock.start(0.0)
    clock.press(10.0)
    clock.set_remaining(B, 42.0, 10.0)
    assert clock.remaining(B, 99.0) == 42.0
    clock.set_remaining(W, 30.0, 20.0)
    assert clock.remaining(W, 25.0) == 25.0


def test_negative_time_control_is_refused() -> None:
    with pytest.raises(ValueError):
        TimeControl(game_s=-1)


@pytest.mark.parametrize("bad", [float("inf"), 1.5, "60", True])
def test_a_time_control_takes_whole_seconds_only(bad: object) -> None:
    with pytest.raises(ValueError, match="whole seconds"):
        TimeControl(game_s=bad)  # type: ignore[arg-type]


@given(
    game_s=st.integers(1, 3600),
    increment_s=st.integers(0, 30),
    thinks=st.lists(st.integers(0, 10_000), min_size=1, max_size=30),
)
def test_remaining_time_is_start_minus_used_plus_increments(
    game_s: int, increment_s: int, thinks: list[int]
) -> None:
    """With no flag reached, each side's time is start - its thinking + one increment per move."""
    thinks_s = [ms / 1000 for ms in thinks]
    clock = Clock(TimeControl(game_s=game_s, increment_s=increment_s))
    now = 0.0
    clock.start(now)
    for think in thinks_s:
        now += think
        clock.press(now)
    for color, own in ((B, thinks_s[0::2]), (W, thinks_s[1::2])):
        expected = game_s
        for think in own:
            expected = max(0.0, expected - think) + increment_s
        assert clock.remaining(color, now) == pytest.approx(expected)


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 5000)), max_size=20))
def test_paused_stretches_never_count(stretches: list[tuple[bool, int]]) -> None:
    """Alternate running and paused stretches: only the running ones come off the clock."""
    clock = Clock(TimeControl(game_s=10_000, move_s=10_000))
    now = 0.0
    clock.start(now)
    used = 0.0
    for running, millis in stretches:
        if running:
            clock.resume(now)
            used += millis / 1000
        else:
            clock.pause(now)
        now += millis / 1000
    assert clock.used_in_move(now) == pytest.approx(used)
    assert clock.remaining(B, now) == pytest.approx(10_000 - used)
    assert clock.press(now) == pytest.approx(used)
