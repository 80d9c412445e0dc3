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
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.documents.ocr import OcrPage, ocr_available, ocr_languages, reading_languages
from engine.verify.seen import pdf_seer
from engine.verify.seen import strips as strips_module
from engine.verify.seen.pdf_seer import PdfSeer, SightCache, ocr_language_of
from tests.support.pdfs import pdf_bytes
from tests.support.seen_pdfs import ATTACKS, BENIGN, scan_with_layer, seen_pdf, swapped_digits_pdf

pytestmark = pytest.mark.skipif(not ocr_available(), reason="needs tesseract with eng data")

SHOWN = "Acme revenue was $5,000 million in fiscal 2023."
HIDDEN = "Acme revenue was $9,000 million in fiscal 2023."
DRAWN = "Revenue was 1,204 million in 2023."
SAID = "Revenue was 1,294 million in 2023."
BARRIER_SECONDS = 30.0
"""How long a Tesseract call waits for the other of its batch to start beside it."""


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


def test_a_large_batch_is_read_by_tesseract_calls_side_by_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdf_seer, "PARALLEL_READS", 2)
    monkeypatch.setattr(pdf_seer, "EXCERPTS_PER_READ", 2)
    both_reading = threading.Barrier(2, timeout=BARRIER_SECONDS)  # broken if one at a time
    original = strips_module.read_image

    def side_by_side(*args: Any, **kwargs: Any) -> OcrPage | None:
        both_reading.wait()
        return original(*args, **kwargs)

    monkeypatch.setattr(strips_module, "read_image", side_by_side)
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    first.write_bytes(seen_pdf(SHOWN, HIDDEN))
    second.write_bytes(seen_pdf(SHOWN, HIDDEN, "white-annotation"))
    asked = [(first, SHOWN), (first, HIDDEN), (second, SHOWN), (second, HIDDEN)]
    sights = PdfSeer(SightCache()).see_all([(path, 1, text) for path, text in asked])
    assert [s.seen for s in sights] == [True, True, True, False]


ENGLISH = (
    "The company reported revenue of 5,000 million dollars in fiscal 2023. Sales of its "
    "products grew in every market where it operates, and the board expects that the "
    "growth of the last year will go on in the next one, as the new plants come into "
    "operation and the costs of the raw materials fall from the peak they reached."
)
ENGLISH_EXCERPT = "The company reported revenue of 5,000 million dollars"
PORTUGUESE = (
    "A empresa informou receita de 5.000 milhões de reais no exercício de 2023. As vendas "
    "dos seus produtos cresceram em todos os mercados onde atua, e o conselho espera que o "
    "crescimento do último ano continue no próximo, quando as novas usinas entrarem em "
    "operação e os custos das matérias-primas caírem do pico que alcançaram."
)


@pytest.mark.parametrize(
    ("text", "language"),
    [(ENGLISH, "eng"), (PORTUGUESE, "por"), ("Revenue 2023 2022\nTotal 5,000 4,100", "")],
)
def test_a_page_s_language_is_told_by_its_text_when_it_says_enough(
    text: str, language: str
) -> None:
    assert ocr_language_of(text) == language


def languages_read(
    monkeypatch: pytest.MonkeyPatch, misread: Callable[[OcrPage], OcrPage] | None = None
) -> list[str]:
    """The `-l` value of each Tesseract call the seer makes from now on; `misread` changes
    what a call in `eng` alone reads."""
    if set(ocr_languages().split("+")) != {"por", "eng"}:
        pytest.skip("needs tesseract with both por and eng data")
    read_in: list[str] = []
    original = strips_module.read_image

    def recorded(*args: Any, **kwargs: Any) -> OcrPage | None:
        languages = reading_languages()
        read_in.append(languages)
        page = original(*args, **kwargs)
        return misread(page) if page is not None and misread and languages == "eng" else page

    monkeypatch.setattr(strips_module, "read_image", recorded)
    return read_in


def test_each_document_is_read_in_its_own_language_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_in = languages_read(monkeypatch)
    english, portuguese, short = tmp_path / "en.pdf", tmp_path / "pt.pdf", tmp_path / "s.pdf"
    english.write_bytes(pdf_bytes([ENGLISH]))
    portuguese.write_bytes(pdf_bytes([PORTUGUESE]))
    short.write_bytes(seen_pdf(SHOWN, HIDDEN))
    seer = PdfSeer(SightCache())

    async def together() -> list[bool]:
        asked = [
            (english, ENGLISH_EXCERPT),
            (portuguese, "A empresa informou receita de 5.000 milhões de reais"),
            (short, SHOWN),
        ]
        found = await asyncio.gather(*(seer.sight(path, 1, text) for path, text in asked))
        return [s.seen for s in found]

    assert asyncio.run(together()) == [True, True, True]
    assert sorted(read_in) == ["eng", "por", "por+eng"]  # one call per language of the batch


def test_a_figure_misread_in_the_page_s_language_is_read_again_in_every_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def misread(page: OcrPage) -> OcrPage:
        words = tuple(replace(w, text=w.text.replace("5,000", "5,600")) for w in page.words)
        return replace(page, words=words)

    read_in = languages_read(monkeypatch, misread)
    english = tmp_path / "en.pdf"
    english.write_bytes(pdf_bytes([ENGLISH]))
    assert PdfSeer(SightCache()).see(english, 1, [ENGLISH_EXCERPT])[0].seen
    assert read_in == ["eng", "eng", "eng", "por+eng"]  # 300, 450, 600 DPI, then both at 300


def test_an_excerpt_misread_by_the_combined_languages_is_read_in_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tesseract's por+eng models misread digits that one model alone reads right: a page
    too short to tell its language by is read in both, then the excerpt in its own."""
    original = strips_module.read_image
    asked: list[str] = []

    def combined_misreads(*args: Any, **kwargs: Any) -> OcrPage | None:
        languages = reading_languages()
        asked.append(languages)
        page = original(*args, **kwargs)
        if page is None or languages == "eng":
            return page
        words = tuple(replace(w, text=w.text.replace("5,000", "5,800")) for w in page.words)
        return OcrPage(page.text, words)

    monkeypatch.setattr(strips_module, "read_image", combined_misreads)
    pdf = seen_pdf(SHOWN, "Acme revenue was $5,800 million in fiscal 2023.", "white-annotation")
    assert seen(tmp_path, pdf, SHOWN, HIDDEN.replace("9,000", "5,800")) == [True, False]
    assert asked[-1] == "eng"


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
