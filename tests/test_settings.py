"""Settings: defaults, round trip, damaged files kept aside with a warning, atomic writes."""

import json
import os
from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gomoku.core.clock import TimeControl
from gomoku.core.files import write_atomic
from gomoku.core.settings import Settings, check_value, load_settings, save_settings
from gomoku.core.types import Rule


def test_defaults_are_the_documented_ones() -> None:
    s = Settings()
    assert (s.player_name, s.level, s.rule, s.board_size) == ("Player", "medium", "freestyle", 15)
    assert (s.move_s, s.game_s, s.increment_s) == (0, 0, 0)
    assert (s.sfx_volume, s.music_volume, s.mute) == (0.8, 0.5, False)
    assert (s.show_move_numbers, s.show_coordinates, s.fullscreen) == (False, True, True)
    assert (s.human_color, s.lan_interface) == ("black", "")
    assert s.problems() == {}


def test_missing_file_gives_defaults_and_no_warning(tmp_path: Path) -> None:
    settings, warning = load_settings(tmp_path / "settings.json")
    assert settings == Settings() and warning is None
    assert not (tmp_path / "settings.json.bak").exists()


settings_values = st.builds(
    Settings,
    player_name=st.text(min_size=1, max_size=24).filter(str.strip).filter(str.isprintable),
    guest_name=st.text(min_size=1, max_size=24).filter(str.strip).filter(str.isprintable),
    level=st.sampled_from(["easy", "medium", "hard"]),
    rule=st.sampled_from(["freestyle", "standard", "renju"]),
    move_s=st.integers(0, 3600),
    game_s=st.integers(0, 4 * 3600),
    increment_s=st.integers(0, 600),
    board_size=st.integers(15, 20),
    sfx_volume=st.floats(0, 1),
    music_volume=st.floats(0, 1),
    mute=st.booleans(),
    show_move_numbers=st.booleans(),
    show_coordinates=st.booleans(),
    fullscreen=st.booleans(),
    human_color=st.sampled_from(["black", "white", "random"]),
    lan_interface=st.sampled_from(["", "127.0.0.1", "192.168.1.20", "::1"]),
)


@given(settings_values)
def test_saved_settings_load_back_the_same(
    tmp_path_factory: pytest.TempPathFactory, settings: Settings
) -> None:
    path = tmp_path_factory.mktemp("s") / "settings.json"
    save_settings(settings, path)
    assert load_settings(path) == (settings, None)


def test_saved_file_is_readable_json(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "settings.json"
    save_settings(Settings(player_name="Ann", mute=True), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["player_name"] == "Ann" and data["mute"] is True
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]  # no temp file left


@pytest.mark.parametrize("content", ["{not json", "[1, 2, 3]", '"text"', "", b"\xff\xfe\x00bad"])
def test_damaged_file_is_kept_aside_and_defaults_used(tmp_path: Path, content: str | bytes) -> None:
    path = tmp_path / "settings.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    settings, warning = load_settings(path)
    assert settings == Settings()
    assert warning is not None and "settings.json.bak" in warning and "damaged" in warning
    assert not path.exists()
    backup = tmp_path / "settings.json.bak"
    assert backup.read_bytes() == (content if isinstance(content, bytes) else content.encode())


def test_bad_values_fall_back_one_by_one_and_the_rest_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    original = json.dumps(
        {
            "player_name": "Eve",
            "sfx_volume": 7,
            "board_size": "big",
            "mute": 1,
            "level": "hard",
            "colour": "x",
        }
    )
    path.write_text(original, encoding="utf-8")
    settings, warning = load_settings(path)
    assert settings.player_name == "Eve" and settings.level == "hard"
    assert settings.sfx_volume == 0.8 and settings.board_size == 15 and settings.mute is False
    assert warning is not None
    for name in ("sfx_volume", "board_size", "mute"):
        assert name in warning
    assert "colour" not in warning  # unknown keys are ignored quietly
    assert (tmp_path / "settings.json.bak").read_text(encoding="utf-8") == original


def test_unknown_keys_alone_are_no_problem(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"player_name": "Bo", "from_the_future": 3}), encoding="utf-8")
    assert load_settings(path) == (Settings(player_name="Bo"), None)
    assert not (tmp_path / "settings.json.bak").exists()


def test_whole_numbers_written_as_floats_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"move_s": 30.0, "sfx_volume": 1}), encoding="utf-8")
    settings, warning = load_settings(path)
    assert warning is None
    assert settings.move_s == 30 and isinstance(settings.move_s, int)
    assert settings.sfx_volume == 1.0 and isinstance(settings.sfx_volume, float)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("board_size", 21),
        ("board_size", 14),
        ("move_s", -1),
        ("move_s", True),
        ("music_volume", float("nan")),
        ("player_name", "   "),
        ("player_name", "x" * 25),
        ("guest_name", "Bob\x00"),
        ("guest_name", "\u202eboB"),  # a right-to-left override: not printable
        ("guest_name", ""),
        ("lan_interface", "my house"),
        ("human_color", "green"),
        ("rule", "Renju"),
    ],
)
def test_out_of_range_values_are_refused(name: str, value: object) -> None:
    assert check_value(name, value) is not None


def test_saving_a_bad_value_raises_and_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    save_settings(Settings(player_name="Kim"), path)
    before = path.read_bytes()
    with pytest.raises(ValueError, match="board_size"):
        save_settings(Settings(board_size=40), path)
    assert path.read_bytes() == before


def test_derived_values() -> None:
    s = Settings(rule="renju", board_size=19, move_s=30, game_s=600, increment_s=5)
    assert s.rule_value is Rule.RENJU
    assert s.effective_board_size == 15  # renju is played on 15x15
    assert Settings(rule="freestyle", board_size=19).effective_board_size == 19
    assert s.time_control == TimeControl(game_s=600, increment_s=5, move_s=30)


def test_write_atomic_replaces_whole_and_cleans_up_on_failure(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    write_atomic(path, "first\n")
    write_atomic(path, "second ✓\n")
    assert path.read_text(encoding="utf-8") == "second ✓\n"
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, "bad \ud800 surrogate")
    assert path.read_text(encoding="utf-8") == "second ✓\n"
    assert sorted(os.listdir(tmp_path)) == ["a.txt"]


def test_settings_dict_has_only_plain_json_types() -> None:
    assert json.loads(json.dumps(asdict(Settings()))) == asdict(Settings())
