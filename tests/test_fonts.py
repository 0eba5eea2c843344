"""Text in any script a player types: Chinese, Japanese and Korean names draw as real glyphs
(the CJK fallback font), never as empty boxes; what no shipped font has is marked or refused
in plain words, never dropped silently."""

from __future__ import annotations

import pygame
import pytest

from gomoku.ui.theme import FONT_FILES, FONT_SCALE, MISSING, Theme
from gomoku.ui.widgets import TextInput


@pytest.fixture(scope="module")
def theme():
    pygame.init()
    yield Theme((1280, 800))
    pygame.quit()


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


def test_without_a_fallback_every_chinese_character_is_the_same_empty_box(theme: Theme) -> None:
    """Why the fallback is needed: DejaVu alone draws 王 and 田 as one and the same box."""
    dejavu = pygame.font.Font(FONT_FILES[False], round(theme.text_px * FONT_SCALE))
    assert _pixels(dejavu.render("王", True, (255, 255, 255))) == _pixels(dejavu.render("田", True, (255, 255, 255)))


def test_chinese_japanese_and_korean_names_draw_real_glyphs(theme: Theme) -> None:
    dejavu = pygame.font.Font(FONT_FILES[False], round(theme.text_px * FONT_SCALE))
    box = _pixels(dejavu.render("王", True, (255, 255, 255)))
    drawn = {char: _pixels(theme.render(char, theme.text_px, (255, 255, 255))) for char in "王田明やカ한"}
    assert len(set(drawn.values())) == len(drawn)  # every character its own glyph
    assert box not in drawn.values()
    assert all(theme.can_show(name) for name in ("王小明", "山田太郎", "やまだ", "김민준", "Ann vs 王小明"))


def test_a_mixed_name_keeps_the_line_height(theme: Theme) -> None:
    latin = theme.render("Ann", theme.text_px)
    mixed = theme.render("Ann 王小明", theme.text_px)
    assert mixed.get_height() == latin.get_height()  # rows and cards keep their layout
    assert mixed.get_width() > latin.get_width() + 3 * theme.text_px // 2
    assert theme.font(theme.text_px).size("Ann 王小明") == mixed.get_size()
    # The ideographs are ink, not a blank: some pixel in their part is opaque.
    part = mixed.subsurface(pygame.Rect(latin.get_width() + 4, 0, mixed.get_width() - latin.get_width() - 4,
                                        mixed.get_height()))
    assert max(part.get_at((x, y)).a for x in range(part.get_width()) for y in range(part.get_height())) > 200


def test_a_character_no_font_has_is_marked_not_dropped(theme: Theme) -> None:
    assert not theme.can_show("🎉") and not theme.can_show("𠀀")  # a party popper, a rare ideograph
    marked = theme.render("a🎉b", theme.text_px)
    assert _pixels(marked) == _pixels(theme.render(f"a{MISSING}b", theme.text_px))
    assert marked.get_width() > theme.render("ab", theme.text_px).get_width()


def test_a_text_field_refuses_what_it_cannot_show_in_plain_words(theme: Theme) -> None:
    field = TextInput(theme, "Your name", rect=(0, 0, 600, 48), max_length=24)
    field.focus()
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="王🎉小明"))
    assert field.text == "王小明"
    assert "U+1F389" in field.refused and "font" in field.refused
    surface = pygame.Surface((600, 48))
    field.draw(surface)  # the field draws the note beside the text
    field.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode=""))
    assert field.text == "王小" and field.refused == ""


def test_a_hebrew_name_reads_right_to_left(theme: Theme) -> None:
    """Drawn as stored, "שלום" showed its letters backwards (ש on the left)."""
    dejavu = pygame.font.Font(FONT_FILES[False], round(theme.text_px * FONT_SCALE))
    drawn = _pixels(theme.render("שלום", theme.text_px, (255, 255, 255)))
    assert drawn == _pixels(dejavu.render("םולש", True, (255, 255, 255)))  # the letters in screen order
    assert drawn != _pixels(dejavu.render("שלום", True, (255, 255, 255)))


def test_an_arabic_name_is_shaped_right_to_left_and_measured_as_drawn(theme: Theme) -> None:
    dejavu = pygame.font.Font(FONT_FILES[False], round(theme.text_px * FONT_SCALE))
    plain = dejavu.render("مرحبا", True, (255, 255, 255))
    dejavu.set_direction(pygame.DIRECTION_RTL)
    dejavu.set_script("Arab")
    shaped = dejavu.render("مرحبا", True, (255, 255, 255))
    drawn = theme.render("مرحبا", theme.text_px, (255, 255, 255))
    assert _pixels(drawn) == _pixels(shaped) != _pixels(plain)
    for text in ("مرحبا", "Ann vs مرحبا 12", "Bob vs שלום (2)", "王 שלום"):
        assert theme.font(theme.text_px).size(text)[0] == theme.render(text, theme.text_px).get_width()


def test_drawing_right_to_left_leaves_the_font_as_it_was(theme: Theme) -> None:
    before = _pixels(theme.render("Ann vs Bob é", theme.text_px, (255, 255, 255)))
    theme.render("Ann vs מרים", theme.text_px, (255, 255, 255))
    theme._texts.clear()  # draw again, not from the cache
    assert _pixels(theme.render("Ann vs Bob é", theme.text_px, (255, 255, 255))) == before


def test_the_cursor_stands_where_the_next_letter_goes(theme: Theme) -> None:
    """Typing Hebrew, the next letter goes to the word's left: the cursor waited at the right."""
    from gomoku.ui.widgets import typing_point

    font = theme.font(theme.text_px)
    assert typing_point(font, "Bob") == (font.size("Bob")[0], False)
    assert typing_point(font, "שלום") == (0, True)
    assert typing_point(font, "Bob שלום") == (font.size("Bob ")[0], True)
    assert typing_point(font, "Bob שלום ab") == (font.size("Bob שלום ab")[0], False)


INDIC_AND_MORE = {"Hindi": "राहुल", "Bengali": "বাংলা", "Tamil": "தமிழ்", "Telugu": "తెలుగు",
                  "Gujarati": "ગુજરાતી", "Punjabi": "ਪੰਜਾਬੀ", "Kannada": "ಕನ್ನಡ", "Malayalam": "മലയാളം",
                  "Odia": "ଓଡ଼ିଆ", "Sinhala": "සිංහල", "Thai": "สมชาย", "Khmer": "ខ្មែរ",
                  "Burmese": "မြန်မာ", "Amharic": "አበበ"}


def test_names_in_the_scripts_of_india_and_south_east_asia_draw_real_glyphs(theme: Theme) -> None:
    """A Hindi name was refused ("Left out U+0930: no font here shows it")."""
    missing = _pixels(theme.render(MISSING, theme.text_px, (255, 255, 255)))
    for language, name in INDIC_AND_MORE.items():
        assert theme.can_show(name), language
        for char in name:
            assert _pixels(theme.render(char, theme.text_px, (255, 255, 255))) != missing, (language, char)
    field = TextInput(theme, "Your name", rect=(0, 0, 600, 48), max_length=24)
    field.focus()
    field.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="राहुल"))
    assert field.text == "राहुल" and field.refused == ""


def test_devanagari_joins_its_letters_and_keeps_the_marks_below_them(theme: Theme) -> None:
    from gomoku.ui.theme import FONTS_DIR

    noto = pygame.font.Font(FONTS_DIR / "NotoSansDevanagari-Regular.ttf", round(theme.text_px * FONT_SCALE))
    loose = noto.render("क्षत्रिय", True, (255, 255, 255))  # unshaped: halant marks, no conjuncts
    noto.set_script("Deva")
    joined = noto.render("क्षत्रिय", True, (255, 255, 255))
    drawn = theme.render("क्षत्रिय", theme.text_px, (255, 255, 255))
    assert drawn.get_width() == joined.get_width() != loose.get_width()
    half = "क्\u200dष"  # a zero-width joiner asks for the half form: one word, shaped whole
    assert theme.render(half, theme.text_px, (255, 255, 255)).get_width() == noto.size(half)[0]
        # The vowel sign under "ku" reaches below DejaVu's line: all of its ink is drawn.
    ku = theme.render("Ann कु", theme.text_px, (255, 255, 255))
    alone = noto.render("कु", True, (255, 255, 255))
    ink = pygame.mask.from_surface(ku).count() - pygame.mask.from_surface(
        theme.render("Ann ", theme.text_px, (255, 255, 255))).count()
    assert ink == pygame.mask.from_surface(alone).count()


def test_a_long_hebrew_name_cut_to_fit_gets_its_dots_at_its_reading_end(theme: Theme) -> None:
    from gomoku.ui.bidi import visual_runs

    cut = theme.fit_text("שלום עולם רב מאוד", theme.text_px, 90)
    assert theme.font(theme.text_px).size(cut)[0] <= 90
    (run, rtl), = visual_runs(cut)  # one right-to-left run: the dots drawn at its left end
    assert rtl and run.rstrip("\u200f").endswith("...")
    assert theme.fit_text("Ann Smith-Jones", theme.text_px, 80).endswith("...")  # others as before


def test_a_right_to_left_run_leaves_a_fallback_font_in_its_own_script(theme: Theme) -> None:
    # The Bengali taka sign is neutral: between Hebrew words it is drawn right to left by the
    # Bengali font, which must then shape Bengali as Bengali again.
    before = _pixels(theme.render("ক্ষমা", theme.text_px, (255, 255, 255)))
    theme.render("שלום \u09f3 עולם", theme.text_px, (255, 255, 255))
    theme._texts.clear()  # draw again, not from the cache
    assert _pixels(theme.render("ক্ষমা", theme.text_px, (255, 255, 255))) == before
