"""Records: own format and Piskvork .psq round trips, common .psq variants, clear errors."""

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gomoku.core import Board, Color, IllegalMoveError, Reason, Rule
from gomoku.core.clock import Clock, TimeControl
from gomoku.core.game import Game, PlayerInfo
from gomoku.core.inputs import clean_text
from gomoku.core.records import (
    MAX_RECORD_NAME,
    GameRecord,
    RecordError,
    export_psq,
    format_record,
    from_game,
    import_psq,
    load_record,
    parse_record,
    save_record,
    to_game,
)

# --- strategies ------------------------------------------------------------------------------


@st.composite
def records(draw: st.DrawFn, rules: tuple[Rule, ...] = tuple(Rule)) -> GameRecord:
    """A legal game of random length on a random size, ending however it ends."""
    size = draw(st.integers(15, 20))
    rule = draw(st.sampled_from(rules))
    board = Board(size, rule)
    wanted = draw(st.integers(0, 60))
    while board.ply < wanted and not board.is_game_over():
        # Play near the centre so fives happen sometimes.
        x = draw(st.integers(max(0, size // 2 - 4), min(size - 1, size // 2 + 4)))
        y = draw(st.integers(max(0, size // 2 - 4), min(size - 1, size // 2 + 4)))
        if board.is_legal(x, y):
            board.push(x, y)
        elif draw(st.integers(0, 9)) == 0:
            break
    times = [
        ms / 1000
        for ms in draw(st.lists(st.integers(0, 600_000), min_size=board.ply, max_size=board.ply))
    ]
    outcome = board.outcome()
    if outcome is not None:
        result = outcome.winner.label if outcome.winner else "draw"
        reason = outcome.reason.value
    else:
        result, reason = draw(
            st.sampled_from(
                [("", ""), ("black", "resign"), ("white", "timeout"), ("black", "disconnect")]
            )
        )
    return GameRecord(
        rule=rule,
        size=size,
        black=draw(st.text(min_size=1, max_size=20)),
        white=draw(st.text(min_size=1, max_size=20)),
        moves=list(board.moves),
        times=times,
        result=result,
        reason=reason,
        date=draw(st.sampled_from(["", "2026-11-22T06:00:00+00:00"])),
        extra=draw(
            st.dictionaries(
                st.text(max_size=5),
                st.integers(-(10**15) + 1, 10**15 - 1) | st.text(max_size=5) | st.none(),
                max_size=3,
            )
        ),
    )


def as_loaded(record: GameRecord) -> GameRecord:
    """`record` as loading gives it back: names cleaned to printable text (else the defaults)."""
    return replace(
        record,
        black=clean_text(record.black, MAX_RECORD_NAME) or "Black",
        white=clean_text(record.white, MAX_RECORD_NAME) or "White",
    )


SLOW_OK = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


# --- own format --------------------------------------------------------------------------------


@SLOW_OK
@given(records())
def test_own_format_round_trips_through_a_file(tmp_path: Path, record: GameRecord) -> None:
    path = tmp_path / "game.gomoku"
    save_record(record, path)
    loaded = load_record(path)
    # Times are whole milliseconds, so they survive exactly; names come back cleaned.
    assert loaded == as_loaded(record)


def test_own_format_reads_like_a_score_sheet() -> None:
    record = GameRecord(
        rule=Rule.RENJU,
        size=15,
        black="Ann",
        white="Computer",
        moves=[(7, 7), (8, 6)],
        times=[2.35, 0.5],
        date="2026-11-22T06:00:00+00:00",
        extra={"mode": "ai"},
    )
    text = format_record(record)
    assert text.splitlines()[:6] == [
        "Gomoku record 1",
        "Rule: renju",
        "Size: 15",
        "Black: Ann",
        "White: Computer",
        "Result: ",
    ]
    assert text.splitlines()[-3:] == ["Moves:", "1. h8 2.350", "2. i9 0.500"]


def test_hand_written_record_with_comments_and_loose_spacing() -> None:
    text = "Gomoku record 1\n# a game from the club\nrule: Standard\nSIZE: 15\nBlack: Eve\n\nMoves:\n1. H8\n 2) i9 3s\n3 j10 1.5\n"
    record = parse_record(text)
    assert record.rule is Rule.STANDARD and record.black == "Eve" and record.white == "White"
    assert record.moves == [(7, 7), (8, 6), (9, 5)] and record.times == [0.0, 3.0, 1.5]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "not a Gomoku record"),
        ("Piskvorky? no\n", 1, "not a Gomoku record"),
        ("Gomoku record 9\nRule: freestyle\nSize: 15\n", 1, "newer version"),
        ("Gomoku record 1\nRule: freestyle\nSize: 15\nMoves:\n1. h8\n2. h8\n", 6, "already taken"),
        (
            "Gomoku record 1\nRule: freestyle\nSize: 15\nMoves:\n1. h8\n3. h9\n",
            6,
            "expected move number 2",
        ),
        (
            "Gomoku record 1\nRule: freestyle\nSize: 15\nMoves:\n1. z9\n",
            5,
            "'z9' is off a 15x15 board",
        ),
        (
            "Gomoku record 1\nRule: freestyle\nSize: 15\nMoves:\n1. h8 soon\n",
            5,
            "not a number of seconds",
        ),
        (
            "Gomoku record 1\nRule: freestyle\nSize: 15\nMoves:\n1. h8\nbanana\n",
            6,
            "expected a move",
        ),
        ("Gomoku record 1\nRule: gomoku-pro\nSize: 15\n", 2, "unknown rule"),
        ("Gomoku record 1\nRule: freestyle\nSize: 30\n", 3, "size must be 15 to 20"),
        (
            "Gomoku record 1\nRule: freestyle\nSize: 15\nthis is not a header\n",
            4,
            "expected a header",
        ),
        ("Gomoku record 1\nSize: 15\nMoves:\n", 3, "Rule header is missing"),
        ("Gomoku record 1\nRule: freestyle\nSize: 15\nExtra: {oops\nMoves:\n", 4, "not valid JSON"),
        (
            "Gomoku record 1\nRule: freestyle\nSize: 15\nResult: black\nReason: five\nMoves:\n1. h8\n",
            4,
            "do not end the game",
        ),
        (
            "Gomoku record 1\nRule: freestyle\nSize: 15\nResult: purple\n",
            4,
            "black, white, draw or empty",
        ),
    ],
)
def test_damaged_own_records_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"line {line}: ")
    assert words in str(caught.value)


def test_moves_after_a_five_are_refused_with_their_line() -> None:
    moves = "".join(
        f"{n}. {p}\n"
        for n, p in enumerate(["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1", "e2"], 1)
    )
    with pytest.raises(RecordError) as caught:
        parse_record("Gomoku record 1\nRule: freestyle\nSize: 15\nMoves:\n" + moves)
    assert caught.value.line == 14 and "game is already over" in str(caught.value)


def test_a_damaged_file_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "broken.gomoku"
    original = b"Gomoku record 1\nRule: freestyle\nSize: 15\nMoves:\n1. h8\n2. h8\n"
    path.write_bytes(original)
    with pytest.raises(RecordError, match="line 6"):
        load_record(path)
    assert path.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.gomoku"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Gomoku record " + "1" * 5000 + "\nRule: freestyle\nSize: 15\n", "version number"),  # past int()'s digit limit
        ("Gomoku record 1\nRule: freestyle\nSize: 15\nMoves:\n" + "1" * 5000 + ". h8\n", "expected move number 1"),
        ("Piskvorky 15x15, 0:0, 0\n8,8," + "9" * 400 + "\n", "out of range"),  # too large for a float
        ("Piskvorky " + "1" * 5000 + "x15, 0:0, 0\n8,8,0\n", "out of range"),
    ],
)
def test_absurd_numbers_are_a_record_error(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "absurd.gomoku"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError, match=words):
        load_record(path)


def test_a_file_too_large_for_a_record_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "movie.psq"
    path.write_bytes(b"Piskvorky 15x15, 0:0, 0\n" + b" " * (2 * 1024 * 1024))
    with pytest.raises(RecordError, match="too large"):
        load_record(path)


def test_saving_a_bad_record_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "game.gomoku"
    good = GameRecord(moves=[(7, 7)], times=[1.0])
    save_record(good, path)
    before = path.read_bytes()
    for bad in (
        GameRecord(moves=[(7, 7), (7, 7)], times=[0.0, 0.0]),  # illegal
        GameRecord(moves=[(7, 7)], times=[]),  # times missing
        GameRecord(moves=[(7, 7)], times=[-1.0]),  # would not load back
        GameRecord(moves=[(7, 7)], times=[1.0], result="white", reason="five"),  # contradicts
        GameRecord(moves=[(7, 7)], times=[1.0], extra={"x": object()}),  # not JSON
    ):
        with pytest.raises(RecordError):
            save_record(bad, path)
        assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.gomoku"]


def test_foreign_files_are_refused_plainly(tmp_path: Path) -> None:
    path = tmp_path / "photo.gomoku"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(RecordError, match="line 1"):
        load_record(path)
    path.write_text('[Event "chess"]\n1. e4 e5\n', encoding="utf-8")
    with pytest.raises(RecordError, match="not a game record"):
        load_record(path)


# --- games <-> records -------------------------------------------------------------------------


def test_game_to_record_and_back_keeps_players_clock_and_result() -> None:
    game = Game(
        Board(17, Rule.FREESTYLE),
        PlayerInfo("Ann"),
        PlayerInfo("Computer", "ai", "hard"),
        Clock(TimeControl(game_s=300, increment_s=2)),
    )
    game.start(0.0)
    for now, (x, y) in enumerate([(8, 8), (9, 9), (8, 9)], start=1):
        game.play(x, y, float(now * 2))
    record = from_game(game, now=10.0)
    assert record.times == [2.0, 2.0, 2.0] and record.result == ""
    restored = to_game(parse_record(format_record(record)))
    assert restored.board.moves == game.board.moves and restored.board.size == 17
    assert restored.player(Color.WHITE) == PlayerInfo("Computer", "ai", "hard")
    assert restored.to_move is Color.WHITE and restored.move_times == game.move_times
    restored.start(100.0)
    assert restored.clock.remaining(Color.WHITE, 100.0) == pytest.approx(
        game.clock.remaining(Color.WHITE, 10.0)
    )
    assert restored.clock.remaining(Color.BLACK, 100.0) == pytest.approx(
        game.clock.remaining(Color.BLACK, 10.0)
    )


def test_a_resigned_game_comes_back_resigned() -> None:
    game = Game(Board(), PlayerInfo("A"), PlayerInfo("B"))
    game.play(7, 7, 1.0)
    game.resign(Color.WHITE, 2.0)
    restored = to_game(parse_record(format_record(from_game(game))))
    assert restored.result is not None and restored.result.winner is Color.BLACK
    assert restored.result.reason is Reason.RESIGN
    with pytest.raises(IllegalMoveError):
        restored.play(0, 0, 3.0)


def test_a_finished_five_round_trips() -> None:
    game = Game(Board(), PlayerInfo("A"), PlayerInfo("B"))
    for i in range(4):
        game.play(i, 0, 1.0)
        game.play(i, 5, 1.0)
    game.play(4, 0, 1.0)
    record = from_game(game)
    assert (record.result, record.reason) == ("black", "five")
    assert to_game(parse_record(format_record(record))).result == game.result


# --- Piskvork .psq -------------------------------------------------------------------------------


@SLOW_OK
@given(records())
def test_psq_round_trips_moves_size_and_times(tmp_path: Path, record: GameRecord) -> None:
    text = export_psq(record)
    loaded = import_psq(text, rule=record.rule)
    assert loaded.moves == record.moves and loaded.size == record.size
    assert loaded.times == record.times
    if record.reason in ("five", "full_board"):
        assert (loaded.result, loaded.reason) == (record.result, record.reason)
    path = tmp_path / "game.psq"
    save_record(record, path)
    assert path.read_text(encoding="utf-8").startswith(f"Piskvorky {record.size}x{record.size}, ")
    from_file = load_record(path)
    assert from_file.moves == record.moves and from_file.rule is record.rule


def test_piskvork_file_as_written_by_piskvork() -> None:
    text = "Piskvorky 20x20, 11:11, 0\r\n10,10,1500\r\n11,11,800\r\n10,11,0\r\npbrain-a.exe\r\npbrain-b.exe\r\n0\r\n"
    record = import_psq(text)
    assert record.size == 20 and record.rule is Rule.FREESTYLE
    assert record.moves == [(9, 9), (10, 10), (9, 10)]
    assert record.times == [1.5, 0.8, 0.0]
    assert (record.black, record.white) == ("pbrain-a.exe", "pbrain-b.exe")
    assert record.result == ""


def test_psq_header_saying_the_second_player_began_swaps_the_names() -> None:
    record = import_psq("Piskvorky 15x15, 0:0, 1\n8,8,0\nhomo-1\nhomo-2\n0\n")
    assert (record.black, record.white) == ("homo-2", "homo-1")


@pytest.mark.parametrize(
    "text",
    [
        "Piskvorky 15x15 , 0 - 0\r\n8, 8\r\n9, 9\r\n",  # spaces, no times, other header punctuation
        "Piskvorky 15x15\n8,8,0\n9,9,0\n-1\n",  # short header, -1 end marker
        "8,8,0\n9,9,0\n",  # no header at all
        "\ufeffPiskvorky 15x15, 11:11, 0\n8,8,-1\n9,9,0\nRAPFI.zip\nJAX.zip\n-1\n0,Freestyle15_1\n",  # Gomocup
    ],
)
def test_common_psq_variants_are_accepted(text: str) -> None:
    record = import_psq(text)
    assert record.size == 15 and record.moves == [(7, 7), (8, 8)]


def test_gomocup_trailer_names_the_rule() -> None:
    text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\nA.zip\nB.zip\n-1\n0,Renju_1\n"
    record = import_psq(text)
    assert record.rule is Rule.RENJU and (record.black, record.white) == ("A.zip", "B.zip")
    assert import_psq(text, rule=Rule.STANDARD).rule is Rule.STANDARD


@pytest.mark.parametrize("name", ["STANDARD", "Renju fan", "rule renju", "0,Renju_1"])
def test_a_players_name_never_sets_the_rule(tmp_path: Path, name: str) -> None:
    # A freestyle game saved with such a name came back as standard or renju (found by
    # hypothesis), and a move legal in freestyle could then make the file unreadable.
    record = GameRecord(rule=Rule.FREESTYLE, size=15, black=name, white="Bob",
                        moves=[(7, 7), (8, 8)], times=[1.0, 2.0])
    path = tmp_path / "game.psq"
    save_record(record, path)
    loaded = load_record(path)
    assert loaded.rule is Rule.FREESTYLE and loaded.moves == record.moves
    renju = GameRecord(rule=Rule.RENJU, size=15, black=name, white="Bob", moves=[(7, 7)],
                       times=[1.0])
    save_record(renju, path)
    assert load_record(path).rule is Rule.RENJU  # our own trailer line still names it


def test_headerless_big_coordinates_mean_a_20x20_board() -> None:
    assert import_psq("18,18\n19,19\n").size == 20


def test_psq_five_is_read_as_the_result() -> None:
    lines = [f"{x},{y},0" for i in range(4) for x, y in ((i + 1, 1), (i + 1, 6))] + ["5,1,0"]
    record = import_psq("Piskvorky 15x15, 0:0, 0\n" + "\n".join(lines) + "\n")
    assert (record.result, record.reason) == ("black", "five")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "empty"),
        ("hello\n8,8\n", 1, "not a Piskvork file"),
        ("Piskvorky 15x20, 0:0, 0\n8,8,0\n", 1, "square"),
        ("Piskvorky 30x30, 0:0, 0\n8,8,0\n", 1, "15x15 to 20x20"),
        ("Piskvorky 15x15, 0:0, 0\n8,8,0\n16,1,0\n", 3, "off a 15x15 board"),
        ("Piskvorky 15x15, 0:0, 0\n8,8,0\n0,1,0\n", 3, "coordinates start at 1"),
        ("Piskvorky 15x15, 0:0, 0\n8,8,0\n9,9,0\n8,8,0\n", 4, "already taken"),
    ],
)
def test_bad_psq_names_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        import_psq(text)
    assert caught.value.line == line and words in str(caught.value)


def test_load_record_tells_formats_apart_by_content(tmp_path: Path) -> None:
    path = tmp_path / "odd-name.txt"
    path.write_text("Piskvorky 15x15, 0:0, 0\n8,8,0\n", encoding="utf-8")
    assert load_record(path).moves == [(7, 7)]
    save_record(GameRecord(moves=[(7, 7)], times=[0.0]), path)
    assert path.read_text(encoding="utf-8").startswith("Gomoku record 1")
    assert load_record(path).moves == [(7, 7)]


@pytest.mark.parametrize(
    "name", ["  spaced  ", "two\nlines", "para\u2028sep", '"quoted"', "tab\there", "é 名前"]
)
def test_awkward_names_survive_the_own_format(name: str) -> None:
    record = GameRecord(black=name, white=name + "!", extra={"note": name})
    assert parse_record(format_record(record)) == as_loaded(record)


def test_skipping_the_move_check_still_refuses_unsaveable_data(tmp_path: Path) -> None:
    path = tmp_path / "autosave.gomoku"
    game = Game(Board(15, Rule.RENJU), PlayerInfo("A"), PlayerInfo("B"))
    game.play(7, 7, 1.0)
    save_record(from_game(game), path, check_moves=False)
    assert load_record(path).moves == [(7, 7)]
    before = path.read_bytes()
    for bad in (
        GameRecord(moves=[(7, 7)], times=[]),
        GameRecord(moves=[(7, 7)], times=[0.0], result="pink"),
    ):
        with pytest.raises(RecordError):
            save_record(bad, path, check_moves=False)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "extra",
    [
        {"players": {"black": {"kind": "robot"}}},
        {"time_control": {"game_s": -5}},
        {"time_control": {"minutes": 5}},
        {"clock": {"black_ms": 1000, "white_ms": 1000, "to_move": "white"}},  # black is to move
        {"clock": "soon"},
    ],
)
def test_bad_autosave_extra_is_a_record_error(extra: dict) -> None:
    with pytest.raises(RecordError):
        to_game(GameRecord(moves=[(7, 7), (8, 8)], times=[0.0, 0.0], extra=extra))


def test_a_move_count_of_one_reads_as_words_do() -> None:
    record = GameRecord(rule=Rule.FREESTYLE, size=15, black="Ann", white="Bob", moves=[(7, 7), (8, 8)],
                        times=[0.5, 0.5])
    text = format_record(record).replace("Move count: 2", "Move count: 1")
    with pytest.raises(RecordError, match="counts 1 move but 2 follow"):
        parse_record(text)
