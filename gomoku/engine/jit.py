"""numba's `njit` with the engine's defaults: every compiled module imports it from here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba


def njit(**options: Any) -> Callable:
    """`numba.njit(**options)` without the C-callable wrapper numba otherwise builds for every
    function (for use as a first-class function, which the engine never makes). Each caller's
    library holds a copy of its callees', wrappers included: without them LLVM gets 16% less
    code (3.88 against 4.64 million characters of IR for the whole engine)."""
    return numba.njit(no_cfunc_wrapper=True, **options)
