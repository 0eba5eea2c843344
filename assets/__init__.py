"""The game's bundled fonts and sounds. Installed, this folder is the package `gomoku.assets`
(pyproject.toml maps it); the game finds it with `gomoku.paths.assets_dir()`."""
