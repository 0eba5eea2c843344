"""The review's analysis: which moves it marks, from what the searches proved."""

from __future__ import annotations

from gomoku.core.records import GameRecord
from gomoku.core.types import Rule
from gomoku.engine.api import SearchResult
from gomoku.ui.analysis import DECIDED, GameAnalysis, forced

MOVES = [(7, 7), (6, 7), (8, 7), (0, 0), (9, 7)]  # h8 g8 i8 a15 j8


def look(move=(0, 0), score=0, kind="search") -> SearchResult:
    return SearchResult(move=move, score=score, info={"kind": kind})


def analysis(*looks) -> GameAnalysis:
    record = GameRecord(rule=Rule.FREESTYLE, size=15, black="Ann", white="Bob", moves=list(MOVES))
    found = GameAnalysis(record)
    for index, value in enumerate(looks):
        found.looks[index] = value
        found._update_notes(index)
    return found


def test_only_what_a_search_proved_counts_as_forced() -> None:
    assert forced(look(kind="open four")) == forced(look(kind="vcf/vct")) == forced(look(kind="win")) == 1
    assert forced(look(score=29_990)) == 1 and forced(look(score=-29_990)) == -1
    assert forced(look(kind="longest defence")) == -1
    assert forced(look(score=4_000)) == forced(look(score=-4_000)) == forced(look(kind="block")) == 0


def test_a_win_let_go_and_a_win_handed_over_are_marked() -> None:
    found = analysis(look(), look(), look(), look(),
                     look((10, 7), kind="open four"),  # black to move could win with k8...
                     look((5, 7), kind="open four"))  # ...played j8, and now white wins
    assert found.notes == {
        4: "After a15, black wins by force.",  # white's a15 had let black's open four in
        5: "Black could win by force with k8; after j8, white wins by force.",
    }
    assert found.summary() == "Marked ?: moves 4 (a15), 5 (j8), a forced win missed or let in."


def test_a_win_kept_another_way_or_an_unsettled_position_is_not_blamed() -> None:
    kept = analysis(look(), look(), look(), look(), look((10, 7), kind="open four"),
                    look(kind="longest defence"))  # j8 also wins: white is lost after it
    assert 5 not in kept.notes
    unknown = analysis(look(), look(), look(), look((3, 3), score=800), look(score=-300))
    assert unknown.notes == {}  # nothing proved either side: no claim
    assert unknown.summary() == "No forced win missed or let in, as far as the computer looked."
    lost_already = analysis(look(), look(), look(), look(kind="longest defence"), look((1, 1), kind="vcf/vct"))
    assert 4 not in lost_already.notes  # white was lost before a15: that move lost nothing


def test_a_five_on_the_board_keeps_the_win() -> None:
    found = analysis(look(), look(), look(), look(), look((9, 7), kind="win"), DECIDED)
    assert 5 not in found.notes  # the game's move was the five itself
