"""Small file helpers shared by settings, records and the UI's autosave (stdlib only)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` (UTF-8) to `path` so readers see the old file or the new one, never half.

    The text goes to a temporary file in the same folder, is flushed to disk, then replaces
    `path` with os.replace. Missing parent folders are created. On any error the temporary file
    is removed, `path` is left as it was, and the OSError propagates.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
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
