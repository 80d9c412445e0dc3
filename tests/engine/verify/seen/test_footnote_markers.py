"""Footnote markers: small raised digits after a word, which the text layer holds as plain
digits and OCR drops or reads as a quote mark. A reader sees the word and a marker; the
excerpt is seen so, and no statement may use the marker's number. What makes a marker is
the page's drawing (pdfium's boxes of the characters), never the text.

The attacks come first: a hostile page author sets a digit of a real figure, or a word,
small and raised, hoping the check reads past it. Each must fail closed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy
import pytest

from engine.contracts import ClaimStatus
from engine.documents.ocr import ocr_available
from engine.documents.parse import DocumentKind
from engine.snapshots import Snapshot
from engine.verify.seen import SeenCheck, SeenDispatcher
from engine.verify.seen.agreement import Word, disagreement
from engine.verify.seen.pdf_seer import PdfSeer, SightCache
from engine.verify.seen.strips import _inked
from tests.support.render_samples import build_claim
from tests.support.seen_pdfs import Run, raised_pdf

BODY = 14
Line = tuple[Run, ...]


def plain(text: str) -> Run:
    return (text, BODY, 0)


def raised(text: str, size: float = 8, rise: float = 5) -> Run:
    return (text, size, rise)


def seen(tmp_path: Path, *cases: tuple[Line, str]) -> list[bool]:
    """Each (page line, excerpt) judged on a page of its own, all in one Tesseract call."""
    requests = []
    for number, (line, excerpt) in enumerate(cases):
        path = tmp_path / f"page{number}.pdf"
        path.write_bytes(raised_pdf(line))
        requests.append((path, 1, excerpt))
    return [s.seen for s in PdfSeer(SightCache()).see_all(requests)]


needs_ocr = pytest.mark.skipif(not ocr_available(), reason="needs tesseract with eng data")

PAGES: list[tuple[str, Line, str, bool]] = [
    # Attacks first: each must fail closed.
    # The last digit of a figure small and raised: a reader sees 1,29 and a note 4.
    (
        "figure-last-digit",
        (plain("Revenue was 1,29"), raised("4"), plain(" million.")),
        "Revenue was 1,294 million.",
        False,
    ),
    (
        "figure-last-digit-larger",
        (plain("Revenue was 1,29"), raised("4", 10, 4), plain(" million.")),
        "Revenue was 1,294 million.",
        False,
    ),
    (
        "figure-middle-digit",
        (plain("Revenue was 1,2"), raised("9"), plain("4 million.")),
        "Revenue was 1,294 million.",
        False,
    ),
    (
        "figure-two-digits",
        (plain("Revenue was 1,2"), raised("94"), plain(" million.")),
        "Revenue was 1,294 million.",
        False,
    ),
    # A marker glued to a figure: the text layer's "1,2941" is no figure a reader sees.
    (
        "marker-glued-to-figure",
        (plain("Total revenue 1,294"), raised("1"), plain(" million.")),
        "Total revenue 1,2941 million.",
        False,
    ),
    # Words in small raised type are text, never markers.
    (
        "raised-nao",
        (plain("O contrato "), raised("não"), plain(" se aplica a 2023.")),
        "O contrato não se aplica a 2023.",
        False,
    ),
    (
        "raised-not",
        (plain("The clause does "), raised("not"), plain(" apply to 2023.")),
        "The clause does not apply to 2023.",
        False,
    ),
    # Three digits after a word are no marker: a figure set small stays strict.
    (
        "raised-figure-after-word",
        (plain("Revenue"), raised("500"), plain(" million in 2023.")),
        "Revenue500 million in 2023.",
        False,
    ),
    # A reader sees a word, or a figure, and its footnote marker.
    (
        "after-word-parenthesised",
        (plain("Net loss on disposals"), raised("(2)"), plain(" was 10 million.")),
        "Net loss on disposals(2) was 10 million.",
        True,
    ),
    (
        "after-word-bare",
        (plain("Corporate expense"), raised("2"), plain(" was 113 million.")),
        "Corporate expense2 was 113 million.",
        True,
    ),
    (
        "after-word-list",
        (plain("Operational"), raised("1,3"), plain(" sales grew 2.9% in 2022.")),
        "Operational1,3 sales grew 2.9% in 2022.",
        True,
    ),
    (
        "after-a-figure-spaced",
        (plain("Total revenue was 1,294 "), raised("(5)"), plain(" million.")),
        "Total revenue was 1,294 (5) million.",
        True,
    ),
]
"""(case, the page's line, the excerpt quoted from it, whether a reader sees the excerpt)."""


@needs_ocr
def test_a_raised_digit_of_a_figure_or_a_raised_word_is_not_seen_a_marker_is(
    tmp_path: Path,
) -> None:
    found = seen(tmp_path, *[(line, excerpt) for _, line, excerpt, _ in PAGES])
    assert dict(zip([case for case, *_ in PAGES], found, strict=True)) == {
        case: shown for case, _, _, shown in PAGES
    }


class Kept:
    def __init__(self, path: Path) -> None:
        self._path = path

    def original(self, url: str) -> Path | None:
        return self._path


@needs_ocr
@pytest.mark.parametrize(
    ("statement", "verified"),
    [
        ("Net loss on disposals was 10 million.", True),
        ("Net loss on disposals was 2 million.", False),  # the 2 is the marker's
        ("Two items: net loss on disposals was 10 million and 2 more.", False),
    ],
)
def test_no_statement_uses_a_markers_number(statement: str, verified: bool, tmp_path: Path) -> None:
    path = tmp_path / "page.pdf"
    line = (plain("Net loss on disposals"), raised("(2)"), plain(" was 10 million."))
    path.write_bytes(raised_pdf(line))
    excerpt = "Net loss on disposals(2) was 10 million."
    claim = build_claim(
        "c1", url="https://example.org/doc.pdf#page=1", excerpt=excerpt, statement=statement
    )
    check = SeenCheck(Kept(path), SeenDispatcher({DocumentKind.pdf: PdfSeer(SightCache())}))
    snapshot = Snapshot(url=claim.url, text=excerpt, content_type="application/pdf")
    checked = asyncio.run(check.seen(claim, snapshot))
    assert (checked.status is ClaimStatus.verified) is verified
    assert verified or "footnote marker" in checked.reason


def read(text: str) -> list[Word]:
    return [Word(w) for w in text.split()]


@pytest.mark.parametrize(
    ("excerpt", "shown", "markers", "agrees"),
    [
        ("Net loss on disposals(2) 10", "Net loss on disposals) 10", {3: "disposals"}, True),
        ("Net loss on disposals(2) 10", "Net loss on disposals2 10", {3: "disposals"}, True),
        ("Operational1,3 U.S. 2.9%", "Operational'3 U.S. 2.9%", {0: "Operational"}, True),
        ("intangibles (5) 163", "intangibles 163", {1: ""}, True),
        # A marker excuses its own digits only: another digit read there is a number.
        ("Net loss on disposals(2) 10", "Net loss on disposals7 10", {3: "disposals"}, False),
        ("Net loss on disposals(2) 10", "Net loss on disposals) 19", {3: "disposals"}, False),
        # Without markers the page placed, the excerpt's digits must be read.
        ("Net loss on disposals(2) 10", "Net loss on disposals) 10", {}, False),
    ],
)
def test_what_was_read_agrees_with_an_excerpt_read_without_its_markers(
    excerpt: str, shown: str, markers: dict[int, str], agrees: bool
) -> None:
    assert (disagreement(excerpt, read(shown), markers) is None) is agrees


@pytest.mark.parametrize(
    ("excerpt", "shown", "agrees"),
    [
        (
            "Sharesauthorized3,100;Sharesissued:2,300 2,300",
            "Shares authorized 3,100; Shares issued: 2,300 2,300",
            True,
        ),
        (
            "Sharesauthorized3,100;Sharesissued:2,300 2,300",
            "Shares authorized 3.100; Shares issued: 2,300 2,300",
            False,
        ),
        (
            "Sharesauthorized3,100;Sharesissued:2,300 2,300",
            "Shares authorized 3,100; Shares issued: 2,30 0 2,300",
            False,
        ),
        (
            "Sharesauthorized3,100;Sharesissued:2,300 2,300",
            "Shares authorized 3,100; Shares issued: 2,300",
            False,
        ),
    ],
)
def test_words_the_text_layer_glued_agree_when_every_letter_and_number_is_read(
    excerpt: str, shown: str, agrees: bool
) -> None:
    assert (disagreement(excerpt, read(shown)) is None) is agrees


def test_a_tables_rule_in_a_strips_margin_is_wiped_a_strike_through_stays() -> None:
    strip = numpy.full((30, 200), 255, dtype=numpy.uint8)
    strip[8:22, 20:30] = 0  # a glyph
    strip[27, :] = 0  # a rule under the text, in the margin
    strip[15, :] = 0  # a line through the text
    inked = _inked(strip, margin=5)
    assert (inked[27] == 255).all()
    assert (inked[15] == 0).all()
    assert (inked[8:22, 20:30] == 0).all()


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
