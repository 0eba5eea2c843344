"""The records scene: save a game under a name in either format, list and load saves, and
report damaged files without losing anything."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from app_input import click, type_text

from gomoku.core import records
from gomoku.core.records import GameRecord
from gomoku.core.types import Rule
from gomoku.ui.app import App
from gomoku.ui.scenes.records import record_details, safe_file_name, save_name

MOVES = [(7, 7), (8, 8), (7, 8), (9, 9)]


def _record() -> GameRecord:
    return GameRecord(rule=Rule.FREESTYLE, size=15, black="Ann", white="Bob", moves=list(MOVES),
                      times=[0.5] * len(MOVES))


def type_name(app: App, text: str) -> None:
    scene = app.current
    click(app, scene.name_input.control_rect)
    for _ in range(80):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.frame()  # the field still has the focus, as when a player has just typed


def test_save_writes_the_game_and_returns(app: App) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    type_name(app, "my best game")
    click(app, app.current.save_button.rect)
    saved = app.paths.saves_dir / "my best game.gomoku"
    assert saved.exists()
    assert records.load_record(saved).moves == MOVES
    assert app.current_name == "menu"


def test_typing_a_name_over_the_suggested_one_replaces_it(app: App) -> None:
    # Each key's KEYDOWN comes before its text: it had ended the selection, so the typed name
    # was added to the suggestion ("Ann vs Bob 2026-...Final").
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    type_text(app, "Final", enter=True)
    assert (app.paths.saves_dir / "Final.gomoku").exists()
    assert [path.name for path in app.paths.saves_dir.iterdir()] == ["Final.gomoku"]


def test_save_as_psq_uses_piskvork_format(app: App) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    scene = app.current
    type_name(app, "for piskvork")
    scene.format_choice.value = ".psq"
    click(app, scene.save_button.rect)
    saved = app.paths.saves_dir / "for piskvork.psq"
    assert saved.read_text(encoding="utf-8").startswith("Piskvorky 15x15")
    assert records.load_record(saved).moves == MOVES


def test_a_renju_game_saved_as_psq_opens_as_renju(app: App) -> None:
    renju = _record()
    renju.rule = Rule.RENJU
    app.switch("records", {"save": renju, "back": "menu"})
    app.frame()
    type_name(app, "renju game")
    app.current.format_choice.value = ".psq"
    click(app, app.current.save_button.rect)
    saved = app.paths.saves_dir / "renju game.psq"
    assert records.load_record(saved).rule is Rule.RENJU
    assert saved.read_text(encoding="utf-8").startswith("Piskvorky 15x15")


def test_saving_over_a_file_asks_first(app: App) -> None:
    existing = app.paths.saves_dir / "taken.gomoku"
    existing.write_text("keep me", encoding="utf-8")
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    type_name(app, "taken")
    click(app, app.current.save_button.rect)
    assert existing.read_text(encoding="utf-8") == "keep me"
    assert app.current_name == "records"
    click(app, app.current.save_button.rect)
    assert records.load_record(existing).moves == MOVES


def test_an_empty_name_is_refused(app: App) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    type_name(app, "///")
    click(app, app.current.save_button.rect)
    assert app.current_name == "records"
    assert any(n.error and "name" in n.text for n in app.notices)
    assert list(app.paths.saves_dir.iterdir()) == []


def test_load_lists_saves_and_opens_review(app: App) -> None:
    records.save_record(_record(), app.paths.saves_dir / "first.gomoku")
    app.switch("records", {})
    app.frame()
    scene = app.current
    assert [f.path.name for f in scene.files] == ["first.gomoku"]
    click(app, scene.load_button.rect)
    assert app.current_name == "review"
    assert app.current.record.moves == MOVES
    # An unfinished game opens where the preview left it, ready for "Play on".
    assert app.current.ply == len(MOVES) and app.current.board.moves == MOVES


def test_an_empty_list_says_where_games_come_from(app: App) -> None:
    # A new player's Load game showed only "No saved games yet.", with no word of how to get one.
    from layout_checks import text_sizes

    with text_sizes() as drawn:
        app.switch("records", {})
        app.frame()
    texts = [text for _, text in drawn]
    assert "No saved games yet." in texts
    assert any("save from the board" in text for text in texts)
    assert any(".psq files copied into the folder" in text for text in texts)


def test_a_damaged_file_is_reported_and_left_alone(app: App) -> None:
    broken = app.paths.saves_dir / "broken.psq"
    broken.write_text("Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n", encoding="utf-8")
    app.switch("records", {})
    app.frame()
    assert not app.current.load_button.enabled  # the preview already says it cannot be opened
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    app.frame()  # Enter on the list still tries, and says why in plain words
    assert app.current_name == "records"
    assert any(n.error and "broken.psq" in n.text and "illegal" in n.text for n in app.notices)
    assert broken.read_text(encoding="utf-8") == "Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n"


def test_a_newest_file_with_an_absurd_number_is_explained_not_fatal(app: App) -> None:
    records.save_record(_record(), app.paths.saves_dir / "good.gomoku")
    absurd = app.paths.saves_dir / "absurd.psq"
    absurd.write_text("Piskvorky 15x15, 0:0, 0\n8,8," + "9" * 5000 + "\n", encoding="utf-8")
    app.switch("records", {})
    app.frame()  # the newest file is selected and previewed first
    assert app.current_name == "records"
    assert isinstance(app.current.preview, str) and "out of range" in app.current.preview
    assert not any("went wrong" in notice.text for notice in app.notices)


def test_file_names_are_cleaned() -> None:
    assert safe_file_name("  ../../etc/passwd ") == "etcpasswd"
    assert safe_file_name("Ann vs Bob (2)") == "Ann vs Bob (2)"
    assert safe_file_name("...") == ""


def test_the_selected_game_is_previewed_and_a_damaged_one_explained(app: App) -> None:
    import os
    import time

    from gomoku.core.board import Board

    records.save_record(_record(), app.paths.saves_dir / "good.gomoku")
    broken = app.paths.saves_dir / "bad.gomoku"
    broken.write_text("Gomoku record 1\nRule: chess\n", encoding="utf-8")
    os.utime(broken, (time.time() - 60, time.time() - 60))  # listed second: older
    app.switch("records", {})
    app.frame()
    scene = app.current
    assert isinstance(scene.preview, Board) and scene.preview.moves == MOVES
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0, unicode=""))
    app.frame()
    assert isinstance(scene.preview, str) and scene.preview.startswith("Cannot be opened")


def test_enter_in_the_name_field_saves_at_once(app: App) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    type_name(app, "quick")
    assert app.current.name_input.focused
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    app.frame()
    assert records.load_record(app.paths.saves_dir / "quick.gomoku").moves == MOVES
    assert app.current_name == "menu"


def test_one_click_on_save_saves_the_name_being_typed(app: App) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    type_name(app, "one click")
    assert app.current.name_input.focused
    click(app, app.current.save_button.rect)
    assert (app.paths.saves_dir / "one click.gomoku").exists()
    assert app.current_name == "menu"


def _shown_target(app: App) -> str:
    app.frame()
    return app.current.save_name.describe()


def test_the_file_name_is_shown_before_saving_and_a_typed_suffix_is_not_doubled(app: App) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    type_name(app, "x.gomoku")
    assert _shown_target(app) == "Saves as: x.gomoku"
    type_name(app, "y.PSQ")
    assert _shown_target(app) == "Saves as: y.psq" and app.current.format_choice.value == ".psq"
    click(app, app.current.save_button.rect)
    assert records.load_record(app.paths.saves_dir / "y.psq").moves == MOVES
    assert sorted(p.name for p in app.paths.saves_dir.iterdir()) == ["y.psq"]


def test_a_cleaned_name_says_what_was_left_out(app: App) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    type_name(app, "../../etc/evil")
    shown = _shown_target(app)
    assert shown.startswith("Saves as: etcevil.gomoku") and 'left out: "/" "."' in shown
    type_name(app, "game 😀")
    assert 'left out: "😀"' in _shown_target(app)


@pytest.mark.parametrize("typed", ["CON", "nul.txt", "com1", "Lpt9.gomoku", "aux ", "PRN.psq"])
def test_names_windows_keeps_for_devices_are_refused_in_plain_words(app: App, typed: str) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    type_name(app, typed)
    assert "Windows keeps for a device" in _shown_target(app)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    app.frame()
    assert app.current_name == "records"
    assert any(n.error and "Windows" in n.text for n in app.notices)
    assert list(app.paths.saves_dir.iterdir()) == []


def test_save_names_keep_ordinary_names_and_refuse_only_devices() -> None:
    assert save_name("console", ".gomoku").file_name == "console.gomoku"
    assert save_name("COM10", ".gomoku").file_name == "COM10.gomoku"
    assert save_name("王小明 vs Ann", ".psq").file_name == "王小明 vs Ann.psq"
    assert save_name(" ../ ", ".psq").problem.startswith("Type a name")


def test_move_counts_read_as_words_do() -> None:
    one = GameRecord(rule=Rule.FREESTYLE, size=15, black="Ann", white="Bob", moves=[(7, 7)], times=[0.5])
    assert record_details(one)[1] == "Freestyle 15x15  ·  1 move"
    assert record_details(_record())[1] == "Freestyle 15x15  ·  4 moves"
    one.moves, one.times = [], []
    assert record_details(one)[1] == "Freestyle 15x15  ·  0 moves"


def test_the_save_dialog_opens_ready_to_type_over_the_suggested_name(app: App) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    field = app.current.name_input
    assert field.focused and field.selected and field.text  # no click needed before typing
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="typed"))
    app.frame()
    assert field.text == "typed"  # the typing replaced the suggestion instead of adding to it
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    app.frame()
    assert (app.paths.saves_dir / "typed.gomoku").exists()


def test_escape_in_an_untouched_name_field_cancels_the_dialog(app: App) -> None:
    app.switch("records", {"save": _record(), "back": "menu"})
    app.frame()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
    app.frame()
    assert app.current_name == "menu"
    assert list(app.paths.saves_dir.iterdir()) == []


def test_a_file_name_that_is_not_utf8_lists_with_a_mark_where_the_byte_was(app: App) -> None:
    # Copied from an older system, "g\xe9me.psq" listed as "gme": a name that is not on disk.
    import os

    name = os.fsdecode(b"g\xe9me.psq")
    records.save_record(_record(), app.paths.saves_dir / "first.gomoku")
    (app.paths.saves_dir / name).write_text("Piskvorky 15x15, 0:0, 0\n8,8,1000\n-1\n", encoding="utf-8")
    app.switch("records", {})
    app.frame()
    labels = [label for label, _ in (f.label for f in app.current.files)]
    assert "g\ufffdme  ·  Piskvork" in labels


def test_a_file_name_with_a_zero_width_space_lists_without_an_error(app: App) -> None:
    # "王\u200b明.psq" copied into the folder: drawing its label raised "Text has zero width",
    # and the Load screen went back to the menu with "Something went wrong".
    for name in ("王\u200b明.psq", "\u200b.psq"):
        (app.paths.saves_dir / name).write_text("Piskvorky 15x15, 0:0, 0\n8,8,1000\n-1\n", encoding="utf-8")
    app.switch("records", {})
    app.frame()
    app.frame()
    assert app.current_name == "records"
    assert len(app.current.files) == 2
    assert not any("went wrong" in notice.text for notice in app.notices)


def test_a_file_dated_past_year_9999_lists_as_date_unknown() -> None:
    # tmpfs, btrfs and XFS keep such a time (a broken camera's clock, `touch -d`); Python's
    # datetime cannot show it, and the Load screen went back to the menu for every game.
    from gomoku.ui.scenes.records import SaveFile

    assert SaveFile(Path("far.gomoku"), 99_999_999_999_999.0).label == ("far", "date unknown")
    assert SaveFile(Path("near.gomoku"), 0.0).label[1][:3] in ("197", "196")  # (the time zone)


def test_the_load_screen_opens_with_a_file_dated_past_year_9999(tmp_path) -> None:
    import os
    import shutil
    import tempfile

    from gomoku.ui.app import AppOptions

    # A home on a file system that keeps such a time: tmpfs where there is one.
    shm = Path("/dev/shm")
    home = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path / "home"
    application = App(AppOptions(windowed=True, size=(1280, 800), home=home))
    try:
        path = application.paths.saves_dir / "far.gomoku"
        records.save_record(_record(), path)
        os.utime(path, ns=(0, 99_999_999_999_999 * 10**9))
        if path.stat().st_mtime < 10**13:
            pytest.skip("no file system here keeps such a time")
        application.switch("records", {})
        application.frame()
        assert application.current_name == "records"
        assert [f.label for f in application.current.files] == [("far", "date unknown")]
    finally:
        application.close()
        shutil.rmtree(home, ignore_errors=True)
