"""Small widgets drawn with the theme: buttons, labels, toggles, sliders, choices, text, lists.

Every widget has a `rect` (set by the owning scene in its `resize`), `visible` and `enabled`,
`handle_event(event) -> bool` (True when the user changed or activated it) and `draw(surface)`.
Widgets never switch scenes themselves: the scene reads the True and acts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import pygame

from gomoku.core.inputs import clean_text
from gomoku.ui.bidi import visual_spans
from gomoku.ui.icons import draw_icon
from gomoku.ui.theme import MIN_TEXT_PX, Colour, Theme

LEFT_BUTTON = 1
DOUBLE_CLICK_S = 0.4

RectLike = pygame.Rect | tuple[int, int, int, int]


def column(
    x: int, y: int, width: int, count: int, height: int, gap: int
) -> list[pygame.Rect]:
    """`count` rects of `width` x `height` stacked downwards from (x, y) with `gap` between."""
    return [pygame.Rect(x, y + i * (height + gap), width, height) for i in range(count)]


def blit_text(
    surface: pygame.Surface,
    text_surface: pygame.Surface,
    rect: pygame.Rect,
    align: str = "center",
) -> pygame.Rect:
    """Blit `text_surface` inside `rect`, vertically centred, aligned left, center or right."""
    target = text_surface.get_rect()
    target.centery = rect.centery
    if align == "left":
        target.left = rect.left
    elif align == "right":
        target.right = rect.right
    else:
        target.centerx = rect.centerx
    surface.blit(text_surface, target)
    return target


def _fill(pieces: Sequence[str], separator: str, font: pygame.font.Font, width: int) -> list[str]:
    """`pieces` joined by `separator` into as few lines of `width` pixels as they go in order
    (a piece wider than that stands alone on its line)."""
    lines: list[str] = []
    for piece in pieces:
        candidate = f"{lines[-1]}{separator}{piece}" if lines else piece
        if lines and font.size(candidate)[0] <= width:
            lines[-1] = candidate
        else:
            lines.append(piece)
    return lines


def wrap_words(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Prose broken at spaces into lines of `width` pixels (a longer word stands alone)."""
    return _fill(text.split(), " ", font, width) or [""]


def wrap_text(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """`text` broken at the " · " separators (else at spaces) into lines of `width` pixels."""
    separator = "  ·  " if "  ·  " in text else " · " if " · " in text else " "
    lines = _fill(text.split(separator), separator, font, width)
    if len(lines) == 2:  # two lines of about the same width read better than a long and a short
        pieces = text.split(separator)
        splits = [(separator.join(pieces[:i]), separator.join(pieces[i:])) for i in range(1, len(pieces))]
        fitting = [pair for pair in splits if max(font.size(line)[0] for line in pair) <= width]
        if fitting:
            lines = list(min(fitting, key=lambda pair: max(font.size(line)[0] for line in pair)))
    return lines


def typing_point(font: pygame.font.Font, text: str) -> tuple[int, bool]:
    """(x, right_to_left): where the next character typed at the end of `text` goes, in pixels
    from the left of `text` as drawn: the right end of left-to-right text, the left end of a
    Hebrew or Arabic word being typed (bidi.py)."""
    x = 0
    for start, end, rtl in visual_spans(text):
        width = font.size(text[start:end])[0]
        if end == len(text):
            return (x if rtl else x + width), rtl
        x += width
    return x, False


def _is_left_press(event: pygame.event.Event) -> bool:
    return event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 0) == LEFT_BUTTON


def _is_left_release(event: pygame.event.Event) -> bool:
    return event.type == pygame.MOUSEBUTTONUP and getattr(event, "button", 0) == LEFT_BUTTON


class Widget:
    """The common part: a rect, visibility, enabled state, and the theme to draw with."""

    def __init__(self, theme: Theme, rect: RectLike | None = None) -> None:
        self.theme = theme
        self.rect = pygame.Rect(rect or (0, 0, 0, 0))
        self.visible = True
        self.enabled = True
        self.hover = False
        self.highlighted = False  # has the keyboard focus (see FocusRing)

    @property
    def appearance(self) -> tuple[object, ...]:
        """The widget's plain state (text, value, hover, rect...): a cached picture of it is
        stale when this changes. Widgets that animate by the clock must not rely on it."""
        state: list[object] = [type(self).__name__]
        for name, value in sorted(vars(self).items()):
            if isinstance(value, pygame.Rect):
                state.append((name, tuple(value)))
            elif isinstance(value, (str, int, float, bool, type(None))):
                state.append((name, value))
            elif isinstance(value, (list, tuple)) and all(isinstance(v, (str, int, float, bool, tuple)) for v in value):
                state.append((name, tuple(value)))
        return tuple(state)

    @property
    def active(self) -> bool:
        """Visible and enabled: only active widgets react to input."""
        return self.visible and self.enabled

    def _track_hover(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.rect.collidepoint(event.pos)

    def _activation_key(self, event: pygame.event.Event) -> bool:
        """Enter or Space while this widget has the keyboard focus."""
        return (
            self.highlighted
            and event.type == pygame.KEYDOWN
            and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
        )

    def _draw_focus_ring(self, surface: pygame.Surface) -> None:
        if self.highlighted and self.visible:
            ring = self.rect.inflate(self.theme.px(8), self.theme.px(8))
            pygame.draw.rect(surface, self.theme.colors.accent, ring, self.theme.px(2),
                             self.theme.radius + self.theme.px(3))

    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to one event; True when the user changed or activated the widget."""
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Draw at `self.rect`."""


class Label(Widget):
    """A line of text in a rect, aligned left, center or right."""

    def __init__(
        self,
        theme: Theme,
        text: str,
        rect: RectLike | None = None,
        px: int | None = None,
        colour: Colour | None = None,
        align: str = "left",
        bold: bool = False,
        wrap: bool = False,
    ) -> None:
        super().__init__(theme, rect)
        self.text = text
        self.px = px
        self.colour = colour
        self.align = align
        self.bold = bold
        self.wrap = wrap  # broken into lines (at " · ", else spaces) to fit the width

    def lines(self, width: int | None = None) -> list[str]:
        """The lines drawn in a rect `width` wide (the label's own by default)."""
        if not self.text:
            return []
        if not self.wrap:
            return [self.text]
        font = self.theme.font(self.px or self.theme.text_px, self.bold)
        return wrap_text(self.text, font, self.rect.width if width is None else width)

    def height_for(self, width: int) -> int:
        """The height the label's lines need in a rect `width` wide."""
        font = self.theme.font(self.px or self.theme.text_px, self.bold)
        return font.get_linesize() * max(1, len(self.lines(width)))

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible or not self.text:
            return
        px = self.px or self.theme.text_px
        line_h = self.theme.font(px, self.bold).get_linesize()
        lines = self.lines()[: max(1, self.rect.height // line_h)]  # what the rect has room for
        top = self.rect.centery - line_h * len(lines) // 2
        for line in lines:
            text = self.theme.fit_text(line, px, max(1, self.rect.width), self.bold)
            line_rect = pygame.Rect(self.rect.left, top, self.rect.width, line_h)
            blit_text(surface, self.theme.render(text, px, self.colour, self.bold), line_rect, self.align)
            top += line_h


class Panel(Widget):
    """A rounded, bordered background with an optional title; `content_rect` is inside it."""

    def __init__(self, theme: Theme, rect: RectLike | None = None, title: str = "") -> None:
        super().__init__(theme, rect)
        self.title = title

    @property
    def content_rect(self) -> pygame.Rect:
        """The area below the title, inside the padding."""
        pad = self.theme.pad * 2
        top = self.rect.top + pad
        if self.title:
            top += self.theme.heading_px + self.theme.pad
        return pygame.Rect(
            self.rect.left + pad, top, self.rect.width - 2 * pad, self.rect.bottom - pad - top
        )

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        colors, radius = self.theme.colors, self.theme.radius
        pygame.draw.rect(surface, colors.panel, self.rect, border_radius=radius)
        pygame.draw.rect(surface, colors.panel_border, self.rect, self.theme.px(2), radius)
        if self.title:
            pad = self.theme.pad * 2
            title_rect = pygame.Rect(
                self.rect.left + pad, self.rect.top + pad, self.rect.width - 2 * pad,
                self.theme.heading_px,
            )
            text = self.theme.render(self.title, self.theme.heading_px, colors.accent, bold=True)
            blit_text(surface, text, title_rect, "left")


class Button(Widget):
    """A push button: `handle_event` returns True once per click (press and release inside)."""

    def __init__(
        self,
        theme: Theme,
        text: str,
        rect: RectLike | None = None,
        enabled: bool = True,
        primary: bool = False,
        hotkey: int | None = None,
        icon: str | None = None,
        tooltip: str = "",
        icon_label: bool = False,
    ) -> None:
        super().__init__(theme, rect)
        self.text = text  # also what a screen reader or a test reads when an icon is shown
        self.enabled = enabled
        self.primary = primary
        self.hotkey = hotkey
        self.icon = icon  # one of ICONS: drawn instead of the text
        self.icon_label = icon_label  # the text beside the icon when both fit, else the icon alone
        self.tooltip = tooltip  # shown above the button while the mouse rests on it
        self.pressed = False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.active:
            self.pressed = False
            self.hover = False  # it sees no motion now: a hover kept would outlive the mouse
            return False
        self._track_hover(event)
        if _is_left_press(event) and self.rect.collidepoint(event.pos):
            self.pressed = True
        elif _is_left_release(event):
            clicked = self.pressed and self.rect.collidepoint(event.pos)
            self.pressed = False
            return clicked
        elif event.type == pygame.KEYDOWN and self.hotkey is not None and event.key == self.hotkey:
            return True
        elif self._activation_key(event):
            return True
        return False

    @property
    def appearance(self) -> tuple[object, ...]:
        """Everything `draw` depends on: a cached picture of the button is stale when it changes."""
        return (self.text, tuple(self.rect), self.visible, self.enabled, self.primary, self.pressed,
                self.hover, self.highlighted, self.icon, self.icon_label)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        colors = self.theme.colors
        if not self.enabled:
            fill, text_colour = colors.button_disabled, colors.text_dim
        elif self.primary:
            fill = colors.accent_hover if self.hover else colors.accent
            text_colour = colors.text_dark
        elif self.pressed:
            fill, text_colour = colors.button_pressed, colors.text
        else:
            fill = colors.button_hover if self.hover else colors.button
            text_colour = colors.text
        radius = self.theme.radius
        pygame.draw.rect(surface, fill, self.rect, border_radius=radius)
        if (self.hover or self.highlighted) and self.enabled:
            pygame.draw.rect(surface, colors.accent, self.rect, self.theme.px(2), radius)
        px = max(MIN_TEXT_PX, min(self.theme.text_px, int(self.rect.height * 0.5)))
        if self.icon is not None:
            label = self.shown_label()
            if not label:
                size = max(5, round(min(self.rect.width, self.rect.height) * 0.27))
                draw_icon(surface, self.icon, self.rect.center, size, text_colour)
                return
            size = max(5, round(self.rect.height * 0.22))
            text = self.theme.render(label, px, text_colour, bold=True)
            gap = max(size, self.theme.pad // 2)
            left = self.rect.centerx - (2 * size + gap + text.get_width()) // 2
            draw_icon(surface, self.icon, (left + size, self.rect.centery), size, text_colour)
            blit_text(surface, text, pygame.Rect(left + 2 * size + gap, self.rect.top, text.get_width(),
                                                 self.rect.height), "left")
            return
        text = self.theme.fit_text(self.text, px, self.rect.width - 2 * self.theme.pad, bold=True)
        blit_text(surface, self.theme.render(text, px, text_colour, bold=True), self.rect)

    def shown_label(self) -> str:
        """The text drawn on the button: all of it, or "" for an icon alone (an icon button
        shows its label only when the whole label fits beside the icon)."""
        if self.icon is None:
            return self.text
        if not self.icon_label:
            return ""
        px = max(MIN_TEXT_PX, min(self.theme.text_px, int(self.rect.height * 0.5)))
        size = max(5, round(self.rect.height * 0.22))
        room = self.rect.width - 2 * self.theme.pad - 2 * size - max(size, self.theme.pad // 2)
        return self.text if self.theme.font(px, True).size(self.text)[0] <= room else ""

    def tooltip_rect(self, area: pygame.Rect) -> pygame.Rect | None:
        """Where the tooltip shows inside `area` (the window) while hovered and active, else None."""
        if not (self.tooltip and self.hover and self.active):
            return None
        theme = self.theme
        width, height = theme.font(theme.small_px).size(self.tooltip)
        box = pygame.Rect(0, 0, min(width + 2 * theme.pad, area.width), height + theme.pad)
        box.midbottom = (self.rect.centerx, self.rect.top - theme.px(6))
        return box.clamp(area)

    def draw_tooltip(self, surface: pygame.Surface) -> None:
        """The tooltip in a small box above the button, while hovered; draw it last."""
        box = self.tooltip_rect(surface.get_rect())
        if box is None:
            return
        theme, colors = self.theme, self.theme.colors
        text = theme.fit_text(self.tooltip, theme.small_px, box.width - 2 * theme.pad)
        label = theme.render(text, theme.small_px, colors.text)
        pygame.draw.rect(surface, colors.field, box, border_radius=theme.radius // 2)
        pygame.draw.rect(surface, colors.panel_border, box, theme.px(1), theme.radius // 2)
        surface.blit(label, label.get_rect(center=box.center))


class _LabelledControl(Widget):
    """A control with its label on the left and the control itself on the right."""

    label_share = 0.48

    def __init__(self, theme: Theme, label: str, rect: RectLike | None = None) -> None:
        super().__init__(theme, rect)
        self.label = label

    @property
    def control_rect(self) -> pygame.Rect:
        """The right-hand part of the rect, where the control draws."""
        if not self.label:
            return self.rect.copy()
        left = self.rect.left + round(self.rect.width * self.label_share)
        return pygame.Rect(left, self.rect.top, self.rect.right - left, self.rect.height)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        self._draw_focus_ring(surface)
        self._draw_label(surface)
        self._draw_control(surface)

    def _draw_control(self, surface: pygame.Surface) -> None:
        """The control itself, in `control_rect`."""

    def _draw_box(self, surface: pygame.Surface, fill: Colour, border: Colour) -> pygame.Rect:
        """The field a Choice or TextInput draws in: a rounded box a little shorter than the row."""
        theme = self.theme
        box = self.control_rect.inflate(0, -round(self.rect.height * 0.12))
        pygame.draw.rect(surface, fill, box, border_radius=theme.radius)
        pygame.draw.rect(surface, border, box, theme.px(2), theme.radius)
        return box

    def _draw_label(self, surface: pygame.Surface) -> None:
        if not self.label:
            return
        colour = self.theme.colors.text if self.enabled else self.theme.colors.text_dim
        px = self.theme.text_px
        width = self.control_rect.left - self.rect.left - self.theme.pad
        text = self.theme.fit_text(self.label, px, width)
        blit_text(surface, self.theme.render(text, px, colour), self.rect, "left")


class Toggle(_LabelledControl):
    """An on/off switch; a click anywhere on its row flips it."""

    def __init__(
        self, theme: Theme, label: str, value: bool = False, rect: RectLike | None = None
    ) -> None:
        super().__init__(theme, label, rect)
        self.value = value
        self._pressed = False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.active:
            return False
        self._track_hover(event)
        if _is_left_press(event) and self.rect.collidepoint(event.pos):
            self._pressed = True
        elif _is_left_release(event):
            flipped = self._pressed and self.rect.collidepoint(event.pos)
            self._pressed = False
            if flipped:
                self.value = not self.value
                return True
        elif self._activation_key(event) or (
            self.highlighted and event.type == pygame.KEYDOWN and event.key in (pygame.K_LEFT, pygame.K_RIGHT)
        ):
            self.value = not self.value
            return True
        return False

    def _draw_control(self, surface: pygame.Surface) -> None:
        colors = self.theme.colors
        height = round(self.rect.height * 0.62)
        track = pygame.Rect(0, 0, height * 2, height)
        track.midright = self.control_rect.midright
        fill = colors.accent if self.value else colors.track
        if not self.enabled:
            fill = colors.button_disabled
        pygame.draw.rect(surface, fill, track, border_radius=height // 2)
        pygame.draw.rect(surface, colors.panel_border, track, self.theme.px(2), height // 2)
        knob_r = height // 2 - self.theme.px(4)
        knob_x = track.right - height // 2 if self.value else track.left + height // 2
        pygame.draw.circle(surface, colors.text, (knob_x, track.centery), max(2, knob_r))
        state = "On" if self.value else "Off"
        state_rect = pygame.Rect(0, 0, track.width, self.rect.height)
        state_rect.midright = (track.left - self.theme.pad, track.centery)
        blit_text(
            surface, self.theme.render(state, self.theme.small_px, colors.text_dim), state_rect,
            "right",
        )


class Slider(_LabelledControl):
    """A value between `minimum` and `maximum` in steps, set by clicking or dragging the track."""

    def __init__(
        self,
        theme: Theme,
        label: str,
        value: float,
        minimum: float = 0.0,
        maximum: float = 1.0,
        step: float = 0.05,
        rect: RectLike | None = None,
        percent: bool = True,
    ) -> None:
        super().__init__(theme, label, rect)
        if maximum <= minimum:
            raise ValueError(f"slider range is empty: {minimum}..{maximum}")
        self.minimum, self.maximum, self.step = minimum, maximum, step
        self.percent = percent
        self.value = self._clamp(value)
        self.dragging = False

    def _clamp(self, value: float) -> float:
        value = min(self.maximum, max(self.minimum, value))
        if self.step > 0:
            value = self.minimum + round((value - self.minimum) / self.step) * self.step
        return round(min(self.maximum, max(self.minimum, value)), 6)

    @property
    def track_rect(self) -> pygame.Rect:
        """The line the knob moves along (the control area minus room for the value text)."""
        area = self.control_rect
        value_w = self.theme.px(64)
        knob = self.theme.px(12)
        return pygame.Rect(
            area.left + knob, area.centery - self.theme.px(3),
            max(1, area.width - value_w - 2 * knob), self.theme.px(6),
        )

    def set_value(self, value: float) -> None:
        """Set from code (clamped to the range and step); not a user change."""
        self.value = self._clamp(value)

    def value_at(self, x: int) -> float:
        """The value under the horizontal pixel position `x`."""
        track = self.track_rect
        t = (x - track.left) / max(1, track.width)
        return self._clamp(self.minimum + t * (self.maximum - self.minimum))

    def _set(self, value: float) -> bool:
        value = self._clamp(value)
        if value == self.value:
            return False
        self.value = value
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.active:
            self.dragging = False
            return False
        self._track_hover(event)
        grab_area = self.control_rect
        if _is_left_press(event) and grab_area.collidepoint(event.pos):
            self.dragging = True
            return self._set(self.value_at(event.pos[0]))
        if event.type == pygame.MOUSEMOTION and self.dragging:
            return self._set(self.value_at(event.pos[0]))
        if _is_left_release(event):
            self.dragging = False
        elif event.type == pygame.MOUSEWHEEL and self.hover:
            return self._set(self.value + self.step * event.y)
        elif self.highlighted and event.type == pygame.KEYDOWN and event.key in (pygame.K_LEFT, pygame.K_RIGHT):
            return self._set(self.value + self.step * (1 if event.key == pygame.K_RIGHT else -1))
        return False

    def text_value(self) -> str:
        if self.percent:
            return f"{round(self.value * 100)}%"
        return f"{self.value:g}"

    def _draw_control(self, surface: pygame.Surface) -> None:
        colors = self.theme.colors
        track = self.track_rect
        t = (self.value - self.minimum) / (self.maximum - self.minimum)
        knob_x = track.left + round(t * track.width)
        radius = track.height // 2
        pygame.draw.rect(surface, colors.track, track, border_radius=radius)
        filled = pygame.Rect(track.left, track.top, knob_x - track.left, track.height)
        pygame.draw.rect(
            surface, colors.accent if self.enabled else colors.button_disabled, filled,
            border_radius=radius,
        )
        knob_colour = colors.accent_hover if (self.hover or self.dragging) else colors.text
        pygame.draw.circle(surface, knob_colour, (knob_x, track.centery), self.theme.px(11))
        value_rect = pygame.Rect(0, 0, self.theme.px(60), self.rect.height)
        value_rect.midright = self.control_rect.midright
        blit_text(
            surface, self.theme.render(self.text_value(), self.theme.small_px, colors.text_dim),
            value_rect, "right",
        )


class Choice(_LabelledControl):
    """One of a few options shown as `<  option  >`: a click on the left half steps back,
    elsewhere steps forward (wrapping); Left/Right keys work while the mouse is over it."""

    def __init__(
        self,
        theme: Theme,
        label: str,
        options: Sequence[tuple[Any, str]],
        value: Any = None,
        rect: RectLike | None = None,
    ) -> None:
        super().__init__(theme, label, rect)
        self.options: list[tuple[Any, str]] = []
        self.index = 0
        self._pressed = False
        self.set_options(options, value)

    def set_options(self, options: Sequence[tuple[Any, str]], value: Any = None) -> None:
        """Replace the options; keep `value` selected if present, else the first option."""
        if not options:
            raise ValueError("a Choice needs at least one option")
        self.options = list(options)
        values = [v for v, _ in self.options]
        self.index = values.index(value) if value in values else 0

    @property
    def value(self) -> Any:
        return self.options[self.index][0]

    @value.setter
    def value(self, value: Any) -> None:
        values = [v for v, _ in self.options]
        if value not in values:
            raise ValueError(f"{value!r} is not one of {values}")
        self.index = values.index(value)

    @property
    def text(self) -> str:
        return self.options[self.index][1]

    def step(self, delta: int) -> bool:
        """Move `delta` options along (wrapping); True if the value changed."""
        old = self.index
        self.index = (self.index + delta) % len(self.options)
        return self.index != old

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.active:
            return False
        self._track_hover(event)
        area = self.control_rect
        if _is_left_press(event) and area.collidepoint(event.pos):
            self._pressed = True
        elif _is_left_release(event):
            inside = self._pressed and area.collidepoint(event.pos)
            self._pressed = False
            if inside:
                return self.step(-1 if event.pos[0] < area.left + area.width // 3 else 1)
        elif event.type == pygame.KEYDOWN and (self.hover or self.highlighted):
            if event.key == pygame.K_LEFT:
                return self.step(-1)
            if event.key == pygame.K_RIGHT:
                return self.step(1)
        return False

    def _draw_control(self, surface: pygame.Surface) -> None:
        colors, theme = self.theme.colors, self.theme
        fill = colors.button_hover if self.hover and self.enabled else colors.field
        box = self._draw_box(surface, fill, colors.panel_border)
        arrow_colour = colors.accent if self.enabled else colors.text_dim
        arrow_w = theme.px(28)
        left_rect = pygame.Rect(box.left, box.top, arrow_w, box.height)
        right_rect = pygame.Rect(box.right - arrow_w, box.top, arrow_w, box.height)
        self._draw_arrow(surface, left_rect, -1, arrow_colour)
        self._draw_arrow(surface, right_rect, 1, arrow_colour)
        middle = box.inflate(-2 * arrow_w, 0)
        colour = colors.text if self.enabled else colors.text_dim
        text = theme.fit_text(self.text, theme.text_px, middle.width)
        blit_text(surface, theme.render(text, theme.text_px, colour), middle)

    def _draw_arrow(
        self, surface: pygame.Surface, rect: pygame.Rect, direction: int, colour: Colour
    ) -> None:
        half = max(3, self.theme.px(7))
        cx, cy = rect.center
        tip = (cx + direction * (half // 2), cy)
        back = cx - direction * (half // 2)
        points = [(back, cy - half), tip, (back, cy + half)]
        pygame.draw.polygon(surface, colour, points)


CURSOR_KEYS = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_HOME, pygame.K_END)
"""Keys that move the cursor: in a text field they end the selection and keep the text."""


TYPING_EVENTS = (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT, pygame.TEXTEDITING)
"""A focused text field's own events: a scene hands them to the field alone, so that its Enter
never also presses a button."""


def _clipboard_line(max_chars: int) -> str:
    """The clipboard's first line, trimmed, at most a few times `max_chars` long ("" when the
    clipboard is empty, holds no text, or cannot be read)."""
    try:
        text = pygame.scrap.get_text()
    except (pygame.error, AttributeError):
        return ""
    if not isinstance(text, str):
        return ""
    head = text[: 4 * max_chars + 256].lstrip()  # a pasted novel is not read to its end
    return head.splitlines()[0].strip() if head else ""


def _put_clipboard(text: str) -> None:
    with contextlib.suppress(pygame.error, AttributeError):
        if text:
            pygame.scrap.put_text(text)


COMPOSING_LIMIT = 64  # characters of an input method's unsent text shown at most


class TextInput(_LabelledControl):
    """A one-line text field: click to focus, type, Enter or a click elsewhere to commit.
    Ctrl+V (Cmd+V) pastes the clipboard's first line; Ctrl+C copies the text; Ctrl+A selects it.

    `handle_event` returns True when an edit is committed with a changed text. Typed characters
    no shipped font can show (many emoji) are refused, and `refused` says so in plain words
    (shown in the field until the next edit). Text an input method is composing (Chinese
    pinyin, Japanese kana before conversion) is shown underlined after the text until the
    method sends it, and the method's list of candidates opens at the field.
    """

    def __init__(
        self,
        theme: Theme,
        label: str,
        text: str = "",
        rect: RectLike | None = None,
        max_length: int = 24,
        placeholder: str = "",
        shorter_placeholders: tuple[str, ...] = (),
    ) -> None:
        super().__init__(theme, label, rect)
        self.text = text[:max_length]
        self.max_length = max_length
        self.placeholder = placeholder
        self.shorter_placeholders = shorter_placeholders  # for narrower fields, longest first
        self.focused = False
        self.selected = False  # the whole text is selected: typing replaces it
        self.refused = ""
        self.composing = ""  # an input method's text not yet sent (SDL's TEXTEDITING)
        self._candidates_at: tuple[int, ...] = ()  # the field's rect as SDL was last told it
        self._committed = self.text
        self._blink = 0.0

    def focus(self, select_all: bool = False) -> None:
        """Start editing. The text is selected (typing replaces it) if `select_all`, or if it is
        still the placeholder: a new player's default name is replaced, not typed onto."""
        self.focused = True
        self.selected = (select_all or self.text == self.placeholder) and bool(self.text)
        self._place_candidates()
        pygame.key.start_text_input()

    def _place_candidates(self) -> None:
        """Tell SDL where the field is: an input method opens its candidates there."""
        self._candidates_at = tuple(self.control_rect)
        pygame.key.set_text_input_rect(self.control_rect)

    @property
    def edited(self) -> bool:
        """The text differs from the last committed text (an edit Esc would abandon)."""
        return self.text != self._committed

    def commit(self) -> bool:
        """End editing; True if the text differs from the last committed text."""
        self.focused = False
        self.selected = False
        self.composing = ""
        pygame.key.stop_text_input()
        changed = self.edited
        self._committed = self.text
        return changed

    def set_text(self, text: str) -> None:
        """Replace the text from code (not an edit: nothing to commit)."""
        self.text = text[: self.max_length]
        self._committed = self.text

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.active:
            return False
        self._track_hover(event)
        if _is_left_press(event):
            if self.control_rect.collidepoint(event.pos) or self.rect.collidepoint(event.pos):
                if not self.focused:
                    self.focus()
                return False
            if self.focused:
                return self.commit()
            return False
        if not self.focused:
            if self._activation_key(event) and event.key != pygame.K_SPACE:
                self.focus()
            return False
        if event.type == pygame.TEXTEDITING:
            composing = clean_text(getattr(event, "text", ""), COMPOSING_LIMIT) or ""
            self.composing = "".join(ch for ch in composing if self.theme.can_show(ch))
        elif event.type == pygame.TEXTINPUT:
            self.composing = ""
            self._insert(event.text)
        elif event.type == pygame.KEYDOWN:
            self.refused = ""
            command = getattr(event, "mod", 0) & (pygame.KMOD_CTRL | pygame.KMOD_META)  # Ctrl, or Cmd on a Mac
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB):
                return self.commit()
            if event.key == pygame.K_ESCAPE:
                self.text = self._committed  # Esc abandons the edit
                self.commit()
            elif event.key in (pygame.K_BACKSPACE, pygame.K_DELETE) and self.selected:
                self.text, self.selected = "", False
            elif event.key == pygame.K_BACKSPACE:
                self.text = self.text[:-1]
            elif event.key == pygame.K_a and command:
                self.selected = bool(self.text)  # Ctrl+A: select all, typing replaces it
            elif event.key == pygame.K_v and command:
                self._insert(_clipboard_line(self.max_length))  # Ctrl+V: an address from a chat
            elif event.key == pygame.K_c and command:
                _put_clipboard(self.text)  # Ctrl+C: the whole text, the only selection there is
            elif event.key in CURSOR_KEYS:
                self.selected = False  # keeps the text, to edit its end
            # A letter's own KEYDOWN comes before its TEXTINPUT, and Shift's before a capital:
            # neither may drop the selection, or typing would add to the text, not replace it.
        return False

    def _insert(self, text: str) -> None:
        """Typed or pasted text: what no font here shows is left out, and said so; a selected
        text is replaced; the rest goes in up to `max_length`."""
        printable = "".join(ch for ch in text if ch.isprintable())
        shown = "".join(ch for ch in printable if self.theme.can_show(ch))
        missing = list(dict.fromkeys(ch for ch in printable if ch not in shown))
        codes = ", ".join(f"U+{ord(ch):04X}" for ch in missing[:3])
        self.refused = f"Left out {codes}: no font here shows it" if missing else ""
        if self.selected and shown:  # typing over a selected suggestion replaces it
            self.text, self.selected = "", False
        room = self.max_length - len(self.text)
        self.text += shown[: max(0, room)]

    def _draw_control(self, surface: pygame.Surface) -> None:
        colors, theme = self.theme.colors, self.theme
        if self.focused and tuple(self.control_rect) != self._candidates_at:
            self._place_candidates()  # the window was resized while typing
        box = self._draw_box(surface, colors.field, colors.accent if self.focused else colors.panel_border)
        inner = box.inflate(-2 * theme.pad, 0)
        if self.refused:  # said where the player looks, in words; the text keeps the rest
            room = max(inner.width // 2, inner.width - theme.font(theme.text_px).size(self.text)[0] - 3 * theme.pad)
            note = theme.fit_text(self.refused, theme.small_px, room)
            placed = blit_text(surface, theme.render(note, theme.small_px, colors.warning), inner, "right")
            inner.width = max(0, placed.left - theme.pad - inner.left)
        if self.text or self.focused:
            shown = self.text + self.composing
            font = theme.font(theme.text_px)
            while shown and font.size(shown)[0] > inner.width - theme.px(6):
                shown = shown[1:]  # keep the end (where the cursor is) in view
            typed = shown[: max(0, len(shown) - len(self.composing))]  # (the rest: composing)
            if self.selected and typed:  # a highlight behind the text says typing replaces it
                width, height = font.size(typed)
                mark = pygame.Rect(inner.left, inner.centery - height // 2, width, height)
                pygame.draw.rect(surface, colors.selection, mark.inflate(theme.px(4), 0))
            target = blit_text(surface, theme.render(shown, theme.text_px), inner, "left")
            if self.composing:  # underlined: not in the text until the input method sends it
                start = target.left + (font.size(typed)[0] if typed else 0)
                y = target.bottom - theme.px(2)
                pygame.draw.line(surface, colors.accent, (start, y), (target.right, y), theme.px(2))
            if self.focused and (pygame.time.get_ticks() // 500) % 2 == 0:
                offset, rtl = typing_point(font, shown)
                x = target.left + offset + theme.px(-2 if rtl else 2) if shown else inner.left
                pygame.draw.line(
                    surface, colors.accent, (x, box.top + theme.px(8)),
                    (x, box.bottom - theme.px(8)), theme.px(2),
                )
        elif self.placeholder:
            hint = self.placeholder_for(inner.width)
            blit_text(surface, theme.render(hint, theme.text_px, colors.text_dim), inner, "left")

    def placeholder_for(self, width: int) -> str:
        """The placeholder drawn in `width` pixels: the longest wording that fits whole (an
        example cut short would read as part of it), else the shortest, cut."""
        theme = self.theme
        wording = theme.first_fitting((self.placeholder, *self.shorter_placeholders), theme.text_px, width)
        return theme.fit_text(wording, theme.text_px, width)


class ListView(Widget):
    """A scrollable list of lines with one selection.

    A line is a text, or a pair (text, detail): the detail (a date, say) sits right-aligned and
    dim, and when the row is short the text is cut first, so the detail stays readable.

    Click selects (returns True); a double click or Enter activates the selection: the call
    returns True and `activated` is True for that event. Up/Down and the wheel move and scroll.
    """

    def __init__(
        self, theme: Theme, items: Sequence[str | tuple[str, str]] = (), rect: RectLike | None = None
    ) -> None:
        super().__init__(theme, rect)
        self.items: list[str | tuple[str, str]] = list(items)
        self.selected: int | None = 0 if self.items else None
        self.scroll = 0
        self.activated = False
        self._last_click: tuple[int, float] | None = None

    @property
    def row_h(self) -> int:
        return self.theme.px(40)

    @property
    def visible_rows(self) -> int:
        return max(1, self.rect.height // self.row_h)

    def set_items(self, items: Sequence[str | tuple[str, str]], selected: int | None = 0) -> None:
        """Replace the lines; select `selected` if it exists."""
        self.items = list(items)
        self.selected = selected if self.items and selected is not None else None
        if self.selected is not None:
            self.selected = min(max(0, self.selected), len(self.items) - 1)
        self.scroll = 0
        self._ensure_visible()

    def _ensure_visible(self) -> None:
        """Scroll just enough to show the selected line."""
        if self.selected is not None:
            if self.selected < self.scroll:
                self.scroll = self.selected
            elif self.selected >= self.scroll + self.visible_rows:
                self.scroll = self.selected - self.visible_rows + 1
        self._clamp_scroll()

    def row_at(self, pos: tuple[int, int]) -> int | None:
        """The item index under a pixel position, or None."""
        if not self.rect.collidepoint(pos):
            return None
        index = self.scroll + (pos[1] - self.rect.top) // self.row_h
        return index if 0 <= index < len(self.items) else None

    def row_rect(self, index: int) -> pygame.Rect:
        """Where item `index` draws (may be outside the rect when scrolled away)."""
        top = self.rect.top + (index - self.scroll) * self.row_h
        return pygame.Rect(self.rect.left, top, self.rect.width, self.row_h)

    def handle_event(self, event: pygame.event.Event) -> bool:
        self.activated = False
        if not self.active:
            return False
        self._track_hover(event)
        if _is_left_press(event):
            index = self.row_at(event.pos)
            if index is None:
                return False
            now = pygame.time.get_ticks() / 1000
            double = (
                self._last_click is not None
                and self._last_click[0] == index
                and now - self._last_click[1] < DOUBLE_CLICK_S
            )
            self._last_click = (index, now)
            self.selected = index
            self.activated = double
            return True
        if event.type == pygame.MOUSEWHEEL and self.hover:
            self.scroll -= event.y
            self._clamp_scroll()
        elif event.type == pygame.KEYDOWN and self.items:
            if event.key in (pygame.K_UP, pygame.K_DOWN):
                current = self.selected if self.selected is not None else -1
                delta = -1 if event.key == pygame.K_UP else 1
                self.selected = min(len(self.items) - 1, max(0, current + delta))
                self._ensure_visible()
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.selected is not None:
                self.activated = True
                return True
        return False

    def _clamp_scroll(self) -> None:
        """Keep the scroll between the first line and the last full page."""
        self.scroll = min(max(0, self.scroll), max(0, len(self.items) - self.visible_rows))

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        colors, theme = self.theme.colors, self.theme
        pygame.draw.rect(surface, colors.field, self.rect, border_radius=theme.radius)
        pygame.draw.rect(surface, colors.panel_border, self.rect, theme.px(2), theme.radius)
        previous_clip = surface.get_clip()
        surface.set_clip(self.rect.inflate(-theme.px(4), -theme.px(4)))
        px = theme.small_px + theme.px(2)
        end = min(len(self.items), self.scroll + self.visible_rows + 1)
        for index in range(self.scroll, end):
            row = self.row_rect(index)
            if index == self.selected:
                pygame.draw.rect(surface, colors.selection, row.inflate(-theme.px(6), -theme.px(4)),
                                 border_radius=theme.radius // 2)
            text_rect = row.inflate(-2 * theme.pad, 0)
            item = self.items[index]
            if isinstance(item, tuple):  # (text, detail): the detail keeps up to 3/5 of the row
                item, detail = item
                shown = theme.fit_text(detail, px, text_rect.width * 3 // 5)
                detail_w = theme.font(px).size(shown)[0]
                blit_text(surface, theme.render(shown, px, colors.text_dim), text_rect, "right")
                text_rect.width -= detail_w + theme.pad
            text = theme.fit_text(item, px, text_rect.width)
            blit_text(surface, theme.render(text, px), text_rect, "left")
        surface.set_clip(previous_clip)
        if len(self.items) > self.visible_rows:
            self._draw_scrollbar(surface)

    def _draw_scrollbar(self, surface: pygame.Surface) -> None:
        theme = self.theme
        track_h = self.rect.height - 2 * theme.px(6)
        share = self.visible_rows / len(self.items)
        bar_h = max(theme.px(20), round(track_h * share))
        max_scroll = max(1, len(self.items) - self.visible_rows)
        top = self.rect.top + theme.px(6) + round((track_h - bar_h) * self.scroll / max_scroll)
        bar = pygame.Rect(self.rect.right - theme.px(10), top, theme.px(5), bar_h)
        pygame.draw.rect(surface, theme.colors.text_dim, bar, border_radius=bar.width // 2)


class FocusRing:
    """Keyboard focus over a list of widgets: Up/Down and Tab/Shift+Tab move it, skipping hidden
    and disabled ones; the focused widget is `highlighted` and takes Enter, Space, Left, Right.

    Moving the mouse hides the focus (the pointer takes over) until a key is pressed again.
    """

    def __init__(self, widgets: Sequence[Widget] = ()) -> None:
        self.widgets: list[Widget] = list(widgets)
        self.index: int | None = None

    @property
    def current(self) -> Widget | None:
        return self.widgets[self.index] if self.index is not None else None

    def clear(self) -> None:
        for widget in self.widgets:
            widget.highlighted = False
        self.index = None

    def move(self, step: int) -> None:
        """Focus the next (step 1) or previous (step -1) active widget, wrapping round."""
        active = [i for i, w in enumerate(self.widgets) if w.active]
        if not active:
            self.clear()
            return
        if self.index not in active:
            target = active[0] if step > 0 else active[-1]
        else:
            target = active[(active.index(self.index) + step) % len(active)]
        self.focus_on(self.widgets[target])

    def focus_on(self, widget: Widget) -> None:
        """Highlight `widget` (one of the ring's) as if the keys had moved there."""
        self.clear()
        self.index = self.widgets.index(widget)
        widget.highlighted = True

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Move the focus on Up/Down/Tab; True when the event was used for that."""
        if any(isinstance(w, TextInput) and w.focused for w in self.widgets):
            return False  # typing: the keys belong to the text field
        if event.type == pygame.MOUSEMOTION and self.index is not None:
            self.clear()
            return False
        if event.type != pygame.KEYDOWN:
            return False
        shift = getattr(event, "mod", 0) & pygame.KMOD_SHIFT
        if event.key == pygame.K_DOWN or (event.key == pygame.K_TAB and not shift):
            self.move(1)
            return True
        if event.key == pygame.K_UP or event.key == pygame.K_TAB:
            self.move(-1)
            return True
        return False
