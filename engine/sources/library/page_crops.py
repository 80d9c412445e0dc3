"""A crop of a PDF page around an excerpt, the excerpt highlighted, as a small PNG.

The page is rendered with pdfium at a modest resolution, the boxes are painted like a
highlighter (multiplied, so the ink stays black), and the image is cut to the excerpt's
region plus a margin and stored with a small palette: a crop weighs tens of kilobytes, so
a report can carry one per citation and stay one self-contained file.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import pypdfium2
from PIL import Image, ImageChops, ImageDraw

from engine.documents.layout import Box

CROP_DPI = 110
"""Sharp enough to read at screen size, small enough to embed: 1.53 pixels per point."""
MAX_PAGE_PIXELS = 4000
"""The rendered page's longer side is capped, so a poster-sized page costs no more than A3."""
MARGIN_POINTS = (24.0, 30.0)
"""Around the excerpt (horizontal, vertical): a line or two of what surrounds it."""
MIN_WIDTH_POINTS = 320.0
"""A short excerpt is shown with enough of its line to be found on the page again."""
PALETTE_COLOURS = 64
EXCERPT_INK = (255, 221, 87)
"""Highlighter yellow, multiplied into the page."""
CONTEXT_INK = (180, 238, 180)
"""Light green for the excerpt's context (a list's lead-in, a table's header): filings shade
table rows in light blue, so blue would not show."""
MAX_HEIGHT_POINTS = 420.0
"""A context further away than this (a header pages of rows above) is painted but left out
of the crop when including it would make the crop this tall."""
BOX_PADDING_POINTS = 1.5

LINE_GAP_POINTS = 3.0
"""Paper kept above and below a line at the crop's edge (accents, descenders)."""

PixelBox = tuple[int, int, int, int]
_ToPixels = Callable[[float, float], tuple[int, int]]


def render_crop(
    document: pypdfium2.PdfDocument,
    page: int,
    boxes: Sequence[Box],
    context_boxes: Sequence[Box] = (),
    text_lines: Sequence[Box] = (),
) -> bytes | None:
    """PNG of `page` (1-based) cut around `boxes` (and `context_boxes`), each painted;
    None when there is nothing to show (no boxes, a page out of range, no box on the page:
    boxes are clipped to the rendered page, so one off the page or its crop box is not
    painted, and a crop never fails on it).

    `text_lines` (the page's text, line by line) widen the crop to whole lines: a line
    cut at the margin would read as a different sentence."""
    if not boxes or not 1 <= page <= len(document):
        return None
    pdf_page = document[page - 1]
    try:
        width, height = pdf_page.get_size()
        scale = min(CROP_DPI / 72, MAX_PAGE_PIXELS / max(width, height, 1.0))
        bitmap = pdf_page.render(scale=scale)
        try:
            to_pixels = bitmap.get_posconv(pdf_page).to_bitmap
            image = bitmap.to_pil().convert("RGB")
        finally:
            bitmap.close()
        pad = BOX_PADDING_POINTS * scale
        excerpt = _on_image([_padded(_device_box(to_pixels, b), pad) for b in boxes], image)
        context = _on_image([_padded(_device_box(to_pixels, b), pad) for b in context_boxes], image)
        lines = _on_image([_device_box(to_pixels, box) for box in text_lines], image)
    finally:
        pdf_page.close()
    if not excerpt:
        return None
    painted = _highlighted(image, [(context, CONTEXT_INK), (excerpt, EXCERPT_INK)])
    region = crop_region(excerpt + context, image.size, scale, lines)
    if context and region[3] - region[1] > MAX_HEIGHT_POINTS * scale:
        region = crop_region(excerpt, image.size, scale, lines)
    if region[2] <= region[0] or region[3] <= region[1]:
        return None
    return _png(painted.crop(region))


def crop_region(
    boxes: Sequence[PixelBox],
    size: tuple[int, int],
    scale: float,
    lines: Sequence[PixelBox] = (),
) -> PixelBox:
    """The pixels to keep: the boxes' union plus the margins, widened to the whole of the
    `lines` that cross it (no line is cut in half, across or down), at least
    `MIN_WIDTH_POINTS` wide, within the page."""
    left = min(box[0] for box in boxes)
    top = min(box[1] for box in boxes)
    right = max(box[2] for box in boxes)
    bottom = max(box[3] for box in boxes)
    margin_x, margin_y = (round(m * scale) for m in MARGIN_POINTS)
    crossing = [line for line in lines if line[1] < bottom + margin_y and line[3] > top - margin_y]
    left = min([left, *(line[0] for line in crossing)]) - margin_x
    right = max([right, *(line[2] for line in crossing)]) + margin_x
    shortfall = round(MIN_WIDTH_POINTS * scale) - (right - left)
    if shortfall > 0:
        left, right = left - shortfall // 2, right + shortfall - shortfall // 2
    top, bottom = top - margin_y, bottom + margin_y
    gap = round(LINE_GAP_POINTS * scale)
    for line in crossing:  # a line the margin would cut (or graze) is shown whole
        if line[1] - gap < top < line[3]:
            top = line[1] - gap
        if line[1] < bottom < line[3] + gap:
            bottom = line[3] + gap
    width, height = size
    if left < 0:
        left, right = 0, right - left
    if right > width:
        left, right = max(0, left - (right - width)), width
    return (left, max(0, top), right, min(height, bottom))


def _device_box(to_pixels: _ToPixels, box: Box) -> PixelBox:
    """A page box in the rendered bitmap's pixels (pdfium applies the page's rotation)."""
    left, bottom, right, top = box
    x0, y0 = to_pixels(left, bottom)
    x1, y1 = to_pixels(right, top)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _on_image(boxes: Sequence[PixelBox], image: Image.Image) -> list[PixelBox]:
    """`boxes` clipped to the image; those with nothing on it left out."""
    width, height = image.size
    clipped = [
        (max(0, left), max(0, top), min(width, right), min(height, bottom))
        for left, top, right, bottom in boxes
    ]
    return [box for box in clipped if box[0] < box[2] and box[1] < box[3]]


def _padded(box: PixelBox, pad: float) -> PixelBox:
    grow = round(pad)
    return (box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow)


def _highlighted(
    image: Image.Image, layers: Sequence[tuple[Sequence[PixelBox], tuple[int, int, int]]]
) -> Image.Image:
    ink = Image.new("RGB", image.size, (255, 255, 255))
    draw = ImageDraw.Draw(ink)
    for boxes, colour in layers:
        for box in boxes:
            draw.rectangle(box, fill=colour)
    return ImageChops.multiply(image, ink)


def _png(image: Image.Image) -> bytes:
    small = image.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()
