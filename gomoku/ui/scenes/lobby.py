"""The LAN lobby: host a game, or join one found on the network or typed as an address.

The left panel hosts (rule, board, time control, colour; then "waiting for a guest" with the
address to give out, and Cancel); the right one lists the hosts discovery finds, live, and
takes a typed address, checked as it is typed. Everything network goes through the app's
LanLink (lan_link.py), whose thread does the waiting: this scene never blocks. When a
connection is made, the board scene takes over with {"mode": "lan"}.
"""

from __future__ import annotations

from typing import Any

import pygame

from gomoku.core.clock import TimeControl
from gomoku.core.game import Game
from gomoku.core.types import Color, Rule
from gomoku.net.address import parse_address, shown_host
from gomoku.net.events import DEFAULT_PORT, HostInfo, HostOptions
from gomoku.ui.lan_link import sentence
from gomoku.ui.scene import Scene
from gomoku.ui.scenes import (
    COLOR_OPTIONS,
    RULE_OPTIONS,
    offer_sizes,
    remember_choices,
    size_options,
    time_control_label,
    time_control_options,
)
from gomoku.ui.widgets import (
    TYPING_EVENTS,
    Button,
    Choice,
    FocusRing,
    Label,
    ListView,
    Panel,
    TextInput,
    Widget,
    column,
    wrap_words,
)

EMPTY_LIST_LINES = (
    "No games found on your network yet.",
    "Ask your friend to host, check that you are on the same network",
    "and that a firewall lets Gomoku through, or type the address below.",
)
ADDRESS_HINT = "e.g. 192.168.1.20 or alice-pc.local:15515"
ADDRESS_HINTS_SHORTER = ("e.g. 192.168.1.20 or alice-pc.local", "e.g. 192.168.1.20")


def time_words(control: TimeControl) -> str:
    """A time control in a list or status line: "no time limit", "30 s a move", "5 min + 3 s"."""
    label = time_control_label((control.game_s, control.increment_s, control.move_s))
    return "no time limit" if label == "None" else label


def host_line(host: HostInfo) -> str:
    """One row of the hosts list: name, rule and size, time control, open or playing."""
    rule = host.rule.value.capitalize()
    times = time_words(host.time_control) if host.time_control else "time control unknown"
    state = "open" if host.state == "open" else "playing"
    return f"{host.name}  ·  {rule} {host.size}x{host.size}  ·  {times}  ·  {state}"


class LobbyScene(Scene):
    """Host or join a LAN duel; Back (Esc) returns to the menu and stops hosting."""

    name = "lobby"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        theme = app.theme
        self.title = Label(theme, "LAN duel", align="center", bold=True)
        self.name_input = TextInput(theme, "Your name", max_length=24, placeholder="Player")
        self.host_panel = Panel(theme, title="Host a game")
        self.join_panel = Panel(theme, title="Join a game")
        self.rule = Choice(theme, "Rule", RULE_OPTIONS)
        self.size = Choice(theme, "Board size", size_options("freestyle"))
        self.time = Choice(theme, "Time control", time_control_options((0, 0, 0)))
        self.color = Choice(theme, "You play", COLOR_OPTIONS)
        self.host_button = Button(theme, "Host", primary=True)
        self.host_status = [Label(theme, "") for _ in range(3)]
        self.cancel_host = Button(theme, "Cancel")
        self.hosts_view = ListView(theme)
        self.empty_lines = [Label(theme, text, align="center") for text in EMPTY_LIST_LINES]
        self.address_input = TextInput(theme, "Address", max_length=64, placeholder=ADDRESS_HINT,
                                       shorter_placeholders=ADDRESS_HINTS_SHORTER)
        self.address_note = Label(theme, "")
        self.join_button = Button(theme, "Join", primary=True)
        self.cancel_join = Button(theme, "Cancel")
        self.back_button = Button(theme, "Back")
        self.host_widgets: list[Widget] = [self.rule, self.size, self.time, self.color]
        self.focus = FocusRing([self.name_input, *self.host_widgets, self.host_button, self.hosts_view,
                                self.address_input, self.join_button, self.back_button])
        self._keys: list[str] = []  # the host keys in the order the list shows them
        self._joining_to = ""

    # --- scene protocol ------------------------------------------------------------------

    def enter(self, data: dict[str, Any]) -> None:
        self.focus.clear()
        s = self.app.settings
        self.name_input.set_text(s.player_name)
        self.rule.value = s.rule
        offer_sizes(self.size, self.rule.value, s.board_size)
        current = (s.game_s, s.increment_s, s.move_s)
        self.time.set_options(time_control_options(current), current)
        self.color.value = s.human_color
        self.address_input.set_text("")
        self._check_address()
        link = self.app.open_lan()
        link.name = s.player_name
        if link.phase in ("connected", "lost"):  # back from another scene mid-duel
            self.app.switch("board", {"mode": "lan"})
            return
        link.browse(True)
        seat = data.get("rejoin")
        if isinstance(seat, dict):  # Continue after this app died mid-duel: take the seat back
            saved = data.get("saved")
            self._join(seat["address"], seat["port"], f"{seat['opponent']} (rejoining the game)",
                       session=seat["session"], saved=saved if isinstance(saved, Game) else None)

    def leave(self) -> None:
        if self.name_input.focused:
            self.name_input.commit()
            self._commit_name()
        link = self.app.lan
        if link is not None:
            link.browse(False)

    def resize(self, size: tuple[int, int]) -> None:
        theme = self.app.theme
        width, height = size
        margin = theme.px(32)
        self.title.rect = pygame.Rect(0, theme.px(12), width, theme.px(64))
        self.title.px = theme.heading_px + theme.px(14)
        self.title.colour = theme.colors.accent
        name_w = min(width - 2 * margin, theme.px(560))
        self.name_input.rect = pygame.Rect((width - name_w) // 2, self.title.rect.bottom, name_w, theme.control_h)
        self.back_button.rect = pygame.Rect(0, 0, theme.px(240), theme.control_h)
        self.back_button.rect.midbottom = (width // 2, height - theme.px(20))
        top = self.name_input.rect.bottom + theme.pad * 2
        panels_h = self.back_button.rect.top - theme.pad * 2 - top
        if width >= theme.px(1000):
            panel_w = min(theme.px(700), (width - 3 * margin) // 2)
            left = (width - 2 * panel_w - margin) // 2
            self.host_panel.rect = pygame.Rect(left, top, panel_w, panels_h)
            self.join_panel.rect = pygame.Rect(left + panel_w + margin, top, panel_w, panels_h)
        else:  # narrow: one above the other
            half = (panels_h - theme.pad) // 2
            self.host_panel.rect = pygame.Rect(margin, top, width - 2 * margin, half)
            self.join_panel.rect = pygame.Rect(margin, top + half + theme.pad, width - 2 * margin, half)
        self._layout_host(theme)
        self._layout_join(theme)

    def _layout_host(self, theme: Any) -> None:
        inner = self.host_panel.content_rect
        rows = len(self.host_widgets) + 1
        row_h = max(theme.px(24), min(theme.control_h, (inner.height - (rows - 1) * theme.pad) // rows))
        rects = column(inner.left, inner.top, inner.width, rows, row_h, theme.pad)
        for widget, rect in zip(self.host_widgets, rects, strict=False):
            widget.rect = rect
        self.host_button.rect = pygame.Rect(0, 0, theme.px(220), row_h)
        self.host_button.rect.midtop = (inner.centerx, rects[-1].top)
        line_h = theme.text_px + theme.pad
        for i, label in enumerate(self.host_status):
            label.rect = pygame.Rect(inner.left, inner.top + theme.pad + i * line_h, inner.width, line_h)
            label.align = "center"
            label.bold = i == 0
        self.cancel_host.rect = self.host_button.rect.copy()

    def _layout_join(self, theme: Any) -> None:
        inner = self.join_panel.content_rect
        row_h = theme.control_h
        bottom = inner.bottom
        self.join_button.rect = pygame.Rect(0, 0, theme.px(220), row_h)
        self.join_button.rect.midbottom = (inner.centerx, bottom)
        self.cancel_join.rect = self.join_button.rect.copy()
        note_h = theme.small_px + theme.pad
        self.address_note.rect = pygame.Rect(inner.left, self.join_button.rect.top - theme.pad - note_h,
                                             inner.width, note_h)
        self.address_note.px = theme.small_px
        self.address_input.rect = pygame.Rect(inner.left, self.address_note.rect.top - row_h, inner.width, row_h)
        self.address_input.label_share = 0.25
        list_bottom = self.address_input.rect.top - theme.pad
        self.hosts_view.rect = pygame.Rect(inner.left, inner.top, inner.width, max(0, list_bottom - inner.top))
        # The help for an empty list, as whole lines wrapped to the list's width (the heading
        # first, bold), as many as the list has room for.
        width = inner.width - 2 * theme.pad
        heading_px = theme.small_px + theme.px(2)
        texts = [(line, heading_px, True) for line in wrap_words(EMPTY_LIST_LINES[0], theme.font(heading_px, True), width)]
        body = " ".join(EMPTY_LIST_LINES[1:])
        texts += [(line, theme.small_px, False) for line in wrap_words(body, theme.font(theme.small_px), width)]
        line_h = theme.font(heading_px, True).get_linesize() + theme.px(4)
        shown = texts[: max(1, self.hosts_view.rect.height // line_h)]
        first = self.hosts_view.rect.top + max(0, (self.hosts_view.rect.height - len(shown) * line_h) // 2)
        self.empty_lines = [Label(theme, text, (inner.left + theme.pad, first + i * line_h, width, line_h), px,
                                  align="center", bold=bold) for i, (text, px, bold) in enumerate(shown)]

    # --- input ---------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        typing = self.name_input.focused or self.address_input.focused
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and not typing:
            self._back()
            return
        if self.focus.handle_event(event):
            return
        link = self.app.lan
        busy = link is not None and link.phase in ("hosting", "joining")
        if self.back_button.handle_event(event):
            self._back()
            return
        name_typing = self.name_input.focused and event.type in TYPING_EVENTS
        if self.name_input.handle_event(event):
            self._commit_name()
        if name_typing:
            return  # the name's keys go to no other widget: its Enter must not join the selected game
        if busy:
            if link is not None and link.phase == "hosting" and self.cancel_host.handle_event(event):
                link.cancel()
            elif link is not None and link.phase == "joining" and self.cancel_join.handle_event(event):
                link.cancel()
            return
        if self.address_input.focused and event.type in TYPING_EVENTS:
            self._address_event(event)  # the list's Enter would join its game, not this address
            return
        for widget in self.host_widgets:
            if widget.handle_event(event) and widget is self.rule:
                offer_sizes(self.size, self.rule.value, self.size.value)
        if self.host_button.handle_event(event):
            self.start_hosting()
            return
        if self.hosts_view.handle_event(event):
            if self.hosts_view.activated:
                self.join_selected()
            return
        self._address_event(event)

    def _address_event(self, event: pygame.event.Event) -> None:
        """The address field and the Join button: Enter in the field or a click on Join joins
        the typed address, or with none typed the selected game."""
        was_focused = self.address_input.focused
        self.address_input.handle_event(event)
        self._check_address()
        entered = (was_focused and not self.address_input.focused and event.type == pygame.KEYDOWN
                   and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER))
        if entered or self.join_button.handle_event(event):
            self.join_typed() if self.address_input.text.strip() else self.join_selected()

    def _back(self) -> None:
        self.app.close_lan()  # stops hosting, browsing and the network thread
        self.app.switch("menu", {})

    def _commit_name(self) -> None:
        self.name_input.set_text(self.app.rename_player(self.name_input.text))

    def _check_address(self) -> tuple[str, int] | None:
        """Check the typed address as it is typed; the note under the field says what is wrong."""
        colors = self.app.theme.colors
        text = self.address_input.text
        if not text.strip():
            self.address_note.text = "Or pick a game in the list above."
            self.address_note.colour = colors.text_dim
            return None
        try:
            host, port = parse_address(text)
        except ValueError as error:
            self.address_note.text = sentence(str(error))
            self.address_note.colour = colors.warning
            return None
        shown = shown_host(host)
        self.address_note.text = f"Will connect to {shown} on port {port}."
        self.address_note.colour = colors.text_dim
        return host, port

    # --- actions -------------------------------------------------------------------------

    def host_options(self) -> HostOptions:
        colour = self.color.value
        host_color = None if colour == "random" else Color[colour.upper()]
        game_s, increment_s, move_s = self.time.value
        return HostOptions(
            name=self.app.settings.player_name,
            rule=Rule(self.rule.value),
            size=self.size.value,
            time_control=TimeControl(game_s, increment_s, move_s),
            host_color=host_color,  # None: drawn at random for each guest
            port=DEFAULT_PORT,
        )

    def start_hosting(self) -> None:
        """Advertise the game with the chosen options, kept as the next defaults."""
        remember_choices(self.app.settings, self.rule.value, self.size.value, self.time.value, self.color.value)
        self.app.save_settings()
        link = self.app.open_lan()
        link.name = self.app.settings.player_name
        link.host(self.host_options())

    def join_selected(self) -> None:
        index = self.hosts_view.selected
        link = self.app.lan
        if link is None or index is None or not 0 <= index < len(self._keys):
            self.app.notify("Pick a game in the list, or type an address.")
            return
        host = link.hosts.get(self._keys[index])
        if host is None:
            return
        self._join(host.address, host.port, host.name)

    def join_typed(self) -> None:
        checked = self._check_address()
        if checked is None:
            self.app.audio.play("invalid")
            self.app.notify(self.address_note.text, error=True)
            return
        self._join(*checked, None)

    def _join(self, address: str, port: int, label: str | None, session: str | None = None,
              saved: Game | None = None) -> None:
        link = self.app.open_lan()
        link.name = self.app.settings.player_name
        shown = shown_host(address)
        self._joining_to = label or f"{shown}:{port}"
        link.join(address, port, session, saved)

    # --- the frame -----------------------------------------------------------------------

    def update(self, dt: float) -> None:
        link = self.app.lan
        if link is None:
            return
        if link.phase == "connected":
            self.app.switch("board", {"mode": "lan"})
            return
        hosts = sorted(link.hosts.values(), key=lambda h: (h.state != "open", h.name.lower(), h.key))
        keys = [host.key for host in hosts]
        if keys != self._keys or [host_line(h) for h in hosts] != self.hosts_view.items:
            selected_key = (self._keys[self.hosts_view.selected]
                            if self.hosts_view.selected is not None and self.hosts_view.selected < len(self._keys)
                            else None)
            scroll = self.hosts_view.scroll
            self.hosts_view.set_items([host_line(h) for h in hosts],
                                      keys.index(selected_key) if selected_key in keys else 0)
            self.hosts_view.scroll = scroll
            self._keys = keys
        self._update_status(link)

    def _update_status(self, link: Any) -> None:
        colors = self.app.theme.colors
        hosting = link.phase == "hosting"
        joining = link.phase == "joining"
        for widget in (*self.host_widgets, self.host_button):
            widget.visible = not hosting
            widget.enabled = not joining
        self.cancel_host.visible = hosting
        for label in self.host_status:
            label.visible = hosting
        if hosting:
            where = link.hosting
            if where is None:
                lines = ("Opening the game...", "", "")
            else:
                shown = shown_host(where.address)
                lines = ("Waiting for a guest...", f"Your address: {shown}:{where.port}",  # as it is typed to join
                         f"{self.rule.text}, {self.size.text}, {time_words(TimeControl(*self.time.value))}")
            for label, text in zip(self.host_status, lines, strict=True):
                label.text = text
            self.host_status[0].colour = colors.accent
            self.host_status[1].colour = colors.text
            self.host_status[2].colour = colors.text_dim
        self.join_button.visible = not joining
        self.join_button.enabled = not hosting and (
            self.hosts_view.selected is not None and bool(self._keys) or bool(self.address_input.text.strip()))
        self.cancel_join.visible = joining
        self.address_input.enabled = not joining and not hosting
        self.hosts_view.enabled = not joining and not hosting
        if joining:
            self.address_note.text = f"Connecting to {self._joining_to}..."
            self.address_note.colour = colors.accent
        elif link.error and not self.address_input.focused and self.address_note.colour != colors.warning:
            self.address_note.text = link.error
            self.address_note.colour = colors.warning

    def draw(self, surface: pygame.Surface) -> None:
        widgets = (self.title, self.name_input, self.host_panel, self.join_panel, *self.host_widgets,
                   self.host_button, *self.host_status, self.cancel_host, self.hosts_view,
                   *self.empty_lines, self.address_input, self.address_note, self.join_button,
                   self.cancel_join, self.back_button)
        blink = (pygame.time.get_ticks() // 500) % 2 if self.name_input.focused or self.address_input.focused else 0
        if self.unchanged_frame(surface, (blink, tuple(self.hosts_view.items),
                                          *(w.appearance for w in widgets))):
            return
        self.app.theme.draw_background(surface)
        self.title.draw(surface)
        self.name_input.draw(surface)
        self.host_panel.draw(surface)
        self.join_panel.draw(surface)
        for widget in self.host_widgets:
            widget.draw(surface)
        for widget in (self.host_button, *self.host_status, self.cancel_host):
            if widget.visible:
                widget.draw(surface)
        self.hosts_view.draw(surface)
        if not self.hosts_view.items:
            for label in self.empty_lines:
                label.colour = self.app.theme.colors.text if label.bold else self.app.theme.colors.text_dim
                label.draw(surface)
        self.address_input.draw(surface)
        self.address_note.draw(surface)
        for button in (self.join_button, self.cancel_join, self.back_button):
            if button.visible:
                button.draw(surface)
