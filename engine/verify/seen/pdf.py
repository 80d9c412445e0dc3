"""The PDF seer (method "pdf-ocr"): the excerpt's region rendered by pdfium, read by Tesseract.

Where: the excerpt's boxes on its page (`page_boxes.span_boxes`, the runs of its lines as the
verifier found it). Each run is cut from one render of the page (pdfium draws what a reader
sees: annotations and forms on top, optional-content layers that are off left out, clip paths,
soft masks and alpha applied), at `SEEN_DPI`, padded a little, and the runs are stacked
into one image that Tesseract reads in one call (`SEGMENTATION`: a uniform block of text).
What it reads for each run is compared with the excerpt (`agreement.disagreement`): its
words, its numbers exactly. Text that does not paint gives no OCR text; a ToUnicode map or
/ActualText that says other digits than the glyphs is read as the glyphs.

A page with no text layer for the excerpt (a scan read by OCR at parse time, or a page
whose characters pdfium cannot box) is judged by its image: the whole page rendered and read
as the parser reads it (`page_boxes.read_page_by_ocr`), the excerpt looked for in it. A page
with an invisible text layer over a scan gets its boxes from that layer and is judged by
what the render of those boxes shows: the image, never the layer.

Renders and readings are cached per (document SHA-256, page) in a `SightCache` shared by
the process. pdfium calls hold `parse.PDFIUM_LOCK`; Tesseract runs outside it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy
import pypdfium2
import pypdfium2.raw as pdfium_c

from engine.documents.ocr import OcrPage, PageImage, ocr_available, read_image
from engine.documents.parse import PDFIUM_LOCK
from engine.documents.pdf_objects import SCAN_SHARE
from engine.sources.library.page_boxes import Box, open_text_page, read_page_by_ocr, span_boxes
from engine.verify.seen.agreement import Word, disagreement, windows
from engine.verify.seen.cache import FileShas, Memo
from engine.verify.seen.protocol import Sight

METHOD = "pdf-ocr"
SEEN_DPI = 300
"""Tesseract reads body text best at 300 DPI (`ocr.OCR_DPI`)."""
SEGMENTATION = 6
"""Tesseract's "uniform block of text": the stacked strips are lines of one block."""
PAD_HEIGHT, PAD_WIDTH = 0.15, 0.15
"""A strip's margin above and below, and left and right, in shares of its line's height."""
INK_CONTRAST = 96
"""Grey levels (0-255) a pixel must differ from its strip's background by to be ink. About
the 3:1 contrast the WCAG ask of large text (#949494 on white): text fainter than that is
not what a reader is shown, and Tesseract, which stretches any contrast it finds, must not
read it. Both polarities count: white text on a dark cell is ink."""
SCAN_PAD_HEIGHT = 0.6
"""On a scan the layer's boxes only roughly sit on the image's words: each line is read
across the whole page, with this much margin above and below."""
GAP_PIXELS = 24
MARGIN_PIXELS = 16
BATCH_WINDOW_SECONDS = 0.05
"""How long a `sight` call waits for others to be read with it in one Tesseract call."""
MAX_UNPAGED_PAGES = 60
"""A PDF cited without a page is searched on its first pages only."""

Clock = Callable[[], float]


@dataclass
class SightCache:
    """The renders and OCR of the seen check, kept for the process (`cache.py`)."""

    shas: FileShas = field(default_factory=FileShas)
    pages: Memo[tuple[str, int], OcrPage | None] = field(default_factory=lambda: Memo(256))
    strips: Memo[tuple[str, int, tuple[Box, ...]], tuple[Word, ...] | None] = field(
        default_factory=lambda: Memo(4096)
    )


SHARED_CACHE = SightCache()


@dataclass(frozen=True)
class _Located:
    page: int
    boxes: tuple[Box, ...]


@dataclass(frozen=True)
class _Found:
    sha: str
    where: _Located | None


Request = tuple[Path, int | None, str]
"""A document, the page cited (None: unpaged), an excerpt."""
_StripKey = tuple[str, int, tuple[Box, ...]]


class PdfSeer:
    """A `Seer` of PDFs: each excerpt read back by OCR from the render of where it sits.

    `sight` calls that come within `window` seconds of each other (a report verifies the
    claims of a subagent at once) are judged together: one Tesseract call reads the strips
    of all of them, whatever their documents (its start-up costs more than a strip)."""

    method = METHOD

    def __init__(
        self,
        cache: SightCache = SHARED_CACHE,
        clock: Clock = time.perf_counter,
        window: float = BATCH_WINDOW_SECONDS,
    ) -> None:
        self._cache = cache
        self._clock = clock
        self._window = window
        self._waiting: dict[int, list[tuple[Request, asyncio.Future[Sight]]]] = {}
        self._judging: set[asyncio.Task[None]] = set()

    async def sight(self, document: Path, page: int | None, excerpt: str) -> Sight:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Sight] = loop.create_future()
        waiting = self._waiting.setdefault(id(loop), [])
        waiting.append(((document, page, excerpt), future))
        if len(waiting) == 1:
            loop.call_later(self._window, self._start_judging, loop)
        return await future

    def _start_judging(self, loop: asyncio.AbstractEventLoop) -> None:
        task = loop.create_task(self._judge_waiting(loop))
        self._judging.add(task)
        task.add_done_callback(self._judging.discard)

    async def _judge_waiting(self, loop: asyncio.AbstractEventLoop) -> None:
        batch = self._waiting.pop(id(loop), [])
        try:
            sights = await asyncio.to_thread(self.see_all, [request for request, _ in batch])
        except Exception as error:  # every waiting claim learns of it, none waits forever
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        for (_, future), found in zip(batch, sights, strict=True):
            if not future.done():
                future.set_result(found)

    def see(self, document: Path, page: int | None, excerpts: Sequence[str]) -> list[Sight]:
        """Each excerpt of `excerpts` judged on `page` (1-based; None: the first page that
        shows it) of the PDF at `document`; one Tesseract call reads all their strips."""
        return self.see_all([(document, page, excerpt) for excerpt in excerpts])

    def see_all(self, requests: Sequence[Request]) -> list[Sight]:
        """Each (document, page, excerpt) judged; one Tesseract call reads every strip."""
        started = self._clock()
        if not ocr_available():
            return [_sight(False, "not checked as a reader sees it: no OCR", 0.0)] * len(requests)
        found: dict[int, _Found | str] = {}
        by_document: dict[tuple[Path, int | None], list[int]] = {}
        for index, (document, page, _) in enumerate(requests):
            by_document.setdefault((document, page), []).append(index)
        for (document, page), indices in by_document.items():
            try:
                sha = self._cache.shas.sha(document)
                located = self._locate(document, page, [requests[i][2] for i in indices])
            except (OSError, pypdfium2.PdfiumError) as error:
                reason = f"not checked as a reader sees it: the PDF cannot be drawn ({error})"
                found.update(dict.fromkeys(indices, reason))
                continue
            for index, where in zip(indices, located, strict=True):
                found[index] = _Found(sha, where)
        readings = self._read_strips(requests, found)
        sights = []
        for index, (document, page, excerpt) in enumerate(requests):
            item = found[index]
            if isinstance(item, str):
                sights.append(_sight(False, item, 0.0))
                continue
            if item.where is None and page is None:
                problem: str | None = "the excerpt is not drawn on any page where its text is"
            elif item.where is None:
                problem = self._on_whole_page(document, item.sha, page or 1, excerpt)
            else:
                read = readings.get((item.sha, item.where.page, item.where.boxes))
                problem = "the page cannot be read by OCR" if read is None else None
                problem = problem or disagreement(excerpt, read or ())
            sights.append(_sight(problem is None, problem or "", 0.0))
        spent = (self._clock() - started) / max(1, len(requests))
        return [Sight(s.seen, s.reason, s.method, spent) for s in sights]

    def _locate(
        self, document: Path, page: int | None, excerpts: Sequence[str]
    ) -> list[_Located | None]:
        with PDFIUM_LOCK:
            pdf = pypdfium2.PdfDocument(document)
            try:
                count = len(pdf)
                pages = [page] if page is not None else range(1, min(count, MAX_UNPAGED_PAGES) + 1)
                located: list[_Located | None] = []
                for excerpt in excerpts:
                    located.append(_boxes_of(pdf, [p for p in pages if 1 <= p <= count], excerpt))
                return located
            finally:
                pdf.close()

    def _read_strips(
        self, requests: Sequence[Request], found: dict[int, _Found | str]
    ) -> dict[_StripKey, tuple[Word, ...] | None]:
        out: dict[_StripKey, tuple[Word, ...] | None] = {}
        wanted: dict[_StripKey, Path] = {}
        for index, item in found.items():
            if isinstance(item, str) or item.where is None:
                continue
            key = (item.sha, item.where.page, item.where.boxes)
            kept = self._cache.strips.get(key)
            if kept is not None:
                out[key] = kept
            else:
                wanted.setdefault(key, requests[index][0])
        if not wanted:
            return out
        strips: list[list[numpy.ndarray]] = []
        for key, document in wanted.items():
            with PDFIUM_LOCK:
                pdf = pypdfium2.PdfDocument(document)
                try:
                    strips.append(_render_strips(pdf, _Located(key[1], key[2])))
                finally:
                    pdf.close()
        read = _read_stacked([s for group in strips for s in group])
        at = 0
        for key, group in zip(wanted, strips, strict=True):
            words = (
                None if read is None else tuple(w for s in read[at : at + len(group)] for w in s)
            )
            at += len(group)
            if words is not None:
                self._cache.strips.put(key, words)
            out[key] = words
        return out

    def _on_whole_page(self, document: Path, sha: str, page: int, excerpt: str) -> str | None:
        def read() -> OcrPage | None:
            with PDFIUM_LOCK:
                pdf = pypdfium2.PdfDocument(document)
            try:
                return read_page_by_ocr(pdf, page)
            finally:
                with PDFIUM_LOCK:
                    pdf.close()

        ocr = self._cache.pages.computed((sha, page), read)
        if ocr is None:
            return "the page cannot be read by OCR"
        read_words = [Word(w.text) for w in ocr.words]
        problem = "nothing of it is drawn on the page"
        for window in windows(excerpt, read_words):
            found = disagreement(excerpt, window)
            if found is None:
                return None
            problem = problem if problem != "nothing of it is drawn on the page" else found
        return problem


def _sight(seen: bool, reason: str, seconds: float) -> Sight:
    return Sight(seen=seen, reason=reason, method=METHOD, seconds=seconds)


def _boxes_of(pdf: pypdfium2.PdfDocument, pages: Sequence[int], excerpt: str) -> _Located | None:
    for page in pages:
        with open_text_page(pdf, page) as text_page:
            boxes = span_boxes(text_page, excerpt)
        if boxes:
            return _Located(page, tuple(boxes))
    return None


def _render_strips(pdf: pypdfium2.PdfDocument, where: _Located) -> list[numpy.ndarray]:
    """The runs of `where` cut from one render of its page, each padded, in grey."""
    page = pdf[where.page - 1]
    try:
        left, bottom, right, top = page.get_bbox()
        if _is_scan(page):
            padded = _lines_across(where.boxes, left, right)
        else:
            padded = [_padded(box) for box in where.boxes]
        region = (
            min(b[0] for b in padded),
            min(b[1] for b in padded),
            max(b[2] for b in padded),
            max(b[3] for b in padded),
        )
        crop = (0.0, 0.0, 0.0, 0.0)
        if page.get_rotation() == 0:
            crop = (
                max(0.0, region[0] - left),
                max(0.0, region[1] - bottom),
                max(0.0, right - region[2]),
                max(0.0, top - region[3]),
            )
        bitmap = page.render(scale=SEEN_DPI / 72, crop=crop, grayscale=True)
        try:
            to_pixels = bitmap.get_posconv(page).to_bitmap
            corners = [(to_pixels(b[0], b[3]), to_pixels(b[2], b[1])) for b in padded]
            pixels = bitmap.to_numpy()
        finally:
            bitmap.close()
    finally:
        page.close()
    height, width = pixels.shape[:2]
    grey = numpy.ascontiguousarray(pixels.reshape(height, width, -1)[:, :, 0])
    strips = []
    for (x0, y0), (x1, y1) in corners:
        xs, ys = sorted((int(x0), int(x1))), sorted((int(y0), int(y1)))
        cut = grey[max(0, ys[0]) : min(height, ys[1]), max(0, xs[0]) : min(width, xs[1])]
        if cut.size:
            strips.append(_inked(cut))
    return strips


def _inked(strip: numpy.ndarray) -> numpy.ndarray:
    """`strip` in black and white: ink where a pixel stands `INK_CONTRAST` from the strip's
    background (its median grey), white elsewhere."""
    background = float(numpy.median(strip))
    ink = numpy.abs(strip.astype(numpy.int16) - background) >= INK_CONTRAST
    return numpy.where(ink, 0, 255).astype(numpy.uint8)


def _is_scan(page: pypdfium2.PdfPage) -> bool:
    """Whether one image covers `SCAN_SHARE` of the page (`pdf_objects`: its text is an OCR
    layer)."""
    left, bottom, right, top = page.get_bbox()
    area = max(1.0, (right - left) * (top - bottom))
    for item in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=1):
        x0, y0, x1, y1 = item.get_bounds()
        if (x1 - x0) * (y1 - y0) >= SCAN_SHARE * area:
            return True
    return False


def _lines_across(boxes: Sequence[Box], left: float, right: float) -> list[Box]:
    """The lines of `boxes` (runs on one line joined), each across the page, padded."""
    lines: list[Box] = []
    for box in boxes:
        if lines and min(lines[-1][3], box[3]) - max(lines[-1][1], box[1]) > 0:
            last = lines[-1]
            lines[-1] = (left, min(last[1], box[1]), right, max(last[3], box[3]))
        else:
            lines.append((left, box[1], right, box[3]))
    out = []
    for line in lines:
        pad = SCAN_PAD_HEIGHT * (line[3] - line[1])
        out.append((line[0], line[1] - pad, line[2], line[3] + pad))
    return out


def _padded(box: Box) -> Box:
    height = box[3] - box[1]
    dy, dx = PAD_HEIGHT * height, PAD_WIDTH * height
    return (box[0] - dx, box[1] - dy, box[2] + dx, box[3] + dy)


def _read_stacked(strips: Sequence[numpy.ndarray]) -> list[list[Word]] | None:
    """What Tesseract reads in each strip, the strips stacked in one image: one call."""
    if not strips:
        return []
    width = max(s.shape[1] for s in strips) + 2 * MARGIN_PIXELS
    height = sum(s.shape[0] for s in strips) + GAP_PIXELS * (len(strips) + 1)
    canvas = numpy.full((height, width), 255, dtype=numpy.uint8)
    spans = []
    y = GAP_PIXELS
    for strip in strips:
        canvas[y : y + strip.shape[0], MARGIN_PIXELS : MARGIN_PIXELS + strip.shape[1]] = strip
        spans.append((y - GAP_PIXELS / 2, y + strip.shape[0] + GAP_PIXELS / 2))
        y += strip.shape[0] + GAP_PIXELS
    header = b"P5\n%d %d\n255\n" % (width, height)
    image = PageImage(header + canvas.tobytes(), SEEN_DPI, 0.0, 0.0)
    ocr = read_image(image, segmentation=SEGMENTATION)
    if ocr is None:
        return None
    scale = SEEN_DPI / 72
    by_strip: list[list[Word]] = [[] for _ in strips]
    for word in ocr.words:
        middle = -(word.box[1] + word.box[3]) / 2 * scale
        index = next((i for i, (y0, y1) in enumerate(spans) if y0 <= middle < y1), None)
        if index is not None:
            by_strip[index].append(Word(word.text))
    return [
        [Word(w.text, edge=i in (0, len(words) - 1)) for i, w in enumerate(words)]
        for words in by_strip
    ]
