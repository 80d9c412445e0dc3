from __future__ import annotations

import pytest

from engine.text.normalise import collapse_whitespace, excerpt_key, normalise_for_match


def norm(text: str) -> str:
    return normalise_for_match(text).text


@pytest.mark.parametrize(
    ("page", "excerpt"),
    [
        ("Statement of Cash Flow s", "Statement of Cash Flows"),
        ("State\nment   of\tCash\r\nFlows", "Statement of Cash Flows"),
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
def test_variants_normalise_alike(page: str, excerpt: str) -> None:
    assert norm(page) == norm(excerpt)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("2019-2022", "20192022"),
        ("-5", "5"),
        ("a - 5", "a5"),
        ("approx ~5", "approx 5"),
        ("cafe", "café"),
        ("15", "1.5"),
    ],
)
def test_differences_that_matter_survive(first: str, second: str) -> None:
    assert norm(first) != norm(second)


def test_output_is_casefolded_and_whitespace_free() -> None:
    assert norm("  Net Cash\n PROVIDED  ") == "netcashprovided"
    assert norm("a\u00a8b") == "a\u0308b"  # NFKC turns the diaeresis into space + mark


def test_hyphen_between_letters_is_dropped_and_next_to_digits_kept() -> None:
    assert norm("bem-estar") == "bemestar"
    assert norm("2019-2022") == "2019-2022"
    assert norm("COVID-19") == "covid-19"


def test_origin_maps_every_char_back_to_its_source() -> None:
    source = "A **Bold** ﬁx — micro-\ngeração | cafe\u0301 ~~x~~ ＡＢ"
    match = normalise_for_match(source)
    assert len(match.origin) == len(match.text)
    assert list(match.origin) == sorted(match.origin)
    for index in match.origin:
        assert not source[index].isspace()
        assert source[index] not in "*|~"


@pytest.mark.parametrize(
    ("source", "needle", "expected"),
    [
        ("The **caput** says", "caput", "caput"),
        ("a ﬁne day", "fine", "ﬁne"),
        ("x micro-\ngeração y", "microgeração", "micro-\ngeração"),
        ("the cafe\u0301 is", "café", "cafe\u0301"),
        ("Cash Flow s here", "cashflows", "Cash Flow s"),
    ],
)
def test_original_span_recovers_the_source_text(source: str, needle: str, expected: str) -> None:
    match = normalise_for_match(source)
    at = match.text.index(norm(needle))
    start, end = match.original_span(at, at + len(norm(needle)))
    assert source[start:end] == expected


def test_original_span_rejects_an_empty_or_outside_span() -> None:
    match = normalise_for_match("abc")
    with pytest.raises(ValueError, match="bad span"):
        match.original_span(1, 1)
    with pytest.raises(ValueError, match="bad span"):
        match.original_span(0, 4)


def test_empty_and_markup_only_text_normalise_to_nothing() -> None:
    assert norm("") == ""
    assert norm(" ** __ | ` \n\u00ad") == ""


def test_large_text_is_normalised_whole() -> None:
    paragraph = "Purchases of property, plant and equipment (PP&E) (1,577) — micro-\ngeração. "
    match = normalise_for_match(paragraph * 5000)
    assert match.text == norm(paragraph) * 5000
    assert match.origin[-1] < len(paragraph) * 5000


def test_excerpt_key_collapses_trivial_differences() -> None:
    assert excerpt_key("The  Market\ngrew") == excerpt_key("the market grew")
    assert excerpt_key("the market grew") != excerpt_key("the market fell")


def test_collapse_whitespace() -> None:
    assert collapse_whitespace("  a \n\t b\u00a0 c  ") == "a b c"
