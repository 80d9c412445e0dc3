"""Pages without a text layer, read by OCR: the page rendered, then read by Tesseract.

A scanned page (an image, no text) has nothing for the verifier to check. `wants_ocr` picks
the PDF pages whose text layer shows fewer than `OCR_MIN_TEXT_CHARS` characters yet draws
something (an image, paths, a form); `render_page` draws one in grey at `OCR_DPI`, and
`read_image` reads any grey image with the `tesseract` command (Debian's `tesseract-ocr`
with its `por` and `eng` data: the models come with the package, nothing is downloaded).
Tesseract runs as a child process with a timeout, one thread (`OMP_THREAD_LIMIT=1`: the
library parses in one worker process per core already), page segmentation mode 3 (fully
automatic, no orientation detection) and TSV output, so every word comes with its box. It
is started through `children.run_child`, so a stop (SIGTERM, Ctrl-C) kills it at once.

The words make the page text: a line's words joined by a space, lines by a line break, in
Tesseract's reading order (block, paragraph, line). Digits read as look-alike letters ("l"
or "I" for 1, "O" for 0) are put right only inside a numeric token (`clean_numeric`), so
"1,2O4" becomes "1,204" and "lO0" "100", while words, ordinals ("1o") and units ("10l") stay
as read. No Tesseract, or a failure or timeout, leaves the page as its text layer has it.
`render_page` and `wants_ocr` use pdfium: callers hold `parse.PDFIUM_LOCK`;
`read_image` does not need it.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy
import pypdfium2
import pypdfium2.raw as pdfium_c

from engine.documents.children import run_child
from engine.documents.layout import Box
from engine.documents.limits import render_scale

TESSERACT = "tesseract"
OCR_LANGUAGES = ("por", "eng")
"""Tried in this order; those installed are used together ("por+eng")."""
OCR_DPI = 300
"""Tesseract reads body text best at 300 DPI (its documentation's typical value)."""
OCR_PAGE_SEGMENTATION = 3
"""Fully automatic page segmentation, without orientation and script detection."""
OCR_TIMEOUT_SECONDS = 120.0
"""Per page; a body-text page takes one to three seconds on one core."""
OCR_MIN_TEXT_CHARS = 20
"""A page whose text layer has fewer visible characters than this (a scan, perhaps with a
stamped page number) is read by OCR."""


_TEXT_OBJECT = 1
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_NUMERIC_WORD = re.compile(r"(?P<lead>(?:R\$|US\$|[^\w])*)(?P<core>[\w.,]+?)(?P<trail>[^\w]*)")
_NUMERIC_CORE = re.compile(r"[0-9OIl.,]*[0-9][0-9OoIl.,]*")
_LOOK_ALIKES = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1"})


@dataclass(frozen=True)
class OcrWord:
    """One word Tesseract read: its text (cleaned), where it starts in the page text, its box
    and Tesseract's confidence (0-100)."""

    text: str
    start: int
    box: Box
    confidence: float


@dataclass(frozen=True)
class OcrPage:
    """What OCR read on one page or image: its text and the words it is made of."""

    text: str
    words: tuple[OcrWord, ...]


@dataclass(frozen=True)
class PageImage:
    """A page drawn in grey (a PGM image) and how its pixels map to the page's points."""

    pgm: bytes
    dpi: int
    left: float
    top: float


@functools.cache
def ocr_languages() -> str:
    """The `-l` value: `OCR_LANGUAGES` that Tesseract has ("" without Tesseract or data)."""
    executable = shutil.which(TESSERACT)
    if executable is None:
        return ""
    try:
        listed = subprocess.run(
            [executable, "--list-langs"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    have = set(listed.stdout.split())
    return "+".join(language for language in OCR_LANGUAGES if language in have)


def ocr_available() -> bool:
    return bool(ocr_languages())


_ONE_LANGUAGE: ContextVar[str] = ContextVar("ocr_one_language", default="")


@contextmanager
def reading_in(language: str) -> Iterator[None]:
    """Within it, `read_image` reads `language` alone (one of `OCR_LANGUAGES`, "eng") when
    Tesseract has it: a text whose language is known is read about 40% faster than with
    every language. "", or a language not installed, keeps them all."""
    token = _ONE_LANGUAGE.set(language)
    try:
        yield
    finally:
        _ONE_LANGUAGE.reset(token)


def reading_languages() -> str:
    """The `-l` value `read_image` passes now: `reading_in`'s language, else every one."""
    installed = ocr_languages()
    chosen = _ONE_LANGUAGE.get()
    return chosen if chosen and chosen in installed.split("+") else installed


def wants_ocr(page: pypdfium2.PdfPage, text: str) -> bool:
    """Whether `page` (whose visible text is `text`) is to be read by OCR: almost no text,
    and something drawn that is not text (a scan is an image; outlined text, paths)."""
    if len("".join(text.split())) >= OCR_MIN_TEXT_CHARS:
        return False
    count = pdfium_c.FPDFPage_CountObjects(page.raw)
    return any(
        pdfium_c.FPDFPageObj_GetType(pdfium_c.FPDFPage_GetObject(page.raw, index)) != _TEXT_OBJECT
        for index in range(count)
    )


def render_page(page: pypdfium2.PdfPage, dpi: int = OCR_DPI) -> PageImage:
    """`page` drawn in grey at `dpi` (its crop box, as a reader sees it), or at the highest
    whole DPI below it whose image fits `limits.MAX_RENDER_PIXELS` (a 200-inch page at 300
    DPI would be 3.6 billion pixels)."""
    width, height = page.get_size()
    dpi = max(1, min(dpi, int(render_scale(width, height, dpi / 72) * 72)))
    bitmap = page.render(scale=dpi / 72, grayscale=True)
    pixels = bitmap.to_numpy()
    height, width = pixels.shape[:2]
    grey = numpy.ascontiguousarray(pixels.reshape(height, width, -1)[:, :, 0])
    left, _bottom, _right, top = page.get_bbox()
    header = b"P5\n%d %d\n255\n" % (width, height)
    return PageImage(header + grey.tobytes(), dpi, float(left), float(top))


def read_image(
    image: PageImage,
    timeout: float = OCR_TIMEOUT_SECONDS,
    segmentation: int = OCR_PAGE_SEGMENTATION,
) -> OcrPage | None:
    """The words Tesseract reads in `image` (`segmentation`: its page segmentation mode),
    in `reading_languages()`; None without Tesseract, on its failure or timeout, or once the
    process is stopping (`children.stop_children`). Word boxes are in the page's points."""
    languages = reading_languages()
    executable = shutil.which(TESSERACT)
    if not languages or executable is None:
        return None
    command = [
        executable,
        "stdin",
        "stdout",
        "-l",
        languages,
        "--psm",
        str(segmentation),
        "--dpi",
        str(image.dpi),
        "tsv",
    ]
    environment = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    done = run_child(command, input=image.pgm, timeout=timeout, env=environment)
    if done is None or done.returncode != 0:
        return None
    return page_from_tsv(done.stdout.decode("utf-8", "replace"), image)


def page_from_tsv(tsv: str, image: PageImage) -> OcrPage:
    """The page text and words of Tesseract's TSV (one row per page, block, paragraph, line
    and word; a word is level 5), its pixel boxes turned into page points."""
    scale = 72 / image.dpi
    lines: list[list[tuple[str, Box, float]]] = []
    current: tuple[str, str, str] | None = None
    for row in tsv.split("\n")[1:]:
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5":
            continue
        word = _CONTROL_CHARS.sub("", cells[11]).strip()
        if not word:
            continue
        line = (cells[2], cells[3], cells[4])
        if line != current:
            lines.append([])
            current = line
        x, y, width, height = (int(cell) for cell in cells[6:10])
        box = (
            image.left + x * scale,
            image.top - (y + height) * scale,
            image.left + (x + width) * scale,
            image.top - y * scale,
        )
        lines[-1].append((clean_numeric(word), box, float(cells[10])))
    parts: list[str] = []
    words: list[OcrWord] = []
    at = 0
    for line_words in lines:
        if parts:
            parts.append("\n")
            at += 1
        for position, (text, box, confidence) in enumerate(line_words):
            if position:
                parts.append(" ")
                at += 1
            words.append(OcrWord(text, at, box, confidence))
            parts.append(text)
            at += len(text)
    return OcrPage("".join(parts), tuple(words))


def clean_numeric(word: str) -> str:
    """`word` with look-alike letters read as the digits they stand for ("l", "I" for 1,
    "O", "o" for 0), when it is a numeric token: a number, perhaps in brackets or with a
    currency or percent sign, of digits, look-alikes and separators only, holding a digit, and
    not ending in a lower-case letter (an ordinal "1o", a unit "10l"). Any other word is
    returned as read."""
    match = _NUMERIC_WORD.fullmatch(word)
    if match is None:
        return word
    core = match["core"]
    if not _NUMERIC_CORE.fullmatch(core) or core[-1] in "ol":
        return word
    return match["lead"] + core.translate(_LOOK_ALIKES) + match["trail"]
