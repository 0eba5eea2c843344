"""User paths: GOMOKU_HOME and the `home` argument put every file under one folder."""

from pathlib import Path

import pytest

from gomoku.paths import HOME_ENV, user_paths


def test_home_argument_puts_everything_under_it(tmp_path: Path) -> None:
    paths = user_paths(tmp_path / "portable")
    for path in (
        paths.config_dir,
        paths.data_dir,
        paths.saves_dir,
        paths.settings_file,
        paths.autosave_file,
    ):
        assert path.is_relative_to(tmp_path / "portable")
    assert paths.settings_file.name == "settings.json"
    assert paths.saves_dir != paths.data_dir


def test_environment_variable_is_used_when_no_argument(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOME_ENV, str(tmp_path))
    assert user_paths().settings_file == tmp_path / "settings.json"
    # An explicit argument wins over the environment.
    assert user_paths(tmp_path / "other").config_dir == tmp_path / "other"


def test_default_is_the_platform_user_dirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(HOME_ENV, raising=False)
    paths = user_paths()
    assert paths.config_dir.name == "gomoku"
    assert paths.data_dir.name == "gomoku"
    assert paths.settings_file.parent == paths.config_dir


def test_nothing_is_created_until_ensure(tmp_path: Path) -> None:
    paths = user_paths(tmp_path / "home")
    assert not (tmp_path / "home").exists()
    assert paths.ensure() is paths
    assert paths.saves_dir.is_dir() and paths.config_dir.is_dir()
    assert not paths.settings_file.exists() and not paths.autosave_file.exists()
    paths.ensure()  # a second call is harmless


def test_paths_are_frozen(tmp_path: Path) -> None:
    paths = user_paths(tmp_path)
    with pytest.raises(AttributeError):
        paths.saves_dir = tmp_path  # type: ignore[misc]
