"""The "move round trip" of the LAN layer on loopback (127.0.0.1 only), with printed figures.

A real HostSession and GuestSession on one event loop (real TCP, real frames): the host plays,
the guest answers as soon as it sees the move, and the host notes the time from its command to
the guest's move arriving (two moves through the whole stack: match, frames, sockets). Stones
go on points no two of which touch, so no game ever ends; every 32 round trips the host asks
for a restart and the guest agrees. Goal: p99 <= 5 ms.

`.venv/bin/python tools/net_roundtrip.py [--moves 1000] [--runs 1]`
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from gomoku.core.types import Color
from gomoku.net.events import (
    Closed,
    Connected,
    ConnectionLost,
    Failed,
    Hosting,
    HostOptions,
    Moved,
    NetEvent,
    PositionSet,
    RequestReceived,
)
from gomoku.net.match import Move, Ready, Reply, Request
from gomoku.net.session import GuestSession, HostSession, Timing

LOOPBACK = "127.0.0.1"
GOAL_P99_MS = 5.0
# Moves back to back are a flood by the game's standard (a few a second); the bench lifts it.
BENCH = Timing(max_frames_per_s=1_000_000)
POINTS = [(x, y) for y in range(0, 15, 2) for x in range(0, 15, 2)]  # 64 points, none touching


async def _round_trips(count: int) -> list[float]:
    """Seconds per round trip (host move -> guest move seen by the host), `count` of them."""
    loop = asyncio.get_running_loop()
    times: list[float] = []
    finished = loop.create_future()
    state = {"ply": 0, "sent_at": 0.0}
    port_seen = loop.create_future()
    host: HostSession
    guest: GuestSession

    def host_move() -> None:
        if len(times) >= count:
            if not finished.done():
                finished.set_result(None)
            return
        if state["ply"] >= len(POINTS):
            host.command(Request("restart"))
            return
        state["sent_at"] = time.perf_counter()
        host.command(Move(*POINTS[int(state["ply"])]))

    def broken(event: NetEvent) -> bool:
        if isinstance(event, (ConnectionLost, Closed, Failed)) and not finished.done():
            finished.set_exception(RuntimeError(f"the duel broke off: {event}"))
        return finished.done()

    def on_host(event: NetEvent) -> None:
        if broken(event):
            return
        if isinstance(event, Hosting) and not port_seen.done():
            port_seen.set_result(event.port)
        elif isinstance(event, Moved) and not event.mine:
            times.append(time.perf_counter() - state["sent_at"])
            state["ply"] = event.ply
            loop.call_soon(host_move)
        elif isinstance(event, PositionSet) and event.why in ("start", "restart"):
            state["ply"] = len(event.moves)
            loop.call_soon(host_move)

    def on_guest(event: NetEvent) -> None:
        if broken(event):
            return
        if isinstance(event, Connected):
            loop.call_soon(guest.command, Ready(True))
        elif isinstance(event, Moved) and not event.mine:
            loop.call_soon(guest.command, Move(*POINTS[event.ply]))
        elif isinstance(event, RequestReceived):
            loop.call_soon(guest.command, Reply(event.kind, True))

    host = HostSession(HostOptions("bench-host", port=0, advertise=False, host_color=Color.BLACK),
                       on_host, LOOPBACK, timing=BENCH)
    await host.start()
    port = await port_seen
    guest = GuestSession("bench-guest", LOOPBACK, port, on_guest, timing=BENCH)
    host.command(Ready(True))
    await guest.start()
    try:
        await asyncio.wait_for(finished, 120)
    finally:
        await guest.close()
        await host.close()
    return times


def roundtrip(moves: int, runs: int = 1) -> None:
    """Print the median and p99 of `moves` // 2 round trips (each is two moves), per run."""
    trips = max(1, moves // 2)
    print(f"move round trip on {LOOPBACK}: {trips} round trips ({2 * trips} moves) per run, "
          "real sessions on one loop")
    for run in range(runs):
        times = sorted(asyncio.run(_round_trips(trips)))
        median_ms = statistics.median(times) * 1000
        p99_ms = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))] * 1000
        verdict = "ok" if p99_ms <= GOAL_P99_MS else "over the goal"
        print(f"  run {run + 1}: median {median_ms:.3f} ms, p99 {p99_ms:.3f} ms, "
              f"max {times[-1] * 1000:.3f} ms (goal p99 <= {GOAL_P99_MS:.0f} ms: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1000, help="moves per run (default 1000)")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    roundtrip(max(2, args.moves), max(1, args.runs))


if __name__ == "__main__":
    main()
