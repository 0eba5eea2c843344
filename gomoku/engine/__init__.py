"""The AI: pattern tables, evaluation and search (numba lives here only), on the rules core.

Importing this package points numba's cache at a folder of the user cache named by a hash of
the engine's sources (unless NUMBA_CACHE_DIR is set). Compiled functions inline code from
other files, and numba checks only a function's own file before reusing its cache: without
this, a change to threats.py could leave search.py running the old code. The user cache is
also writable when the package folder is not. If the chosen folder cannot be written (a
read-only home, a full disk), a fresh private temporary folder is used for this run, and if
there is none, the engine compiles without a cache; either way with a warning on stderr.
"""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
from pathlib import Path

import numba
import numba.core.dispatcher

# (outside this package: the app finds the cache with it before importing numba)
from gomoku.engine_cache import engine_cache_dir


def writable_folder(folder: Path) -> str | None:
    """None if files can be created in `folder` (made if missing), else why not in words."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return error.strerror or str(error)
    return None


def _use_cache_folder(wanted: Path) -> None:
    """Point numba at `wanted`, or at a fallback (see the module docstring)."""
    why = writable_folder(wanted)
    if why is None:
        numba.config.CACHE_DIR = str(wanted)
        return
    try:
        # Fresh and private (mode 0700): a shared, predictable folder could be filled by
        # another user with compiled code for us to load.
        fallback = tempfile.mkdtemp(prefix="gomoku-numba-")
    except OSError:
        # No folder at all: compile without a cache (numba would refuse cache=True functions).
        numba.core.dispatcher.Dispatcher.enable_caching = lambda self: None  # type: ignore[method-assign]
        sys.stderr.write(f"gomoku: cannot write the engine cache in {wanted} ({why}); "
                         "compiling without a cache, every start will compile again\n")
        return
    atexit.register(shutil.rmtree, fallback, ignore_errors=True)
    numba.config.CACHE_DIR = fallback
    sys.stderr.write(f"gomoku: cannot write the engine cache in {wanted} ({why}); "
                     f"using {fallback} for this run, so the next start compiles again\n")


# NUMBA_CACHE_DIR, when set, wins (if it can be written).
_use_cache_folder(Path(numba.config.CACHE_DIR or engine_cache_dir(Path(__file__).parent)))
