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

Tesseract reads in the language of the cited page's text layer when it says enough to tell
(`ocr_language_of`: English filings in `eng`, Portuguese laws in `por`), one call per
language in a batch; else in every language (`por+eng`, about 40% slower). An excerpt
that still disagrees after `RETRY_DPIS` is read again in every language, at each DPI
(`_READINGS`): what `eng` alone misreads in a figure `por+eng` may not. A page whose
excerpt has no boxes (a scan) is read whole in every language, as the parser read it.

Renders and readings are cached per (document SHA-256, page) in a `SightCache` shared by
the process. pdfium calls hold `parse.PDFIUM_LOCK`; Tesseract runs outside it. All of it is
CPU work: `sight` runs it in a worker thread, off the event loop, and batches that overlap
(several subagents' claims) run in threads of their own, their Tesseract processes side by
side.
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy
import pypdfium2

from engine.documents.layout import Box
from engine.documents.ocr import OcrPage, ocr_available, ocr_languages, reading_in
from engine.documents.parse import PDFIUM_LOCK
from engine.documents.pdf_text import visible_page_text
from engine.sources.library.page_boxes import open_text_page, read_page_by_ocr, span_boxes
from engine.text.language import detect_language
from engine.verify.seen.agreement import NOTHING, Word, disagreement, windows
from engine.verify.seen.footnote_markers import NO_MARKERS, Markers, footnote_markers
from engine.verify.seen.memo import FileShas, Memo
from engine.verify.seen.protocol import Sight
from engine.verify.seen.strips import SEEN_DPI, read_stacked, render_strips

OCR_METHOD = "pdf-ocr"
RETRY_DPIS = (450, 600)
"""An excerpt whose reading at `SEEN_DPI` disagrees (not one of which nothing is drawn) is
read again at these resolutions, until one agrees: small print in tables (8 points and
less) loses commas and digits at 300 DPI. Faint, clipped, covered or squeezed text stays
unseen at any size."""
BATCH_WINDOW_SECONDS = 0.05
"""How long a `sight` call waits for others to be read with it in one Tesseract call."""
MAX_UNPAGED_PAGES = 60
"""A PDF cited without a page is searched on its first pages only."""
PARALLEL_READS = max(1, min(4, os.cpu_count() or 1))
"""Tesseract calls one batch may run at once (each on one core: `OMP_THREAD_LIMIT=1`)."""
EXCERPTS_PER_READ = 4
"""Excerpts (a few lines each) below which a batch is not split into parallel calls."""
LANGUAGE_MIN_WORDS = 40
"""Words of a page's text layer below which its language is not told (a table of figures,
a cover): it is read in every language."""
_LETTERS = re.compile(r"[^\W\d_]{2,}")

Timer = Callable[[], float]


@dataclass
class SightCache:
    """The renders and OCR of the seen check, kept for the process (`cache.py`)."""

    shas: FileShas = field(default_factory=FileShas)
    pages: Memo[tuple[str, int], OcrPage | None] = field(default_factory=lambda: Memo(256))
    strips: Memo[tuple[str, int, tuple[Box, ...], int, str], tuple[Word, ...] | None] = field(
        default_factory=lambda: Memo(4096)
    )
    languages: Memo[tuple[str, int], str] = field(default_factory=lambda: Memo(4096))
    """(document SHA-256, page) -> the Tesseract language its text layer is in ("": both)."""


SHARED_CACHE = SightCache()


@dataclass(frozen=True)
class _Located:
    page: int
    boxes: tuple[Box, ...]
    language: str = ""


@dataclass(frozen=True)
class _Found:
    sha: str
    where: _Located | None


Request = tuple[Path, int | None, str]
"""A document, the page cited (None: unpaged), an excerpt."""
_StripKey = tuple[str, int, tuple[Box, ...], int, str]
"""Document SHA-256, page, boxes, DPI, Tesseract language ("": every one)."""


class PdfSeer:
    """A `Seer` of PDFs: each excerpt read back by OCR from the render of where it sits.

    `sight` calls that come within `window` seconds of each other (a report verifies the
    claims of a subagent at once) are judged together: one Tesseract call reads the strips
    of all of them, whatever their documents (its start-up costs more than a strip)."""

    method = OCR_METHOD

    def __init__(
        self,
        cache: SightCache = SHARED_CACHE,
        clock: Timer = time.perf_counter,
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
                located = self._locate(document, sha, page, [requests[i][2] for i in indices])
            except (OSError, pypdfium2.PdfiumError) as error:
                reason = f"not checked as a reader sees it: the PDF cannot be drawn ({error})"
                found.update(dict.fromkeys(indices, reason))
                continue
            for index, where in zip(indices, located, strict=True):
                found[index] = _Found(sha, where)
        problems = self._judged(requests, found, SEEN_DPI, range(len(requests)))
        for dpi, every in _READINGS:  # misread: read again, larger, then in every language
            again = [
                i
                for i, problem in enumerate(problems)
                if problem and problem != NOTHING and _read_again(found[i], every)
            ]
            judged = self._judged(requests, found, dpi, again, every)
            for i, problem in zip(again, judged, strict=True):
                problems[i] = problem
        marked = self._marked(requests, found, problems)
        for i, markers in marked.items():
            if markers.broken:
                problems[i] = f"the page draws a digit of {markers.broken[0]} small and raised"
        for dpi, every in ((SEEN_DPI, False), *_READINGS):  # as a reader reads footnote markers
            again = [i for i, m in marked.items() if problems[i] and m.numbers and not m.broken]
            judged = self._judged(requests, found, dpi, again, every, marked)
            for i, problem in zip(again, judged, strict=True):
                problems[i] = problem
        for language, again in _by_language(requests, found, problems, marked).items():
            judged = self._judged(requests, found, SEEN_DPI, again, False, marked, language)
            for i, problem in zip(again, judged, strict=True):
                problems[i] = None if problem is None else problems[i]
        spent = (self._clock() - started) / max(1, len(requests))
        return [
            Sight(
                seen=problem is None,
                reason=problem or "",
                method=OCR_METHOD,
                seconds=spent,
                markers=marked[i].numbers if problem is None and i in marked else (),
            )
            for i, problem in enumerate(problems)
        ]

    def _marked(
        self,
        requests: Sequence[Request],
        found: dict[int, _Found | str],
        problems: Sequence[str | None],
    ) -> dict[int, Markers]:
        """The footnote markers and broken figures (`footnote_markers`) of each excerpt
        with a digit that its page draws, for those that have some."""
        by_page: dict[tuple[Path, int], list[int]] = {}
        for index, item in found.items():
            excerpt = requests[index][2]
            if isinstance(item, str) or item.where is None or problems[index] == NOTHING:
                continue
            if any(char.isdigit() for char in excerpt):
                by_page.setdefault((requests[index][0], item.where.page), []).append(index)
        marked: dict[int, Markers] = {}
        for (document, page), indices in by_page.items():
            with PDFIUM_LOCK:
                pdf = pypdfium2.PdfDocument(document)
                try:
                    with open_text_page(pdf, page) as text_page:
                        page_text = visible_page_text(text_page)
                        for index in indices:
                            markers = footnote_markers(text_page, requests[index][2], page_text)
                            if markers != NO_MARKERS:
                                marked[index] = markers
                finally:
                    pdf.close()
        return marked

    def _judged(
        self,
        requests: Sequence[Request],
        found: dict[int, _Found | str],
        dpi: int,
        indices: Sequence[int],
        every: bool = False,
        marked: dict[int, Markers] | None = None,
        language: str = "",
    ) -> list[str | None]:
        """Why each request of `indices` is not seen at `dpi` (None: it is), read in its
        page's language, with `every` in every language, or in `language` alone if given;
        a footnote marker of `marked` excused where OCR missed it."""
        readings = self._read_strips(requests, {i: found[i] for i in indices}, dpi, every, language)
        problems: list[str | None] = []
        for index in indices:
            document, page, excerpt = requests[index]
            item = found[index]
            if isinstance(item, str):
                problems.append(item)
            elif item.where is None and page is None:
                problems.append("the excerpt is not drawn on any page where its text is")
            elif item.where is None:
                problems.append(self._on_whole_page(document, item.sha, page or 1, excerpt))
            else:
                key = (item.sha, item.where.page, item.where.boxes, dpi)
                read = readings.get((*key, _language(item.where, every, language)))
                problem = "the page cannot be read by OCR" if read is None else None
                markers = marked[index].words if marked and index in marked else None
                problems.append(problem or disagreement(excerpt, read or (), markers))
        return problems

    def _locate(
        self, document: Path, sha: str, page: int | None, excerpts: Sequence[str]
    ) -> list[_Located | None]:
        with PDFIUM_LOCK:
            pdf = pypdfium2.PdfDocument(document)
            try:
                count = len(pdf)
                pages = [page] if page is not None else range(1, min(count, MAX_UNPAGED_PAGES) + 1)
                located: list[_Located | None] = []
                for excerpt in excerpts:
                    found = _boxes_of(pdf, [p for p in pages if 1 <= p <= count], excerpt)
                    if found is not None:
                        language = self._cache.languages.computed(
                            (sha, found.page), functools.partial(_page_language, pdf, found.page)
                        )
                        found = _Located(found.page, found.boxes, language)
                    located.append(found)
                return located
            finally:
                pdf.close()

    def _read_strips(
        self,
        requests: Sequence[Request],
        found: dict[int, _Found | str],
        dpi: int,
        every: bool,
        language: str = "",
    ) -> dict[_StripKey, tuple[Word, ...] | None]:
        """The words read in each request's strips at `dpi` (`_language`: which language)."""
        out: dict[_StripKey, tuple[Word, ...] | None] = {}
        wanted: dict[str, dict[_StripKey, Path]] = {}
        for index, item in found.items():
            if isinstance(item, str) or item.where is None:
                continue
            reading = _language(item.where, every, language)
            key = (item.sha, item.where.page, item.where.boxes, dpi, reading)
            kept = self._cache.strips.get(key)
            if kept is not None:
                out[key] = kept
            else:
                wanted.setdefault(reading, {}).setdefault(key, requests[index][0])
        # One Tesseract call per language, and a large batch split over the cores: each call
        # is a process of its own, so they read side by side.
        reads = [(language, part) for language, keys in wanted.items() for part in _parts(keys)]
        if len(reads) <= 1:
            for language, part in reads:
                out.update(self._read_new(language, part, dpi))
            return out
        with ThreadPoolExecutor(len(reads), thread_name_prefix="fonte-seen-ocr") as pool:
            for read in pool.map(lambda job: self._read_new(job[0], job[1], dpi), reads):
                out.update(read)
        return out

    def _read_new(
        self, language: str, wanted: dict[_StripKey, Path], dpi: int
    ) -> dict[_StripKey, tuple[Word, ...] | None]:
        """The strips of `wanted` rendered and read in `language` ("": every one) in one
        Tesseract call, and kept."""
        with reading_in(language):
            return self._read_now(wanted, dpi)

    def _read_now(
        self, wanted: dict[_StripKey, Path], dpi: int
    ) -> dict[_StripKey, tuple[Word, ...] | None]:
        out: dict[_StripKey, tuple[Word, ...] | None] = {}
        strips: list[list[numpy.ndarray]] = []
        for key, document in wanted.items():
            with PDFIUM_LOCK:
                pdf = pypdfium2.PdfDocument(document)
                try:
                    strips.append(render_strips(pdf, key[1], key[2], dpi))
                finally:
                    pdf.close()
        read = read_stacked([s for group in strips for s in group], dpi)
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
    return Sight(seen=seen, reason=reason, method=OCR_METHOD, seconds=seconds)


_READINGS = [(dpi, False) for dpi in RETRY_DPIS] + [(dpi, True) for dpi in (SEEN_DPI, *RETRY_DPIS)]
"""The readings after the first, for an excerpt that still disagrees: larger in its page's
language, then in every language (a figure `eng` alone misreads, `por+eng` may not)."""


def _language(where: _Located, every: bool, language: str) -> str:
    """The Tesseract language a strip is read in: `language` when given, else every one
    (`every`, ""), else its page's."""
    return language or ("" if every else where.language)


def _read_again(item: _Found | str, every: bool) -> bool:
    """Whether a reading in every language could differ from the ones `item` had."""
    if not isinstance(item, _Found):
        return False
    return not every or (item.where is not None and item.where.language != "")


def _parts(keys: dict[_StripKey, Path]) -> list[dict[_StripKey, Path]]:
    """`keys` in as many parts as there are cores to read them, `EXCERPTS_PER_READ` excerpts
    at the least in each: a Tesseract call reads on one core, and starting one costs about
    as much as reading a line."""
    count = max(1, min(PARALLEL_READS, len(keys) // EXCERPTS_PER_READ))
    items = list(keys.items())
    return [dict(items[at::count]) for at in range(count)]


def ocr_language_of(text: str) -> str:
    """The Tesseract language `text` is written in ("por" or "eng"), or "" when it has fewer
    than `LANGUAGE_MIN_WORDS` words to tell by."""
    if len(_LETTERS.findall(text)) < LANGUAGE_MIN_WORDS:
        return ""
    return _tesseract_language(text)


def _tesseract_language(text: str) -> str:
    """Tesseract's model ("por" or "eng") of the language `detect_language` finds in `text`."""
    return "por" if detect_language(text) == "pt" else "eng"


def _page_language(pdf: pypdfium2.PdfDocument, page: int) -> str:
    with open_text_page(pdf, page) as text_page:
        return ocr_language_of(text_page.get_text_range())


def _boxes_of(pdf: pypdfium2.PdfDocument, pages: Sequence[int], excerpt: str) -> _Located | None:
    for page in pages:
        with open_text_page(pdf, page) as text_page:
            boxes = span_boxes(text_page, excerpt)
        if boxes:
            return _Located(page, tuple(boxes))
    return None


def _by_language(
    requests: Sequence[Request],
    found: dict[int, _Found | str],
    problems: Sequence[str | None],
    marked: dict[int, Markers],
) -> dict[str, list[int]]:
    """The requests still read otherwise than their excerpt (not a figure a raised digit
    breaks, not one of which nothing is drawn), on a page too short to tell its language
    by, by the one Tesseract language of their excerpt (`_tesseract_language`), when
    Tesseract has it: read once more at `SEEN_DPI` in it alone, since the combined models
    (por+eng) misread digits one model alone reads right ("7,722" read "7,122" at every
    resolution). Like the resolutions, a reading that agrees is enough."""
    have = ocr_languages().split("+")
    out: dict[str, list[int]] = {}
    for index, problem in enumerate(problems):
        item = found[index]
        if problem in (None, NOTHING) or isinstance(item, str) or item.where is None:
            continue
        if index in marked and marked[index].broken:
            continue
        if item.where.language:  # read in its page's own language already
            continue
        language = _tesseract_language(requests[index][2])
        if language in have and len(have) > 1:
            out.setdefault(language, []).append(index)
    return out
