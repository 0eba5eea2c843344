"""The records scene: the saved games folder, to load a game for review or to save one.

Enter data: {} (load mode, from the menu), or {"save": GameRecord, "back": scene name,
"back_data": dict} (save mode, from the board; Cancel and a finished save go back there), or
{"pick": True, "back": ..., "back_data": ...} (pick mode: Load hands the record back to `back`
as back_data["picked_record"]; the LAN host loads a position this way).
Files are the own format (`.gomoku`) or Piskvork's `.psq`, told apart by content on load and
chosen by the format switch on save. A damaged file is reported in plain words; nothing is
changed on disk by loading.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pygame

from gomoku.core import records
from gomoku.core.board import Board
from gomoku.core.notation import counted
from gomoku.core.records import PSQ_SUFFIX, RECORD_SUFFIX, GameRecord, RecordError
from gomoku.paths import shown_path
from gomoku.ui.board_view import BoardView, Overlay
from gomoku.ui.scene import Scene
from gomoku.ui.widgets import Button, Choice, ListView, TextInput, blit_text, wrap_text, wrap_words

NAME_LIMIT = 48
_UNSAFE = re.compile(r"[^\w .()\-]+")  # keep letters, digits, spaces and a few signs
KEPT_SIGNS = "letters, digits, spaces and . ( ) - _"
EMPTY_HINT = ("Games you save from the board are listed here,",
              "and .gomoku or Piskvork .psq files copied into the folder above.")
WINDOWS_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL"] + [f"{port}{digit}" for port in ("COM", "LPT") for digit in "0123456789¹²³"]
)
"""Device names Windows will not use for a file, with or without an extension, in any case."""


@dataclass(frozen=True)
class SaveFile:
    """One file in the saves folder, as the list shows it."""

    path: Path
    modified: float

    @property
    def label(self) -> tuple[str, str]:
        """(name, date): the list cuts a long name before the date; a Piskvork file says so."""
        try:
            stamp = datetime.fromtimestamp(self.modified).strftime("%Y-%m-%d %H:%M")
        except (ValueError, OverflowError, OSError):  # a time past year 9999 (a file system allows it)
            stamp = "date unknown"
        kind = "  ·  Piskvork" if self.path.suffix.lower() == PSQ_SUFFIX else ""
        return shown_path(self.path.stem) + kind, stamp


def list_saves(folder: Path) -> list[SaveFile]:
    """The record files in `folder`, newest first; an unreadable folder gives an empty list."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    found = []
    for path in entries:
        if path.suffix.lower() in (RECORD_SUFFIX, PSQ_SUFFIX) and path.is_file():
            try:
                found.append(SaveFile(path, path.stat().st_mtime))
            except OSError:
                continue
    return sorted(found, key=lambda f: (-f.modified, f.path.name))


def safe_file_name(text: str) -> str:
    """A file name from what the player typed: unsafe characters dropped, trimmed; may be ""."""
    cleaned = _UNSAFE.sub("", text).strip(" .")
    return cleaned[:NAME_LIMIT]


@dataclass(frozen=True)
class SaveName:
    """What a typed save name becomes: the file name Save would write, what cleaning left
    out, and a plain refusal ("" when the name can be saved)."""

    stem: str
    suffix: str  # the format: a suffix typed at the end of the name wins over the chosen one
    left_out: str  # each character cleaning dropped, once, in order
    problem: str

    @property
    def file_name(self) -> str:
        return "" if self.problem else f"{self.stem}{self.suffix}"

    def describe(self) -> str:
        """The line under the name field: where Save would write, or why it will not."""
        if self.problem:
            return self.problem
        text = f"Saves as: {self.file_name}"
        if self.left_out:
            shown = " ".join(f"\"{char}\"" for char in self.left_out)
            text += f"   ·   left out: {shown} (a file name keeps {KEPT_SIGNS})"
        return text


def save_name(text: str, chosen_suffix: str) -> SaveName:
    """The file `text` (as typed) would be saved as with format `chosen_suffix`. A typed
    ".gomoku" or ".psq" is not doubled: it chooses the format. Never raises."""
    suffix = chosen_suffix
    typed = text.rstrip(" ")
    for known in (RECORD_SUFFIX, PSQ_SUFFIX):
        if typed.lower().endswith(known) and len(typed) > len(known):
            text, suffix = typed[: -len(known)], known
            break
    stem = safe_file_name(text)
    dropped = "".join(_UNSAFE.findall(text))
    kept = _UNSAFE.sub("", text)
    if kept.strip(" .") != kept.strip(" "):
        dropped += "."  # dots at the ends: "../x" must not read as a hidden or parent name
    left_out = "".join(dict.fromkeys(ch for ch in dropped if ch.isprintable() and not "\ud800" <= ch <= "\udfff"))
    if not stem:
        problem = f"Type a name for the file ({KEPT_SIGNS})."
    elif stem.split(".")[0].rstrip(" ").upper() in WINDOWS_RESERVED:
        problem = f"\"{stem}\" is a name Windows keeps for a device: choose another name."
    else:
        problem = ""
    return SaveName(stem, suffix, left_out, problem)


def record_details(record: GameRecord) -> list[str]:
    """The lines under a saved game's preview: players, rule, size and moves, result."""
    result = {"black": f"{record.black} (black) won", "white": f"{record.white} (white) won",
              "draw": "A draw", "": "Unfinished"}.get(record.result, "")
    return [
        f"{record.black}  vs  {record.white}",
        f"{record.rule.value.capitalize()} {record.size}x{record.size}  ·  {counted(len(record.moves), 'move')}",
        result,
    ]


def suggested_name(record: GameRecord) -> str:
    """A default name for a save: the players and the date."""
    stamp = time.strftime("%Y-%m-%d %H%M")
    return safe_file_name(f"{record.black} vs {record.white} {stamp}") or f"game {stamp}"


class RecordsScene(Scene):
    """Load (list, Load, Back) or save (name, format, Save, Cancel) game records."""

    name = "records"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        theme = app.theme
        self.files: list[SaveFile] = []
        self.record: GameRecord | None = None  # the game to save (save mode)
        self.back = "menu"
        self.back_data: dict[str, Any] = {}
        self.pick = False  # pick mode: Load hands the record back instead of opening review
        self.list_view = ListView(theme)
        self.name_input = TextInput(theme, "Name", max_length=NAME_LIMIT)
        self.format_choice = Choice(
            theme, "Format", [(RECORD_SUFFIX, "Gomoku record (.gomoku)"), (PSQ_SUFFIX, "Piskvork (.psq)")]
        )
        self.load_button = Button(theme, "Load", primary=True)
        self.save_button = Button(theme, "Save", primary=True)
        self.back_button = Button(theme, "Back", hotkey=pygame.K_ESCAPE)
        self.title_rect = pygame.Rect(0, 0, 0, 0)
        self.folder_rect = pygame.Rect(0, 0, 0, 0)
        self.folder_lines: list[str] = []  # the folder and the hint, one or two lines
        self.target_rect = pygame.Rect(0, 0, 0, 0)  # "Saves as: ..." under the name and format
        self._overwrite_armed: Path | None = None
        self.preview_rect = pygame.Rect(0, 0, 0, 0)
        self._preview_key: tuple[Path, float] | None = None
        self._preview: Board | str | None = None  # the final position, or why it cannot be shown
        self._preview_record: GameRecord | None = None
        self._preview_view = BoardView(15)

    @property
    def saving(self) -> bool:
        return self.record is not None

    def enter(self, data: dict[str, Any]) -> None:
        record = data.get("save")
        self.record = record if isinstance(record, GameRecord) else None
        self.back = str(data.get("back") or "menu")
        self.back_data = dict(data.get("back_data") or {})
        self.pick = bool(data.get("pick")) and self.record is None
        self._overwrite_armed = None
        self.refresh()
        if self.record is not None:
            self.name_input.set_text(suggested_name(self.record))
            self.name_input.focus(select_all=True)  # type a name at once, or Enter keeps the suggestion
            self.back_button.text = "Cancel"
        else:
            self.back_button.text = "Back"
        self.resize(self.app.screen_size)

    def refresh(self) -> None:
        """Read the saves folder again."""
        self.files = list_saves(self.app.paths.saves_dir)
        if self.files:
            self.list_view.set_items([f.label for f in self.files], 0)
        else:
            self.list_view.set_items([], None)

    def resize(self, size: tuple[int, int]) -> None:
        width, height = size
        theme = self.app.theme
        pad, control_h = theme.pad, theme.control_h
        panel_w = min(width - 4 * pad, theme.px(900))
        left = (width - panel_w) // 2
        top = theme.px(40)
        self.title_rect = pygame.Rect(left, top, panel_w, theme.heading_px + pad)
        self.folder_lines = wrap_text(self._folder_text(), theme.font(theme.small_px), panel_w)[:2]
        line_h = theme.font(theme.small_px).get_linesize()
        self.folder_rect = pygame.Rect(left, self.title_rect.bottom, panel_w, line_h * len(self.folder_lines) + pad)
        bottom = height - theme.px(30)
        button_w = (panel_w - pad) // 2
        self.back_button.rect = pygame.Rect(left, bottom - control_h, button_w, control_h)
        action = pygame.Rect(left + button_w + pad, bottom - control_h, button_w, control_h)
        self.load_button.rect = action
        self.save_button.rect = action.copy()
        list_top = self.folder_rect.bottom + pad
        list_bottom = self.back_button.rect.top - 2 * pad
        if self.saving:
            line_h = theme.small_px + pad
            self.target_rect = pygame.Rect(left, list_bottom - line_h, panel_w, line_h)
            list_bottom = self.target_rect.top - pad // 2
            self.format_choice.rect = pygame.Rect(left, list_bottom - control_h, panel_w, control_h)
            self.name_input.rect = pygame.Rect(left, self.format_choice.rect.top - pad - control_h, panel_w, control_h)
            list_bottom = self.name_input.rect.top - 2 * pad
        list_h = max(theme.px(40), list_bottom - list_top)
        if self.saving or not self.files:  # nothing to preview: the list takes the whole width
            self.list_view.rect = pygame.Rect(left, list_top, panel_w, list_h)
            self.preview_rect = pygame.Rect(0, 0, 0, 0)
        else:
            # The list on the left, a small board of the selected game on the right.
            preview_side = min(list_h, panel_w * 2 // 5)
            self.list_view.rect = pygame.Rect(left, list_top, panel_w - preview_side - pad, list_h)
            self.preview_rect = pygame.Rect(self.list_view.rect.right + pad, list_top, preview_side, list_h)

    # --- input ---------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.saving:
            if self.name_input.focused:
                enter = event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
                escape = event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
                if escape and not self.name_input.edited:
                    self.name_input.commit()  # nothing typed to abandon: Esc cancels the dialog
                    self.app.switch(self.back, self.back_data)
                    return
                self.name_input.handle_event(event)
                if enter:  # Enter in the field saves: typing a name and pressing Enter is one action
                    self.save()
                    return
                if not (event.type == pygame.MOUSEBUTTONDOWN and not self.name_input.focused):
                    return  # typing must not trigger the hotkeys below
                # A click elsewhere ended the edit: it also reaches Save, the format or the list.
            if self.name_input.handle_event(event) or self.format_choice.handle_event(event):
                self._overwrite_armed = None
                return
            enter = event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
            if self.save_button.handle_event(event) or enter:
                self.save()
                return
        elif self.load_button.handle_event(event):
            self.load_selected()
            return
        if self.back_button.handle_event(event):
            self.app.switch(self.back, self.back_data)
            return
        if self.list_view.handle_event(event):
            chosen = self._selected_file()
            if chosen is None:
                return
            if self.saving:
                self.name_input.set_text(chosen.path.stem)
                self.format_choice.value = RECORD_SUFFIX if chosen.path.suffix.lower() != PSQ_SUFFIX else PSQ_SUFFIX
            elif self.list_view.activated:
                self.load_selected()

    def _selected_file(self) -> SaveFile | None:
        index = self.list_view.selected
        if index is None or not 0 <= index < len(self.files):
            return None
        return self.files[index]

    # --- actions -------------------------------------------------------------------------

    def load_selected(self) -> bool:
        """Open the selected file in the review scene; a damaged file is reported, nothing lost."""
        chosen = self._selected_file()
        if chosen is None:
            self.app.notify("Choose a saved game first.")
            return False
        try:
            record = records.load_record(chosen.path)
        except RecordError as error:
            self.app.notify(f"{chosen.path.name} could not be opened: {error}.", error=True)
            return False
        except OSError as error:
            self.app.notify(f"{chosen.path.name} could not be read ({error.strerror or error}).", error=True)
            return False
        if self.pick:
            self.app.switch(self.back, {**self.back_data, "picked_record": record})
            return True
        # At the last move, as the preview showed it: "Play on" continues an unfinished game.
        self.app.switch("review", {"record": record, "back": "records"})
        return True

    @property
    def save_name(self) -> SaveName:
        """What the name typed so far would be saved as (shown live under the field)."""
        return save_name(self.name_input.text, str(self.format_choice.value))

    def target_path(self) -> Path | None:
        """Where Save would write, or None if the name is empty or refused."""
        name = self.save_name
        return self.app.paths.saves_dir / name.file_name if name.file_name else None

    def update(self, dt: float) -> None:
        if self.saving and self.save_name.suffix != self.format_choice.value:
            self.format_choice.value = self.save_name.suffix  # a typed ".psq" picks the format

    def save(self) -> bool:
        """Write the record; an existing file needs a second Save to be replaced."""
        assert self.record is not None
        if self.name_input.focused:
            self.name_input.commit()  # a name being typed counts as entered
        name = self.save_name
        if name.problem:
            self.app.notify(name.problem, error=True)
            return False
        if self.format_choice.value != name.suffix:
            self.format_choice.value = name.suffix
        path = self.app.paths.saves_dir / name.file_name
        if path.exists() and self._overwrite_armed != path:
            self._overwrite_armed = path
            self.app.notify(f"{path.name} exists already: press Save again to replace it.")
            return False
        try:
            records.save_record(self.record, path)
        except RecordError as error:
            self.app.notify(f"This game cannot be saved: {error}.", error=True)
            return False
        except OSError as error:
            self.app.notify(f"Could not save {path.name} ({error.strerror or error}).", error=True)
            return False
        except ValueError as error:  # e.g. text that cannot be encoded: a message, not a crash
            self.app.notify(f"This game cannot be saved ({str(error)[:200]}).", error=True)
            return False
        self.app.notify(f"Saved as {path.name}.")
        self.app.switch(self.back, self.back_data)
        return True

    # --- preview -------------------------------------------------------------------------

    @property
    def preview(self) -> Board | str | None:
        """The selected game's final position, or why it cannot be opened (None: nothing chosen)."""
        self._update_preview()
        return self._preview

    def _update_preview(self) -> None:
        """Read the selected file once (again only if it changed) for the preview board."""
        chosen = self._selected_file()
        key = (chosen.path, chosen.modified) if chosen is not None else None
        if key == self._preview_key:
            return
        self._preview_key = key
        self._preview_record = None
        self._preview = None
        if chosen is None:
            return
        try:
            record = records.load_record(chosen.path)
            board = record.replay()
        except (OSError, RecordError) as error:
            self._preview = f"Cannot be opened: {error}"
            return
        self._preview_record = record
        self._preview = board
        if self._preview_view.size != record.size:
            self._preview_view = BoardView(record.size)

    def _draw_preview(self, surface: pygame.Surface) -> None:
        theme, colors = self.app.theme, self.app.theme.colors
        area = self.preview_rect
        if area.width <= 0:
            return
        self._update_preview()
        pygame.draw.rect(surface, colors.field, area, border_radius=theme.radius)
        pygame.draw.rect(surface, colors.panel_border, area, theme.px(2), theme.radius)
        pad = theme.pad
        inner = area.inflate(-2 * pad, -2 * pad)
        if isinstance(self._preview, str):
            lines = wrap_words(self._preview, theme.font(theme.small_px), inner.width)
            for index, text in enumerate(lines[:8]):
                rendered = theme.render(text, theme.small_px, colors.warning)
                surface.blit(rendered, (inner.left, inner.top + index * (theme.small_px + theme.px(4))))
            return
        if not isinstance(self._preview, Board) or self._preview_record is None:
            return
        record = self._preview_record
        board_rect = pygame.Rect(inner.left, inner.top, inner.width, inner.width)
        self._preview_view.layout(board_rect)
        outcome = self._preview.outcome()
        self._preview_view.draw(surface, self._preview, Overlay(winning_line=outcome.line if outcome else ()))
        details = record_details(record)
        top = board_rect.bottom + pad
        font = theme.font(theme.small_px)
        lines = [line for text in details for line in wrap_text(text, font, inner.width)]
        for text in lines:
            if top + font.get_linesize() > inner.bottom:
                break
            fitted = theme.fit_text(text, theme.small_px, inner.width)
            surface.blit(theme.render(fitted, theme.small_px, colors.text), (inner.left, top))
            top += font.get_linesize() + theme.px(4)

    def _folder_text(self) -> str:
        where = f"Folder: {shown_path(self.app.paths.saves_dir)}"
        if not self.saving:
            where += "  ·  double-click or Enter opens a game (.gomoku and Piskvork .psq)"
        return where

    # --- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        theme, colors = self.app.theme, self.app.theme.colors
        if not self.saving:
            self._update_preview()
            # A file the preview could not open would only fail again: Load waits for a good one.
            self.load_button.enabled = self._selected_file() is not None and not isinstance(self._preview, str)
        widgets = (self.list_view, self.name_input, self.format_choice, self.save_button, self.load_button,
                   self.back_button)
        blink = (pygame.time.get_ticks() // 500) % 2 if self.name_input.focused else 0  # the text cursor
        target = self.save_name.describe() if self.saving else ""
        look = (self.saving, self._preview_key, tuple(self.preview_rect), blink, target,
                *(w.appearance for w in widgets))
        if self.unchanged_frame(surface, look):
            return
        theme.draw_background(surface)
        title = "Save this game" if self.saving else "Saved games"
        blit_text(surface, theme.render(title, theme.heading_px, colors.accent, bold=True), self.title_rect, "left")
        line_h = theme.font(theme.small_px).get_linesize()
        top = self.folder_rect.centery - line_h * len(self.folder_lines) // 2
        for line in self.folder_lines:  # the folder, and how to open a game (on a line of its own if need be)
            fitted = theme.fit_text(line, theme.small_px, self.folder_rect.width)
            blit_text(surface, theme.render(fitted, theme.small_px, colors.text_dim),
                      pygame.Rect(self.folder_rect.left, top, self.folder_rect.width, line_h), "left")
            top += line_h
        self.list_view.draw(surface)
        if not self.files:
            empty = "No saved games yet." if not self.saving else "No saved games yet: this will be the first."
            blit_text(surface, theme.render(empty, theme.text_px, colors.text_dim), self.list_view.rect)
            if not self.saving:  # a new player's next step: where games come from
                below = self.list_view.rect.move(0, theme.font(theme.text_px).get_linesize() + theme.pad // 2)
                for line in EMPTY_HINT:
                    hint = theme.fit_text(line, theme.small_px, self.list_view.rect.width - 2 * theme.pad)
                    blit_text(surface, theme.render(hint, theme.small_px, colors.text_dim), below)
                    below = below.move(0, theme.font(theme.small_px).get_linesize())
        if self.saving:
            self.name_input.draw(surface)
            self.format_choice.draw(surface)
            colour = colors.warning if self.save_name.problem else colors.text_dim
            fitted = theme.fit_text(target, theme.small_px, self.target_rect.width)
            blit_text(surface, theme.render(fitted, theme.small_px, colour), self.target_rect, "left")
            self.save_button.draw(surface)
        else:
            self.load_button.draw(surface)
            if self.files:
                self._draw_preview(surface)
        self.back_button.draw(surface)
