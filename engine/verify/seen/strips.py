"""The strips of a page the PDF seer reads: an excerpt's runs cut from one pdfium render,
cleaned of ink no reader sees, stacked into one image for one Tesseract call."""

from __future__ import annotations

from collections.abc import Sequence

import numpy
import pypdfium2
import pypdfium2.raw as pdfium_c

from engine.documents.layout import Box
from engine.documents.limits import render_fits
from engine.documents.ocr import PageImage, read_image
from engine.documents.pdf_objects import SCAN_SHARE
from engine.verify.seen.agreement import Word

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
RULE_SHARE = 0.6
"""A row of a strip's top or bottom margin inked across this share of its width is a table's
rule (or a neighbour's underline), not a glyph of the excerpt: it is wiped. Left there, it
touches the excerpt's parentheses and Tesseract reads "(121)" as "(21)" or "GI)". The
margin holds none of the excerpt's glyphs (its boxes are theirs), so wiping it neither
shows nor hides them; a rule across the text itself (a strike-through) stays."""
SCAN_PAD_HEIGHT = 0.6
"""On a scan the layer's boxes only roughly sit on the image's words: each line is read
across the whole page, with this much margin above and below."""
SOFT_INK = True
JOIN_GAP = 1.0
"""Line heights: runs of a line nearer than this are one strip (a word space is about a
third of a height; a table's columns stand several heights apart)."""
GAP_PIXELS = 24
MARGIN_PIXELS = 16


def render_strips(
    pdf: pypdfium2.PdfDocument, page_number: int, boxes: tuple[Box, ...], dpi: int = SEEN_DPI
) -> list[numpy.ndarray]:
    """The runs of `where` cut from one render of its page, each padded, in grey."""
    page = pdf[page_number - 1]
    try:
        left, bottom, right, top = page.get_bbox()
        if _is_scan(page):
            padded = _lines_across(boxes, left, right)
            margins = [0.0] * len(padded)
        else:
            joined = _joined(boxes)
            padded = [_padded(box) for box in joined]
            margins = [PAD_HEIGHT * (box[3] - box[1]) for box in joined]
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
        shown = (right - left - crop[0] - crop[2], top - bottom - crop[1] - crop[3])
        if not render_fits(*shown, dpi / 72):
            return []  # past the pixel limit (a 200-inch page): nothing is read, so unseen
        bitmap = page.render(scale=dpi / 72, crop=crop, grayscale=True)
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
    for ((x0, y0), (x1, y1)), pad in zip(corners, margins, strict=True):
        xs, ys = sorted((int(x0), int(x1))), sorted((int(y0), int(y1)))
        cut = grey[max(0, ys[0]) : min(height, ys[1]), max(0, xs[0]) : min(width, xs[1])]
        if cut.size:
            margin = int(pad * dpi / 72)
            strips.append(_inked(cut, margin))
    return strips


def _inked(strip: numpy.ndarray, margin: int = 0) -> numpy.ndarray:
    """`strip` in black and white: ink where a pixel stands `INK_CONTRAST` from the strip's
    background (its median grey), white elsewhere; rules in its top and bottom `margin`
    rows (`RULE_SHARE`) wiped."""
    background = float(numpy.median(strip))
    ink = numpy.abs(strip.astype(numpy.int16) - background) >= INK_CONTRAST
    if margin > 0:
        edges = numpy.zeros(ink.shape[0], dtype=bool)
        edges[:margin] = edges[-margin:] = True
        ink[edges & (ink.mean(axis=1) >= RULE_SHARE)] = False
    if SOFT_INK:
        return numpy.where(ink, strip, round(background)).astype(numpy.uint8)
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


def _joined(boxes: Sequence[Box]) -> list[Box]:
    """Runs of one line that overlap or stand less than `JOIN_GAP` line heights apart joined
    into one: pdfium may box "1" and ",577" of one figure apart, or give two runs that
    overlap, and a strip cut between them would lose a comma at its edge or read a figure
    twice."""
    out: list[Box] = []
    for box in boxes:
        for index, kept in enumerate(out):
            height = max(kept[3] - kept[1], box[3] - box[1])
            same_line = min(kept[3], box[3]) - max(kept[1], box[1]) > 0
            reach = JOIN_GAP * height
            if same_line and box[0] <= kept[2] + reach and box[2] >= kept[0] - reach:
                out[index] = (
                    min(kept[0], box[0]),
                    min(kept[1], box[1]),
                    max(kept[2], box[2]),
                    max(kept[3], box[3]),
                )
                break
        else:
            out.append(box)
    return out


def _padded(box: Box) -> Box:
    height = box[3] - box[1]
    dy, dx = PAD_HEIGHT * height, PAD_WIDTH * height
    return (box[0] - dx, box[1] - dy, box[2] + dx, box[3] + dy)


def read_stacked(strips: Sequence[numpy.ndarray], dpi: int = SEEN_DPI) -> list[list[Word]] | None:
    """What Tesseract reads in each strip, the strips stacked in one image: one call, in
    the language `ocr.reading_in` chose (every one outside it)."""
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
    image = PageImage(header + canvas.tobytes(), dpi, 0.0, 0.0)
    ocr = read_image(image, segmentation=SEGMENTATION)
    if ocr is None:
        return None
    scale = dpi / 72
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
