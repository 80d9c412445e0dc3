"""Conflicts found in ../shared/corpus, written here as the claims a run would make of them:
a balance-sheet line PepsiCo restated in its next 10-K, a line Verizon repeated unchanged,
Lei 8.666's convite limit and the decree that updated it, and two mandates of one law."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine.contracts import Claim, ClaimStatus
from engine.models.extractive.statements import row_by_period
from engine.writing.conflicts import amounts, find_conflicts, year_columns


def claim(claim_id: str, title: str, excerpt: str, statement: str = "", context: str = "") -> Claim:
    return Claim(
        id=claim_id,
        statement=statement or excerpt,
        url=f"https://example.org/{title}.pdf#page=1",
        title=title,
        excerpt=excerpt,
        context=context or None,
        accessed_at=datetime(2025, 5, 1, tzinfo=UTC),
        source_sha256="a" * 64,
        subagent="s1",
        subquestion="s1",
        status=ClaimStatus.verified,
    )


# PEPSICO_2021_10K page 65 and PEPSICO_2022_10K page 66 (Consolidated Balance Sheet).
PEPSICO_2021 = claim(
    "p21",
    "PEPSICO_2021_10K",
    "Investments in Noncontrolled Affiliates 2,627 2,792",
    context="2021 2020",
)
PEPSICO_2022 = claim(
    "p22",
    "PEPSICO_2022_10K",
    "Investments in Noncontrolled Affiliates 3,073 2,350",
    context="2022 2021",
)
# VERIZON_2021_10K page 26 and VERIZON_2022_10K page 27: the 2021 figure, unchanged.
VERIZON_2021 = claim(
    "v21",
    "VERIZON_2021_10K",
    "Depreciation and amortization expense 16,206 16,720",
    context="Years Ended December 31, 2021 2020",
)
VERIZON_2022 = claim(
    "v22",
    "VERIZON_2022_10K",
    "Depreciation and amortization expense (1) 17,099 16,206",
    context="Years Ended December 31, 2022 2021",
)


def test_a_figure_restated_in_the_next_filing_is_a_conflict_newest_first() -> None:
    [conflict] = find_conflicts([PEPSICO_2021, PEPSICO_2022])
    assert conflict.claim_ids == ["p22", "p21"]
    assert conflict.period == "2021"
    assert conflict.measure == "affiliate investment noncontrolled"  # terms, plurals folded


def test_a_figure_repeated_unchanged_is_no_conflict_whatever_its_footnote() -> None:
    assert year_columns(VERIZON_2022) == {
        "2022": frozenset(amounts_of("17,099")),
        "2021": frozenset(amounts_of("16,206")),
    }
    assert find_conflicts([VERIZON_2021, VERIZON_2022]) == []


def amounts_of(figure: str):  # type: ignore[no-untyped-def]
    from engine.text.numbers import numbers_in

    return numbers_in(figure)[0].values


def test_rows_of_other_lines_or_other_years_do_not_conflict() -> None:
    other_line = claim("o22", "PEPSICO_2022_10K", "Other Assets 5,292 4,481", context="2022 2021")
    assert find_conflicts([PEPSICO_2021, other_line]) == []
    assert find_conflicts([PEPSICO_2022, VERIZON_2022]) == []


# Lei 8.666, art. 23, I, a), and Decreto 9.412/2018, which updated the amount (the corpus's
# copy of the law carries the update as a note; a run that follows it cites the decree).
LAW = claim(
    "l1",
    "Lei 8.666",
    "a) convite: até R$ 150.000,00 (cento e cinqüenta mil reais);",
    statement="Para obras e serviços de engenharia, o convite vale até R$ 150.000,00.",
    context="I - para obras e serviços de engenharia:",
)
DECREE = claim(
    "l2",
    "Decreto 9.412",
    "Valor atualizado para R$ 330.000,00 (trezentos e trinta mil reais) pelo Decreto nº 9.412, "
    "de 18/6/2018",
    statement="Para obras e serviços de engenharia, o convite vale até R$ 330.000,00, valor "
    "atualizado pelo Decreto nº 9.412.",
)


def test_a_limit_and_the_decree_that_updated_it_conflict_the_update_first() -> None:
    [conflict] = find_conflicts([LAW, DECREE])
    assert conflict.claim_ids == ["l2", "l1"]  # the decree names 2018: it is the newer text
    assert conflict.unit == "r$"
    assert {"convite", "engenharia", "obra"} <= set(conflict.measure.split())


def test_mandates_of_different_offices_are_no_conflict() -> None:
    # Lei 10.233, arts. 54 and 63: the directors serve 5 years, the ombudsman 3.
    directors = claim(
        "m1",
        "Lei 10.233",
        "Os membros das Diretorias Colegiadas cumprirão mandatos de 5 (cinco) anos, não "
        "coincidentes, vedada a recondução",
    )
    ombudsman = claim(
        "m2",
        "Lei 10.233",
        "O Ouvidor será nomeado pelo Presidente da República para mandato de 3 (três) anos, "
        "vedada a recondução.",
    )
    assert [a.unit for a in amounts(directors.excerpt)] == ["anos"]
    assert find_conflicts([directors, ombudsman]) == []


def on_page(claim_id: str, excerpt: str, context: str, document: str = "10Q") -> Claim:
    return claim(claim_id, document, excerpt, context=context)


def test_one_document_giving_two_amounts_without_a_period_is_no_conflict() -> None:
    # MGMRESORTS_2022_10K's statement of equity, two years apart, neither year in the row.
    older = claim(
        "d1",
        "MGMRESORTS_2022_10K",
        "Dividends declared and paid to common shareholders ($0.1575 per share)",
    )
    newer = claim(
        "d2",
        "MGMRESORTS_2022_10K",
        "Dividends declared and paid to common shareholders ($0.01 per share)",
    )
    assert find_conflicts([older, newer]) == []


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Two rows of one balance sheet that share words: other lines, not a disagreement.
        (
            on_page(
                "a",
                "Cash and cash equivalents $ 1,093 $ 1,874 $ 840",
                "July 29, 2023 January 28, 2023 July 30, 2022",
            ),
            on_page(
                "b",
                "Total cash, cash equivalents and restricted cash $ 1,491 $ 2,253 $ 1,152",
                "July 29, 2023 January 28, 2023 July 30, 2022",
            ),
        ),
        # One label twice on one page: two segments.
        (
            on_page(
                "c",
                "Operating margins (5.3)% (4.7)% (22.0)%",
                "Years ended December 31, 2022 2021 2020",
            ),
            on_page(
                "d", "Operating margins 15 % 39 % 24 %", "Years ended December 31, 2022 2021 2020"
            ),
        ),
        # Three and six months side by side against a year: other periods.
        (
            on_page("e", "Gross profit 662 645 1,330 1,295", "2022 2021 2022 2021"),
            on_page(
                "f",
                "Gross profit 2,725 2,820 2,732",
                "For the years ended June 30, 2023 2022 2021",
                "10K",
            ),
        ),
    ],
)
def test_rows_that_only_look_alike_are_no_conflict(first: Claim, second: Claim) -> None:
    assert find_conflicts([first, second]) == []


def test_rows_stated_with_their_dated_columns_share_no_measure_by_the_dates() -> None:
    """The offline reader states a row with its column dates ("— July 29, 2023: $8,890; …"):
    the months the two statements share say when, not what."""
    header = "July 29, 2023 July 30, 2022 July 29, 2023 July 30, 2022"
    rows = [
        ("dom", "Total Domestic revenue $ 8,890 $ 9,569 $ 17,691 $ 19,463"),
        ("onl", "Total online revenue $ 2,763 $ 2,975 $ 5,451 $ 6,034"),
    ]
    claims = [
        claim(claim_id, "BESTBUY_2024Q2_10Q", row, row_by_period(row, header) or "", header)
        for claim_id, row in rows
    ]
    assert all("July 29, 2023:" in c.statement for c in claims)
    assert find_conflicts(claims) == []
