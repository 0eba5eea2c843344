"""`gomoku` and `python -m gomoku`: parse the command line and run the app."""

from __future__ import annotations

import logging
import os
import sys


def main(argv: list[str] | None = None) -> int:
    """Run the game (or `gomoku serve ...`, a host without a window); returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["serve"]:
        from gomoku.serve import main as serve

        return serve(args[1:])
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before pygame is first imported
    logging.basicConfig(level=logging.WARNING, format="gomoku: %(levelname)s: %(message)s")
    import pygame

    from gomoku.ui.app import App, parse_args

    options = parse_args(argv)
    try:
        app = App(options)
    except pygame.error as error:  # no screen (e.g. over ssh): say so plainly
        print(f"gomoku: cannot open a window ({error}). Run it on a desktop, or use "
              "--screenshot FILE to render without a screen.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C while the window was opening: nothing to save yet
        return 130
    from gomoku.signals import quit_on_signals

    # As the window's close button does: the game autosaved, a LAN opponent told goodbye.
    quit_on_signals(lambda: pygame.event.post(pygame.event.Event(pygame.QUIT)))
    try:
        return app.run()  # closes the app however the loop ends
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
