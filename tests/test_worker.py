"""The engine worker: ids at once, results on the queue, stop, stale results, errors."""

from __future__ import annotations

import queue
import threading
import time

import pytest

from gomoku.core import Board
from gomoku.engine import driver
from gomoku.engine.api import Level, Position, Progress, SearchLimit, SearchResult
from gomoku.engine.worker import EngineWorker

QUICK = SearchLimit(time_s=0.05)


def slow_think(position, level, limit, stop=None, on_progress=None):
    """An engine that thinks until stopped (or 5 s), reporting progress, then plays a real move."""
    deadline = time.monotonic() + 5.0
    depth = 0
    while not (stop is not None and stop.is_set()) and time.monotonic() < deadline:
        depth += 1
        if on_progress is not None and depth <= 3:
            on_progress(Progress(depth=depth, score=0, pv=(), nodes=depth, elapsed_s=0.01))
        time.sleep(0.005)
    result = driver.think(position, level, QUICK)
    return SearchResult(move=result.move, depth=depth, info={"grid": position.grid.copy()})


def failing_think(position, level, limit, stop=None, on_progress=None):
    raise ValueError("the engine broke")


def next_message(worker: EngineWorker, timeout: float = 5.0):
    return worker.results.get(timeout=timeout)


def final_message(worker: EngineWorker, request_id: int, timeout: float = 10.0):
    """The first result or error for `request_id`, dropping progress and stale ids as the UI does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            got_id, payload = worker.results.get(timeout=0.05)
        except queue.Empty:
            continue
        if got_id == request_id and not isinstance(payload, Progress):
            return payload
    raise AssertionError(f"no result for request {request_id} within {timeout} s")


@pytest.fixture
def position() -> Position:
    return Position.from_board(Board.from_moves([(7, 7), (8, 8), (7, 8)]))


def test_real_engine_result_arrives_with_the_request_id(position):
    worker = EngineWorker()
    try:
        worker.warm_up()
        request_id = worker.start(position, Level.EASY, QUICK)
        result = final_message(worker, request_id, timeout=120.0)  # a cold numba cache compiles
        assert isinstance(result, SearchResult)
        board = Board.from_moves(position.moves)
        assert board.is_legal(*result.move)
        assert worker.ready
        assert not worker.busy
    finally:
        assert worker.close()


def test_start_returns_at_once_and_stop_returns_best_so_far(position):
    worker = EngineWorker(think=slow_think, warm_up=lambda: None)
    try:
        began = time.monotonic()
        request_id = worker.start(position, Level.HARD, SearchLimit(time_s=60.0))
        assert time.monotonic() - began < 0.05
        first = next_message(worker)
        assert first[0] == request_id and isinstance(first[1], Progress)
        assert worker.busy
        began = time.monotonic()
        worker.stop()
        assert time.monotonic() - began < 0.05
        result = final_message(worker, request_id, timeout=1.0)
        assert isinstance(result, SearchResult)
        assert Board.from_moves(position.moves).is_legal(*result.move)
        deadline = time.monotonic() + 1.0
        while worker.busy and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not worker.busy
    finally:
        assert worker.close()


def test_starting_while_busy_stops_the_old_search_and_only_the_new_id_matters(position):
    worker = EngineWorker(think=slow_think, warm_up=lambda: None)
    try:
        old_id = worker.start(position, Level.HARD, SearchLimit(time_s=60.0))
        assert next_message(worker)[0] == old_id  # the old search is running
        began = time.monotonic()
        new_id = worker.start(position, Level.HARD, SearchLimit(time_s=60.0))
        assert new_id != old_id
        assert time.monotonic() - began < 0.05
        # The old search was stopped: its result comes back soon, under the old id.
        old = final_message(worker, old_id, timeout=1.0)
        assert isinstance(old, SearchResult)
        worker.stop()
        new = final_message(worker, new_id, timeout=1.0)
        assert isinstance(new, SearchResult)
    finally:
        assert worker.close()


def test_a_request_superseded_before_it_started_never_runs(position):
    worker = EngineWorker(think=slow_think, warm_up=lambda: time.sleep(0.3))
    try:
        worker.warm_up()
        skipped_id = worker.start(position, Level.HARD, SearchLimit(time_s=60.0))
        kept_id = worker.start(position, Level.HARD, SearchLimit(time_s=60.0))
        first_id, _ = next_message(worker)
        assert first_id == kept_id
        worker.stop()
        final_message(worker, kept_id, timeout=1.0)
        ids = set()
        while not worker.results.empty():
            ids.add(worker.results.get_nowait()[0])
        assert skipped_id not in ids
    finally:
        assert worker.close()


def test_the_search_works_on_a_private_copy(position):
    worker = EngineWorker(think=slow_think, warm_up=lambda: None)
    try:
        request_id = worker.start(position, Level.HARD, SearchLimit(time_s=60.0))
        original = position.grid.copy()
        position.grid[0, 0] = 2  # the UI goes on with its own array
        worker.stop()
        result = final_message(worker, request_id, timeout=1.0)
        assert (result.info["grid"] == original).all()
    finally:
        worker.close()


def test_an_engine_error_arrives_as_an_exception_and_the_worker_goes_on(position):
    worker = EngineWorker(think=failing_think, warm_up=lambda: None)
    try:
        request_id = worker.start(position, Level.EASY, QUICK)
        error = final_message(worker, request_id, timeout=2.0)
        assert isinstance(error, ValueError) and "broke" in str(error)
        again = worker.start(position, Level.EASY, QUICK)
        assert again != request_id
        assert isinstance(final_message(worker, again, timeout=2.0), ValueError)
    finally:
        assert worker.close()


def test_warm_up_does_not_block_and_ready_follows_it():
    worker = EngineWorker(think=failing_think, warm_up=lambda: time.sleep(0.3))
    try:
        began = time.monotonic()
        worker.warm_up()
        assert time.monotonic() - began < 0.05
        assert not worker.ready
        deadline = time.monotonic() + 3.0
        while not worker.ready and time.monotonic() < deadline:
            time.sleep(0.01)
        assert worker.ready and worker.warm_up_error is None
    finally:
        assert worker.close()


def test_a_failed_warm_up_is_reported_not_raised():
    def broken() -> None:
        raise OSError("cache folder not writable")

    worker = EngineWorker(think=failing_think, warm_up=broken)
    try:
        worker.warm_up()
        deadline = time.monotonic() + 3.0
        while not worker.ready and time.monotonic() < deadline:
            time.sleep(0.01)
        assert isinstance(worker.warm_up_error, OSError)
    finally:
        assert worker.close()


def test_close_ends_a_running_search_and_start_after_close_is_refused(position):
    worker = EngineWorker(think=slow_think, warm_up=lambda: None)
    worker.start(position, Level.HARD, SearchLimit(time_s=60.0))
    next_message(worker)
    assert worker.close(timeout=1.0)
    with pytest.raises(RuntimeError):
        worker.start(position, Level.HARD, QUICK)


def test_new_game_runs_on_the_worker_thread_in_order(position):
    calls: list[str] = []

    def think(position, level, limit, stop=None, on_progress=None):
        calls.append("think")
        return SearchResult(move=(0, 0))

    worker = EngineWorker(
        think=think,
        warm_up=lambda: None,
        new_game=lambda: calls.append(threading.current_thread().name),
    )
    try:
        first = worker.start(position, Level.EASY, QUICK)
        final_message(worker, first)
        worker.new_game()
        second = worker.start(position, Level.EASY, QUICK)
        final_message(worker, second)
        assert calls == ["think", "engine-worker", "think"]
    finally:
        assert worker.close()
