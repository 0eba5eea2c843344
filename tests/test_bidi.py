"""Right-to-left names and chat (Hebrew, Arabic) on a left-to-right line: which runs go where,
by the Unicode bidirectional algorithm. The drawing itself is tested in test_fonts.py."""

from __future__ import annotations

import pytest

from gomoku.ui.bidi import has_rtl, script_of, visual_runs


def shown(text: str) -> str:
    """The characters left to right as they stand on screen (a right-to-left run reversed)."""
    return "".join(run[::-1] if rtl else run for run, rtl in visual_runs(text))


@pytest.mark.parametrize("text, on_screen", [
    ("Bob", "Bob"),
    ("שלום", "םולש"),
    ("Bob vs שלום", "Bob vs םולש"),
    ("שלום עולם", "םלוע םולש"),  # the first word on the right
    ("Bob vs שלום 12", "Bob vs 12 םולש"),  # digits after Hebrew stand to its left, in order
    ("שלום 12 עולם", "םלוע 12 םולש"),
    ("x אב.גד y", "x דג.בא y"),
    ("ab 5% שלום", "ab 5% םולש"),
    ("מחיר 3.5", "3.5 ריחמ"),  # a number with its point stays one number
])
def test_text_stands_on_screen_as_a_reader_of_its_script_expects(text: str, on_screen: str) -> None:
    assert shown(text) == on_screen


def test_brackets_stay_a_pair_around_a_number_in_hebrew() -> None:
    # Before the pair rule the closing bracket drifted to the far end: "12) םולש)".
    runs = visual_runs("שלום (12)")
    assert [rtl for _, rtl in runs] == [True, False, True]
    assert runs[1][0] == "12" and runs[0][0] == ")" and runs[2][0] == "שלום ("  # ")" drawn mirrored: "("


def test_arabic_digits_after_arabic_letters_keep_their_order() -> None:
    assert shown("سلام 2026") == "2026 مالس"


def test_left_to_right_text_is_one_run_untouched() -> None:
    for text in ("Player", "王小明", "Ann (guest)", "", "é ü ß"):
        assert visual_runs(text) == [(text, False)]
        assert not has_rtl(text)


def test_the_script_a_run_is_shaped_in() -> None:
    assert script_of("שלום") == "Hebr" and script_of("مرحبا") == "Arab" and script_of("سلام دنیا") == "Arab"
