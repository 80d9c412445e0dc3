"""The PDF seer reads each excerpt back from the render of its page: text that does not paint,
or paints other digits than its text layer says, is not seen; what a reader sees is.

Attacks by class (tests/support/seen_pdfs.py): transparency (alpha 0, faint alpha, a soft
mask), clipping (a clip path elsewhere, an empty one, the clip-only text mode), an optional
content layer that is off, covering (a white annotation, shape, shading, image), horizontal
scaling 1%, colour (white on white, near white, black on black), digits swapped by a
ToUnicode map or /ActualText, and a scan whose invisible OCR layer says another number than
its image. Several of them pass the parser's own text filter: the render is what stops them."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.documents.ocr import OcrPage, ocr_available
from engine.verify.seen import strips as strips_module
from engine.verify.seen.pdf_seer import PdfSeer, SightCache
from tests.support.seen_pdfs import ATTACKS, BENIGN, scan_with_layer, seen_pdf, swapped_digits_pdf

pytestmark = pytest.mark.skipif(not ocr_available(), reason="needs tesseract with eng data")

SHOWN = "Acme revenue was $5,000 million in fiscal 2023."
HIDDEN = "Acme revenue was $9,000 million in fiscal 2023."
DRAWN = "Revenue was 1,204 million in 2023."
SAID = "Revenue was 1,294 million in 2023."


def seen(tmp_path: Path, pdf: bytes, *excerpts: str, page: int | None = 1) -> list[bool]:
    path = tmp_path / "page.pdf"
    path.write_bytes(pdf)
    sights = PdfSeer(SightCache()).see(path, page, list(excerpts))
    assert all(s.method == "pdf-ocr" and "\n" not in s.reason for s in sights)
    return [s.seen for s in sights]


@pytest.mark.parametrize("how", sorted(ATTACKS))
def test_hidden_text_is_not_seen_and_the_shown_sentence_is(how: str, tmp_path: Path) -> None:
    pdf = seen_pdf(SHOWN, HIDDEN, how)
    # Alone, then together: a strip read alone must not be stretched into sight (Tesseract
    # finds any faint contrast when nothing darker is in its image).
    assert seen(tmp_path, pdf, HIDDEN) == [False]
    assert seen(tmp_path, pdf, SHOWN) == [True]
    assert seen(tmp_path, pdf, SHOWN, HIDDEN) == [True, False]


@pytest.mark.parametrize("how", [None, *sorted(BENIGN)])
def test_text_a_reader_sees_is_seen(how: str | None, tmp_path: Path) -> None:
    pdf = seen_pdf(SHOWN, HIDDEN, how)
    assert seen(tmp_path, pdf, HIDDEN) == [True]
    assert seen(tmp_path, pdf, SHOWN, HIDDEN) == [True, True]


@pytest.mark.parametrize("how", ["tounicode", "actualtext"])
def test_a_text_layer_that_swaps_digits_is_read_as_its_glyphs(how: str, tmp_path: Path) -> None:
    assert seen(tmp_path, swapped_digits_pdf(DRAWN, SAID, how), SAID) == [False]


def test_a_scan_is_judged_by_its_image_not_its_invisible_layer(tmp_path: Path) -> None:
    pdf = scan_with_layer(DRAWN, SAID, dpi=300)
    assert seen(tmp_path, pdf, SAID, DRAWN) == [False, True]


def test_an_unpaged_citation_is_looked_for_on_the_pages(tmp_path: Path) -> None:
    pdf = seen_pdf(SHOWN, HIDDEN, "white-annotation")
    assert seen(tmp_path, pdf, SHOWN, HIDDEN, page=None) == [True, False]


def test_a_page_is_read_once_for_a_report(tmp_path: Path) -> None:
    path = tmp_path / "page.pdf"
    path.write_bytes(seen_pdf(SHOWN, HIDDEN))
    cache = SightCache()
    seer = PdfSeer(cache)
    assert seer.see(path, 1, [SHOWN])[0].seen
    misses = cache.strips.misses
    assert seer.see(path, 1, [SHOWN])[0].seen
    assert cache.strips.misses == misses
    assert cache.strips.hits >= 1


def test_a_file_that_is_no_pdf_is_not_checked(tmp_path: Path) -> None:
    path = tmp_path / "page.pdf"
    path.write_bytes(b"%PDF-1.7 broken")
    sight = PdfSeer(SightCache()).see(path, 1, [SHOWN])[0]
    assert not sight.seen
    assert sight.reason.startswith("not checked as a reader sees it")


def test_claims_checked_together_share_one_tesseract_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    original = strips_module.read_image

    def counted(*args: Any, **kwargs: Any) -> OcrPage | None:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(strips_module, "read_image", counted)
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    first.write_bytes(seen_pdf(SHOWN, HIDDEN))
    second.write_bytes(seen_pdf(SHOWN, HIDDEN, "white-annotation"))
    seer = PdfSeer(SightCache())

    async def together() -> list[bool]:
        asked = [(first, SHOWN), (first, HIDDEN), (second, SHOWN), (second, HIDDEN)]
        found = await asyncio.gather(*(seer.sight(path, 1, text) for path, text in asked))
        return [s.seen for s in found]

    assert asyncio.run(together()) == [True, True, True, False]
    assert len(calls) == 1


def test_an_excerpt_misread_by_the_combined_languages_is_read_in_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tesseract's por+eng models misread digits that one model alone reads right; a figure
    a raised digit breaks is not read again."""
    original = strips_module.read_image
    asked: list[str] = []

    def combined_misreads(*args: Any, **kwargs: Any) -> OcrPage | None:
        asked.append(kwargs.get("languages", ""))
        page = original(*args, **kwargs)
        if page is None or kwargs.get("languages") == "eng":
            return page
        words = tuple(replace(w, text=w.text.replace("5,000", "5,800")) for w in page.words)
        return OcrPage(page.text, words)

    monkeypatch.setattr(strips_module, "read_image", combined_misreads)
    pdf = seen_pdf(SHOWN, "Acme revenue was $5,800 million in fiscal 2023.", "white-annotation")
    assert seen(tmp_path, pdf, SHOWN, HIDDEN.replace("9,000", "5,800")) == [True, False]
    assert asked[-1] == "eng"


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
