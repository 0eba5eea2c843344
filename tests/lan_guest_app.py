"""A guest's game app in its own process, for the crash-and-rejoin test in test_lan_ui.py.

    python tests/lan_guest_app.py HOME PORT

It joins 127.0.0.1:PORT from the lobby, presses Ready, plays h8 (7, 7) after thinking 0.3 s,
prints "played" when the host has taken it (and the autosave is written), then keeps running
frames until it is killed.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402  (the SDL variables above must be set before pygame loads)

from gomoku.ui.app import App, AppOptions  # noqa: E402


def main() -> None:
    home, port = Path(sys.argv[1]), int(sys.argv[2])
    app = App(AppOptions(windowed=True, size=(1280, 800), home=home, lan_interface="127.0.0.1"))
    app.settings.player_name = "Crashy"
    app.switch("lobby", {})
    app.current.address_input.text = f"127.0.0.1:{port}"
    app.current.join_typed()
    stage = "joining"
    while True:
        app.frame()
        link = app.lan
        if stage == "joining" and app.current_name == "board":
            link.set_ready(True)
            stage = "ready"
        elif stage == "ready" and link.state == "playing" and link.my_turn:
            time.sleep(0.3)  # a move that takes time, for the rejoin's "time used"
            link.move((7, 7))
            stage = "moved"
        elif stage == "moved" and link.game.board.ply >= 2:  # the host answered: h8 was taken
            app.current._write_autosave()
            app.current.autosaver.flush()
            print("played", flush=True)
            stage = "done"
        time.sleep(0.01)


if __name__ == "__main__":
    main()
