import re

import pytest

from engine.text.periods import (
    DATE,
    DATED_PERIOD,
    FISCAL_YEAR,
    MONTH_NAMES,
    QUARTER,
    WEEKDAY_NAMES,
    YEAR,
    YEAR_IN_TEXT,
    YEAR_WORD,
    is_year,
    period_year,
    year_of,
    years_in,
)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("1999", True),
        ("2019", True),
        ("1900", True),
        ("2099", True),
        ("19999", False),
        ("199", False),
        ("1899", False),
        ("2100", False),
        ("FY2019", False),
        ("2019-20", False),
        ("2.019", False),
    ],
)
def test_is_year_holds_a_whole_token_that_is_a_year(token: str, expected: bool) -> None:
    assert is_year(token) is expected


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("Receita de 2019 e 2020", [2019, 2020]),
        ("Revenue in FY2019 rose", [2019]),  # a year glued to letters is still a year
        ("the 2019-20 season", [2019]),  # "20" is not a year
        ("order no. 19999", []),  # five digits are not a year
        ("R$ 2.019 mil", []),  # a grouped number is not a year
        ("Página 12 de 340", []),  # a page number
        ("1999 vs 2000", [1999, 2000]),
        ("31 de dezembro de 2018", [2018]),
        ("February 2, 2019", [2019]),
        ("", []),
    ],
)
def test_years_in_finds_the_years_written_with_digit_boundaries(
    text: str, years: list[int]
) -> None:
    assert years_in(text) == years


def test_year_of_is_the_first_year_or_none() -> None:
    assert year_of("June 30, 2023 and 2022") == 2023
    assert year_of("FY2019") == 2019
    assert year_of("Total") is None
    assert year_of("19999") is None


def test_a_year_word_needs_word_boundaries_and_a_year_in_text_only_digit_ones() -> None:
    assert YEAR_WORD.findall("2018 2017 FY2016 2015a") == ["2018", "2017"]
    assert YEAR_IN_TEXT.findall("2018 2017 FY2016 2015a") == ["2018", "2017", "2016", "2015"]
    assert YEAR_IN_TEXT.findall("19999 120190") == []


def test_the_year_fragment_composes_into_a_callers_own_pattern() -> None:
    season = re.compile(rf"{YEAR}[-–/]\d\d\s+season")
    assert season.search("the 2003-04 season")
    assert not season.search("the 1803-04 season")


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("FY2019", "2019"),
        ("FY 2022", "2022"),
        ("fiscal 2019", "2019"),
        ("Fiscal Year 2023", "2023"),
        ("exercício de 2018", "2018"),
        ("Exercicio 2021", "2021"),
    ],
)
def test_a_fiscal_year_is_read_in_english_and_portuguese(text: str, year: str) -> None:
    match = FISCAL_YEAR.search(text)
    assert match is not None
    assert match.group("year") == year


def test_a_fiscal_year_needs_its_word() -> None:
    assert FISCAL_YEAR.search("in 2019") is None
    assert FISCAL_YEAR.search("fy2019") is None  # the short form is written in capitals


@pytest.mark.parametrize("word", ["Q1", "q4", "3Q", "1q"])
def test_a_quarter_is_q_and_a_digit_either_way(word: str) -> None:
    assert re.fullmatch(QUARTER, word, re.IGNORECASE)


@pytest.mark.parametrize("word", ["Q5", "Q12", "5Q", "Q"])
def test_not_a_quarter(word: str) -> None:
    assert not re.fullmatch(QUARTER, word, re.IGNORECASE)


@pytest.mark.parametrize(
    ("header", "cells"),
    [
        ("February 2, 2019 February 3, 2018", ["February 2, 2019", "February 3, 2018"]),
        ("Sept. 30, 2023", ["Sept. 30, 2023"]),
        ("31 de dezembro de 2018", ["31 de dezembro de 2018"]),
        ("1º de janeiro de 2020", ["1º de janeiro de 2020"]),
        ("31/12/2018", ["31/12/2018"]),
        ("FY2023 FY2022", ["FY2023", "FY2022"]),
        ("(Millions) 2018 2017", ["2018", "2017"]),
        ("fiscal year 2021", ["fiscal year 2021"]),
    ],
)
def test_a_dated_period_is_read_whole_in_english_and_portuguese(
    header: str, cells: list[str]
) -> None:
    assert [m.group(0) for m in DATED_PERIOD.finditer(header)] == cells


@pytest.mark.parametrize("text", ["R$ 2.019", "2019.5", "US$ 1,2019", "19999", "2019/20"])
def test_a_number_shaped_like_a_year_is_not_a_dated_period(text: str) -> None:
    assert DATED_PERIOD.search(text) is None


def test_period_year_is_the_year_a_dated_period_names() -> None:
    years = [period_year(m) for m in DATED_PERIOD.finditer("June 30, 2023, FY2022 e 2021")]
    assert years == ["2023", "2022", "2021"]


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("on February 2, 2019 it paid 5", "on   it paid 5"),
        ("as of Dec. 31,2020", "as of  "),
        ("in 2018", "in  "),
        ("FY2018 was 7", "FY2018 was 7"),  # a fiscal year glued to "FY" is no date here
    ],
)
def test_a_date_is_what_is_left_out_when_looking_for_an_amount(text: str, left: str) -> None:
    assert DATE.sub(" ", text) == left


def test_calendar_words_cover_both_languages() -> None:
    assert {"january", "dezembro", "março", "marco", "may", "maio"} <= MONTH_NAMES
    assert {"monday", "sunday"} <= WEEKDAY_NAMES
    assert not MONTH_NAMES & WEEKDAY_NAMES
