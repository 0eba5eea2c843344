"""Measure start-up: seconds from launching `python -m gomoku` to the first drawn menu frame.

The app, run with GOMOKU_STARTUP_PROBE=1, prints the wall-clock time of its first menu frame
and exits; this script subtracts the time it launched the process. The first run also fills
the numba cache (the engine compiles in the background and is not waited for), so it is
reported apart from the warm runs. Usage:

    .venv/bin/python tools/startup_time.py [--runs 5] [--real-display]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def one_launch(home: Path, real_display: bool) -> float:
    """Seconds from launch to the first menu frame, for one process."""
    env = dict(os.environ, GOMOKU_STARTUP_PROBE="1", GOMOKU_HOME=str(home))
    if not real_display:
        env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    launched = time.time()
    result = subprocess.run(
        [sys.executable, "-m", "gomoku", "--windowed"], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=120,
    )
    for line in result.stdout.splitlines():
        if line.startswith("first_frame_epoch "):
            return float(line.split()[1]) - launched
    raise RuntimeError(f"the app printed no first frame time:\n{result.stdout}\n{result.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description="time from launch to the first menu frame")
    parser.add_argument("--runs", type=int, default=5, help="warm launches to time (default 5)")
    parser.add_argument("--real-display", action="store_true",
                        help="use the real display and sound card instead of SDL's dummy drivers")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gomoku-startup-") as home:
        first = one_launch(Path(home), args.real_display)
        warm = [one_launch(Path(home), args.real_display) for _ in range(args.runs)]
    print(f"first launch (may fill caches): {first:.3f} s")
    print(f"warm launches: {', '.join(f'{t:.3f}' for t in warm)} s")
    print(f"warm median {statistics.median(warm):.3f} s, max {max(warm):.3f} s (target < 1.5 s)")


if __name__ == "__main__":
    main()
