"""Where right-to-left text (Hebrew, Arabic) stands on a left-to-right line.

Names and chat may be written in a right-to-left script. Drawn as stored (in reading order)
their letters came out backwards. `visual_runs` cuts a text into runs of one direction, in
the order they stand on screen, by the Unicode bidirectional algorithm (UAX #9) for one
left-to-right line without explicit embeddings (rules W1-W7, N0-N2, I1-I2, L2); each
right-to-left run is then drawn by the font's own shaping in that direction (theme.py).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

STRONG_RTL = ("R", "AL")
NUMBERS = ("EN", "AN")
BRACKETS = {"(": ")", "[": "]", "{": "}", "\u00ab": "\u00bb", "\u2039": "\u203a"}
MAX_BRACKET_DEPTH = 63  # as UAX #9's BD16: deeper nesting pairs nothing


def has_rtl(text: str) -> bool:
    """True if `text` holds a right-to-left letter (nothing below U+0590 is one)."""
    return any(char >= "\u0590" and unicodedata.bidirectional(char) in STRONG_RTL for char in text)


RLM = "\u200f"  # the right-to-left mark: a strong right-to-left character that draws nothing


def ends_right_to_left(text: str) -> bool:
    """True if the last letter of `text` that has a direction reads right to left: an
    ellipsis after it belongs to its left end (with RLM after the dots)."""
    for char in reversed(text):
        kind = unicodedata.bidirectional(char)
        if kind in STRONG_RTL:
            return True
        if kind == "L":
            return False
    return False


def _stretches(items: list[Any], member: Callable[[Any], bool]) -> Iterator[tuple[int, int]]:
    """(start, end) of each longest stretch of `items` that are `member`s, in order (the
    caller may change a stretch's items once it has it)."""
    i = 0
    while i < len(items):
        if not member(items[i]):
            i += 1
            continue
        j = i
        while j < len(items) and member(items[j]):
            j += 1
        yield i, j
        i = j


def _types(text: str) -> list[str]:
    """Each character's resolved bidi type: L, R, EN, AN or N (a neutral), rules W1 to W7."""
    types = [unicodedata.bidirectional(char) for char in text]
    last_strong = "L"  # sos: the line's own direction
    for i, kind in enumerate(types):
        if kind == "NSM":  # W1: a combining mark is what it combines with
            kind = types[i - 1] if i > 0 else "L"
        if kind == "EN" and last_strong == "AL":  # W2: digits after Arabic letters are Arabic
            kind = "AN"
        if kind in ("L", "R", "AL"):
            last_strong = kind
        types[i] = kind
    types = ["R" if kind == "AL" else kind for kind in types]  # W3
    for i in range(1, len(types) - 1):  # W4: one separator between two numbers of a kind
        before, kind, after = types[i - 1], types[i], types[i + 1]
        if before == after == "EN" and kind in ("ES", "CS") or before == after == "AN" and kind == "CS":
            types[i] = before
    for i, j in _stretches(types, lambda kind: kind == "ET"):  # W5: a % or currency sign by digits
        if (i > 0 and types[i - 1] == "EN") or (j < len(types) and types[j] == "EN"):
            types[i:j] = ["EN"] * (j - i)
    last_strong = "L"
    for i, kind in enumerate(types):  # W6 and W7
        if kind in ("L", "R"):
            last_strong = kind
        elif kind == "EN" and last_strong == "L":
            types[i] = "L"
        elif kind not in NUMBERS:
            types[i] = "N"
    return types


def _bracket_pairs(text: str) -> list[tuple[int, int]]:
    """The opening and closing brackets that match (BD16), by position."""
    pairs, stack = [], []
    for i, char in enumerate(text):
        if char in BRACKETS:
            if len(stack) == MAX_BRACKET_DEPTH:
                return []
            stack.append((BRACKETS[char], i))
        elif char in BRACKETS.values():
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == char:
                    pairs.append((stack[depth][1], i))
                    del stack[depth:]
                    break
    return sorted(pairs)


def _pair_brackets(text: str, types: list[str]) -> None:
    """N0: a bracket pair takes one direction, so "(12)" after Hebrew letters stays whole."""
    for opening, closing in _bracket_pairs(text):
        inside = {"L" if kind == "L" else "R" for kind in types[opening + 1:closing] if kind != "N"}
        if "L" in inside:
            direction = "L"
        elif "R" in inside:
            before = next((kind for kind in reversed(types[:opening]) if kind != "N"), "L")
            direction = "L" if before == "L" else "R"
        else:
            continue
        types[opening] = types[closing] = direction


def _levels(text: str, types: list[str]) -> list[int]:
    """Embedding levels on a left-to-right line: N0, N1 and N2 for the neutrals, then I1."""
    resolved = list(types)
    _pair_brackets(text, resolved)
    for i, j in _stretches(resolved, lambda kind: kind == "N"):
        before = "L" if i == 0 else ("R" if resolved[i - 1] in ("R", *NUMBERS) else "L")
        after = "L" if j == len(resolved) else ("R" if resolved[j] in ("R", *NUMBERS) else "L")
        resolved[i:j] = [before if before == after else "L"] * (j - i)  # N1, else N2
    return [0 if kind == "L" else 1 if kind == "R" else 2 for kind in resolved]


def visual_spans(text: str) -> list[tuple[int, int, bool]]:
    """`text` as spans (start, end, right_to_left) of one direction, left to right as they
    stand on screen; each span's characters are still in reading order."""
    if not text or not has_rtl(text):
        return [(0, len(text), False)]
    levels = _levels(text, _types(text))
    runs: list[tuple[int, int, int]] = []  # (start, end, level) in reading order
    for i, level in enumerate(levels):
        if runs and runs[-1][2] == level:
            runs[-1] = (runs[-1][0], i + 1, level)
        else:
            runs.append((i, i + 1, level))
    for lowest in range(max(levels), 0, -1):  # L2: reverse every stretch at this level or above
        for i, j in _stretches(runs, lambda run, lowest=lowest: run[2] >= lowest):
            runs[i:j] = runs[i:j][::-1]
    return [(start, end, level % 2 == 1) for start, end, level in runs]


def visual_runs(text: str) -> list[tuple[str, bool]]:
    """`visual_spans` as the runs' texts: a text without a right-to-left letter is one
    left-to-right run."""
    return [(text[start:end], rtl) for start, end, rtl in visual_spans(text)]


def script_of(run: str) -> str:
    """The ISO 15924 code a right-to-left run is shaped as: Arabic letters join, Hebrew's do not."""
    if any("\u0600" <= char <= "\u08ff" or "\ufb50" <= char <= "\ufeff" for char in run):
        return "Arab"
    if any("\u0590" <= char <= "\u05ff" or "\ufb1d" <= char <= "\ufb4f" for char in run):
        return "Hebr"
    return "Zzzz"  # another right-to-left script: let the shaper find out
