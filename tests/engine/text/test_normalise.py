from __future__ import annotations

from array import array

import pytest

from engine.text.matching import find_excerpt
from engine.text.normalise import (
    HARD,
    SOFT,
    MatchText,
    _joined,
    _normalise_slowly,
    clip,
    collapse_whitespace,
    excerpt_key,
    folded,
    normalise_for_match,
)


def norm(text: str) -> str:
    return normalise_for_match(text).text


def found(page: str, excerpt: str) -> bool:
    return next(find_excerpt(excerpt, page), None) is not None


@pytest.mark.parametrize(
    ("page", "excerpt"),
    [
        ("Statement of Cash Flow s", "Statement of Cash Flows"),
        ("Statement   of\tCash\r\nFlows", "Statement of Cash Flows"),
        ("100\u00a0000 units", "100 000 units"),
        ("ﬁnancial ﬂows", "financial flows"),
        ("ＡＢＣ １２３", "abc 123"),
        ("wait…", "wait..."),
        ("ÁGUA Straße", "água strasse"),
        ("“quoted” and ‘single’ and «guillemets»", '"quoted" and \'single\' and "guillemets"'),
        ("range 2019–2022, minus −5, dash —", "range 2019-2022, minus -5, dash -"),
        ("infor\u00admation", "information"),
        ("zero\u200bwidth\u2060joi\ufeffner", "zerowidthjoiner"),
        ("o **caput** do _artigo_ `x`", "o caput do artigo x"),
        ("| Receita | 1,577 |\n| Lucro | 373 |", "Receita 1,577 Lucro 373"),
        ("~~struck~~ text", "struck text"),
        ("\\*not emphasis\\* and 1\\. item", "not emphasis and 1. item"),
        ("micro-\ngeração", "microgeração"),
        ("bem-\nestar", "bem-estar"),
        ("bem‐estar", "bem-estar"),
        ("cafe\u0301", "café"),
    ],
)
def test_variants_are_found_alike(page: str, excerpt: str) -> None:
    assert found(page, excerpt)
    assert excerpt_key(page) == excerpt_key(excerpt) or SOFT in norm(page)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("2019-2022", "20192022"),
        ("-5", "5"),
        ("a - 5", "a5"),
        ("approx ~5", "approx 5"),
        ("cafe", "café"),
        ("15", "1.5"),
        ("7\n5", "75"),
        ("15 | 3", "153"),
        ("15¹", "151"),
        ("① 5", "15"),
    ],
)
def test_differences_that_matter_survive(first: str, second: str) -> None:
    assert norm(first) != norm(second)


def test_output_is_casefolded_with_one_boundary_per_whitespace_run() -> None:
    assert norm("  Net Cash\n PROVIDED  ") == f"{HARD}net{SOFT}cash{HARD}provided{HARD}"
    assert norm("a\u00a8b") == "a\u0308b"  # NFKC turns the diaeresis into space + mark


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Inv estment", f"inv{SOFT}estment"),  # a split word inside a line: may be skipped
        ("até 7 5 kW", f"até{SOFT}7{HARD}5{SOFT}kw"),  # between two figures: never
        ("1, 577", f"1,{HARD}577"),
        ("$ 1,228", f"${SOFT}1,228"),
        ("até 7\n\n5 kW", f"até{SOFT}7{HARD}5{SOFT}kw"),  # a paragraph: never
        ("a | b", f"a{HARD}b"),  # a table cell: never
        ("Other — net", f"other{SOFT}net"),
    ],
)
def test_boundaries_are_soft_only_inside_a_line_and_not_between_figures(
    text: str, expected: str
) -> None:
    assert norm(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("15¹", "15¹"),
        ("10²", "10²"),
        # after a letter a superscript or subscript digit folds
        ("H₂O e m²", f"h2o{SOFT}e{SOFT}m2"),
        ("① 5 MW", f"①{HARD}5{SOFT}mw"),
        ("⒈5 MW", f"⒈5{SOFT}mw"),
        ("１２３", "123"),
    ],
)
def test_superscripts_and_enclosed_numerals_stay_apart_from_digits(
    text: str, expected: str
) -> None:
    assert norm(text) == expected


def test_hyphen_between_letters_is_dropped_and_next_to_digits_kept() -> None:
    assert norm("bem-estar") == "bemestar"
    assert norm("2019-2022") == "2019-2022"
    assert norm("COVID-19") == "covid-19"


def test_origin_maps_every_char_back_to_its_source() -> None:
    source = "A **Bold** ﬁx — micro-\ngeração | cafe\u0301 ~~x~~ ＡＢ"
    match = normalise_for_match(source)
    assert len(match.origin) == len(match.text)
    assert list(match.origin) == sorted(match.origin)
    for char, index in zip(match.text, match.origin, strict=True):
        if char in (HARD, SOFT):
            assert source[index].isspace() or source[index] == "|"
        else:
            assert not source[index].isspace()
            assert source[index] not in "*|~"


@pytest.mark.parametrize(
    ("source", "needle", "expected"),
    [
        ("The **caput** says", "caput", "caput"),
        ("a ﬁne day", "fine", "ﬁne"),
        ("x micro-\ngeração y", "microgeração", "micro-\ngeração"),
        ("the cafe\u0301 is", "café", "cafe\u0301"),
        ("Cash Flow s here", "cash flows", "Cash Flow s"),
    ],
)
def test_original_span_recovers_the_source_text(source: str, needle: str, expected: str) -> None:
    start, end = next(find_excerpt(needle, source))
    assert source[start:end] == expected


def test_original_span_rejects_an_empty_or_outside_span() -> None:
    match = normalise_for_match("abc")
    with pytest.raises(ValueError, match="bad span"):
        match.original_span(1, 1)
    with pytest.raises(ValueError, match="bad span"):
        match.original_span(0, 4)


def test_empty_and_markup_only_text_normalise_to_nothing() -> None:
    assert norm("") == ""
    assert excerpt_key(" ** __ | ` \n\u00ad") == ""


def test_large_text_is_normalised_whole() -> None:
    paragraph = "Purchases of property, plant and equipment (PP&E) (1,577) — micro-\ngeração."
    match = normalise_for_match("\n".join([paragraph] * 5000))
    assert match.text == HARD.join([norm(paragraph)] * 5000)
    assert match.origin[-1] < (len(paragraph) + 1) * 5000


def _char_by_char(text: str) -> MatchText:
    """The reference: every char of `text` through the slow path, then the joins."""
    pieces: list[str] = []
    origin = array("I")
    _normalise_slowly(text, 0, len(text), pieces, origin)
    return _joined("".join(pieces), origin, text)


@pytest.mark.parametrize("code", range(0xA0, 0x250))
def test_the_fast_runs_read_each_latin_char_as_the_slow_path_does(code: int) -> None:
    """Prose in Latin script is read a line at a time; each char, beside letters, spaces,
    figures, punctuation and a combining mark, reads as it does alone, origins alike."""
    c = chr(code)
    text = f"A{c}b {c} 1{c}2 {c}\u0301x {c}-{c}\n{c}. 3 {c}"
    fast, slow = normalise_for_match(text), _char_by_char(text)
    assert (fast.text, list(fast.origin)) == (slow.text, list(slow.origin))


def test_excerpt_key_collapses_trivial_differences() -> None:
    assert excerpt_key("The  Market\ngrew") == excerpt_key("the market grew")
    assert excerpt_key("the market grew") != excerpt_key("the market fell")


def test_collapse_whitespace() -> None:
    assert collapse_whitespace("  a \n\t b\u00a0 c  ") == "a b c"


def test_clip_keeps_what_fits_and_cuts_the_rest_to_the_limit_with_an_ellipsis() -> None:
    assert clip("twelve chars", 12) == "twelve chars"
    assert clip("twelve chars", 8) == "twelve…"  # the space before the cut goes
    assert len(clip("x" * 50, 10)) == 10
    assert clip("x" * 50, 10).endswith("…")


def test_folded_labels_compare_equal_whatever_their_case_and_spacing() -> None:
    assert folded("  Operating\n INCOME ") == folded("operating income") == "operating income"
    assert folded("Revenue") != folded("Revenues")
