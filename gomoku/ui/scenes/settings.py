"""The settings screen: every change is applied and saved at once; Back or Esc returns."""

from __future__ import annotations

from typing import Any

import pygame

from gomoku.core.settings import MAX_NAME_LENGTH
from gomoku.ui.players import GUEST_NAME
from gomoku.ui.scene import Scene
from gomoku.ui.scenes import (
    COLOR_OPTIONS,
    LEVEL_OPTIONS,
    RULE_OPTIONS,
    offer_sizes,
    size_options,
    time_control_options,
)
from gomoku.ui.widgets import (
    Button,
    Choice,
    FocusRing,
    Label,
    Panel,
    Slider,
    TextInput,
    Toggle,
    Widget,
    column,
)

SAVED_NOTE = "Changes are saved at once."
SILENT_NOTE = "No sound device was found, so the game is silent.  ·  " + SAVED_NOTE
"""The note under the panels when the mixer could not start (volumes are still kept)."""


class SettingsScene(Scene):
    """Two panels: the game (the two names, level, colour, rule, board, time) and sound and
    display."""

    name = "settings"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        theme = app.theme
        self.title = Label(theme, "Settings", align="center", bold=True)
        self.game_panel = Panel(theme, title="Game")
        self.view_panel = Panel(theme, title="Sound and display")
        self.name_input = TextInput(theme, "Your name", max_length=MAX_NAME_LENGTH, placeholder="Player")
        self.guest_input = TextInput(theme, "Second player", max_length=MAX_NAME_LENGTH, placeholder=GUEST_NAME)
        self.level = Choice(theme, "Computer level", LEVEL_OPTIONS)
        self.color = Choice(theme, "You play", COLOR_OPTIONS)
        self.rule = Choice(theme, "Rule", RULE_OPTIONS)
        self.size = Choice(theme, "Board size", size_options("freestyle"))
        self.time = Choice(theme, "Time control", time_control_options((0, 0, 0)))
        self.sfx = Slider(theme, "Sound effects", 0.8)
        self.music = Slider(theme, "Music", 0.5)
        self.mute = Toggle(theme, "Mute all sound")
        self.numbers = Toggle(theme, "Move numbers")
        self.coordinates = Toggle(theme, "Coordinates")
        self.fullscreen = Toggle(theme, "Fullscreen")
        self.note = Label(theme, SAVED_NOTE, align="center")
        self.back_button = Button(theme, "Back", primary=True)
        self.name_fields = (self.name_input, self.guest_input)
        self.game_widgets: list[Widget] = [
            self.name_input, self.guest_input, self.level, self.color, self.rule, self.size, self.time,
        ]
        self.view_widgets: list[Widget] = [
            self.sfx, self.music, self.mute, self.numbers, self.coordinates, self.fullscreen,
        ]
        self.focus = FocusRing([*self.game_widgets, *self.view_widgets, self.back_button])
        self._unsaved_volume = False  # a volume slider is being dragged: save on release
        self.copied_as_is: dict[Widget, str] = {  # widget -> the setting that takes its value unchanged
            self.level: "level", self.color: "human_color", self.rule: "rule", self.size: "board_size",
            self.mute: "mute", self.numbers: "show_move_numbers", self.coordinates: "show_coordinates",
            self.fullscreen: "fullscreen",
        }

    # --- scene protocol ------------------------------------------------------------------

    def enter(self, data: dict[str, Any]) -> None:
        self.focus.clear()
        self.load_from_settings()
        self.note.text = SAVED_NOTE if self.app.audio.available else SILENT_NOTE

    def leave(self) -> None:
        if self._unsaved_volume:  # left in the middle of a drag
            self._unsaved_volume = False
            self.app.save_settings()
        for field in self.name_fields:
            if field.focused:  # a name being typed counts as entered
                field.commit()
                self._commit_name(field)

    def load_from_settings(self) -> None:
        """Show the current settings in the widgets."""
        s = self.app.settings
        self.name_input.set_text(s.player_name)
        self.guest_input.set_text(s.guest_name)
        self.level.value = s.level
        self.color.value = s.human_color
        self.rule.value = s.rule
        offer_sizes(self.size, self.rule.value, self.app.settings.board_size)
        current_time = (s.game_s, s.increment_s, s.move_s)
        self.time.set_options(time_control_options(current_time), current_time)
        self.sfx.set_value(s.sfx_volume)
        self.music.set_value(s.music_volume)
        self.mute.value = s.mute
        self.numbers.value = s.show_move_numbers
        self.coordinates.value = s.show_coordinates
        self.fullscreen.value = self.app.fullscreen

    def resize(self, size: tuple[int, int]) -> None:
        theme = self.app.theme
        width, height = size
        margin = theme.px(32)
        title_h = theme.px(80)
        self.title.rect = pygame.Rect(0, theme.px(16), width, title_h)
        self.title.px = theme.heading_px + theme.px(14)
        self.title.colour = theme.colors.accent
        bottom_h = theme.control_h + theme.px(56)
        top = self.title.rect.bottom
        panels_h = height - top - bottom_h
        rows = max(len(self.game_widgets), len(self.view_widgets))
        needed = 5 * theme.pad + theme.heading_px + rows * (theme.control_h + theme.pad)
        two_columns = width >= theme.px(1000)
        if two_columns and needed < panels_h:  # fit the content, centred in the free space
            top += (panels_h - needed) // 3
            panels_h = needed
        if two_columns:
            panel_w = min(theme.px(640), (width - 3 * margin) // 2)
            left = (width - 2 * panel_w - margin) // 2
            self.game_panel.rect = pygame.Rect(left, top, panel_w, panels_h)
            self.view_panel.rect = pygame.Rect(left + panel_w + margin, top, panel_w, panels_h)
        else:  # a narrow window: the panels share one column
            panel_w = width - 2 * margin
            half = (panels_h - margin) // 2
            self.game_panel.rect = pygame.Rect(margin, top, panel_w, half)
            self.view_panel.rect = pygame.Rect(margin, top + half + margin, panel_w, half)
        for panel, widgets in ((self.game_panel, self.game_widgets), (self.view_panel, self.view_widgets)):
            inner = panel.content_rect
            row_h = min(theme.control_h, (inner.height - (len(widgets) - 1) * theme.pad) // len(widgets))
            for widget, rect in zip(widgets, column(inner.left, inner.top, inner.width, len(widgets),
                                                    row_h, theme.pad), strict=True):
                widget.rect = rect
        self.back_button.rect = pygame.Rect(0, 0, theme.px(240), theme.control_h)
        self.back_button.rect.midbottom = (width // 2, height - theme.px(20))
        self.note.rect = pygame.Rect(0, 0, width - 2 * margin, theme.px(30))
        self.note.rect.midbottom = (width // 2, self.back_button.rect.top - theme.px(4))
        self.note.px = theme.small_px
        self.note.colour = theme.colors.text_dim

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and not self._typing():
            self.app.switch("menu", {})
            return
        if self.focus.handle_event(event):
            return
        if self.back_button.handle_event(event):
            self.app.switch("menu", {})
            return
        for widget in (*self.game_widgets, *self.view_widgets):
            if widget.handle_event(event):
                self._apply(widget)
        if self._unsaved_volume and not (self.sfx.dragging or self.music.dragging):
            self._unsaved_volume = False
            self.app.save_settings()

    def _apply(self, widget: Widget) -> None:
        """Copy the changed widget's value into the settings, save, and apply it at once."""
        s = self.app.settings
        if widget in self.name_fields:
            self._commit_name(widget)
            return
        if widget in self.copied_as_is:
            setattr(s, self.copied_as_is[widget], widget.value)  # type: ignore[attr-defined]
        elif widget is self.time:
            s.game_s, s.increment_s, s.move_s = self.time.value
        elif widget is self.sfx:
            s.sfx_volume = round(self.sfx.value, 2)
        elif widget is self.music:
            s.music_volume = round(self.music.value, 2)
        if widget is self.rule:
            offer_sizes(self.size, self.rule.value, self.app.settings.board_size)
        elif widget is self.fullscreen:
            self.app.set_fullscreen(self.fullscreen.value)
        if isinstance(widget, Slider) and widget.dragging:
            self.app.audio.apply(s)  # heard at once; the file is written once, on release
            self._unsaved_volume = True
        else:
            self.app.save_settings()
        if widget is self.sfx:
            self.app.audio.play("place")  # let the player hear the new volume

    def _typing(self) -> bool:
        """A name is being edited: Esc undoes the edit there instead of leaving."""
        return any(field.focused for field in self.name_fields)

    def _commit_name(self, field: TextInput) -> None:
        """Keep the typed name if it is allowed; the field shows the name in force."""
        if field is self.name_input:
            field.set_text(self.app.rename_player(field.text))
        else:
            field.set_text(self.app.set_name("guest_name", field.text, "The second player's name"))

    def draw(self, surface: pygame.Surface) -> None:
        widgets = (self.title, self.game_panel, self.view_panel, *self.game_widgets, *self.view_widgets,
                   self.note, self.back_button)
        blink = (pygame.time.get_ticks() // 500) % 2 if self._typing() else 0  # the text cursor
        if self.unchanged_frame(surface, (blink, *(w.appearance for w in widgets))):
            return
        self.app.theme.draw_background(surface)
        self.title.draw(surface)
        self.game_panel.draw(surface)
        self.view_panel.draw(surface)
        for widget in (*self.game_widgets, *self.view_widgets):
            widget.draw(surface)
        self.note.draw(surface)
        self.back_button.draw(surface)
