"""The LAN duel's card over the board: what it says and where its buttons sit."""

from __future__ import annotations

import pygame
import pytest
from test_lan_link import connected_link

from gomoku.net import events as ev
from gomoku.ui.duel_overlay import DuelOverlay
from gomoku.ui.theme import Theme

BOARD = pygame.Rect(10, 10, 780, 780)


@pytest.fixture
def overlay() -> DuelOverlay:
    pygame.font.init()
    duel = DuelOverlay(Theme((1280, 800)))
    duel.layout(BOARD, pygame.Rect(820, 500, 440, 100))
    return duel


@pytest.mark.parametrize(("mine", "theirs", "title"), [
    (False, False, "Waiting for both players"),
    (True, False, "Waiting for Bob"),
    (False, True, "Bob is waiting for you"),  # was "Waiting for both players" though Bob was ready
])
def test_the_ready_card_says_who_holds_the_game_up(overlay: DuelOverlay, mine: bool, theirs: bool, title: str) -> None:
    link, bridge = connected_link("guest")
    bridge.events.put(ev.ReadyChanged(mine, theirs))
    link.pump(0.0)
    card = overlay.card(link, 0.0)
    assert card is not None and card[0] == title


def test_the_guests_lone_ready_button_is_centred_and_the_hosts_sits_beside_load(overlay: DuelOverlay) -> None:
    surface = pygame.Surface((1280, 800))
    guest, _ = connected_link("guest")
    overlay.draw_card(surface, guest, 0.0)
    assert overlay.buttons["ready"].rect.centerx == overlay.card_rect.centerx
    host, _ = connected_link("host")
    overlay.draw_card(surface, host, 0.0)
    ready, load = overlay.buttons["ready"].rect, overlay.buttons["load"].rect
    assert ready.right < load.left and ready.centery == load.centery
    assert ready.centerx < overlay.card_rect.centerx < load.centerx
