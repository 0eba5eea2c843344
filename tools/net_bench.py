"""Time the LAN layer on loopback (127.0.0.1 only) and print the figures.

Sections (`--section discovery|roundtrip|all`, default all), one function each:
- discovery: over N runs, a fresh host's `Advertiser.register()` call until a Browser already
  open on 127.0.0.1 lists it (goal <= 2 s), a lobby opened after the host until it lists it,
  and `unregister()` until the lobby drops it.
- roundtrip: a real HostSession and GuestSession on one loop (real TCP and frames): the host
  plays, the guest answers as soon as it sees the move, and the host times its command to the
  guest's move arriving (two moves through match, frames and sockets); 1,000 moves a run, on
  points no two of which touch (no game ends; every 32 round trips a restart by agreement).
  Goal: p99 <= 5 ms.

`.venv/bin/python tools/net_bench.py [--section discovery] [--runs 10]`
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import time
from collections.abc import Callable

from gomoku.core.types import Color
from gomoku.net.discovery import Advertiser, Browser
from gomoku.net.events import (
    Closed,
    Connected,
    ConnectionLost,
    Failed,
    HostFound,
    Hosting,
    HostLost,
    HostOptions,
    Moved,
    NetEvent,
    PositionSet,
    RequestReceived,
)
from gomoku.net.match import Move, Ready, Reply, Request
from gomoku.net.session import GuestSession, HostSession, Timing

LOOPBACK = "127.0.0.1"
DISCOVERY_GOAL_S = 2.0
GOAL_P99_MS = 5.0
GIVE_UP_S = 15.0  # a run slower than this counts as a miss, not a hang


def seconds(values: list[float]) -> str:
    if not values:
        return "no data"
    return f"median {statistics.median(values):.3f} s, max {max(values):.3f} s"


async def _until(check: Callable[[], bool], timeout_s: float = GIVE_UP_S) -> float | None:
    """Seconds polled (every 5 ms) until check() holds, or None when it never did."""
    start = time.perf_counter()
    while not check():
        if time.perf_counter() - start > timeout_s:
            return None
        await asyncio.sleep(0.005)
    return time.perf_counter() - start


def recorder(listed: set[str], lost: set[str]) -> Callable[[NetEvent], None]:
    """A Browser's on_event that notes listed host names and lost keys."""

    def on_event(event: NetEvent) -> None:
        if isinstance(event, HostFound):
            listed.add(event.host.name)
        elif isinstance(event, HostLost):
            lost.add(event.key)

    return on_event


async def _discovery(runs: int) -> dict[str, list[float]]:
    listed: set[str] = set()
    lost: set[str] = set()
    figures: dict[str, list[float]] = {"register": [], "lobby": [], "drop": [], "misses": []}
    lobby = Browser(LOOPBACK, recorder(listed, lost))
    await lobby.start()
    try:
        for run in range(runs):
            name = f"bench-{run}-{secrets.token_hex(2)}"  # new each run: no cache helps
            host = Advertiser(LOOPBACK)
            try:
                start = time.perf_counter()
                await host.register(HostOptions(name=name), 15515)
                took = await _until(lambda name=name: name in listed)
                if took is None:
                    figures["misses"].append(run)
                    continue
                figures["register"].append(time.perf_counter() - start)

                # a player who opens the lobby while this host is already advertised
                late_names: set[str] = set()
                late = Browser(LOOPBACK, recorder(late_names, set()))
                start = time.perf_counter()
                await late.start()
                took = await _until(lambda name=name, s=late_names: name in s)
                await late.stop()
                if took is not None:
                    figures["lobby"].append(time.perf_counter() - start)

                key = host.key
                start = time.perf_counter()
                await host.unregister()
                took = await _until(lambda key=key: key in lost)
                if took is not None:
                    figures["drop"].append(time.perf_counter() - start)
            finally:
                await host.close()
    finally:
        await lobby.stop()
    return figures


def discovery(runs: int) -> None:
    """Print the discovery figures over `runs` fresh hosts."""
    print(f"discovery on {LOOPBACK}, {runs} runs (real zeroconf, each host new)")
    figures = asyncio.run(_discovery(runs))
    register = figures["register"]
    verdict = "ok" if register and max(register) <= DISCOVERY_GOAL_S else "over the goal"
    goal = f"goal <= {DISCOVERY_GOAL_S:.0f} s: {verdict}"
    print(f"  register() -> listed in an open lobby: {seconds(register)} ({goal})")
    print(f"  lobby opened -> host listed:           {seconds(figures['lobby'])}")
    print(f"  unregister() -> dropped from lobby:    {seconds(figures['drop'])}")
    if figures["misses"]:
        print(f"  not listed within {GIVE_UP_S:.0f} s: runs {figures['misses']}")


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
        elif isinstance(event, Connected):
            loop.call_soon(host.command, Ready(True))
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
    await guest.start()
    try:
        await asyncio.wait_for(finished, GIVE_UP_S * 4)
    finally:
        await guest.close()
        await host.close()
    return times


def roundtrip(runs: int, moves: int = 1000) -> None:
    """Print the median and p99 of `moves` // 2 round trips (two moves each), per run."""
    trips = max(1, moves // 2)
    print(f"move round trip on {LOOPBACK}: {trips} round trips ({2 * trips} moves) per run, "
          f"{runs} runs, real sessions on one loop")
    everything: list[float] = []
    for run in range(runs):
        times = sorted(asyncio.run(_round_trips(trips)))
        everything += times
        print(f"  run {run + 1}: median {statistics.median(times) * 1000:.3f} ms, "
              f"p99 {_p99(times) * 1000:.3f} ms, max {times[-1] * 1000:.3f} ms")
    everything.sort()
    p99_ms = _p99(everything) * 1000
    verdict = "ok" if p99_ms <= GOAL_P99_MS else "over the goal"
    print(f"  all: median {statistics.median(everything) * 1000:.3f} ms, p99 {p99_ms:.3f} ms "
          f"(goal p99 <= {GOAL_P99_MS:.0f} ms: {verdict})")


def _p99(sorted_times: list[float]) -> float:
    return sorted_times[min(len(sorted_times) - 1, round(0.99 * (len(sorted_times) - 1)))]


SECTIONS = {"discovery": discovery, "roundtrip": roundtrip}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--section", choices=[*SECTIONS, "all"], default="all")
    parser.add_argument("--runs", type=int, default=10, help="runs per section (default 10)")
    args = parser.parse_args()
    chosen = SECTIONS.values() if args.section == "all" else [SECTIONS[args.section]]
    for section in chosen:
        section(max(1, args.runs))


if __name__ == "__main__":
    main()
