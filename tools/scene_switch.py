"""How long a click that opens a scene holds the window, the first time and again.

Launches the real App (dummy drivers, a fresh home, LAN on 127.0.0.1), lets the menu run until
the engine (and the LAN's modules after it) is loaded (`--at-once`: not), then switches to each
scene in turn and times the switch (the scene's imports and `enter`) and the frame after it;
then the same round again.

    .venv/bin/python tools/scene_switch.py [--at-once] [--size 1280x800]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gomoku.ui.app import App, AppOptions  # noqa: E402

SCENES = [("settings", {}), ("records", {}), ("board", {"mode": "local"}), ("lobby", {}), ("menu", {})]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at-once", action="store_true", help="switch before the engine is loaded")
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args(argv)
    width, height = (int(part) for part in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory(prefix="gomoku-switch-") as home:
        app = App(AppOptions(windowed=True, size=(width, height), home=Path(home), lan_interface="127.0.0.1"))
        try:
            for _ in range(30):
                app.frame()
            deadline = time.monotonic() + 120
            # (the loader thread imports the LAN's modules right after the engine: wait for it too)
            while (not args.at_once and (not app.engine_loaded or app._engine_loader.is_alive())
                   and time.monotonic() < deadline):
                app.frame()
                time.sleep(1 / 60)
            print(f"{'scene':9s} {'round':5s} {'switch ms':>9s} {'frame ms':>9s}")
            for round_ in ("first", "again"):
                for name, data in SCENES:
                    started = time.perf_counter()
                    app.switch(name, data)
                    switched = time.perf_counter()
                    app.frame()
                    drawn = time.perf_counter()
                    print(f"{name:9s} {round_:5s} {(switched - started) * 1000:9.1f} {(drawn - switched) * 1000:9.1f}")
        finally:
            app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
