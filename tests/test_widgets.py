"""Widgets react to real pygame events the way a player expects, and draw at any scale."""

from __future__ import annotations

import pygame
import pytest
from app_input import typing_events

from gomoku.ui.theme import Theme
from gomoku.ui.widgets import (
    Button,
    Choice,
    FocusRing,
    Label,
    ListView,
    Panel,
    Slider,
    TextInput,
    Toggle,
    column,
    wrap_text,
    wrap_words,
)


@pytest.fixture(autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((1280, 800))
    yield surface
    pygame.display.quit()


@pytest.fixture
def theme() -> Theme:
    return Theme((1280, 800))


def press(pos, button=1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def release(pos, button=1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def motion(pos) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")


def test_a_button_clicks_once_on_press_and_release_inside(theme: Theme) -> None:
    button = Button(theme, "Play", (100, 100, 200, 50))
    assert button.handle_event(press((150, 120))) is False
    assert button.handle_event(release((150, 120))) is True
    # A release with no press first (the press went to another scene) is not a click.
    assert button.handle_event(release((150, 120))) is False


def test_a_button_press_dragged_off_is_not_a_click(theme: Theme) -> None:
    button = Button(theme, "Play", (100, 100, 200, 50))
    button.handle_event(press((150, 120)))
    assert button.handle_event(release((500, 500))) is False


def test_a_disabled_or_hidden_button_ignores_clicks(theme: Theme) -> None:
    button = Button(theme, "Play", (100, 100, 200, 50), enabled=False)
    button.handle_event(press((150, 120)))
    assert button.handle_event(release((150, 120))) is False
    button.enabled, button.visible = True, False
    button.handle_event(press((150, 120)))
    assert button.handle_event(release((150, 120))) is False


def test_a_right_click_is_not_a_click(theme: Theme) -> None:
    button = Button(theme, "Play", (100, 100, 200, 50))
    button.handle_event(press((150, 120), button=3))
    assert button.handle_event(release((150, 120), button=3)) is False


def test_button_hover_follows_the_mouse_and_changes_its_look(theme: Theme, display) -> None:
    button = Button(theme, "Play", (100, 100, 200, 50))
    button.draw(display)
    plain = display.get_at((105, 125))
    button.handle_event(motion((150, 120)))
    assert button.hover
    button.draw(display)
    assert display.get_at((105, 125)) != plain
    button.handle_event(motion((10, 10)))
    assert not button.hover


def test_a_button_disabled_under_the_mouse_drops_its_tooltip_and_hover(theme: Theme) -> None:
    """Resign is disabled by the click that ends the game: its tooltip must not stay up after
    the mouse has gone to the result card (a disabled button sees no motion)."""
    button = Button(theme, "Resign", (100, 100, 200, 50), tooltip="Resign this game (click twice)")
    area = pygame.Rect(0, 0, 800, 600)
    button.handle_event(motion((150, 120)))
    assert button.tooltip_rect(area) is not None
    button.enabled = False
    assert button.tooltip_rect(area) is None
    button.handle_event(motion((500, 400)))  # the mouse leaves while it is disabled
    button.enabled = True
    assert not button.hover and button.tooltip_rect(area) is None


def test_a_button_hotkey_activates_it(theme: Theme) -> None:
    button = Button(theme, "Start", (0, 0, 100, 40), hotkey=pygame.K_RETURN)
    assert button.handle_event(key(pygame.K_RETURN)) is True
    assert button.handle_event(key(pygame.K_SPACE)) is False


def test_toggle_flips_on_click(theme: Theme) -> None:
    toggle = Toggle(theme, "Mute", False, (0, 0, 400, 48))
    toggle.handle_event(press((300, 20)))
    assert toggle.handle_event(release((300, 20))) is True
    assert toggle.value is True
    toggle.handle_event(press((10, 20)))  # the label is part of the row
    toggle.handle_event(release((10, 20)))
    assert toggle.value is False


def test_slider_follows_clicks_and_drags_in_steps(theme: Theme) -> None:
    slider = Slider(theme, "Volume", 0.5, rect=(0, 0, 600, 48), step=0.1)
    track = slider.track_rect
    assert slider.handle_event(press((track.left, 24))) is True
    assert slider.value == 0.0
    assert slider.handle_event(motion((track.right + 50, 24))) is True
    assert slider.value == 1.0
    slider.handle_event(release((track.right, 24)))
    assert slider.handle_event(motion((track.left, 24))) is False  # no longer dragging
    assert slider.value == 1.0
    middle = track.left + track.width // 2
    slider.handle_event(press((middle, 24)))
    assert slider.value == pytest.approx(0.5)
    assert slider.text_value() == "50%"


def test_slider_refuses_an_empty_range(theme: Theme) -> None:
    with pytest.raises(ValueError, match="range"):
        Slider(theme, "x", 1, minimum=2, maximum=2)


def test_choice_steps_forward_on_the_right_and_back_on_the_left(theme: Theme) -> None:
    choice = Choice(theme, "Level", [("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard")],
                    "medium", (0, 0, 600, 48))
    area = choice.control_rect
    choice.handle_event(press((area.right - 5, 24)))
    assert choice.handle_event(release((area.right - 5, 24))) is True
    assert choice.value == "hard"
    choice.handle_event(press((area.right - 5, 24)))
    choice.handle_event(release((area.right - 5, 24)))
    assert choice.value == "easy"  # wraps round
    choice.handle_event(press((area.left + 5, 24)))
    choice.handle_event(release((area.left + 5, 24)))
    assert choice.value == "hard"
    assert choice.text == "Hard"


def test_choice_keys_work_under_the_mouse(theme: Theme) -> None:
    choice = Choice(theme, "Rule", [(1, "One"), (2, "Two")], 1, (0, 0, 600, 48))
    assert choice.handle_event(key(pygame.K_RIGHT)) is False  # not hovered
    choice.handle_event(motion((400, 20)))
    assert choice.handle_event(key(pygame.K_RIGHT)) is True
    assert choice.value == 2


def test_choice_keeps_the_value_when_options_change_and_refuses_unknown_values(theme: Theme) -> None:
    choice = Choice(theme, "Size", [(15, "15"), (19, "19")], 19)
    choice.set_options([(15, "15"), (19, "19"), (20, "20")], 19)
    assert choice.value == 19
    choice.set_options([(15, "15")], 19)
    assert choice.value == 15
    with pytest.raises(ValueError):
        choice.value = 99
    with pytest.raises(ValueError):
        Choice(theme, "Empty", [])


def test_text_input_types_commits_on_enter_and_limits_length(theme: Theme) -> None:
    field = TextInput(theme, "Name", "Bo", (0, 0, 600, 48), max_length=5)
    field.handle_event(press((400, 20)))
    assert field.focused
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="bby!!"))
    assert field.text == "Bobby"
    field.handle_event(key(pygame.K_BACKSPACE))
    assert field.text == "Bobb"
    assert field.handle_event(key(pygame.K_RETURN)) is True
    assert not field.focused
    # Typing while not focused does nothing.
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="x"))
    assert field.text == "Bobb"


def test_text_input_escape_abandons_and_click_outside_commits(theme: Theme) -> None:
    field = TextInput(theme, "Name", "Ann", (0, 0, 600, 48))
    field.handle_event(press((400, 20)))
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="e"))
    field.handle_event(key(pygame.K_ESCAPE))
    assert field.text == "Ann" and not field.focused
    field.handle_event(press((400, 20)))
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="a"))
    assert field.handle_event(press((900, 700))) is True
    assert field.text == "Anna"


def typed(field: TextInput, text: str) -> None:
    """Type `text` into `field` as a keyboard does (app_input.typing_events)."""
    for event in typing_events(text):
        field.handle_event(event)


def test_typing_replaces_a_selected_default_name_even_with_a_capital(theme: Theme) -> None:
    field = TextInput(theme, "Your name", "Player", (0, 0, 600, 48), placeholder="Player")
    field.handle_event(press((400, 20)))  # the default name is selected on focus
    typed(field, "Alice")
    assert field.text == "Alice"
    field.focus(select_all=True)
    typed(field, "bob")
    assert field.text == "bob"


def test_ctrl_a_selects_all_and_an_arrow_keeps_the_text_to_edit(theme: Theme) -> None:
    field = TextInput(theme, "Name", "Ann", (0, 0, 600, 48))
    field.handle_event(press((400, 20)))
    typed(field, "e")
    assert field.text == "Anne"  # not selected on focus: typing adds
    field.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_LCTRL, unicode=""))
    assert field.selected
    typed(field, "Zoe")
    assert field.text == "Zoe"
    field.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_LCTRL, unicode=""))
    field.handle_event(key(pygame.K_END))
    typed(field, "y")
    assert field.text == "Zoey"


def ctrl(letter: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=letter, mod=pygame.KMOD_LCTRL, unicode="")


def test_ctrl_v_pastes_the_clipboards_first_line_and_ctrl_c_copies_the_text(theme: Theme) -> None:
    # A guest pasting the host's address from a chat message got nothing: the field took only typing.
    field = TextInput(theme, "Address", "", (0, 0, 600, 48), max_length=21)
    field.handle_event(press((400, 20)))
    pygame.scrap.put_text("  192.168.1.23:15515\nsent from my phone")
    field.handle_event(ctrl(pygame.K_v))
    assert field.text == "192.168.1.23:15515"
    field.handle_event(ctrl(pygame.K_a))
    pygame.scrap.put_text("10.0.0.7\x1b[31m\x7f" + "9" * 100_000)  # control characters and a flood
    field.handle_event(ctrl(pygame.K_v))
    assert field.text == "10.0.0.7[31m" + "9" * 9  # replaces the selection; capped at max_length
    field.set_text("h8 is mine")
    field.handle_event(ctrl(pygame.K_c))
    assert pygame.scrap.get_text() == "h8 is mine"


def test_list_view_selects_scrolls_and_activates(theme: Theme) -> None:
    items = [f"game {i}" for i in range(30)]
    view = ListView(theme, items, (0, 0, 400, theme.px(40) * 5))
    assert view.visible_rows == 5
    row = view.row_rect(2)
    assert view.handle_event(press(row.center)) is True
    assert view.selected == 2 and not view.activated
    view.handle_event(press(row.center))  # a second click at once: a double click
    assert view.activated
    view.handle_event(motion((10, 10)))
    view.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-3, flipped=False))
    assert view.scroll == 3
    for _ in range(10):
        view.handle_event(key(pygame.K_DOWN))
    assert view.selected == 12
    assert view.scroll == 12 - 5 + 1  # the selection stays in view
    assert view.handle_event(key(pygame.K_RETURN)) is True and view.activated
    view.set_items(["only"], selected=4)
    assert view.selected == 0 and view.scroll == 0
    view.set_items([])
    assert view.selected is None
    assert view.handle_event(press((10, 10))) is False


def test_label_cuts_text_that_does_not_fit(theme: Theme) -> None:
    text = theme.fit_text("A very long player name indeed", theme.text_px, 80)
    assert text.endswith("...")
    assert theme.font(theme.text_px).size(text)[0] <= 80
    assert theme.fit_text("Ok", theme.text_px, 80) == "Ok"


@pytest.mark.parametrize("size", [(1024, 600), (3840, 2160)])
def test_every_widget_draws_at_small_and_huge_sizes(size: tuple[int, int]) -> None:
    surface = pygame.display.set_mode(size)
    theme = Theme(size)
    rects = column(10, 10, size[0] // 2, 8, theme.control_h, theme.pad)
    widgets = [
        Button(theme, "Start", rects[0]),
        Label(theme, "Hello", rects[1]),
        Toggle(theme, "Mute", True, rects[2]),
        Slider(theme, "Music", 0.3, rect=rects[3]),
        Choice(theme, "Level", [("a", "A")], "a", rects[4]),
        TextInput(theme, "Name", "Player", rects[5]),
        ListView(theme, ["one", "two"], rects[6].union(rects[7])),
        Panel(theme, (size[0] // 2 + 20, 10, 300, 300), title="Panel"),
    ]
    surface.fill((0, 0, 0))
    for widget in widgets:
        widget.draw(surface)
        # Each draws something inside its own rect.
        inside = widget.rect.inflate(-2, -2)
        colours = {tuple(surface.get_at((x, inside.centery))) for x in range(inside.left, inside.right, 3)}
        assert len(colours) > 1, type(widget).__name__


def test_theme_sizes_scale_with_the_window() -> None:
    small, big = Theme((1024, 600)), Theme((3840, 2160))
    assert big.px(24) > 3 * small.px(24)
    assert small.px(0.1) == 1
    assert big.font(big.text_px) is big.font(big.text_px)  # cached by size
    assert big.render("x", 20) is big.render("x", 20)


def test_focus_ring_moves_with_keys_skips_inactive_widgets_and_wraps(theme: Theme) -> None:
    first, hidden, disabled, last = (Button(theme, name) for name in "abcd")
    hidden.visible = False
    disabled.enabled = False
    ring = FocusRing([first, hidden, disabled, last])
    assert ring.handle_event(key(pygame.K_DOWN)) is True
    assert ring.current is first and first.highlighted
    ring.handle_event(key(pygame.K_DOWN))
    assert ring.current is last and not first.highlighted
    ring.handle_event(key(pygame.K_TAB))
    assert ring.current is first  # wraps round
    ring.handle_event(key(pygame.K_UP))
    assert ring.current is last
    ring.handle_event(motion((1, 1)))  # the mouse takes over
    assert ring.current is None and not last.highlighted


def test_the_focused_widget_takes_enter_space_and_arrows(theme: Theme) -> None:
    button = Button(theme, "Go", (0, 0, 100, 40))
    toggle = Toggle(theme, "Mute", False, (0, 50, 400, 40))
    slider = Slider(theme, "Volume", 0.5, step=0.1, rect=(0, 100, 400, 40))
    choice = Choice(theme, "Level", [(1, "One"), (2, "Two")], 1, (0, 150, 400, 40))
    field = TextInput(theme, "Name", "Al", (0, 200, 400, 40))
    ring = FocusRing([button, toggle, slider, choice, field])
    assert button.handle_event(key(pygame.K_RETURN)) is False  # not focused yet
    ring.move(1)
    assert button.handle_event(key(pygame.K_RETURN)) is True
    ring.move(1)
    assert toggle.handle_event(key(pygame.K_SPACE)) is True and toggle.value is True
    ring.move(1)
    assert slider.handle_event(key(pygame.K_RIGHT)) is True and slider.value == pytest.approx(0.6)
    ring.move(1)
    assert choice.handle_event(key(pygame.K_RIGHT)) is True and choice.value == 2
    ring.move(1)
    field.handle_event(key(pygame.K_RETURN))
    assert field.focused  # Enter starts editing
    assert ring.handle_event(key(pygame.K_DOWN)) is False  # arrows belong to the text while typing
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="an"))
    assert field.handle_event(key(pygame.K_RETURN)) is True
    assert field.text == "Alan"


def test_the_focus_ring_is_drawn(theme: Theme, display) -> None:
    toggle = Toggle(theme, "Mute", False, (100, 100, 400, 48))
    display.fill((0, 0, 0))
    toggle.draw(display)
    edge = (300, 100 - theme.px(3))
    plain = display.get_at(edge)
    toggle.highlighted = True
    toggle.draw(display)
    assert display.get_at(edge) != plain


def test_a_keys_line_wraps_at_its_separators_into_balanced_lines(theme: Theme) -> None:
    font = theme.font(theme.small_px)
    text = "Left/Right: one move · Home/End: start/end · Esc: back"
    assert wrap_text(text, font, 10_000) == [text]
    width = font.size(text)[0] * 2 // 3
    lines = wrap_text(text, font, width)
    assert lines == ["Left/Right: one move", "Home/End: start/end · Esc: back"]
    assert all(font.size(line)[0] <= width for line in lines)


def test_prose_wraps_at_spaces_and_a_long_word_stands_alone(theme: Theme) -> None:
    font = theme.font(theme.small_px)
    width = font.size("could not be opened")[0]
    lines = wrap_words("broken.psq could not be opened: line 3 is illegal", font, width)
    assert " ".join(lines) == "broken.psq could not be opened: line 3 is illegal"
    assert len(lines) > 1 and all(font.size(line)[0] <= width for line in lines)
    assert wrap_words("a " + "x" * 80 + " b", font, width) == ["a", "x" * 80, "b"]
    assert wrap_words("", font, width) == [""]


def test_text_uses_the_shipped_font_with_a_real_regular_weight(theme: Theme) -> None:
    # pygame's own font is bold only; the game ships DejaVu Sans so body text is regular.
    regular, bold = theme.font(24), theme.font(24, bold=True)
    assert (regular.name, regular.style_name) == ("DejaVu Sans", "Book")
    assert (bold.name, bold.style_name) == ("DejaVu Sans", "Bold")


@pytest.mark.parametrize("icon", ["first", "back", "forward", "last"])
def test_an_icon_button_draws_its_arrow_pointing_the_right_way_and_a_tooltip_on_hover(theme: Theme, icon: str) -> None:
    from gomoku.ui.icons import draw_icon

    button = Button(theme, "<", rect=(40, 60, 120, 48), icon=icon, tooltip="One move back (Left)")
    surface = pygame.Surface((240, 140))
    surface.fill((0, 0, 0))
    button.draw(surface)
    fill = surface.get_at((button.rect.left + 3, button.rect.top + button.rect.height // 2))
    height = {x: sum(surface.get_at((x, y)) != fill for y in range(button.rect.top + 4, button.rect.bottom - 4))
              for x in range(button.rect.left + 4, button.rect.right - 4)}
    assert max(height.values()) > 0, "the icon is drawn"
    if icon in ("back", "forward"):  # a triangle's base is its tallest column, opposite its tip
        base_x = max(height, key=lambda x: height[x])
        assert (base_x > button.rect.centerx) == (icon == "back")
    above = (button.rect.centerx, button.rect.top - 12)
    assert surface.get_at(above) == (0, 0, 0)  # no tooltip until the mouse rests on it
    button.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=button.rect.center, rel=(0, 0), buttons=(0, 0, 0)))
    button.draw_tooltip(surface)
    assert surface.get_at(above) != (0, 0, 0)
    with pytest.raises(ValueError):
        draw_icon(surface, "sideways", (10, 10), 5, (255, 255, 255))


def test_a_placeholder_takes_the_longest_wording_that_fits_whole(theme: Theme) -> None:
    long, middle, short = "e.g. 192.168.1.20 or alice-pc.local:15515", "e.g. 192.168.1.20 or alice", "e.g. 1.2.3.4"
    field = TextInput(theme, "Address", placeholder=long, shorter_placeholders=(middle, short))
    width = theme.font(theme.text_px).size
    assert field.placeholder_for(width(long)[0]) == long
    assert field.placeholder_for(width(long)[0] - 1) == middle  # not the long one cut short
    assert field.placeholder_for(width(middle)[0] - 1) == short
    assert field.placeholder_for(width(short)[0] - 1).endswith("...")  # the last resort is cut
    assert TextInput(theme, "Name", placeholder=long).placeholder_for(width(long)[0] - 1).endswith("...")


def test_an_input_methods_unsent_text_shows_underlined_until_it_is_sent(theme: Theme) -> None:
    # Chinese or Japanese typed through an input method: SDL sends the text being composed
    # ("ni" before it becomes 你) as TEXTEDITING; it was not drawn, so the player saw nothing.
    composing = TextInput(theme, "Name", "Li", (0, 0, 600, 48))
    typed = TextInput(theme, "Name", "Lini", (0, 0, 600, 48))
    for field in (composing, typed):
        field.handle_event(press((400, 20)))
    composing.handle_event(pygame.event.Event(pygame.TEXTEDITING, text="ni", start=2, length=0))
    assert composing.composing == "ni" and composing.text == "Li"
    while pygame.time.get_ticks() % 500 > 100:  # both drawn in one phase of the cursor's blink
        pygame.time.wait(5)
    pictures = []
    for field in (composing, typed):
        pictures.append(pygame.Surface((600, 48)))
        field.draw(pictures[-1])
    changed = [(x, y) for x in range(600) for y in range(48)
               if pictures[0].get_at((x, y)) != pictures[1].get_at((x, y))]
    # The same picture as "Lini" typed, and a line under "ni".
    rows = {y for _, y in changed}
    assert len(changed) > 10 and max(rows) - min(rows) <= 3, changed[:20]
    composing.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="你"))
    assert (composing.text, composing.composing) == ("Li你", "")
    composing.handle_event(pygame.event.Event(pygame.TEXTEDITING, text="\x07" * 500, start=0, length=0))
    assert composing.composing == ""  # what cannot be shown is not
    composing.handle_event(pygame.event.Event(pygame.TEXTEDITING, text="hao", start=0, length=0))
    composing.handle_event(key(pygame.K_RETURN))
    assert not composing.focused and composing.composing == ""


def test_the_input_methods_candidates_follow_a_field_moved_while_typing(theme: Theme) -> None:
    # SDL was told the field's place only when it took the keyboard: after a window resize
    # the candidate list opened where the field had been.
    field = TextInput(theme, "Name", "Li", (0, 0, 600, 48))
    field.handle_event(press((400, 20)))
    told = field._candidates_at
    field.rect = pygame.Rect(100, 300, 500, 48)
    field.draw(pygame.Surface((800, 400)))
    assert field._candidates_at == tuple(field.control_rect) != told
