"""The UI's mirror of a LAN duel (LanLink), fed network events by hand: no socket, no thread."""

from __future__ import annotations

import queue

import pytest

from gomoku.core import records
from gomoku.core.board import Board
from gomoku.core.clock import TimeControl
from gomoku.core.game import Game, PlayerInfo
from gomoku.core.types import Color, Rule
from gomoku.net import events as ev
from gomoku.ui.lan_link import LanLink


class QuietBridge:
    """A NetBridge stand-in: the test puts events on `events`; commands are recorded."""

    def __init__(self) -> None:
        self.events: queue.Queue[ev.NetEvent] = queue.Queue()
        self.sent: list[tuple[str, tuple]] = []

    def start(self) -> None:
        pass

    def __getattr__(self, name: str):
        return lambda *args: self.sent.append((name, args))


UNTIMED = TimeControl()


def connected_link(role: str = "host", control: TimeControl = UNTIMED, color: Color = Color.BLACK,
                   now: float = 0.0) -> tuple[LanLink, QuietBridge]:
    """Alice's link, connected to Bob as `role` ("host" or "guest"), Alice `color`."""
    bridge = QuietBridge()
    link = LanLink(bridge, "Alice")
    bridge.events.put(ev.Connected(role, "Alice", "Bob", color, Rule.FREESTYLE, 15, control,
                                   "token", "127.0.0.1", 15515))
    link.pump(now)
    return link, bridge


def play(link: LanLink, bridge: QuietBridge, moves: list[tuple[int, int]], start: float, step: float) -> float:
    """The host starts a game and both sides play `moves`, each taking `step` seconds."""
    bridge.events.put(ev.PositionSet((), Rule.FREESTYLE, Color.BLACK, ev.ClockMs(), "playing", why="start"))
    link.pump(start)
    now = start
    for ply, point in enumerate(moves, 1):
        now += step
        color = Color.BLACK if ply % 2 else Color.WHITE
        bridge.events.put(ev.Moved(point, color, ply, ev.ClockMs(), color is Color.BLACK))
        link.pump(now)
    return now


@pytest.mark.parametrize("why", ["undo", "sync"])
def test_an_undo_or_a_sync_keeps_the_time_each_remaining_stone_took(why: str) -> None:
    """The panel's "time used" (untimed games) and the saved record add up the move times: an
    agreed undo must not reset them to zero on both screens."""
    link, bridge = connected_link()
    moves = [(7, 7), (8, 8), (8, 7), (9, 7)]
    now = play(link, bridge, moves, start=10.0, step=3.0)
    assert link.game is not None and link.game.move_times == [3.0] * 4
    kept = moves[:3] if why == "undo" else moves
    bridge.events.put(ev.PositionSet(tuple(kept), Rule.FREESTYLE, Color.WHITE if why == "undo" else Color.BLACK,
                                     ev.ClockMs(), "playing", why=why))
    link.pump(now + 1.0)
    assert link.game.board.moves == kept
    assert link.game.move_times == [3.0] * len(kept)


@pytest.mark.parametrize("why", ["start", "restart", "load"])
def test_a_new_game_starts_with_no_time_used(why: str) -> None:
    link, bridge = connected_link()
    now = play(link, bridge, [(7, 7), (8, 8)], start=10.0, step=3.0)
    bridge.events.put(ev.PositionSet(((7, 7),), Rule.FREESTYLE, Color.WHITE, ev.ClockMs(),
                                     "waiting" if why == "load" else "playing", why=why))
    link.pump(now)
    assert link.game is not None and link.game.move_times == [0.0]


def test_a_sync_onto_a_different_line_keeps_only_the_shared_stones_times() -> None:
    link, bridge = connected_link()
    now = play(link, bridge, [(7, 7), (8, 8), (8, 7)], start=0.0, step=2.0)
    bridge.events.put(ev.PositionSet(((7, 7), (8, 8), (6, 6), (5, 5)), Rule.FREESTYLE, Color.BLACK,
                                     ev.ClockMs(), "playing", why="sync"))
    link.pump(now)
    assert link.game is not None and link.game.move_times == [2.0, 2.0, 0.0, 0.0]


def host_info(key: str, name: str) -> ev.HostInfo:
    return ev.HostInfo(key, name, "127.0.0.1", 15515, Rule.FREESTYLE, 15, "open", "1")


def test_our_own_advertised_game_is_never_a_host_to_join_even_when_found_first() -> None:
    bridge = QuietBridge()
    link = LanLink(bridge, "Alice")
    own, other = "Alice-2._gomoku._tcp.local.", "Alice._gomoku._tcp.local."
    for event in (ev.HostFound(host_info(own, "Alice")), ev.HostFound(host_info(other, "Alice")),
                  ev.Advertised(own), ev.HostFound(host_info(own, "Alice"))):
        bridge.events.put(event)  # our record found before the bridge said it is ours, and again after
    link.pump(0.0)
    assert list(link.hosts) == [other] and link.own_key == own
    bridge.events.put(ev.Advertised(None))  # hosting stopped: the key is forgotten
    link.pump(1.0)
    assert link.own_key is None


def test_a_timed_duel_shows_each_side_its_whole_game_time_before_the_start() -> None:
    # The waiting position had adopted an empty clock: both cards read a red 0:00 until Ready.
    link, _ = connected_link("guest", TimeControl(game_s=180, increment_s=2), Color.WHITE, now=5.0)
    assert link.game is not None and not link.game.clock.running
    assert [link.game.clock.remaining(color, 9.0) for color in Color] == [180.0, 180.0]
    assert link.game.clock.flagged(9.0) is None


def test_a_rejoin_after_a_crash_takes_the_move_times_back_from_the_saved_game() -> None:
    # The sync carries no times, and the app that crashed starts with an empty game: "time
    # used" had read 0:00 for every stone played before the crash.
    saved = Game(Board(), PlayerInfo("Alice", "human"), PlayerInfo("Bob", "remote"))
    saved.start(0.0)
    saved.play(7, 7, 4.0)
    saved.play(8, 8, 9.0)
    bridge = QuietBridge()
    link = LanLink(bridge, "Alice")
    link.join("127.0.0.1", 15515, "token", saved)
    bridge.events.put(ev.Connected("guest", "Alice", "Bob", Color.BLACK, Rule.FREESTYLE, 15, TimeControl(),
                                   "token", "127.0.0.1", 15515))
    bridge.events.put(ev.PositionSet(((7, 7), (8, 8)), Rule.FREESTYLE, Color.BLACK, ev.ClockMs(),
                                     "playing", why="sync"))
    link.pump(20.0)
    assert link.game is not None and link.game.move_times == [4.0, 5.0]


@pytest.mark.parametrize(("role", "shown"), [("host", "alice (guest)"), ("guest", "alice (host)")])
def test_an_opponent_of_the_same_name_is_told_apart_by_its_side(role: str, shown: str) -> None:
    bridge = QuietBridge()
    link = LanLink(bridge, "Alice")
    bridge.events.put(ev.Connected(role, "Alice", "alice", Color.BLACK, Rule.FREESTYLE, 15, TimeControl(),
                                   "token", "127.0.0.1", 15515))
    link.pump(0.0)
    assert link.info.opponent_name == shown and link.info.my_name == "Alice"
    assert [player.name for player in link._players()] == ["Alice", shown]  # the cards and the record
    other, _ = connected_link(role)
    assert other.info.opponent_name == "Bob"  # another name stays as it is


def test_a_sync_that_refuses_our_move_keeps_our_move_countdown_running() -> None:
    link, bridge = connected_link("guest", TimeControl(game_s=300, move_s=30), Color.WHITE)
    clock = ev.ClockMs(300_000, 288_000)
    bridge.events.put(ev.PositionSet(((7, 7),), Rule.FREESTYLE, Color.WHITE, clock, "playing", why="sync",
                                     move_used_s=12.0))
    link.pump(50.0)
    assert link.game is not None
    assert link.game.clock.move_remaining(50.0) == pytest.approx(18.0)  # not a fresh 30 s
    assert link.game.clock.remaining(Color.WHITE, 50.0) == pytest.approx(288.0)  # the host's figure


@pytest.mark.parametrize("event, shown", [
    (ev.Notice("there is no stone of yours to take back"), "There is no stone of yours to take back."),
    (ev.MoveRefused((7, 7), "it is not your turn"), "That move was refused: it is not your turn."),
    (ev.Closed("Bob left"), "Bob left."),
    (ev.Notice("the host sent a bad frame!"), "The host sent a bad frame!"),
])
def test_the_networks_words_are_shown_as_sentences_like_the_games_own_notices(event, shown) -> None:
    link, bridge = connected_link("guest")
    bridge.events.put(event)
    link.pump(1.0)
    assert link.notices[-1][0] == shown


def test_a_message_that_begins_with_the_opponents_name_keeps_it_as_typed() -> None:
    # A monkey duel showed "H left." for a player who had typed "h".
    bridge = QuietBridge()
    link = LanLink(bridge, "Alice")
    bridge.events.put(ev.Connected("guest", "Alice", "bob", Color.BLACK, Rule.FREESTYLE, 15, UNTIMED,
                                   "token", "127.0.0.1", 15515))
    bridge.events.put(ev.Notice("bob's game reported: bad frame", error=True))
    bridge.events.put(ev.Closed("bob left"))
    link.pump(1.0)
    assert [text for text, _ in link.notices][-2:] == ["bob's game reported: bad frame.", "bob left."]
    assert link.closed_reason == "bob left."


def reconnect_with(link: LanLink, bridge: QuietBridge, moves: list[tuple[int, int]], now: float) -> list[str]:
    """The line drops and comes back, and the host's sync shows `moves`, black to move; the
    notices that brought."""
    bridge.events.put(ev.ConnectionLost(now + 180, "guest"))
    bridge.events.put(ev.Reconnected())
    bridge.events.put(ev.PositionSet(tuple(moves), Rule.FREESTYLE, Color.BLACK, ev.ClockMs(), "playing",
                                     why="sync"))
    link.notices.clear()
    link.pump(now)
    return [text for text, _ in link.notices]


def test_a_stone_lost_with_the_connection_is_sent_again_after_the_reconnect() -> None:
    """The host paused (a laptop's lid shut) just as our stone went out: the host never took
    it, and its sync after the reconnect showed the board without it, silently."""
    link, bridge = connected_link("guest")  # Alice plays black
    now = play(link, bridge, [(7, 7), (8, 8), (8, 7)], start=10.0, step=1.0)  # i8 shown at once, as sent
    texts = reconnect_with(link, bridge, [(7, 7), (8, 8)], now + 20)
    assert link.game is not None and link.game.board.moves == [(7, 7), (8, 8)]
    assert "Your move i8 had not reached Bob when the connection dropped: it was sent again." in texts, texts
    assert bridge.sent[-1] == ("move", (8, 7)) and link.move_sent == (8, 7)  # the player's choice goes again
    # A sync that keeps every stone says only that the game goes on.
    assert reconnect_with(link, bridge, [(7, 7), (8, 8)], now + 40) == ["Reconnected: the game goes on."]


def _saved_and_loaded(game: Game) -> records.GameRecord:
    """What a Save of `game` writes, read back as Load reads it."""
    return records.parse_record(records.format_record(records.from_game(game, 0.0)))


@pytest.mark.parametrize("winner, reason", [(Color.WHITE, "five"), (None, "full_board"), (Color.WHITE, "resign")])
def test_a_host_result_the_board_does_not_show_is_shown_and_the_saved_game_still_loads(winner, reason) -> None:
    """A host claimed white's five on a board with three stones: the guest's card showed it, and
    a Save of that game wrote a file that Load then refused ("the moves do not end the game")."""
    link, bridge = connected_link("guest")  # Alice plays black
    now = play(link, bridge, [(7, 7), (8, 8), (8, 7)], start=10.0, step=1.0)
    if reason == "resign":  # black's five stands on the board, and the host says white won
        now = play(link, bridge, [(3, 3), (9, 9), (4, 3), (9, 10), (5, 3), (9, 11), (6, 3), (9, 12), (7, 3)], now, 1.0)
    link.notices.clear()
    bridge.events.put(ev.GameOver(ev.Result(winner, reason)))
    link.pump(now + 1)
    game = link.game
    assert game is not None and game.result is not None
    assert (game.result.winner, game.result.reason.value) == (winner, reason)  # the host's word is shown
    texts = [text for text, _ in link.notices]
    assert len(texts) == 1 and texts[0].startswith("Bob ended the game as ") and "does not show" in texts[0]
    loaded = _saved_and_loaded(game)
    assert loaded.moves == game.board.moves
    own = game.board.outcome()
    assert (loaded.result, loaded.reason) == (("black", "five") if own is not None else ("", ""))
    assert loaded.extra["declared"] == {"result": winner.label if winner else "draw", "reason": reason}


def test_a_host_result_the_board_bears_out_is_saved_as_the_result_without_a_word() -> None:
    link, bridge = connected_link("guest")
    now = play(link, bridge, [(7, 7), (8, 8)], start=10.0, step=1.0)
    link.notices.clear()
    bridge.events.put(ev.GameOver(ev.Result(Color.WHITE, "timeout")))
    link.pump(now + 1)
    assert link.notices == []
    loaded = _saved_and_loaded(link.game)
    assert (loaded.result, loaded.reason) == ("white", "timeout") and "declared" not in loaded.extra


def test_a_duel_whose_line_never_came_back_saves_a_game_that_loads() -> None:
    """It ends with no winner on this screen; saved, that read "draw (disconnect)", which Load
    refused: a draw is a full board."""
    link, bridge = connected_link("guest")
    now = play(link, bridge, [(7, 7), (8, 8)], start=10.0, step=1.0)
    bridge.events.put(ev.ConnectionLost(now + 180, "guest"))
    bridge.events.put(ev.Closed("could not reach Bob again"))
    link.pump(now + 180)
    assert link.game is not None and link.game.result is not None and link.game.result.winner is None
    loaded = _saved_and_loaded(link.game)
    assert loaded.moves == [(7, 7), (8, 8)] and loaded.result == ""
    assert loaded.extra["declared"] == {"result": "draw", "reason": "disconnect"}


def test_a_sync_back_from_a_break_with_a_result_the_board_does_not_show_says_so_too() -> None:
    link, bridge = connected_link("guest")
    now = play(link, bridge, [(7, 7), (8, 8)], start=10.0, step=1.0)
    link.notices.clear()
    bridge.events.put(ev.PositionSet(((7, 7), (8, 8)), Rule.FREESTYLE, Color.BLACK, ev.ClockMs(), "over",
                                     ev.Result(Color.WHITE, "five"), why="sync"))
    link.pump(now + 1)
    assert link.game is not None and link.game.is_over and link.game.contested
    assert [text for text, _ in link.notices if "does not show" in text] != []
    assert _saved_and_loaded(link.game).result == ""
