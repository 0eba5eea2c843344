"""Colours, fonts and sizes for every screen, derived from the window so text stays crisp.

Sizes are given in "design pixels" for an 800-pixel-high window and scaled by `theme.scale`;
fonts are rendered at the real pixel size (cached per size), never stretched bitmaps.
"""

from __future__ import annotations

import contextlib
import functools
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from gomoku.paths import assets_dir
from gomoku.ui.bidi import RLM, ends_right_to_left, script_of, visual_runs

Colour = tuple[int, int, int]

DESIGN_HEIGHT = 800
"""The window height at which `theme.px(n) == n`."""

TEXT_CACHE_LIMIT = 2048

FONTS_DIR = assets_dir() / "fonts"
FONT_FILES = {False: FONTS_DIR / "DejaVuSans.ttf", True: FONTS_DIR / "DejaVuSans-Bold.ttf"}
FALLBACK_SCRIPTS = {
    "NotoSansCJKsc-Subset.otf": "",  # Chinese, Japanese, Korean: no shaping needed
    "NotoSansDevanagari-Regular.ttf": "Deva", "NotoSansBengali-Regular.ttf": "Beng",
    "NotoSansGurmukhi-Regular.ttf": "Guru", "NotoSansGujarati-Regular.ttf": "Gujr",
    "NotoSansOriya-Regular.ttf": "Orya", "NotoSansTamil-Regular.ttf": "Taml",
    "NotoSansTelugu-Regular.ttf": "Telu", "NotoSansKannada-Regular.ttf": "Knda",
    "NotoSansMalayalam-Regular.ttf": "Mlym", "NotoSansSinhala-Regular.ttf": "Sinh",
    "NotoSansThai-Regular.ttf": "Thai", "NotoSansKhmer-Regular.ttf": "Khmr",
    "NotoSansMyanmar-Regular.ttf": "Mymr", "NotoSansEthiopic-Regular.ttf": "Ethi",
}
"""Fonts for what DejaVu lacks, tried in order (bold is synthetic in all), each with the ISO
15924 script its text is shaped in: the scripts of India and South-East Asia join letters
into clusters only when the shaper is told which script it is (a subset of Noto Sans CJK made
by tools/subset_cjk_font.py, then Noto Sans for each script)."""
FALLBACK_FILES = tuple(FONTS_DIR / name for name in FALLBACK_SCRIPTS)
JOINERS = ("\u200c", "\u200d")
"""Zero-width (non-)joiners: DejaVu has them, but inside a Devanagari word they belong to its
font's run, or the word is shaped in two pieces."""
FONT_SCALE = 0.62
"""DejaVu point size per requested pixel: matches the widths pygame's default font gave."""
MIN_TEXT_PX = 20
"""The smallest text size the UI asks for (12-pixel letters at FONT_SCALE): the least a player
should have to read, so small windows keep their text readable and lay out around it."""
MISSING = "\ufffd"
"""Drawn for a character no shipped font has: a visible mark, never a silent gap or box."""


def shipped_font(px: int, bold: bool = False) -> pygame.font.Font:
    """DejaVu Sans (regular or bold) sized to `px` pixels with the CJK fallback, uncached;
    pygame's bundled font (synthetic bold, no fallback) if the shipped files are missing."""
    if not pygame.font.get_init():
        pygame.font.init()
    path = FONT_FILES[bold]
    if path.is_file():
        return FallbackFont(path, max(6, round(px * FONT_SCALE)), bold)
    font = pygame.font.Font(None, px)
    font.bold = bold
    return font


class _Coverage:
    """Which characters one font file has a glyph for, asked of FreeType once per character.

    Without pygame.freetype every character counts as covered (the old single-font drawing).
    UI thread only."""

    LIMIT = 65_536  # distinct characters remembered; hostile text cannot grow it for ever

    def __init__(self, path: Path) -> None:
        self.path = path
        self._face: Any = None
        self._known: dict[str, bool] = {}

    def _open(self, again: bool) -> Any:
        """The FreeType face (opened `again` after a pygame.quit closed it); None without FreeType."""
        try:
            import pygame.freetype as freetype
        except ImportError:
            return None
        if self._face is None or again or not freetype.get_init():
            try:
                freetype.init()
                self._face = freetype.Font(str(self.path), 12)
            except (OSError, RuntimeError, pygame.error):
                self._face = None
        return self._face

    def _ask(self, char: str) -> bool:
        for again in (False, True):
            face = self._open(again)
            if face is None:
                return True
            try:
                return face.get_metrics(char)[0] is not None
            except (ValueError, UnicodeError):  # a lone surrogate or a NUL: not drawable
                return False
            except (RuntimeError, pygame.error):  # a face closed by pygame.quit: open it again
                continue
        return True

    def has(self, char: str) -> bool:
        known = self._known.get(char)
        if known is None:
            if len(self._known) >= self.LIMIT:
                self._known.clear()
            known = self._known[char] = self._ask(char)
        return known


@functools.cache
def _coverage(path: Path) -> _Coverage:
    return _Coverage(path)


@functools.cache
def _fallback_files() -> tuple[Path, ...]:
    """The fallback fonts that are there (an install may lack one: its script shows as MISSING)."""
    return tuple(path for path in FALLBACK_FILES if path.is_file())


def _invisible(char: str) -> bool:
    """Format characters and variation selectors: nothing to draw, so nothing is missing."""
    return unicodedata.category(char) in ("Cf", "Mn", "Me") and not _coverage(FONT_FILES[False]).has(char)


def can_show(text: str) -> bool:
    """True when every character of `text` has a glyph in a shipped font (or draws as nothing)."""
    if text.isascii() or not FONT_FILES[False].is_file():
        return True
    fonts = [_coverage(FONT_FILES[False]), *(_coverage(path) for path in _fallback_files())]
    return all(any(font.has(char) for font in fonts) or _invisible(char) for char in text)


class FallbackFont(pygame.font.Font):
    """DejaVu Sans with fallback fonts for the characters it lacks (CJK, the scripts of India
    and South-East Asia, Ethiopic): `size` and `render` draw each run of text with the first
    font that has it, on DejaVu's baseline (the line grows only where a fallback's ink needs
    it), right-to-left runs (Hebrew, Arabic) shaped in that direction and placed as bidi.py
    says; a character no font has is drawn as U+FFFD. Everything else is DejaVu's.

    `render` ignores a background colour (the UI draws text on transparent surfaces only).
    Not thread-safe (pygame fonts never are)."""

    def __init__(self, path: Path, points: int, bold: bool = False) -> None:
        super().__init__(path, points)
        self._points, self._bold = points, bold
        self._coverage = _coverage(path)
        self._fallbacks: dict[Path, pygame.font.Font] = {}  # each opened when first needed

    def _fallback_for(self, char: str) -> pygame.font.Font | None:
        """The first fallback font with a glyph for `char`, or None."""
        path = next((path for path in _fallback_files() if _coverage(path).has(char)), None)
        if path is None:
            return None
        font = self._fallbacks.get(path)
        if font is None:
            font = self._fallbacks[path] = pygame.font.Font(path, self._points)
            font.bold = self._bold
            script = FALLBACK_SCRIPTS[path.name]
            if script:
                with contextlib.suppress(AttributeError, pygame.error):  # no HarfBuzz: unshaped
                    font.set_script(script)
        return font

    def _own_script(self, font: pygame.font.Font) -> str:
        """The script `font` shapes in outside a right-to-left run ("" for DejaVu and CJK)."""
        return next((FALLBACK_SCRIPTS[path.name] for path, opened in self._fallbacks.items() if opened is font), "")

    def _runs(self, text: str) -> list[tuple[pygame.font.Font, str]]:
        """`text` cut into runs, each with the font that draws it."""
        runs: list[tuple[pygame.font.Font, str]] = []
        for char in text:
            font: pygame.font.Font | None = None
            if char in JOINERS and runs and runs[-1][0] is not self:
                runs[-1] = (runs[-1][0], runs[-1][1] + char)  # it shapes the letters around it
                continue
            if self._coverage.has(char):
                font = self
            else:
                font = self._fallback_for(char)
                if font is None:
                    if _invisible(char):
                        continue
                    font, char = self, MISSING
            if runs and runs[-1][0] is font:
                runs[-1] = (font, runs[-1][1] + char)
            else:
                runs.append((font, char))
        return runs

    def _pieces(self, text: str) -> list[tuple[pygame.font.Font, str, str | None]]:
        """`text` as (font, run, script) from left to right as drawn: `script` None for a run
        drawn left to right, else the script a right-to-left run is shaped in (bidi.py)."""
        pieces: list[tuple[pygame.font.Font, str, str | None]] = []
        for run, rtl in visual_runs(text):
            if rtl:
                script = script_of(run)
                pieces.extend((font, part, script) for font, part in reversed(self._runs(run)))
            else:
                pieces.extend((font, part, None) for font, part in self._runs(run))
        return pieces

    def _piece_width(self, font: pygame.font.Font, run: str, script: str | None) -> int:
        with _shaping(font, script, self._own_script(font)):
            return pygame.font.Font.size(font, run)[0]

    def size(self, text: str) -> tuple[int, int]:  # type: ignore[override]
        if text.isascii():
            return super().size(text)
        height = super().size("")[1]
        return sum(self._piece_width(font, run, script) for font, run, script in self._pieces(text)), height

    def render(self, text: str | bytes | None, antialias: bool, color: Any, bgcolor: Any = None,
               wraplength: int = 0) -> pygame.Surface:  # type: ignore[override]
        if not isinstance(text, str) or text.isascii():
            return super().render(text, antialias, color, bgcolor, wraplength)
        pieces = self._pieces(text)
        if all(font is self and script is None for font, _, script in pieces):
            return _drawn(self, "".join(run for _, run, _ in pieces), antialias, color)
        drawn = []
        for font, run, script in pieces:
            with _shaping(font, script, self._own_script(font)):
                drawn.append(_drawn(font, run, antialias, color))
        # One baseline for every font, on DejaVu's line; the line grows only where a fallback's
        # ink reaches past it (the marks below Devanagari or Tamil letters, Thai's above).
        ascent, height = self.get_ascent(), super().size("")[1]
        tops = [ascent - font.get_ascent() for font, _, _ in pieces]
        inks = [piece.get_bounding_rect() for piece in drawn]
        above = max([0] + [-(top + ink.top) for top, ink in zip(tops, inks, strict=True) if ink.height])
        below = max([0] + [top + ink.bottom - height for top, ink in zip(tops, inks, strict=True) if ink.height])
        width = sum(piece.get_width() for piece in drawn)
        surface = pygame.Surface((max(1, width), height + above + below), pygame.SRCALPHA)
        rgb = pygame.Color(color)
        surface.fill((rgb.r, rgb.g, rgb.b, 0))  # transparent in the ink's colour: no dark fringes
        x = 0
        for top, piece in zip(tops, drawn, strict=True):
            surface.blit(piece, (x, above + top))
            x += piece.get_width()
        return surface


def _drawn(font: pygame.font.Font, text: str, antialias: bool, color: Any) -> pygame.Surface:
    """`font`'s own drawing of `text` (not FallbackFont's); nothing but zero-width characters
    (a file name's U+200B) is an empty piece, where pygame raises "Text has zero width"."""
    try:
        return pygame.font.Font.render(font, text, antialias, color)
    except pygame.error:
        if pygame.font.Font.size(font, text)[0] > 0:
            raise
        return pygame.Surface((0, font.get_height()), pygame.SRCALPHA)


@contextlib.contextmanager
def _shaping(font: pygame.font.Font, script: str | None, own_script: str) -> Iterator[None]:
    """`font` shapes right to left in `script` for the while (None: as it is), then left to
    right in its `own_script` again. Without HarfBuzz in SDL_ttf the run is drawn as stored."""
    if script is None:
        yield
        return
    try:
        font.set_direction(pygame.DIRECTION_RTL)
        font.set_script(script)
    except (AttributeError, pygame.error):
        yield
        return
    try:
        yield
    finally:
        font.set_direction(pygame.DIRECTION_LTR)
        font.set_script(own_script or "Zzzz")  # "Zzzz": HarfBuzz's "unknown", SDL_ttf's default


def drawable(text: str) -> str:
    """`text` without the characters pygame refuses to draw (NUL, lone surrogates)."""
    if "\x00" not in text and text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = "".join(char for char in text if not "\ud800" <= char <= "\udfff")
    return text.replace("\x00", "")


@dataclass(frozen=True)
class Palette:
    """Every colour the UI uses, by role."""

    # The wood board: a warm kaya-like yellow, its grain and its grid.
    wood_light: Colour = (226, 184, 120)
    wood: Colour = (212, 165, 98)
    wood_dark: Colour = (184, 136, 74)
    grid: Colour = (72, 48, 24)
    # Stones: body and highlight.
    black_stone: Colour = (22, 22, 26)
    black_highlight: Colour = (92, 92, 100)
    white_stone: Colour = (236, 234, 226)
    white_shadow: Colour = (170, 166, 156)
    # Screen, panels and text.
    background: Colour = (30, 27, 24)
    background_top: Colour = (48, 40, 33)
    panel: Colour = (44, 39, 34)
    panel_border: Colour = (88, 74, 58)
    text: Colour = (240, 232, 218)
    text_dim: Colour = (168, 156, 140)
    text_dark: Colour = (36, 28, 20)
    accent: Colour = (222, 160, 72)
    accent_hover: Colour = (240, 184, 96)
    # Controls.
    button: Colour = (70, 60, 50)
    button_hover: Colour = (96, 82, 66)
    button_pressed: Colour = (58, 50, 42)
    button_disabled: Colour = (52, 48, 44)
    track: Colour = (30, 26, 22)
    field: Colour = (26, 23, 20)
    selection: Colour = (112, 84, 46)
    # Messages and markers.
    info: Colour = (60, 96, 132)
    error: Colour = (150, 56, 48)
    warning: Colour = (200, 70, 56)
    good: Colour = (92, 160, 96)
    last_move: Colour = (214, 64, 52)
    shade: tuple[int, int, int, int] = (14, 12, 10, 150)


class Theme:
    """The palette plus sizes and fonts for the current window size; `resize` on every change."""

    def __init__(self, size: tuple[int, int] = (1280, 800)) -> None:
        self.colors = Palette()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._texts: dict[tuple[str, int, Colour, bool], pygame.Surface] = {}
        self._background: pygame.Surface | None = None
        self.size = size
        self.scale = 1.0
        self.resize(size)

    def resize(self, size: tuple[int, int]) -> None:
        """Recompute the scale for a window of `size` (w, h); fonts re-render at the new sizes."""
        width, height = max(1, size[0]), max(1, size[1])
        self.size = (width, height)
        # The height drives the scale, but a narrow window must still fit the side panel.
        self.scale = max(0.5, min(height / DESIGN_HEIGHT, width / (DESIGN_HEIGHT * 1.28)))

    def px(self, design_pixels: float) -> int:
        """A length in real pixels for `design_pixels` at the 800-pixel design height (at least 1)."""
        return max(1, round(design_pixels * self.scale))

    # Named text sizes, in real pixels, never under MIN_TEXT_PX (a step above it for body text
    # and headings, so they stay apart from the small text in a small window).
    @property
    def text_px(self) -> int:
        return max(MIN_TEXT_PX + 3, self.px(26))

    @property
    def small_px(self) -> int:
        return max(MIN_TEXT_PX, self.px(21))

    @property
    def heading_px(self) -> int:
        return max(MIN_TEXT_PX + 6, self.px(34))

    @property
    def title_px(self) -> int:
        return self.px(84)

    @property
    def pad(self) -> int:
        """The standard gap between controls."""
        return self.px(12)

    @property
    def control_h(self) -> int:
        """The height of a button, toggle, slider or text field."""
        return self.px(48)

    @property
    def radius(self) -> int:
        """Corner radius of buttons and panels."""
        return self.px(10)

    def font(self, px: int, bold: bool = False) -> pygame.font.Font:
        """DejaVu Sans (regular or bold) at `px` pixels, cached by (size, bold).

        Falls back to pygame's bundled font (synthetic bold) if the shipped files are missing.
        """
        px = max(6, int(px))
        key = (px, bold)
        font = self._fonts.get(key)
        if font is None:
            font = self._fonts[key] = shipped_font(px, bold)
        return font

    def render(
        self, text: str, px: int, colour: Colour | None = None, bold: bool = False
    ) -> pygame.Surface:
        """Antialiased text on a transparent surface (cached: do not draw on the result)."""
        rgb = colour or self.colors.text
        key = (text, px, (rgb[0], rgb[1], rgb[2]), bold)
        surface = self._texts.get(key)
        if surface is None:
            if len(self._texts) > TEXT_CACHE_LIMIT:
                self._texts.clear()  # texts change rarely; a full reset is simpler than an LRU
            try:
                surface = self.font(px, bold).render(text, True, key[2])
            except (ValueError, UnicodeError):  # a NUL or a lone surrogate: draw the rest
                surface = self.font(px, bold).render(drawable(text), True, key[2])
            self._texts[key] = surface
        return surface

    def can_show(self, text: str) -> bool:
        """True when the shipped fonts have every character of `text` (see `can_show`)."""
        return can_show(text)

    def first_fitting(self, texts: tuple[str, ...], px: int, max_width: int, bold: bool = False) -> str:
        """The first of `texts` (longest wording first) that fits in `max_width` pixels at `px`,
        else the last one (drawn cut with an ellipsis)."""
        font = self.font(px, bold)
        for text in texts[:-1]:
            if font.size(text)[0] <= max_width:
                return text
        return texts[-1]

    def fit_text(self, text: str, px: int, max_width: int, bold: bool = False) -> str:
        """`text`, cut with an ellipsis so it fits in `max_width` pixels at `px`.

        Any length costs a few measurements (a binary search on the cut, over at most
        `max_width` + 1 characters: no glyph that shows is narrower than a pixel). NULs and lone
        surrogates, which pygame cannot draw, are left out.
        """
        font = self.font(px, bold)
        limit = max(0, max_width) + 1
        head = drawable(text[:limit])
        if len(text) <= limit and font.size(head)[0] <= max_width:
            return head
        low, high = 0, len(head)  # the longest cut that fits has a length in [low, high]
        while low < high:
            middle = (low + high + 1) // 2
            if font.size(head[:middle] + "...")[0] <= max_width:
                low = middle
            else:
                high = middle - 1
        if not low:
            return ""
        # Cut inside Hebrew or Arabic, the dots go at the word's reading end: its left.
        return head[:low] + ("..." + RLM if ends_right_to_left(head[:low]) else "...")

    def draw_background(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> None:
        """The plain screen background: a soft vertical gradient from warm brown to near black
        (only inside `area` if given, e.g. to clear one panel of a cached screen)."""
        size = surface.get_size()
        if self._background is None or self._background.get_size() != size:
            self._background = self._render_background(size)
        if area is None:
            surface.blit(self._background, (0, 0))
        else:
            surface.blit(self._background, area, area)

    def _render_background(self, size: tuple[int, int]) -> pygame.Surface:
        width, height = size
        background = pygame.Surface(size)
        top, bottom = self.colors.background_top, self.colors.background
        bands = 48
        for i in range(bands):
            t = i / (bands - 1)
            colour = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
            y0 = height * i // bands
            y1 = height * (i + 1) // bands
            background.fill(colour, (0, y0, width, y1 - y0))
        return background
