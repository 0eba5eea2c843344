"""`gomoku` and `python -m gomoku`: parse the command line and run the app."""

from __future__ import annotations

import logging
import os
import sys


def main(argv: list[str] | None = None) -> int:
    """Run the game; returns the process exit code."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before pygame is first imported
    logging.basicConfig(level=logging.WARNING, format="gomoku: %(levelname)s: %(message)s")
    from gomoku.ui.app import App, parse_args

    options = parse_args(argv)
    try:
        return App(options).run()
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
