"""Boilerplate is never a finding (engine/text/boilerplate.py): each kind in both languages,
what is not boilerplate though it looks alike, and a real 10-K of the corpus read as the
library reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.documents.parse import parse_pdf
from engine.models.extractive.sentences import sentence_spans
from engine.text.boilerplate import Boilerplate, asked_about, boilerplate_kind
from engine.text.quantities import quantities_stated
from tests.support.corpus import corpus_folder


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "We have audited the accompanying consolidated balance sheets of 3M Company and "
            "its subsidiaries as of December 31, 2018 and 2017.",
            Boilerplate.audit_opinion,
        ),
        (
            "In our opinion, the consolidated financial statements referred to above present "
            "fairly, in all material respects, the financial position of the Company.",
            Boilerplate.audit_opinion,
        ),
        (
            "(2) provide reasonable assurance that transactions are recorded as necessary to "
            "permit preparation of financial statements in accordance with GAAP",
            Boilerplate.audit_opinion,
        ),
        (
            "Examinamos as demonstrações financeiras individuais e consolidadas da Companhia, "
            "que compreendem o balanço patrimonial em 31 de dezembro de 2023.",
            Boilerplate.audit_opinion,
        ),
        (
            "Each of the undersigned Directors of 3M COMPANY hereby constitute and appoint "
            "Inge G. Thulin and Michael F. Roman, and each of them, his or her true and lawful "
            "attorneys-in-fact.",
            Boilerplate.signatures,
        ),
        (
            "Pursuant to the requirements of the Securities Exchange Act of 1934, this report "
            "has been signed below by the following persons on behalf of the Registrant.",
            Boilerplate.signatures,
        ),
        ("/s/ PricewaterhouseCoopers LLP Minneapolis, Minnesota", Boilerplate.signatures),
        (
            "This Annual Report contains forward-looking statements within the meaning of the "
            "Private Securities Litigation Reform Act of 1995.",
            Boilerplate.forward_looking,
        ),
        (
            "Este relatório contém declarações prospectivas sujeitas a riscos e incertezas.",
            Boilerplate.forward_looking,
        ),
        ("Table of Contents", Boilerplate.contents),
        ("Item 7. Management's Discussion .......... 25", Boilerplate.contents),
        ("Item 1. Business 3 Item 1A. Risk Factors 9 Item 2. Properties 15", Boilerplate.contents),
        ("(1) Included within operating income are charges for litigation.", Boilerplate.footnote),
        ("(a) See Note 4 for details.", Boilerplate.footnote),
        ("* Excludes special items", Boilerplate.footnote),
        (
            "Operating income margin and earnings per share attributable to 3M – diluted:",
            Boilerplate.label_line,
        ),
    ],
)
def test_each_kind_of_boilerplate_is_named(text: str, kind: Boilerplate) -> None:
    assert boilerplate_kind(text) is kind


@pytest.mark.parametrize(
    "text",
    [
        "Net sales in 2018 were $32.8 billion, an increase of 3.5 percent from 2017.",
        "(1) Effective income tax rate used for interest expense 23.4 % 35.5 % 28.3 %",
        "XI - microgeração distribuída: central geradora com potência instalada menor ou igual "
        "a 75 kW;",
        "The audit committee met nine times in 2018, and the company opened 12 new plants.",
        "Diluted earnings per share: $8.89 in 2018",
        "The Company expects organic local-currency sales growth of 3 to 5 percent in 2019.",
    ],
)
def test_findings_that_look_alike_are_not_boilerplate(text: str) -> None:
    assert boilerplate_kind(text) is None


@pytest.mark.parametrize(
    ("question", "kind", "asked"),
    [
        ("Who is 3M's auditor and what opinion did it give?", Boilerplate.audit_opinion, True),
        ("What was 3M's FY2018 operating margin?", Boilerplate.audit_opinion, False),
        ("Who signed the 10-K on behalf of the registrant?", Boilerplate.signatures, True),
        ("Quem assinou o relatório?", Boilerplate.signatures, True),
        ("What was 3M's FY2018 capex?", Boilerplate.signatures, False),
        (
            "What does the filing say on forward-looking statements?",
            Boilerplate.forward_looking,
            True,
        ),
        ("What is 3M's outlook for 2019?", Boilerplate.forward_looking, False),
        ("Who audited the company?", Boilerplate.footnote, False),  # a footnote never answers
    ],
)
def test_boilerplate_answers_only_a_question_about_it(
    question: str, kind: Boilerplate, asked: bool
) -> None:
    assert asked_about(question, kind) is asked


@pytest.fixture(scope="module")
def filing() -> tuple[str, ...]:
    """3M's 2018 10-K of the FinanceBench corpus, its pages as the library reads them."""
    folder = corpus_folder("financebench/pdfs", needs="3M_2018_10K.pdf")
    return parse_pdf(Path(folder / "3M_2018_10K.pdf"), ocr=False).texts


def _units(page: str) -> list[str]:
    return [span.text(page) for span in sentence_spans(page)]


@pytest.mark.parametrize(
    ("marker", "kind"),
    [
        ("We have audited the accompanying", Boilerplate.audit_opinion),
        ("hereby constitute and appoint", Boilerplate.signatures),
        ("forward-looking statements within the meaning", Boilerplate.forward_looking),
    ],
)
def test_a_real_filing_s_boilerplate_is_named_where_the_library_reads_it(
    filing: tuple[str, ...], marker: str, kind: Boilerplate
) -> None:
    units = [unit for page in filing for unit in _units(page) if marker in " ".join(unit.split())]
    assert units, f"{marker!r} not found in the filing"
    assert {boilerplate_kind(unit) for unit in units} == {kind}


def test_no_figure_row_of_a_real_filing_s_statements_is_boilerplate(
    filing: tuple[str, ...],
) -> None:
    """The statement pages (income, balance sheet, cash flows, not the index that lists them):
    every unit with a figure other than a year is a possible finding."""
    statements = [
        page
        for page in filing
        if "Consolidated Statement of" in page and ("Net sales" in page or "Net income" in page)
    ]
    assert len(statements) >= 3
    taken = [
        unit
        for page in statements
        for unit in _units(page)
        if quantities_stated(unit) and boilerplate_kind(unit) not in (None, Boilerplate.contents)
    ]
    assert taken == []
