"""The core stays pure: importing it (or any module in it) loads no UI, engine or network library."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest

import gomoku.core

FORBIDDEN = ("pygame", "numba", "asyncio", "msgpack", "zeroconf")

CORE_MODULES = ["gomoku.core"] + sorted(
    info.name for info in pkgutil.walk_packages(gomoku.core.__path__, prefix="gomoku.core.")
)

PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def loaded_top_level_modules(module: str) -> set[str]:
    """The top-level packages a fresh interpreter holds after importing `module`."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, module], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, f"importing {module} failed:\n{result.stderr}"
    return set(json.loads(result.stdout))


def test_the_core_has_its_known_modules() -> None:
    for name in ("gomoku.core.board", "gomoku.core.renju", "gomoku.core.types"):
        assert name in CORE_MODULES


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_loads_no_ui_engine_or_network_library(module: str) -> None:
    loaded = loaded_top_level_modules(module)
    assert not loaded & set(FORBIDDEN), f"{module} pulls in {sorted(loaded & set(FORBIDDEN))}"


def test_the_probe_would_notice_a_forbidden_import() -> None:
    # The same probe on a module that does load asyncio must report it, or the test above proves nothing.
    assert "asyncio" in loaded_top_level_modules("asyncio")
