"""Everything read from outside goes through here: one rule, stdlib only.

The rule: a file is read only if it is a regular file, and never more than its cap; JSON is
parsed only when its nesting is shallow and its numbers are short and finite; text meant for
the screen keeps printable characters only and is cut to a length. Each refusal is an
InputError (a ValueError) with a plain message. Files, settings, the Gomocup brain's input
and the LAN layer use these helpers; none of them raises anything else for bad input.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from itertools import accumulate
from typing import Any

MAX_JSON_DEPTH = 32  # our own files nest 3 deep; a hostile one can nest 100,000 deep
MAX_NUMBER_DIGITS = 15  # 10**15 ms is 31,000 years: every real figure fits, no float overflows
MAX_NUMBER_CHARS = 40  # a float's text (digits, sign, point, exponent)

_JSON_ESCAPE = re.compile(r"\\.", re.S)
_JSON_STRING = re.compile(r'"[^"]*"')  # once escapes are gone: no backtracking, linear time
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_INTEGER = re.compile(r"[+-]?\d+")


class InputError(ValueError):
    """Outside input refused by the rule; the message says why in plain words."""


def read_bounded(path: str | os.PathLike[str], cap: int) -> bytes:
    """The bytes of the regular file at `path` (symlinks followed), at most `cap` of them.

    Raises InputError for a FIFO, device, folder or socket (never opened for a read that could
    hang or never end) and for a file over `cap` bytes (at most cap + 1 bytes are read);
    OSError if it cannot be opened or read (FileNotFoundError when missing).
    """
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise InputError("it is not a regular file")
    # O_NONBLOCK: a FIFO swapped in after the check above must not block the open.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError("it is not a regular file")
        chunks: list[bytes] = []
        left = cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > cap:
        raise InputError(f"it is too large (over {_size_words(cap)})")
    return data


def json_depth(text: str) -> int:
    """How deep the brackets of JSON `text` nest, strings left out (linear time, no recursion).

    Does not check that `text` is valid JSON.
    """
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", _JSON_ESCAPE.sub("", text)))
    return max(accumulate(map(_STEP.__getitem__, brackets), initial=0))


def load_json(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON `text` with bounded nesting and bounded numbers.

    Raises InputError if it is not valid JSON or nests deeper than `max_depth`. A number out
    of bounds (an integer of over MAX_NUMBER_DIGITS digits, NaN, Infinity, 1e999, a float
    written with over MAX_NUMBER_CHARS characters) reads as None, so the field holding it is
    refused by that field's own check, like any wrong value, and the rest of the file is kept.
    Does not limit the text's length: callers read it through read_bounded.
    """
    if json_depth(text) > max_depth:
        raise InputError(f"its JSON nests deeper than {max_depth} levels")
    try:
        return json.loads(
            text, parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant
        )
    except RecursionError:  # json_depth makes this unreachable; kept as a second guard
        raise InputError("its JSON nests too deeply") from None
    except json.JSONDecodeError as error:
        raise InputError(f"it is not valid JSON ({error.msg}, line {error.lineno})") from None


def _bounded_int(text: str) -> int | None:
    return int(text) if len(text.lstrip("-")) <= MAX_NUMBER_DIGITS else None


def _bounded_float(text: str) -> float | None:
    value = float(text) if len(text) <= MAX_NUMBER_CHARS else math.nan
    return value if math.isfinite(value) else None


def _no_constant(text: str) -> None:
    return None  # NaN, Infinity, -Infinity: Python's json accepts them, the standard does not


def parse_clamped_int(text: str, low: int, high: int) -> int:
    """A whole number written in decimal, clamped into [low, high] (any number of digits).

    Raises InputError if `text` (spaces stripped) is not an optional sign and digits.
    Never calls int() on more than MAX_NUMBER_DIGITS digits.
    """
    text = text.strip()
    if _INTEGER.fullmatch(text) is None:
        raise InputError(f"{text[:20]!r} is not a whole number")
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > MAX_NUMBER_DIGITS:
        return low if text.startswith("-") else high
    return min(high, max(low, int(text)))


def clean_text(value: object, max_chars: int) -> str | None:
    """`value` as text fit to draw: printable characters only, stripped, at most `max_chars`.

    Whitespace of any kind (tabs, line breaks, no-break spaces) becomes a plain space; other
    characters str.isprintable refuses (control and format characters, lone surrogates,
    unassigned code points) are dropped. None if `value` is not a str or nothing printable is
    left. Reads at most about max_chars characters past the leading junk; never raises.
    """
    if not isinstance(value, str) or max_chars <= 0:
        return None
    if len(value) <= max_chars and value.isprintable():
        return value.strip() or None
    kept: list[str] = []
    for char in value:
        if char.isprintable():
            kept.append(char)
        elif char.isspace():
            if kept:  # leading whitespace is dropped as it comes
                kept.append(" ")
        else:
            continue
        if len(kept) > max_chars:
            break
    text = "".join(kept[:max_chars]).strip()
    return text or None


def _size_words(cap: int) -> str:
    return f"{cap // (1024 * 1024)} MiB" if cap >= 1024 * 1024 else f"{max(1, cap // 1024)} KiB"
