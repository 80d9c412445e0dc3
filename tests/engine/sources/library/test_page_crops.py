from __future__ import annotations

import io
from collections.abc import Iterator

import pypdfium2
import pytest
from PIL import Image, ImageChops

from engine.documents.layout import Box
from engine.sources.library.page_boxes import open_text_page, span_boxes, text_lines
from engine.sources.library.page_crops import (
    CROP_DPI,
    MAX_HEIGHT_POINTS,
    MIN_WIDTH_POINTS,
    crop_region,
    render_crop,
)
from tests.support.pdfs import pdf_bytes

FILLER = " ".join(f"Frase {n} do texto ao redor, sem nada de especial." for n in range(14))
EXCERPT = "O Nordeste concentra 30% da potência instalada de geração distribuída."
PAGE = f"{FILLER}\n{EXCERPT}\n{FILLER}"
SCALE = CROP_DPI / 72


def opened(pdf: bytes) -> Iterator[pypdfium2.PdfDocument]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        yield document
    finally:
        document.close()


@pytest.fixture
def document() -> Iterator[pypdfium2.PdfDocument]:
    yield from opened(pdf_bytes(["Capa.", PAGE]))


@pytest.fixture
def rotated() -> Iterator[pypdfium2.PdfDocument]:
    """The same page, shown rotated a quarter turn (the page's /Rotate, as scanners write)."""
    source = pypdfium2.PdfDocument(pdf_bytes([PAGE]))
    try:
        page = source[0]
        page.set_rotation(90)
        page.close()
        out = io.BytesIO()
        source.save(out)
    finally:
        source.close()
    yield from opened(out.getvalue())


def boxes_of(
    document: pypdfium2.PdfDocument, page: int, quoted: str
) -> tuple[list[Box], list[Box]]:
    with open_text_page(document, page) as text_page:
        return span_boxes(text_page, quoted), text_lines(text_page)


def image_of(png: bytes | None) -> Image.Image:
    assert png is not None
    assert png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png)).convert("RGB")


def highlighted(image: Image.Image) -> tuple[int, int, int, int] | None:
    """The bounding box of the highlighter-yellow pixels (paper under the highlight)."""
    red, green, blue = image.split()
    mask = ImageChops.multiply(
        ImageChops.multiply(
            red.point(lambda v: 255 if v > 200 else 0), green.point(lambda v: 255 if v > 170 else 0)
        ),
        blue.point(lambda v: 255 if v < 150 else 0),
    )
    return mask.getbbox()


def dark_share(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    """The share of ink (dark pixels) inside `box`."""
    region = image.crop(box).convert("L")
    histogram = region.histogram()
    return sum(histogram[:100]) / max(1, region.width * region.height)


def test_crop_highlights_the_excerpt_over_its_ink(document: pypdfium2.PdfDocument) -> None:
    boxes, lines = boxes_of(document, 2, EXCERPT)

    image = image_of(render_crop(document, 2, boxes, text_lines=lines))

    page_width, page_height = (round(side * SCALE) for side in (595.28, 841.89))
    assert image.width <= page_width
    assert image.height < page_height / 3  # a crop, not the page
    mark = highlighted(image)
    assert mark is not None
    assert dark_share(image, mark) > 0.05  # the highlight lies on text, not on blank paper
    top_band = (0, 0, image.width, max(1, mark[1] - 2))
    assert highlighted(image.crop(top_band)) is None  # the line above is not highlighted
    assert dark_share(image, top_band) > 0.02  # but shown, as context


def test_crop_is_small_enough_to_embed(document: pypdfium2.PdfDocument) -> None:
    boxes, lines = boxes_of(document, 2, EXCERPT)

    png = render_crop(document, 2, boxes, text_lines=lines)

    assert png is not None
    assert len(png) < 60_000


def test_context_boxes_are_painted_in_another_colour(document: pypdfium2.PdfDocument) -> None:
    boxes, _ = boxes_of(document, 2, EXCERPT)
    context, _ = boxes_of(document, 2, "Frase 13 do texto ao redor")

    image = image_of(render_crop(document, 2, boxes, context[:1]))

    colours = [colour for _, colour in image.getcolors(maxcolors=1 << 16) or []]
    green_paper = [
        c for c in colours if isinstance(c, tuple) and c[1] > 220 and c[0] < 200 and c[2] < 200
    ]
    assert green_paper  # the context is painted light green
    assert highlighted(image) is not None


def test_a_context_far_above_is_left_out_of_the_crop() -> None:
    far = "\n".join(f"Linha {n} entre o cabeçalho e a linha citada." for n in range(40))
    for document in opened(pdf_bytes([f"Cabeçalho: 2018 2017\n{far}\n{EXCERPT}"])):
        boxes, lines = boxes_of(document, 1, EXCERPT)
        context, _ = boxes_of(document, 1, "Cabeçalho: 2018 2017")

        image = image_of(render_crop(document, 1, boxes, context, lines))

        assert image.height <= MAX_HEIGHT_POINTS * SCALE
        assert highlighted(image) is not None


def test_rotated_page_is_highlighted_where_the_excerpt_is_drawn(
    rotated: pypdfium2.PdfDocument,
) -> None:
    boxes, lines = boxes_of(rotated, 1, EXCERPT)

    image = image_of(render_crop(rotated, 1, boxes, text_lines=lines))

    assert image.height > image.width  # the excerpt's line runs down the rotated page
    mark = highlighted(image)
    assert mark is not None
    assert dark_share(image, mark) > 0.05


def test_nothing_to_crop_without_boxes_or_page(document: pypdfium2.PdfDocument) -> None:
    boxes, _ = boxes_of(document, 2, EXCERPT)

    assert render_crop(document, 2, []) is None
    assert render_crop(document, 3, boxes) is None
    assert render_crop(document, 0, boxes) is None


def test_region_adds_margins_within_the_page() -> None:
    margin_x, margin_y = round(24 * SCALE), round(30 * SCALE)
    min_width = round(MIN_WIDTH_POINTS * SCALE)
    wide = (100, 200, 100 + min_width + 50, 220)

    assert crop_region([wide], (1000, 1300), SCALE) == (
        100 - margin_x,
        200 - margin_y,
        wide[2] + margin_x,
        220 + margin_y,
    )
    left, top, right, _bottom = crop_region([(5, 3, 30, 12)], (1000, 1300), SCALE)
    assert (left, top) == (0, 0)
    assert right - left >= min_width  # a short excerpt keeps some of its line
    assert crop_region([(970, 1290, 990, 1299)], (1000, 1300), SCALE)[2:] == (1000, 1300)


def test_region_widens_to_the_lines_it_crosses() -> None:
    excerpt = (300, 500, 900, 520)
    crossing = (80, 498, 950, 522)
    far_below = (10, 900, 990, 920)

    left, _, right, _ = crop_region([excerpt], (1000, 1300), SCALE, [crossing, far_below])

    margin_x = round(24 * SCALE)
    assert (left, right) == (80 - margin_x, 950 + margin_x)


def test_region_shows_a_line_the_margin_would_cut_whole() -> None:
    margin_y = round(30 * SCALE)
    excerpt = (300, 500, 900, 520)
    cut_above = (80, 500 - margin_y - 10, 950, 500 - margin_y + 8)
    cut_below = (80, 520 + margin_y - 5, 950, 520 + margin_y + 12)

    _, top, _, bottom = crop_region([excerpt], (1000, 1300), SCALE, [cut_above, cut_below])

    assert top < cut_above[1]
    assert bottom > cut_below[3]


def test_a_box_off_the_page_gives_no_crop(document: pypdfium2.PdfDocument) -> None:
    off_page: Box = (-400.0, 2000.0, -100.0, 2020.0)  # left of and above the page

    assert render_crop(document, 2, [off_page]) is None
    assert render_crop(document, 2, [(700.0, 100.0, 900.0, 120.0)]) is None


def test_a_box_partly_off_the_page_is_cut_to_the_page(document: pypdfium2.PdfDocument) -> None:
    boxes, lines = boxes_of(document, 2, EXCERPT)
    left, bottom, right, top = boxes[0]
    partly: Box = (left, bottom, right + 2000.0, top + 3000.0)

    image = image_of(render_crop(document, 2, [partly], text_lines=lines))

    assert highlighted(image) is not None
    assert image.width <= round(595.28 * SCALE) + 1
    assert image.height <= round(841.89 * SCALE) + 1


def test_a_context_box_off_the_page_is_left_out(document: pypdfium2.PdfDocument) -> None:
    boxes, lines = boxes_of(document, 2, EXCERPT)
    alone = image_of(render_crop(document, 2, boxes, text_lines=lines))

    image = image_of(render_crop(document, 2, boxes, [(-500.0, -500.0, -400.0, -480.0)], lines))

    assert image.size == alone.size
