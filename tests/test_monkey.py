"""tools/monkey.py and tools/hostile_host.py: random input from an impatient player, and a host
that sends what no honest host would, on the real app: nothing breaks."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "monkey.py"


def run_monkey(*args: str) -> str:
    done = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def scenes_visited(report: str) -> set[str]:
    return set(re.findall(r"^  (\w+) +\d+ events", report, re.MULTILINE))


def test_random_input_through_every_scene_raises_nothing_and_keeps_the_layout() -> None:
    report = run_monkey("--events", "400", "--seed", "11")
    assert "errors: 0 " in report and "layout problems: 0" in report
    assert {"menu", "board", "settings"} <= scenes_visited(report), report
    # each scene's slowest frame names its step and the input before it, to replay
    assert re.search(r"^  board .* slowest +[\d.]+ ms \(step \d+, after \w", report, re.MULTILINE), report


def test_a_lan_duel_against_random_input_and_a_killed_guest_raises_nothing() -> None:
    report = run_monkey("--duel", "--events", "300", "--seed", "12", "--kill", "0.01")
    assert "errors: 0 " in report and "guest: " in report and " 0 error(s)" in report, report
    stones = re.search(r"LAN duels: (\d+) stones", report)
    assert stones is not None and int(stones.group(1)) > 0, report  # the duel was played, not only joined


def test_a_hostile_host_breaks_neither_the_guests_screen_nor_its_rules() -> None:
    tool = TOOL.parent / "hostile_host.py"
    done = subprocess.run([sys.executable, str(tool), "--rounds", "300", "--seed", "6"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "findings: 0 " in done.stdout
    sent = dict(re.findall(r"(\w+) (\d+)", done.stdout.split("sent: ")[1].splitlines()[0]))
    assert {"welcome", "start", "sync", "chat", "result"} <= set(sent), done.stdout  # the guest heard them all
    assert re.search(r"connected \d+", done.stdout), done.stdout
