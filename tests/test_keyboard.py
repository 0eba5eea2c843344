"""Shortcuts on a keyboard whose letters are not Latin: a Russian player's U still undoes."""

from __future__ import annotations

import pygame
from test_board_scene import click_point, start

from gomoku.ui.keyboard import latin_letter_key, player_key


def key(letter: str, scancode: int, mod: int = 0) -> pygame.event.Event:
    """The KEYDOWN SDL2 sends for the key at `scancode` when the layout puts `letter` there."""
    return pygame.event.Event(pygame.KEYDOWN, key=ord(letter), scancode=scancode, mod=mod,
                              unicode=letter)


def test_the_russian_u_key_undoes_as_an_english_one_does(app) -> None:
    # Under a Russian layout SDL2 reports the key where U is as "г": U did nothing.
    start(app, mode="local", rule="freestyle")
    scene = app.current
    for point in [(7, 7), (8, 8), (6, 6)]:
        click_point(app, point)
    pygame.event.post(key("г", pygame.KSCAN_U))
    app.frame()
    assert scene.game.board.moves == [(7, 7), (8, 8)]
    pygame.event.post(key("п", pygame.KSCAN_G))  # (no shortcut there)
    app.frame()
    assert scene.game.board.moves == [(7, 7), (8, 8)]


def test_a_latin_letter_is_the_letter_on_the_key() -> None:
    # Turkish F puts dotless i where English has R: it is not Restart. AZERTY's A (English Q) is A.
    turkish = key("ı", pygame.KSCAN_R)
    assert latin_letter_key(turkish) is turkish
    azerty = key("a", pygame.KSCAN_Q)
    assert latin_letter_key(azerty).key == pygame.K_a


def test_greek_hebrew_and_ctrl_with_a_russian_letter_take_the_english_key() -> None:
    assert latin_letter_key(key("η", pygame.KSCAN_H)).key == pygame.K_h  # Greek
    assert latin_letter_key(key("י", pygame.KSCAN_H)).key == pygame.K_h  # Hebrew
    paste = latin_letter_key(key("м", pygame.KSCAN_V, mod=pygame.KMOD_LCTRL))
    assert (paste.key, paste.mod, paste.unicode) == (pygame.K_v, pygame.KMOD_LCTRL, "м")
    arrow = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, scancode=pygame.KSCAN_LEFT, mod=0)
    assert latin_letter_key(arrow) is arrow


def test_the_keypads_arrows_move_the_cursor_with_num_lock_off(app) -> None:
    # SDL2 reports the keypad's keys as digits whatever Num Lock says: its arrows did nothing.
    start(app, mode="local", rule="freestyle")
    scene = app.current
    for mod in (pygame.KMOD_NUM, 0):  # the lock on: digits, no cursor; off: arrows
        for code in (pygame.K_KP8, pygame.K_KP_ENTER):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, scancode=0, mod=mod, unicode=""))
            app.frame()
        assert scene.game.board.ply == (0 if mod else 1)
    arrows = [(pygame.K_UP, pygame.K_KP8), (pygame.K_LEFT, pygame.K_KP4), (pygame.K_HOME, pygame.K_KP7)]
    for arrow, keypad in arrows:
        event = pygame.event.Event(pygame.KEYDOWN, key=keypad, scancode=0, mod=0, unicode="")
        assert player_key(event).key == arrow
