"""Time the LAN layer on loopback (127.0.0.1 only) and print the figures.

Sections (`--section discovery|roundtrip|all`, default all), one function each:
- discovery: over N runs, a fresh host's `Advertiser.register()` call until a Browser already
  open on 127.0.0.1 lists it (goal <= 2 s), a lobby opened after the host until it lists it,
  and `unregister()` until the lobby drops it.
- roundtrip: a move's round trip host -> guest -> host (not available yet).

`.venv/bin/python tools/net_bench.py [--section discovery] [--runs 10]`
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import time
from collections.abc import Callable

from gomoku.net.discovery import Advertiser, Browser
from gomoku.net.events import HostFound, HostLost, HostOptions, NetEvent

LOOPBACK = "127.0.0.1"
DISCOVERY_GOAL_S = 2.0
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


def roundtrip(runs: int) -> None:
    """A move's round trip over a real session on loopback."""
    print("move round trip: not available yet (needs gomoku.net.session)")


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
