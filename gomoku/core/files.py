"""Small file helpers shared by settings, records and the UI's autosave (stdlib only)."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

STALE_TEMP_S = 3600.0
"""A temporary file this old was left by a save that was interrupted (kill, power cut)."""


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` (UTF-8) to `path` so readers see the old file or the new one, never half.

    The text goes to a temporary file in the same folder, is flushed to disk, then replaces
    `path` with os.replace. Missing parent folders are created. On any error the temporary file
    is removed, `path` is left as it was, and the OSError propagates. Temporary files of the
    same target over STALE_TEMP_S old (from a save killed half-way) are removed first.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(target)
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, target)
    except BaseException:
        # Whatever went wrong, the half-written temporary file must not stay behind.
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise


def remove_stale_temps(target: Path, older_than_s: float = STALE_TEMP_S) -> int:
    """Remove `.<name>.*.tmp` files next to `target` not modified for `older_than_s` seconds.

    Returns how many were removed. Younger ones may belong to a save in progress and are left;
    errors (a folder that cannot be listed, a file already gone) are ignored.
    """
    prefix, removed = f".{target.name}.", 0
    deadline = time.time() - older_than_s
    try:
        candidates = [entry for entry in os.scandir(target.parent)
                      if entry.name.startswith(prefix) and entry.name.endswith(".tmp")]
    except OSError:
        return 0
    for entry in candidates:
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < deadline:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed
