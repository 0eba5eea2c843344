"""A scripted LAN guest for tests/test_net_session.py, run as its own process.

    python tests/net_guest.py PORT NAME [TOKEN]

It joins 127.0.0.1:PORT through a real NetBridge and prints one line per event that matters
("connected TOKEN", "position X,Y X,Y ...", "moved X Y", ...); each line on stdin is a command:
"ready", "move X Y".
"""

from __future__ import annotations

import queue
import sys
import threading

from gomoku.net.bridge import NetBridge
from gomoku.net.events import Connected, Failed, GameOver, Moved, PositionSet
from gomoku.net.session import Timing

FAST = Timing(heartbeat_s=0.2, silence_s=3.0, hello_timeout_s=2.0, connect_timeout_s=3.0,
              retry_s=0.2, tick_s=0.05)


def main() -> None:
    port, name = int(sys.argv[1]), sys.argv[2]
    token = sys.argv[3] if len(sys.argv) > 3 else None
    bridge = NetBridge("127.0.0.1", FAST)
    commands: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [commands.put(line) for line in sys.stdin], daemon=True).start()
    bridge.join("127.0.0.1", port, name, token)
    while True:
        try:
            event = bridge.events.get(timeout=0.05)
        except queue.Empty:
            event = None
        if isinstance(event, Connected):
            print("connected", event.session, flush=True)
        elif isinstance(event, PositionSet):
            print("position", " ".join(f"{x},{y}" for x, y in event.moves), flush=True)
        elif isinstance(event, Moved):
            print("moved", *event.point, flush=True)
        elif isinstance(event, (Failed, GameOver)):
            print(type(event).__name__, flush=True)
        while not commands.empty():
            words = commands.get().split()
            if words == ["ready"]:
                bridge.ready(True)
            elif words[:1] == ["move"]:
                bridge.move(int(words[1]), int(words[2]))


if __name__ == "__main__":
    main()
