"""The LAN duel as a player sees it: the lobby and the board scene against a real host.

The app (the guest, or the host) runs with the dummy video driver; the other side is a real
NetBridge in this process driven by the test. Everything binds to 127.0.0.1 only.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from app_input import click, type_text

from gomoku.core import records
from gomoku.core.clock import TimeControl
from gomoku.core.types import Color, Rule
from gomoku.net import events as ev
from gomoku.net.bridge import NetBridge
from gomoku.net.events import HostOptions
from gomoku.ui.app import App, AppOptions
from gomoku.ui.scenes.lobby import ADDRESS_HINT

LOOPBACK = "127.0.0.1"
WAIT_S = 30.0  # an upper bound only: each wait returns as soon as its condition holds


@pytest.fixture
def guest_app(tmp_path: Path):
    app = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "guest", lan_interface=LOOPBACK))
    app.settings.player_name = "Alice"
    yield app
    app.close()


@pytest.fixture
def host_bridge():
    bridge = NetBridge(LOOPBACK)
    bridge.start()
    yield bridge
    bridge.close()


class Peer:
    """The test's side: a bridge and the events it has seen."""

    def __init__(self, bridge: NetBridge) -> None:
        self.bridge = bridge
        self.seen: list[ev.NetEvent] = []

    def drain(self) -> None:
        while not self.bridge.events.empty():
            self.seen.append(self.bridge.events.get_nowait())

    def last(self, kind: type) -> ev.NetEvent | None:
        self.drain()
        found = [event for event in self.seen if isinstance(event, kind)]
        return found[-1] if found else None


def run_until(app: App, condition: Callable[[], bool], peer: Peer | None = None, limit: float = WAIT_S) -> None:
    """Run app frames until `condition()` holds; fail after `limit` seconds."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        app.frame()
        if peer is not None:
            peer.drain()
        if condition():
            return
        time.sleep(0.01)
    link = app.lan
    state = (link.phase, link.state, link.game.board.moves if link.game else None) if link else None
    raise AssertionError(f"not reached in {limit} s: {condition.__doc__ or condition}; link {state}; "
                         f"notices {[n.text for n in app.notices]}; peer saw {_story(peer) if peer else ''}")


def _story(peer: Peer) -> str:
    """What the peer saw, clock ticks left out (they drown the rest), for a failure's message."""
    return "; ".join(repr(event) for event in peer.seen if not isinstance(event, ev.ClockUpdate))[-3000:]


def host_saw(peer: Peer, point: tuple[int, int]) -> Callable[[], bool]:
    """The host has taken the guest's stone (the guest shows its own at once, before that)."""
    return lambda: any(isinstance(e, ev.Moved) and e.point == point for e in peer.seen)


def host_game(peer: Peer, port_holder: list[int], **options) -> None:
    values = {"name": "Bob", "port": 0, "host_color": Color.WHITE, **options}
    peer.bridge.host(HostOptions(**values))
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        hosting = peer.last(ev.Hosting)
        if hosting is not None:
            port_holder.append(hosting.port)
            return
        time.sleep(0.02)
    raise AssertionError("the host did not start")


def join_by_address(app: App, port: int) -> None:
    app.switch("lobby", {})
    lobby = app.current
    lobby.address_input.focus()
    lobby.address_input.text = f"{LOOPBACK}:{port}"
    lobby.join_typed()


def joined_board(app: App, peer: Peer, **options) -> None:
    """The peer hosts a game and the app joins it by address; the board shows, nobody ready."""
    ports: list[int] = []
    host_game(peer, ports, **options)
    join_by_address(app, ports[0])
    run_until(app, lambda: app.current_name == "board", peer)


def connected_game(app: App, peer: Peer, **options) -> None:
    """The app joins the peer's game by address and both press Ready; the game is on."""
    joined_board(app, peer, **options)
    board = app.current
    assert board.lan is not None
    click(app, board.duel.buttons["ready"].rect.center)
    peer.bridge.ready(True)
    run_until(app, lambda: app.lan is not None and app.lan.state == "playing", peer)


def play_centre(app: App, peer: Peer) -> None:
    """Black (the app) clicks h8; wait until the host has taken it and the app shows it."""
    click(app, app.current.view.geometry.center((7, 7)))
    run_until(app, lambda: app.lan.game.board.ply == 1, peer)


def resign(app: App, peer: Peer) -> None:
    """Resign with the button (the second click confirms); wait until the game is over."""
    for _ in range(2):
        click(app, app.current.buttons["resign"].rect.center)
    run_until(app, lambda: app.lan.state == "over", peer)


def test_the_address_example_is_shown_whole_in_every_window(guest_app):
    guest_app.switch("lobby", {})
    lobby = guest_app.current
    theme = guest_app.theme
    for size in ((1024, 768), (1280, 800), (640, 400), (1920, 1080)):
        guest_app.set_window_size(size)
        guest_app.frame()
        field = lobby.address_input
        shown = field.placeholder_for(field.control_rect.width - 2 * theme.pad)
        assert shown.startswith("e.g. 192.168.1.20") and not shown.endswith("..."), (size, shown)
    assert shown == ADDRESS_HINT  # a wide window has room for the port


def test_the_lobby_lists_a_host_on_the_network_and_joins_it_with_a_double_click(guest_app, host_bridge):
    peer = Peer(host_bridge)
    host_game(peer, [], time_control=TimeControl(move_s=30))
    guest_app.switch("lobby", {})
    lobby = guest_app.current

    def listed() -> bool:
        """the host appears in the lobby's list"""
        return any("Bob" in line for line in lobby.hosts_view.items)

    run_until(guest_app, listed)
    line = next(line for line in lobby.hosts_view.items if "Bob" in line)
    assert "Freestyle 15x15" in line and "30 s a move" in line and "open" in line
    index = lobby.hosts_view.items.index(line)
    row = lobby.hosts_view.row_rect(index).center
    click(guest_app, row)
    click(guest_app, row)  # a double click joins
    run_until(guest_app, lambda: guest_app.current_name == "board", peer)
    assert guest_app.lan.info.opponent_name == "Bob"
    assert guest_app.lan.my_color is Color.BLACK


def test_two_players_of_one_name_read_as_two_on_the_cards(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer, name="Alice")  # both left their name as it was
    board = guest_app.current
    now = time.monotonic()
    assert board._card_content(Color.BLACK, now).name == "Alice"  # the guest, black
    assert board._card_content(Color.WHITE, now).name == "Alice (host)"


def test_enter_in_the_name_or_address_field_never_joins_the_game_selected_in_the_list(guest_app, host_bridge):
    # A new player typed a name and pressed Enter: the lobby joined the game selected in the list.
    peer = Peer(host_bridge)
    host_game(peer, [])
    guest_app.switch("lobby", {})
    lobby = guest_app.current
    run_until(guest_app, lambda: any("Bob" in line for line in lobby.hosts_view.items))
    index = next(i for i, line in enumerate(lobby.hosts_view.items) if "Bob" in line)
    click(guest_app, lobby.hosts_view.row_rect(index).center)  # selected, not joined
    assert lobby.hosts_view.selected == index
    click(guest_app, lobby.name_input.control_rect)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_LCTRL, unicode=""))
    type_text(guest_app, "Zed", enter=True)
    for _ in range(20):
        guest_app.frame()
    assert guest_app.current_name == "lobby" and guest_app.lan.phase == "idle"
    assert guest_app.settings.player_name == "Zed"
    click(guest_app, lobby.address_input.control_rect)
    type_text(guest_app, "300.1.1.1", enter=True)  # a typed address is what Enter joins
    for _ in range(20):
        guest_app.frame()
    assert guest_app.current_name == "lobby" and guest_app.lan.phase == "idle"
    assert any("not a valid IPv4" in notice.text for notice in guest_app.notices)


def test_the_hosting_app_lists_another_host_of_the_same_name_but_never_its_own_game(tmp_path, host_bridge):
    name = f"Ann{secrets.token_hex(3)}"  # unique: other test runs may advertise on loopback too
    peer = Peer(host_bridge)
    host_game(peer, [], name=name)  # the other host, advertised first under the same name
    deadline = time.monotonic() + WAIT_S
    while host_bridge._advertiser is None and time.monotonic() < deadline:  # Hosting comes before
        time.sleep(0.02)
    assert host_bridge._advertiser is not None, "the other host was not advertised"
    app = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "host", lan_interface=LOOPBACK))
    try:
        app.settings.player_name = name
        app.switch("lobby", {})
        lobby = app.current
        lobby.start_hosting()  # zeroconf renames ours: "<name>-2"
        bridge = app.lan.bridge

        def both_seen() -> bool:
            """the app's own browser has found the other host and its own game"""
            advertiser, browser = bridge._advertiser, bridge._browser
            if advertiser is None or advertiser.key is None or browser is None:
                return False
            named = {h.key for h in browser.hosts if h.name == name}
            return len(named) == 2 and advertiser.key in named

        run_until(app, both_seen)
        own_key = bridge._advertiser.key
        for _ in range(5):  # the app reads what its browser reported
            app.frame()
        assert own_key.startswith(f"{name}-")
        listed = [key for key in lobby._keys if app.lan.hosts[key].name == name]
        assert listed == [host_bridge._advertiser.key]  # the other one, not ours
        assert len([line for line in lobby.hosts_view.items if name in line]) == 1
        assert own_key not in app.lan.hosts
        app.lan.cancel()  # hosting stops: the key is forgotten
        run_until(app, lambda: app.lan.own_key is None)
    finally:
        app.close()


def test_an_address_pasted_into_the_lobby_joins_with_enter(guest_app, host_bridge):
    # The host's address, copied from a message, could only be typed again by hand.
    peer = Peer(host_bridge)
    ports: list[int] = []
    host_game(peer, ports)
    guest_app.switch("lobby", {})
    guest_app.frame()
    lobby = guest_app.current
    click(guest_app, lobby.address_input.control_rect.center)
    pygame.scrap.put_text(f"{LOOPBACK}:{ports[0]}\n")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=pygame.KMOD_LCTRL, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    run_until(guest_app, lambda: guest_app.current_name == "board", peer)
    assert guest_app.lan is not None and guest_app.lan.info is not None
    assert guest_app.lan.info.opponent_name == "Bob"


def test_hosting_keeps_the_chosen_options_for_next_time(guest_app):
    # The lobby opened with the settings' rule, size and time, but hosting never kept its own.
    guest_app.switch("lobby", {})
    lobby = guest_app.current
    lobby.rule.value = "renju"
    lobby.time.value = (300, 3, 0)
    lobby.color.value = "white"
    click(guest_app, lobby.host_button.rect.center)
    run_until(guest_app, lambda: guest_app.lan.phase == "hosting")
    guest_app.lan.cancel()
    again = App(AppOptions(windowed=True, size=(1280, 800), home=guest_app.paths.config_dir))
    try:
        kept = again.settings
        assert (kept.rule, kept.game_s, kept.increment_s, kept.human_color) == ("renju", 300, 3, "white")
        again.switch("lobby", {})
        assert (again.current.rule.value, again.current.time.value) == ("renju", (300, 3, 0))
    finally:
        again.close()


def test_a_bad_typed_address_is_explained_and_an_unreachable_one_fails_plainly(guest_app):
    guest_app.switch("lobby", {})
    lobby = guest_app.current
    lobby.address_input.focus()
    lobby.address_input.text = "300.1.1.1"
    guest_app.frame()
    lobby._check_address()
    assert "not a valid IPv4" in lobby.address_note.text
    lobby.address_input.text = f"{LOOPBACK}:1"  # nothing listens on port 1
    lobby.join_typed()
    run_until(guest_app, lambda: guest_app.lan is not None and guest_app.lan.error is not None)
    assert guest_app.current_name == "lobby"
    assert guest_app.lan.phase == "idle"
    assert "Traceback" not in guest_app.lan.error
    guest_app.frame()
    said = [notice.text for notice in guest_app.notices]
    assert "Nobody is hosting a game at that address and port." in said, said  # a sentence, not "nobody is..."
    lobby.address_input.focused = False  # the note under the field says it too, once the field is left
    guest_app.frame()
    assert lobby.address_note.text == "Nobody is hosting a game at that address and port."


def test_the_hosts_address_reads_as_the_guest_types_it(guest_app):
    # It read "127.0.0.1  ·  port 15516", which the guest's address field refuses as typed.
    from gomoku.net.address import parse_address

    guest_app.switch("lobby", {})
    guest_app.frame()
    lobby = guest_app.current
    lobby.start_hosting()
    run_until(guest_app, lambda: guest_app.lan is not None and guest_app.lan.hosting is not None)
    guest_app.frame()
    shown = lobby.host_status[1].text.removeprefix("Your address: ")
    assert parse_address(shown) == (LOOPBACK, guest_app.lan.hosting.port)


def test_cancelling_a_hosted_game_says_nothing_and_leaves_the_lobby_ready_for_another_try(guest_app):
    guest_app.switch("lobby", {})
    lobby = guest_app.current
    lobby.start_hosting()
    run_until(guest_app, lambda: guest_app.lan.hosting is not None)
    click(guest_app, lobby.cancel_host.rect.center)
    deadline = time.monotonic() + 1.0  # the session's own Closed comes back meanwhile
    while time.monotonic() < deadline:
        guest_app.frame()
        time.sleep(0.01)
    assert guest_app.lan.phase == "idle"  # was "closed", with a toast "you left"
    assert not guest_app.notices, [notice.text for notice in guest_app.notices]


def test_moves_travel_both_ways_and_both_screens_agree_on_the_result(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    # The guest (black) plays by clicking; the host answers through its bridge.
    black = [(7, 7), (8, 7), (9, 7), (10, 7), (11, 7)]
    white = [(7, 8), (8, 8), (9, 8), (10, 8)]
    for index, point in enumerate(black):
        click(guest_app, board.view.geometry.center(point))
        run_until(guest_app, lambda p=point: host_saw(peer, p)() and guest_app.lan.game.board.last_move == p, peer)
        if index < len(white):
            host_bridge.move(*white[index])
            run_until(guest_app, lambda n=2 * index + 2: guest_app.lan.game.board.ply >= n, peer)
    run_until(guest_app, lambda: guest_app.lan.state == "over", peer)
    assert guest_app.lan.game.result.winner is Color.BLACK
    assert board.status == "You win!"
    over = peer.last(ev.GameOver)
    assert over is not None and over.result.winner is Color.BLACK and over.result.reason == "five"


def test_a_click_out_of_turn_sends_nothing(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    play_centre(guest_app, peer)
    click(guest_app, board.view.geometry.center((3, 3)))  # white's turn: refused here
    for _ in range(20):
        guest_app.frame()
        time.sleep(0.01)
    assert guest_app.lan.game.board.ply == 1
    assert board.status == "Bob to move (white)"  # the colour, as "Your move (black)" has it
    assert not any(isinstance(e, ev.Moved) and e.point == (3, 3) for e in peer.seen)


def test_a_double_click_plays_one_stone_and_no_refusal_shows(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    where = board.view.geometry.center((7, 7))
    for _ in range(2):  # both clicks in one frame, before the host's answer
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=where, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=where, button=1))
    guest_app.frame()
    run_until(guest_app, lambda: guest_app.lan.game.board.ply == 1, peer)
    for _ in range(30):
        guest_app.frame()
        time.sleep(0.01)
    assert guest_app.lan.game.board.moves == [(7, 7)]
    said = [notice.text for notice in guest_app.notices]
    assert not any("refused" in text for text in said), said  # was "That move was refused: it is not your turn"


def test_a_finished_duel_keeps_its_move_list_beside_the_chat(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    play_centre(guest_app, peer)
    host_bridge.chat("gg")
    run_until(guest_app, lambda: len(guest_app.lan.chat) > 0, peer)
    resign(guest_app, peer)
    guest_app.frame()
    # Was hidden at 1280x800: the result card and the chat left it 54 px, under two lines.
    assert board.move_list.visible and board.move_list.rect.height >= 4 * board.move_list.line_h
    assert not board.move_list.rect.colliderect(board.duel.chat_rect)


def test_an_undo_request_shows_a_dialog_and_accepting_takes_the_stone_back(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    click(guest_app, board.view.geometry.center((7, 7)))
    run_until(guest_app, host_saw(peer, (7, 7)), peer)
    host_bridge.move(8, 8)
    run_until(guest_app, lambda: guest_app.lan.game.board.ply == 2, peer)
    host_bridge.request("undo")
    run_until(guest_app, lambda: guest_app.lan.incoming_request == "undo", peer)
    guest_app.frame()
    card = board.duel.card(guest_app.lan, time.monotonic())
    assert card is not None and "asks to take back a move" in card[0]
    click(guest_app, board.duel.buttons["accept"].rect.center)
    run_until(guest_app, lambda: guest_app.lan.game.board.ply == 1, peer)
    answer = peer.last(ev.RequestAnswered)
    assert answer is not None and answer.accepted


def test_a_refused_restart_is_told_to_the_asker(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    play_centre(guest_app, peer)
    click(guest_app, board.buttons["restart"].rect.center)
    run_until(guest_app, lambda: peer.last(ev.RequestReceived) is not None, peer)
    host_bridge.reply("restart", False)
    run_until(guest_app, lambda: guest_app.lan.my_request is None, peer)
    assert any("refused" in notice.text for notice in guest_app.notices)
    assert guest_app.lan.game.board.ply == 1


def test_chat_and_resign_reach_the_other_side(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    host_bridge.chat("hello \x07there")
    run_until(guest_app, lambda: len(guest_app.lan.chat) > 0, peer)
    assert guest_app.lan.chat[-1].text == "hello there"
    click(guest_app, board.duel.chat_input.rect.center)
    for key in "gg":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=key))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    run_until(guest_app, lambda: any(isinstance(e, ev.ChatReceived) and e.text == "gg" for e in peer.seen), peer)
    resign(guest_app, peer)
    assert guest_app.lan.game.result.winner is Color.WHITE
    assert guest_app.lan.game.result.reason.value == "resign"


def test_a_duels_review_offers_no_play_on_and_leads_back_to_the_duel(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    resign(guest_app, peer)
    click(guest_app, board.end_buttons["review"].rect.center)
    review = guest_app.current
    assert guest_app.current_name == "review"
    # "Play on" would start a game on this screen while the other player waits in the duel.
    assert not review.play_local.active and not review.play_ai.active
    assert review.back_button.text == "Back to the duel"
    host_bridge.chat("rematch?")
    click(guest_app, review.back_button.rect.center)
    assert guest_app.current_name == "board" and guest_app.current.lan is guest_app.lan
    run_until(guest_app, lambda: any(line.text == "rematch?" for line in guest_app.lan.chat), peer)
    assert guest_app.lan.phase == "connected"


def test_a_chat_line_typed_after_the_host_left_stays_in_the_field_and_says_why(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    host_bridge.leave()
    run_until(guest_app, lambda: guest_app.lan.phase == "closed", peer)
    click(guest_app, board.duel.chat_input.rect.center)
    for key in "hi":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=key))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    run_until(guest_app, lambda: any(n.text.startswith("Not sent") for n in guest_app.notices), peer)
    assert board.duel.chat_input.text == "hi"  # was silently dropped
    assert any(n.text == "Not sent: the other player has left." and n.error for n in guest_app.notices)


def test_the_chat_box_takes_room_from_the_move_list_only_as_messages_come(guest_app, host_bridge):
    # At 1280x800 a three-line chat box left the move list two rows above an empty chat.
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    empty_list_h = board.panel.move_list.rect.height
    empty_chat = board.duel.chat_rect.copy()
    for number in range(3):
        host_bridge.chat(f"message {number}")
    run_until(guest_app, lambda: len(guest_app.lan.chat) == 3, peer)
    guest_app.frame()
    chat_line_h = guest_app.theme.small_px + guest_app.theme.px(6)
    assert board.panel.move_list.rect.height == empty_list_h - 2 * chat_line_h  # two more lines
    assert board.duel.chat_rect.height > empty_chat.height
    assert board.duel.chat_rect.bottom == empty_chat.bottom  # the field stays where it was
    assert not board.duel.chat_rect.colliderect(board.panel.move_list.rect)


def test_the_host_loads_a_position_and_both_see_it(tmp_path, host_bridge):
    # The app hosts this time; the test's bridge joins as the guest.
    app = App(AppOptions(windowed=True, size=(1280, 800), home=tmp_path / "host", lan_interface=LOOPBACK))
    try:
        app.switch("lobby", {})
        lobby = app.current
        lobby.rule.value = "freestyle"
        lobby.color.value = "black"
        lobby.start_hosting()
        run_until(app, lambda: app.lan.hosting is not None)
        peer = Peer(host_bridge)
        host_bridge.join(LOOPBACK, app.lan.hosting.port, "Carol")
        run_until(app, lambda: app.current_name == "board", peer)
        moves = [(7, 7), (8, 8), (6, 6)]
        app.lan.load(moves, Rule.FREESTYLE)
        run_until(app, lambda: app.lan.game.board.ply == 3, peer)
        seen = peer.last(ev.PositionSet)
        assert seen is not None and tuple(seen.moves) == tuple(moves) and seen.state == "waiting"
        assert app.lan.game.board.to_move is Color.WHITE
    finally:
        app.close()


def test_a_timed_duel_shows_both_clocks_full_while_the_players_get_ready(guest_app, host_bridge):
    # Both cards had read a red, pulsing 0:00 until the game started.
    peer = Peer(host_bridge)
    joined_board(guest_app, peer, time_control=TimeControl(game_s=300, increment_s=3))
    board = guest_app.current
    now = time.monotonic()
    cards = [board._card_content(color, now) for color in Color]
    assert [card.clock for card in cards] == ["5:00", "5:00"]
    assert not any(card.warn for card in cards)


def test_a_dropped_connection_comes_back_by_itself_with_every_stone(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer, time_control=TimeControl(game_s=300))
    board = guest_app.current
    click(guest_app, board.view.geometry.center((7, 7)))
    run_until(guest_app, host_saw(peer, (7, 7)), peer)
    host_bridge.move(8, 8)
    run_until(guest_app, lambda: guest_app.lan.game.board.ply == 2, peer)
    bridge = guest_app.lan.bridge
    # Break the guest's socket from its own loop, as a dropped network would.
    bridge._loop.call_soon_threadsafe(lambda: bridge._session.link.abort())

    def told() -> bool:
        """the player is told the connection came back"""
        return any(notice.text.startswith("Reconnected") for notice in guest_app.notices)

    run_until(guest_app, told, peer)
    assert peer.last(ev.ConnectionLost) is not None and peer.last(ev.Reconnected) is not None
    assert guest_app.lan.phase == "connected"
    assert guest_app.lan.game.board.moves == [(7, 7), (8, 8)]
    assert guest_app.lan.game.clock.running
    click(guest_app, board.view.geometry.center((9, 9)))
    run_until(guest_app, lambda: guest_app.lan.game.board.ply == 3, peer)


def test_the_lost_card_counts_down_and_offers_reconnect(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    now = time.monotonic()
    guest_app.lan._on_lost(ev.ConnectionLost(now + 170.2, "guest"), now)  # as the bridge reports it
    title, line, buttons = board.duel.card(guest_app.lan, now)
    assert title == "Connection lost" and "2:51 left" in line and buttons == ("reconnect",)
    assert not guest_app.lan.game.clock.running
    guest_app.frame()
    assert board.status.startswith("Connection lost")


def test_when_the_other_player_leaves_the_card_leads_back_to_the_lobby(guest_app, host_bridge):
    peer = Peer(host_bridge)
    joined_board(guest_app, peer)
    board = guest_app.current
    host_bridge.leave()
    run_until(guest_app, lambda: guest_app.lan.phase == "closed", peer)
    title, line, buttons = board.duel.card(guest_app.lan, time.monotonic())
    assert title == "The duel is over" and "Bob left" in line and buttons == ("lobby",)
    guest_app.frame()
    click(guest_app, board.duel.buttons["lobby"].rect.center)
    assert guest_app.current_name == "lobby"


@pytest.mark.parametrize("control", [TimeControl(), TimeControl(game_s=600)], ids=["untimed", "10 min"])
def test_a_guest_sent_away_with_time_left_reads_why_not_that_its_time_ran_out(guest_app, host_bridge, control):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer, time_control=control)  # no time has run out, or none can
    board = guest_app.current
    host_bridge.leave("no move or ready for 10 minutes; others may want to play")
    run_until(guest_app, lambda: guest_app.lan.game.is_over, peer)
    guest_app.frame()
    assert board._reason_text(guest_app.lan.game.result).startswith("You were away too long")
    assert any("no move or ready for 10 minutes" in notice.text for notice in guest_app.notices)


def test_a_line_that_never_comes_back_ends_the_game_without_a_winner_here(guest_app, host_bridge):
    peer = Peer(host_bridge)
    connected_game(guest_app, peer)
    board = guest_app.current
    play_centre(guest_app, peer)
    link = guest_app.lan
    now = time.monotonic()
    link._on_lost(ev.ConnectionLost(now + 180, "guest"), now)  # as the bridge reports them
    link._on_closed(ev.Closed("could not reach Bob again"), now + 180)
    result = link.game.result
    assert result is not None and result.winner is None and result.reason.value == "disconnect"
    guest_app.frame()
    assert board.status == "Connection lost"
    assert link.game.board.moves == [(7, 7)]  # every stone kept
    # ... and kept for Continue, as the unfinished game it is on this board (it was cleared
    # as a finished game, and a Save of it did not load again).
    board.autosaver.close()  # flushes the write
    saved = records.load_record(guest_app.paths.autosave_file)
    assert saved.moves == [(7, 7)] and saved.result == ""


def test_a_guest_whose_app_died_continues_the_duel_from_the_menu(tmp_path, host_bridge):
    import signal
    import subprocess
    import sys

    peer = Peer(host_bridge)
    ports: list[int] = []
    host_game(peer, ports)
    home = tmp_path / "crashy"
    script = Path(__file__).parent / "lan_guest_app.py"
    guest = subprocess.Popen([sys.executable, str(script), str(home), str(ports[0])],
                             stdout=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and peer.last(ev.Connected) is None:
            time.sleep(0.05)
        host_bridge.ready(True)
        while time.monotonic() < deadline and not host_saw(peer, (7, 7))():
            peer.drain()
            time.sleep(0.05)
        host_bridge.move(8, 8)
        assert guest.stdout is not None and guest.stdout.readline().strip() == "played"
    finally:
        guest.send_signal(signal.SIGKILL)  # the app dies: no bye, no goodbye
        guest.wait(10)
    lost_by = time.monotonic() + 15
    while time.monotonic() < lost_by and peer.last(ev.ConnectionLost) is None:
        time.sleep(0.05)
    assert peer.last(ev.ConnectionLost) is not None
    saved_times = records.load_record(home / "autosave.gomoku").times
    app = App(AppOptions(windowed=True, size=(1280, 800), home=home, lan_interface=LOOPBACK))
    try:
        app.frame()
        assert app.current.continue_button.visible
        click(app, app.current.continue_button.rect.center)
        assert app.current_name == "lobby"
        assert "rejoining" in app.current.address_note.text
        run_until(app, lambda: app.current_name == "board" and app.lan.game.board.ply == 2, peer)
        assert app.lan.game.board.moves == [(7, 7), (8, 8)]
        # The host's sync carries no move times: they come back from the autosave, not as 0:00.
        assert saved_times[0] >= 0.3 and app.lan.game.move_times == pytest.approx(saved_times)
        assert app.lan.info.opponent_name == "Bob" and app.lan.my_color is Color.BLACK
        assert peer.last(ev.Reconnected) is not None
        click(app, app.current.view.geometry.center((9, 9)))  # and the game goes on
        run_until(app, host_saw(peer, (9, 9)), peer)
    finally:
        app.close()


def test_a_duel_fits_the_smallest_window_with_readable_text(tmp_path, host_bridge):
    from layout_checks import READABLE_PX, layout_problems, text_sizes

    with text_sizes() as drawn:
        app = App(AppOptions(windowed=True, size=(640, 400), home=tmp_path / "guest", lan_interface=LOOPBACK))
        try:
            peer = Peer(host_bridge)
            joined_board(app, peer)
            for size in ((640, 400), (1024, 1024), (2560, 600)):
                app.set_window_size(size)
                app.frame()
                board = app.current
                assert not layout_problems(app), (size, layout_problems(app))
                card, theme = board.duel.card_rect, app.theme
                assert board.board_area.contains(card)  # the Ready card, over the board
                line_bottom = card.top + 3 * theme.pad + theme.heading_px + theme.text_px  # its title and line
                assert board.duel.buttons["ready"].rect.top >= line_bottom  # the button under them, not over
                chat = board.duel.chat_rect
                assert board.panel_rect.contains(chat) and not chat.colliderect(board.panel.buttons_area)
                assert not chat.colliderect(board.panel.status_rect)
            app.set_window_size((640, 400))
            now = time.monotonic()
            app.lan._on_lost(ev.ConnectionLost(now + 180, "guest"), now)
            app.frame()
            board, theme = app.current, app.theme
            assert board.status == "Connection lost"  # its longer wording would be cut here
            assert theme.fit_text(board.status, theme.text_px, board.panel.status_rect.width, True) == board.status
        finally:
            app.close()
    small = sorted({(px, text) for px, text in drawn if px < READABLE_PX})
    assert not small, small[:8]



@pytest.mark.parametrize("moves", [[], [(x, y) for y in (3, 4, 6, 7, 8) for x in (5, 7, 9)]])
def test_toasts_during_a_duel_leave_the_cards_buttons_clear(tmp_path, host_bridge, moves):
    # With no stones the Ready card sits in the board's middle; stones in the middle and the
    # top send it down to the bottom, where the toasts stack.
    app = App(AppOptions(windowed=True, size=(1366, 768), home=tmp_path / "guest", lan_interface=LOOPBACK))
    try:
        peer = Peer(host_bridge)
        joined_board(app, peer)
        if moves:
            host_bridge.load(moves, Rule.FREESTYLE)
            run_until(app, lambda: app.lan.game.board.ply == len(moves), peer)
        board = app.current
        for text in ("Bob joined.", "That move was refused: it is not your turn.", "Bob left."):
            app.notify(text)
        app.frame()
        card = board.duel.card_rect
        assert board.duel.card(app.lan, time.monotonic()) is not None
        assert (card.centery > board.board_area.centery) == bool(moves)
        toasts = [rect for _, rect in app._notice_rects()]
        assert len(toasts) == 3 and all(board.board_area.contains(rect) for rect in toasts)
        assert not any(rect.colliderect(card) for rect in toasts), (toasts, card)
    finally:
        app.close()
