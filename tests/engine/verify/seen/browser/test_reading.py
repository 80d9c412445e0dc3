"""The pure rules over the browser's answers (engine/verify/seen/browser/reading.py)."""

from __future__ import annotations

import pytest

from engine.verify.seen.browser.reading import (
    BREAK,
    GENERATED,
    TEXT,
    covered,
    generated_problem,
    geometry_problem,
    rendered_text,
    spans_of,
)

SENTENCE = "O contrato é válido até 2025 para todas as partes."


def _page(*pieces: tuple[int, str, bool]) -> list[list[object]]:
    return [[kind, text, ref, decor] for ref, (kind, text, decor) in enumerate(pieces)]


def test_generated_words_in_the_excerpts_block_change_what_is_read() -> None:
    page = rendered_text(_page((GENERATED, "não ", False), (TEXT, SENTENCE, False)))
    [(start, end)] = spans_of(SENTENCE, page)
    assert generated_problem(page, start, end) == "the page's style adds “não” to this passage"


def test_quote_marks_counters_and_other_blocks_do_not() -> None:
    page = rendered_text(
        _page(
            (GENERATED, "Seção: ", False),
            (TEXT, "Definições", False),
            (BREAK, "\n", False),
            (GENERATED, "“", True),
            (TEXT, SENTENCE, False),
            (GENERATED, "”", True),
        )
    )
    [(start, end)] = spans_of(SENTENCE, page)
    assert generated_problem(page, start, end) is None


def test_generated_text_inside_the_excerpt_is_what_the_reader_reads() -> None:
    page = rendered_text(
        _page(
            (TEXT, "O contrato é ", False), (GENERATED, "válido", False), (TEXT, " até 2025", False)
        )
    )
    [(start, end)] = spans_of("O contrato é válido até 2025", page)
    assert generated_problem(page, start, end) is None


def test_covered_addresses_text_nodes_in_utf16_units() -> None:
    page = rendered_text(_page((TEXT, "😀 O contrato", False), (TEXT, " é válido", False)))
    [(start, end)] = spans_of("O contrato é válido", page)
    span = covered(page, start, end)
    assert span.segments == ((0, 3, 13), (1, 0, 9))  # the emoji is two UTF-16 units
    assert span.chars == "O contrato é válido"


def _line(text: str, x: float = 0.0, y: float = 0.0) -> list[tuple[float, float, float, float]]:
    return [(x + 8.0 * i, y, 8.0, 18.0) for i, _ in enumerate(text)]


def test_characters_in_reading_order_read_as_the_excerpt() -> None:
    boxes = _line("75 kW") + _line("por mês", y=20.0)
    assert geometry_problem("75 kWpor mês", boxes, 1280, 800) is None


def test_characters_shown_in_another_order_do_not() -> None:
    boxes = list(reversed(_line("75")))
    assert (
        geometry_problem("75", boxes, 1280, 800)
        == "“75” is shown in another order than the page's text"
    )


def test_a_later_column_is_read_after_the_first() -> None:
    boxes = _line("ab", y=400.0) + _line("cd", x=640.0, y=0.0)
    assert geometry_problem("abcd", boxes, 1280, 800) is None


def test_no_size_outside_the_page_or_too_small_is_not_read() -> None:
    assert "no size" in (geometry_problem("a", [(0, 0, 0, 0)], 1280, 800) or "")
    assert "outside" in (geometry_problem("a", [(-5000, 0, 8, 18)], 1280, 800) or "")
    assert "too small" in (geometry_problem("a", [(0, 0, 2, 3)], 1280, 800) or "")


def test_right_to_left_letters_are_not_held_to_left_to_right_order() -> None:
    boxes = list(reversed(_line("שלום")))
    assert geometry_problem("שלום", boxes, 1280, 800) is None


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
