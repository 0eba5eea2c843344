"""The rule for outside input (gomoku.core.inputs): bounded reads, bounded JSON, printable text."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gomoku.core.inputs import (
    MAX_JSON_DEPTH,
    InputError,
    clean_text,
    json_depth,
    load_json,
    parse_clamped_int,
    read_bounded,
)


def test_read_bounded_reads_a_regular_file_up_to_its_cap(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_bounded(path, 100) == b"x" * 100
    with pytest.raises(InputError, match="too large"):
        read_bounded(path, 99)
    with pytest.raises(FileNotFoundError):
        read_bounded(tmp_path / "missing", 100)


def test_read_bounded_follows_a_symlink_to_a_regular_file_but_refuses_a_folder(tmp_path: Path) -> None:
    target = tmp_path / "real"
    target.write_bytes(b"data")
    (tmp_path / "link").symlink_to(target)
    assert read_bounded(tmp_path / "link", 10) == b"data"
    with pytest.raises(InputError, match="not a regular file"):
        read_bounded(tmp_path, 10)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_read_bounded_refuses_a_fifo_and_a_device_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_bounded(fifo, 10)  # no writer: a blocking open would hang here
    with pytest.raises(InputError, match="not a regular file"):
        read_bounded("/dev/zero", 10)


@pytest.mark.parametrize(
    ("text", "depth"),
    [("1", 0), ("[]", 1), ('{"a": [[1]]}', 3), ('"[[[["', 0), ('["]\\"[[", [2]]', 2), ('"\\\\" [ ]', 1)],
)
def test_json_depth_counts_brackets_outside_strings(text: str, depth: int) -> None:
    assert json_depth(text) == depth


def test_load_json_refuses_deep_nesting_before_parsing() -> None:
    assert load_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None
    for text in ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "[" * 100_000 + "]" * 100_000):
        with pytest.raises(InputError, match="nests deeper"):
            load_json(text)


def test_load_json_reads_numbers_out_of_bounds_as_null() -> None:
    text = '{"a": 1%s, "b": 1e999, "c": NaN, "d": -Infinity, "e": 12, "f": 0.5}' % ("0" * 5000)
    assert load_json(text) == {"a": None, "b": None, "c": None, "d": None, "e": 12, "f": 0.5}


def test_load_json_says_where_bad_json_is() -> None:
    with pytest.raises(InputError, match="not valid JSON.*line 2"):
        load_json('{"a":\n oops}')


@given(st.recursive(st.none() | st.booleans() | st.integers(-(10**15) + 1, 10**15 - 1) | st.text(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                    max_leaves=20))
def test_load_json_reads_back_what_json_writes(value: object) -> None:
    text = json.dumps(value)
    if json_depth(text) <= MAX_JSON_DEPTH:
        assert load_json(text) == value


@pytest.mark.parametrize(
    ("value", "cleaned"),
    [
        ("Ann", "Ann"),
        ("  Ann  ", "Ann"),
        ("A\x00B", "AB"),
        ("A\ud800B", "AB"),
        ("right\u202eto left", "rightto left"),  # a bidi override is a format character
        ("two\nlines\ttab", "two lines tab"),
        ("no\u00a0break", "no break"),
        ("\x00\x01", None),
        ("   ", None),
        (42, None),
        (None, None),
        ("é 名前 🙂", "é 名前 🙂"),
    ],
)
def test_clean_text_keeps_printable_characters(value: object, cleaned: str | None) -> None:
    assert clean_text(value, 64) == cleaned


def test_clean_text_caps_the_length_and_reads_little_of_a_huge_value() -> None:
    assert clean_text("x" * 10_000_000, 24) == "x" * 24
    assert clean_text("ab" + " " * 30 + "cd", 10) == "ab"  # cut, then stripped


@given(st.text(), st.integers(1, 80))
def test_clean_text_gives_drawable_text_or_none(value: str, max_chars: int) -> None:
    cleaned = clean_text(value, max_chars)
    if cleaned is not None:
        assert 0 < len(cleaned) <= max_chars and cleaned == cleaned.strip()
        assert all(char.isprintable() or char == " " for char in cleaned)
        cleaned.encode("utf-8")  # no lone surrogate
        assert clean_text(cleaned, max_chars) == cleaned


@pytest.mark.parametrize(
    ("text", "number"),
    [("42", 42), (" -3 ", 0), ("1" + "0" * 400, 1000), ("-" + "9" * 5000, 0), ("+7", 7), ("0" * 50 + "5", 5)],
)
def test_parse_clamped_int_clamps_any_length(text: str, number: int) -> None:
    assert parse_clamped_int(text, 0, 1000) == number


@pytest.mark.parametrize("text", ["", "1.5", "ten", "1e9", "--1"])
def test_parse_clamped_int_refuses_what_is_not_a_whole_number(text: str) -> None:
    with pytest.raises(InputError):
        parse_clamped_int(text, 0, 10)
