"""The AI: pattern tables, evaluation and search (numba lives here only), on the rules core.

Importing this package points numba's cache at a folder of the user cache named by a hash of
the engine's sources (unless NUMBA_CACHE_DIR is set). Compiled functions inline code from
other files, and numba checks only a function's own file before reusing its cache: without
this, a change to threats.py could leave search.py running the old code. The user cache is
also writable when the package folder is not. If the folder cannot be written (a read-only
home) or, unless NUMBA_CACHE_DIR named it, holds no complete cache and has too little room on
its disk for one, a fresh private temporary folder is used for this run, and if there is none
with room, the engine compiles without a cache; either way with a warning on stderr.

numba raises on a cache file it cannot read (truncated, damaged on disk) at every start, and on
one it cannot write (the disk filled up): the computer player could never start again. Here a
file it cannot read counts as missing: the function compiles again and numba writes the file
anew. Within `strict_cache_loads` (a load that must not compile: the game's and the brain's,
with the GIL held) it raises `CacheLoadError` instead, as for a function not in the cache
(compiled for another processor, a file deleted), and the caller prepares the cache again in
child processes. A file it cannot write is left out, with a warning.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numba
import numba.core.caching
import numba.core.dispatcher

# (outside this package: the app finds the cache with it before importing numba)
from gomoku import engine_cache
from gomoku.engine_cache import engine_cache_dir

CACHE_ROOM = 16 * 2**20
"""Free bytes a cache folder's disk needs for a preparation (the compiled engine takes 2 MB)."""


def writable_folder(folder: Path) -> str | None:
    """None if files can be created in `folder` (made if missing), else why not in words."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return error.strerror or str(error)
    return None


def cache_folder_problem(folder: Path, check_room: bool = True) -> str | None:
    """None if the engine can keep its cache in `folder`, else why not in words: it cannot be
    written, or (`check_room`) its disk has too little room for a cache it does not hold
    complete already."""
    why = writable_folder(folder)
    if why is not None or not check_room:
        return why
    if engine_cache.prepared_in(folder, numba.__version__):
        return None  # loaded, not written
    try:
        free = shutil.disk_usage(folder).free
    except OSError:  # (not known: let numba try)
        return None
    if free < CACHE_ROOM:
        return f"{free // 2**20} MB free on its disk, {CACHE_ROOM // 2**20} MB needed"
    return None


def _private_temporary_folder() -> str | None:
    """A fresh folder with room for the cache, removed at exit; None if there is none.

    Private (mode 0700): a shared, predictable folder could be filled by another user with
    compiled code for us to load."""
    try:
        folder = tempfile.mkdtemp(prefix="gomoku-numba-")
    except OSError:
        return None
    if cache_folder_problem(Path(folder)) is not None:
        shutil.rmtree(folder, ignore_errors=True)
        return None
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _use_cache_folder(wanted: Path, chosen: bool) -> None:
    """Point numba at `wanted`, or at a fallback (see the module docstring). A folder `chosen`
    by NUMBA_CACHE_DIR is used if it can be written: so are the preparing children sure to
    compile into their parent's folder, whatever room is left when each starts."""
    why = cache_folder_problem(wanted, check_room=not chosen)
    if why is None:
        numba.config.CACHE_DIR = str(wanted)
        return
    fallback = _private_temporary_folder()
    if fallback is None:
        # No folder at all: compile without a cache (numba would refuse cache=True functions).
        numba.core.dispatcher.Dispatcher.enable_caching = lambda self: None  # type: ignore[method-assign]
        sys.stderr.write(f"gomoku: cannot keep the engine cache in {wanted} ({why}); "
                         "compiling without a cache, every start will compile again\n")
        return
    numba.config.CACHE_DIR = fallback
    sys.stderr.write(f"gomoku: cannot keep the engine cache in {wanted} ({why}); "
                     f"using {fallback} for this run, so the next start compiles again\n")


# NUMBA_CACHE_DIR, when set, wins (if it can be written).
_use_cache_folder(Path(numba.config.CACHE_DIR or engine_cache_dir(Path(__file__).parent)),
                  chosen=bool(numba.config.CACHE_DIR))


class CacheLoadError(RuntimeError):
    """A compiled function is missing from the engine's numba cache, or its file cannot be
    read (raised within `strict_cache_loads`)."""


_strict = threading.local()


@contextlib.contextmanager
def strict_cache_loads() -> Iterator[None]:
    """Within it (on this thread), a function the cache cannot give raises CacheLoadError."""
    _strict.on = True
    try:
        yield
    finally:
        _strict.on = False


def _read_or_missing(read: Callable[..., Any], missing: Callable[[], Any]) -> Callable[..., Any]:
    """`read` (a numba cache reader), with a file it cannot read taken as `missing()`."""

    @functools.wraps(read)
    def read_or_missing(self: Any, *args: Any) -> Any:
        strict = getattr(_strict, "on", False)
        try:
            found = read(self, *args)
        except CacheLoadError:  # (an index read within an overload's read)
            raise
        except Exception as error:
            if strict:
                raise CacheLoadError(f"{type(error).__name__}: {error}") from error
            sys.stderr.write(f"gomoku: a damaged engine cache file ({type(error).__name__}: "
                             f"{error}); compiling it again\n")
            return missing()
        if found is None and strict:  # (only an overload's read answers None: not cached)
            name = getattr(getattr(self, "_py_func", None), "__qualname__", "a function")
            raise CacheLoadError(f"{name} is not in the cache")
        return found

    return read_or_missing


_save_failed = threading.Event()  # (said once: a full disk fails every function's save)


def _save_or_warn(save: Callable[..., None]) -> Callable[..., None]:
    """numba's `save_overload`, with a failure left at a warning: the function has compiled,
    only its copy in the cache is lost (numba removes the file it began)."""

    @functools.wraps(save)
    def save_or_warn(self: Any, *args: Any) -> None:
        try:
            save(self, *args)
        except Exception as error:
            if not _save_failed.is_set():
                _save_failed.set()
                sys.stderr.write(f"gomoku: cannot write the engine cache ({error}); "
                                 "the next start compiles again what is missing\n")

    return save_or_warn


# numba's cache reader and writer of a compiled function, and its private reader of a
# function's index; a numba without them is left as it is.
_index_files, _caches = numba.core.caching.IndexDataCacheFile, numba.core.caching.Cache
if hasattr(_index_files, "_load_index") and hasattr(_caches, "load_overload"):
    _index_files._load_index = _read_or_missing(_index_files._load_index, dict)  # type: ignore[method-assign]
    _caches.load_overload = _read_or_missing(_caches.load_overload, lambda: None)  # type: ignore[method-assign]
if hasattr(_caches, "save_overload"):
    _caches.save_overload = _save_or_warn(_caches.save_overload)  # type: ignore[method-assign]
