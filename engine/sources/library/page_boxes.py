"""Where a span of a PDF page's text is drawn: its boxes, from pdfium's character boxes.

A `Locator`'s offsets index the page text the library parsed: pdfium's text with CR LF
folded to LF, pdfium's U+FFFE hyphen marker written "-", and control characters dropped
(`parse.py`). pdfium's boxes index its own character list, which also holds characters it
generated (spaces, line breaks) and which counts UTF-16 units. So this module reads the
page again with pdfium, cleans it the same way while keeping, for every character kept,
its index in pdfium's text, and maps those through `FPDFText_GetCharIndexFromTextIndex`.

The span is trusted only if its text still matches the excerpt (after the verifier's
normalisation); otherwise the excerpt is looked for on the page again, nearest the old
offsets first. A span that cannot be found, or whose characters pdfium does not confirm,
gives no boxes: a reader sees no highlight rather than a wrong one.

Why here, and when: boxes need the PDF file, which only the library holds, and they do not
decide anything — the verifier's verdict rests on the text alone. So the pure core (verify,
render) stays free of pdfium, and the boxes are computed once a report is final, for the
claims it cites (`page_evidence.py`), or for any claim whose crop is asked for.

A page OCR read (a scan: no characters for pdfium to box) is boxed from its OCR words
instead: `read_page_by_ocr` renders the page and reads it as the parser did (`ocr.py`), so
its page text is the one the verifier checked, each word (cleaned by `ocr.clean_numeric`)
with its box in page points; `ocr_span_boxes` finds the excerpt in that text and returns the
boxes of the words its span covers, joined into line runs as pdfium's are. Tesseract takes
seconds a page: `read_page_by_ocr` holds the pdfium lock only to render, never while it reads.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c

from engine.documents.layout import Box
from engine.documents.ocr import OCR_TIMEOUT_SECONDS, OcrPage, read_image, render_page, wants_ocr
from engine.documents.parse import PDFIUM_LOCK
from engine.documents.pdf_text import PageText, visible_page_text
from engine.documents.pdf_text import cleaned_page_text as cleaned_page_text
from engine.text.matching import find_excerpt

_MIN_EXTENT = 0.01  # points: boxes thinner than this are generated characters, not ink
SAME_LINE_OVERLAP = 0.4
"""Two boxes are on one line when they overlap by this share of the shorter one's height."""
WORD_GAP = 1.2
"""The widest gap, in line heights, still read as a space between words (justified text
stretches spaces; table columns stand many heights apart)."""


def find_span(
    text: str, excerpt: str, hint: tuple[int, int] | None = None
) -> tuple[int, int] | None:
    """The span of `text` where a reader sees `excerpt` (`find_excerpt`, as the verifier
    finds it): `hint` if it still is one, else the occurrence nearest to it; None when the
    excerpt is not in `text`."""
    if hint is not None and 0 <= hint[0] <= hint[1] <= len(text):
        quoted = text[hint[0] : hint[1]]
        if (0, len(quoted)) in find_excerpt(excerpt, quoted):
            return hint
    spans = list(find_excerpt(excerpt, text))
    if not spans:
        return None
    near = hint[0] if hint is not None else 0
    return min(spans, key=lambda span: abs(span[0] - near))


@contextmanager
def open_text_page(document: pypdfium2.PdfDocument, page: int) -> Iterator[pypdfium2.PdfTextPage]:
    """pdfium's text page of `page` (1-based), closed afterwards."""
    pdf_page = document[page - 1]
    try:
        text_page = pdf_page.get_textpage()
        try:
            yield text_page
        finally:
            text_page.close()
    finally:
        pdf_page.close()


def span_boxes(
    text_page: pypdfium2.PdfTextPage, excerpt: str, hint: tuple[int, int] | None = None
) -> list[Box]:
    """The boxes of `excerpt` on the page of `text_page`, one per run of a line, in reading
    order; [] when the excerpt is not on the page or pdfium cannot place it."""
    page_text = visible_page_text(text_page)
    span = find_span(page_text.text, excerpt, hint)
    if span is None or span[0] == span[1]:
        return []
    start, end = _trimmed(page_text.text, *span)
    first = _char_index(text_page, page_text.text_indices[start])
    last = _char_index(text_page, page_text.text_indices[end - 1])
    if first < 0 or last < first or not _confirmed(text_page, page_text, start, end):
        return []
    rects: list[Box] = []
    runs = [(first, last)]
    if page_text != cleaned_page_text(text_page.get_text_range()):  # some text is unseen
        runs = _visible_runs(text_page, page_text, start, end, first, last)
    for run_first, run_last in runs:
        count = text_page.count_rects(run_first, run_last - run_first + 1)
        rects.extend(text_page.get_rect(n) for n in range(count))
    return _drawn(rects)


def _visible_runs(
    text_page: pypdfium2.PdfTextPage,
    page_text: PageText,
    start: int,
    end: int,
    first: int,
    last: int,
) -> list[tuple[int, int]]:
    """pdfium's characters first..last split around those the page text left out as unseen
    (`pdf_text.py`), so an unseen word inside the span gets no highlight. Characters left out
    by cleaning (a line break's LF, control characters) have no ink and split nothing."""
    kept = {_char_index(text_page, page_text.text_indices[p]) for p in range(start, end)}
    runs = []
    run_first = first
    for index in range(first, last + 1):
        if index in kept or pdfium_c.FPDFText_GetUnicode(text_page, index) <= 0x20:
            continue
        if kept.intersection(range(run_first, index)):  # not a run of spaces alone
            runs.append((run_first, index - 1))
        run_first = index + 1
    if run_first <= last:
        runs.append((run_first, last))
    return runs


def text_lines(text_page: pypdfium2.PdfTextPage) -> list[Box]:
    """The boxes of all the text on the page, one per run of a line."""
    count = text_page.count_rects()
    return _drawn([text_page.get_rect(n) for n in range(count)])


def excerpt_boxes(
    path: Path, page: int, excerpt: str, hint: tuple[int, int] | None = None
) -> list[Box]:
    """`span_boxes` for `page` (1-based) of the PDF at `path`."""
    document = pypdfium2.PdfDocument(path)
    try:
        if not 1 <= page <= len(document):
            return []
        with open_text_page(document, page) as text_page:
            return span_boxes(text_page, excerpt, hint)
    finally:
        document.close()


def page_wants_ocr(document: pypdfium2.PdfDocument, page: int) -> bool:
    """Whether `page` (1-based) is one the parser reads by OCR (`ocr.wants_ocr`: almost no
    text a reader sees, something drawn); False for a page out of range. Uses pdfium:
    callers hold `parse.PDFIUM_LOCK`."""
    if not 1 <= page <= len(document):
        return False
    pdf_page = document[page - 1]
    try:
        text_page = pdf_page.get_textpage()
        try:
            text = visible_page_text(text_page).text
        finally:
            text_page.close()
        return wants_ocr(pdf_page, text)
    finally:
        pdf_page.close()


def read_page_by_ocr(
    document: pypdfium2.PdfDocument, page: int, timeout: float = OCR_TIMEOUT_SECONDS
) -> OcrPage | None:
    """What OCR reads on `page` (1-based), rendered and read exactly as the parser reads a
    page without a text layer; None out of range, without Tesseract, or on its failure.
    The page is rendered under `parse.PDFIUM_LOCK` and read outside it: call it without
    holding the lock, so other threads' pdfium calls do not wait seconds for Tesseract.
    Tesseract is stopped after `timeout` seconds (None then)."""
    with PDFIUM_LOCK:
        if not 1 <= page <= len(document):
            return None
        pdf_page = document[page - 1]
        try:
            image = render_page(pdf_page)
        finally:
            pdf_page.close()
    return read_image(image, timeout)


def ocr_span_boxes(page: OcrPage, excerpt: str, hint: tuple[int, int] | None = None) -> list[Box]:
    """The boxes of `excerpt` on a page OCR read: found in its text (`find_span`, as the
    verifier found it), the words its span covers, in reading order, joined into runs of a
    line; [] when the excerpt is not in what OCR read."""
    span = find_span(page.text, excerpt, hint)
    if span is None:
        return []
    start, end = _trimmed(page.text, *span)
    covered = [
        word.box for word in page.words if word.start < end and word.start + len(word.text) > start
    ]
    return _drawn(covered)


def ocr_lines(page: OcrPage) -> list[Box]:
    """The boxes of all the words OCR read on the page, one per run of a line."""
    return _drawn([word.box for word in page.words])


def _drawn(boxes: list[Box]) -> list[Box]:
    inked = [
        box for box in boxes if box[2] - box[0] > _MIN_EXTENT and box[3] - box[1] > _MIN_EXTENT
    ]
    return [
        (round(left, 2), round(bottom, 2), round(right, 2), round(top, 2))
        for left, bottom, right, top in merge_runs(inked)
    ]


def merge_runs(boxes: list[Box]) -> list[Box]:
    """Boxes in reading order joined into runs: neighbours on one line, apart by no more
    than a word space. pdfium joins characters that share a font and spacing; real filings
    position each glyph on its own, which would give a box per character. Table cells stay
    apart (their gap is many times the line's height)."""
    runs: list[Box] = []
    for box in boxes:
        if runs and _continues(runs[-1], box):
            left, bottom, right, top = runs[-1]
            runs[-1] = (
                min(left, box[0]),
                min(bottom, box[1]),
                max(right, box[2]),
                max(top, box[3]),
            )
        else:
            runs.append(box)
    return runs


def _continues(run: Box, box: Box) -> bool:
    run_height, box_height = run[3] - run[1], box[3] - box[1]
    overlap = min(run[3], box[3]) - max(run[1], box[1])
    if overlap < SAME_LINE_OVERLAP * min(run_height, box_height):
        return False
    gap = box[0] - run[2]
    return -max(run_height, box_height) < gap <= WORD_GAP * max(run_height, box_height)


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without surrounding whitespace (generated characters have no box)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _char_index(text_page: pypdfium2.PdfTextPage, text_index: int) -> int:
    return int(pdfium_c.FPDFText_GetCharIndexFromTextIndex(text_page, text_index))


def _confirmed(text_page: pypdfium2.PdfTextPage, page_text: PageText, start: int, end: int) -> bool:
    """Whether pdfium's characters at the mapped indices are the span's own characters
    (checked at both ends and the middle): a wrong map must not draw a wrong highlight."""
    for position in dict.fromkeys((start, (start + end) // 2, end - 1)):
        char = page_text.text[position]
        if char.isspace() or char == "-" or ord(char) > 0xFFFF:
            continue
        index = _char_index(text_page, page_text.text_indices[position])
        if index < 0 or pdfium_c.FPDFText_GetUnicode(text_page, index) != ord(char):
            return False
    return True
