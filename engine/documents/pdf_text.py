"""A PDF page's text as a reader sees it: pdfium's text without the characters nobody sees.

The verifier checks that a quoted excerpt is on its cited page, so the page text must hold
only what a reader can see there. Left out are the characters of the text objects
`pdf_objects` finds unseen (invisible render mode, too small, the colour of their
background, fill alpha 0, covered by a later opaque image or rectangle; invisible text on a
scan, its OCR layer, stays), and characters centred off the page's visible box (crop box
within media box).

A page whose lines pdfium read across two prose columns is read column by column
(`layout`: a cheap look at the text objects' bounds first, the characters' boxes only on a
page where columns may stand). A page with nothing unseen and no such columns keeps
pdfium's text exactly. pdfium's generated spaces and line
breaks stay; where a dropped run leaves two whitespaces together they become one (a line
break if either was), so words and lines stay apart and an emptied line disappears. Any
error in the analysis gives the plain text of the page: an odd PDF never loses its text.
Callers hold `parse.PDFIUM_LOCK`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from ctypes import byref, c_double, c_float, c_int, c_void_p
from dataclasses import dataclass
from typing import Any

import numpy
import pypdfium2
import pypdfium2.raw as pdfium_c

from engine.documents.layout import Box, may_have_columns, pieces_of, reading_order, reordered
from engine.documents.page_blocks import PageBlock, page_blocks
from engine.documents.pdf_objects import (
    HIDDEN,
    INVISIBLE,
    SCAN_SHARE,
    WHITE_RGB,
    Colour,
    PageObjects,
    Shape,
    address,
    bind,
    near,
    read_objects,
    text_objects,
)

PDF_SOFT_HYPHEN = "\ufffe"
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
DROPPED_CHARS = frozenset(chr(c) for c in (*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F))


@dataclass(frozen=True)
class PageText:
    """A page's text as the library stores it, with pdfium's text index of each character."""

    text: str
    text_indices: tuple[int, ...]


def cleaned_page_text(raw: str) -> PageText:
    """`raw` (pdfium's text of a page) cleaned as `parse.py` cleans it, indices kept."""
    return _cleaned(raw, None)


def visible_page_text(text_page: pypdfium2.PdfTextPage) -> PageText:
    """The text a reader sees on the page of `text_page`, cleaned and in reading order
    (`layout`), with pdfium's text index of each character."""
    raw = str(text_page.get_text_range())
    found, unseen = _analysis(text_page)
    page = _cleaned(raw, None if not unseen else lambda at: at not in unseen)
    return _in_reading_order(text_page, page) if _maybe_columns(text_page, found) else page


def visible_text(text_page: pypdfium2.PdfTextPage) -> str:
    """`visible_page_text`'s text alone: a page with nothing unseen and no gutter between
    columns is cleaned by string operations, without the indices (the same text, faster)."""
    raw = str(text_page.get_text_range())
    found, unseen = _analysis(text_page)
    columns = _maybe_columns(text_page, found)
    if not unseen and not columns:
        return clean_pdf_text(raw)
    page = _cleaned(raw, None if not unseen else lambda at: at not in unseen)
    return _in_reading_order(text_page, page).text if columns else page.text


def visible_blocks(text_page: pypdfium2.PdfTextPage) -> tuple[PageText, tuple[PageBlock, ...]]:
    """`visible_page_text` and the page's blocks in reading order (`layout.page_blocks`),
    their spans indexing that text; no blocks when the analysis fails."""
    page = visible_page_text(text_page)
    try:
        found = read_objects(text_page.page)
        page_box = text_page.page.get_bbox()
        area = (page_box[2] - page_box[0]) * (page_box[3] - page_box[1])
        figures = [
            s.box
            for s in found.shapes
            if s.colour is None
            and (s.box[2] - s.box[0]) * (s.box[3] - s.box[1]) < SCAN_SHARE * area
        ]
        pieces = pieces_of(page.text, _char_boxes(text_page, page))
        return page, page_blocks(page.text, pieces, figures, page_box)
    except Exception:
        return page, ()


def _analysis(text_page: pypdfium2.PdfTextPage) -> tuple[PageObjects | None, set[int]]:
    """The page's objects and the positions in pdfium's text of the characters nobody sees;
    no objects and none unseen when the analysis fails: an odd PDF keeps its plain text."""
    try:
        found = read_objects(text_page.page)
    except Exception:
        return None, set()
    return found, _unseen_text_indices(text_page, found)


def _maybe_columns(text_page: pypdfium2.PdfTextPage, found: PageObjects | None) -> bool:
    """Whether the page's text objects may stand in columns (`layout.may_have_columns`: a
    look at their bounds; `layout` decides from the characters, for the pages it lets
    through)."""
    if found is None or not found.boxes:
        return False
    boxes = numpy.frombuffer(found.boxes, dtype=numpy.float32).reshape(-1, 4)
    return may_have_columns(boxes.astype(float), text_page.page.get_bbox())


def _in_reading_order(text_page: pypdfium2.PdfTextPage, page: PageText) -> PageText:
    """`page` read column by column when `layout` finds prose columns pdfium read across;
    otherwise (and on any error) `page` itself."""
    try:
        pieces = pieces_of(page.text, _char_boxes(text_page, page))
        order = reading_order(page.text, pieces, text_page.page.get_bbox())
        if order is None:
            return page
        text, positions, _ = reordered(page.text, pieces, order)
        return PageText(text, tuple(page.text_indices[at] for at in positions))
    except Exception:
        return page


def _char_boxes(text_page: pypdfium2.PdfTextPage, page: PageText) -> list[Box | None]:
    """pdfium's loose box of each character of `page.text` (None for whitespace and for a
    character pdfium cannot place)."""
    handle = address(text_page.raw)
    box = (c_float * 4)()
    box_ref = byref(box)
    boxes: list[Box | None] = []
    for char, at in zip(page.text, page.text_indices, strict=True):
        index = -1 if char.isspace() else _char_from_text(handle, at)
        if index >= 0 and _loose_box(handle, index, box_ref):
            boxes.append((box[0], box[3], box[2], box[1]))  # pdfium: left, top, right, bottom
        else:
            boxes.append(None)
    return boxes


def clean_pdf_text(raw: str) -> str:
    """`cleaned_page_text(raw).text`, by string operations."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n").replace(PDF_SOFT_HYPHEN, "-")
    return _CONTROL_CHARS.sub("", text)


def _unseen_text_indices(text_page: pypdfium2.PdfTextPage, found: PageObjects) -> set[int]:
    """The positions in pdfium's text of the characters nobody sees; none when the analysis
    fails: an odd PDF keeps its plain text, never loses it."""
    try:
        unseen = _unseen_chars(text_page, found)
        to_text = pdfium_c.FPDFText_GetTextIndexFromCharIndex
        return {at for at in (to_text(text_page, index) for index in unseen) if at >= 0}
    except Exception:
        return set()


_P, _D = c_void_p, c_double
_count_chars = bind("FPDFText_CountChars", c_int, _P)
_text_object = bind("FPDFText_GetTextObject", _P, _P, c_int)
_loose_box = bind("FPDFText_GetLooseCharBox", c_int, _P, c_int)
_char_from_text = bind("FPDFText_GetCharIndexFromTextIndex", c_int, _P, c_int)
_bounded_count = bind("FPDFText_GetBoundedText", c_int, _P, _D, _D, _D, _D, _P, c_int)


def _unseen_chars(text_page: pypdfium2.PdfTextPage, found: PageObjects | None = None) -> set[int]:
    """pdfium's indices of the characters of unseen objects, and of any centred off the
    page's visible box (looked for only when pdfium counts fewer characters inside it)."""
    found = found or read_objects(text_page.page)
    page_box = left, bottom, right, top = text_page.page.get_bbox()
    boxes = numpy.frombuffer(found.boxes, dtype=numpy.float32).reshape(-1, 4)
    unseen = _unseen_objects(found, boxes, page_box)
    handle = address(text_page.raw)
    off_page = bool(
        numpy.any((boxes[:, 0] < left) | (boxes[:, 1] < bottom))
        or numpy.any((boxes[:, 2] > right) | (boxes[:, 3] > top))
    ) and _bounded_count(handle, left, top, right, bottom, None, 0) < _bounded_count(
        handle, -1e6, 1e6, 1e6, -1e6, None, 0
    )  # some text reaches out of the box, and pdfium counts less inside it than in all
    if not unseen and not off_page:
        return set()
    dropped: set[int] = set()
    box = (c_float * 4)()
    box_ref = byref(box)
    for index in range(_count_chars(handle)):
        obj = _text_object(handle, index)
        if not obj:
            continue  # generated by pdfium: a space or a line break
        if obj in unseen:
            dropped.add(index)
        elif off_page and _loose_box(handle, index, box_ref):
            x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2  # left, top, right, bottom
            if not (left <= x <= right and bottom <= y <= top):
                dropped.add(index)
    return dropped


def _unseen_objects(found: PageObjects, boxes: Any, page_box: Box) -> set[int]:
    """The text objects nobody sees (`pdf_objects` tells the rules; `boxes` are their bounds
    in order). Each is judged at three points across the middle of its bounds (a glyph's, in
    filings, or a run's) and is unseen only if it is at all three: a run half over a dark
    band stays."""
    left, bottom, right, top = page_box
    area = max((right - left) * (top - bottom), 1.0)
    for shape in found.shapes:
        x0, y0, x1, y1 = shape.box
        shape.scan = shape.colour is None and (x1 - x0) * (y1 - y0) >= SCAN_SHARE * area
    if not found.suspects and not any(s.covers and not s.scan for s in found.shapes):
        return set()
    middle = (boxes[:, 1] + boxes[:, 3]) / 2
    inset = numpy.minimum((boxes[:, 2] - boxes[:, 0]) / 4, 1.0)
    xs = numpy.stack([boxes[:, 0] + inset, (boxes[:, 0] + boxes[:, 2]) / 2, boxes[:, 2] - inset])
    scans = [s.box for s in found.shapes if s.scan]
    beneath = [s for s in found.shapes if s.opaque]
    unseen = set()
    for obj, (kind, order, rgb) in found.suspects.items():
        points = [(float(x), float(middle[order])) for x in xs[:, order]]
        if kind == HIDDEN or (
            not any(_inside(box, x, y) for box in scans for x, y in points)
            if kind == INVISIBLE
            else all(_background(beneath, order, x, y, rgb) for x, y in points)
        ):
            unseen.add(obj)
    covers = [s for s in found.shapes if s.covers and not s.scan]
    if covers:
        order_of = None
        for shape in covers:
            x0, y0, x1, y1 = shape.box
            n = shape.before
            inside = (middle[:n] >= y0) & (middle[:n] <= y1)
            inside &= (xs[0, :n] >= x0) & (xs[2, :n] <= x1)
            hidden = numpy.flatnonzero(inside)
            if hidden.size:
                order_of = order_of or text_objects(found.page, None)
                unseen.update(order_of[int(k)] for k in hidden if k < len(order_of))
    return unseen


def _background(shapes: list[Shape], order: int, x: float, y: float, rgb: Colour) -> bool:
    """Whether text drawn `order`-th in `rgb` is the colour of what lies beneath (x, y): the
    topmost opaque shape drawn before it there, else white paper (an image: never)."""
    for shape in reversed(shapes):
        if shape.before <= order and _inside(shape.box, x, y):
            return shape.colour is not None and near(rgb, shape.colour)
    return near(rgb, WHITE_RGB)


def _inside(box: Box, x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _cleaned(raw: str, keep: Callable[[int], bool] | None) -> PageText:
    """`raw` cleaned as `parse.py` cleans it (CR LF and CR to LF, pdfium's hyphen marker to
    "-", control characters out), keeping only the text indices `keep` accepts; the
    whitespace around a dropped run is made one (a line break if any was)."""
    kept: list[str] = []
    indices: list[int] = []
    gap = False  # characters were dropped since the last one kept
    gap_space: tuple[str, int] | None = None  # whitespace the dropped run held
    at = 0  # position in pdfium's text, in UTF-16 units
    i = 0
    while i < len(raw):
        char = raw[i]
        width = 2 if ord(char) > 0xFFFF else 1
        out = char
        if char == "\r":
            out = "\n"
            if raw[i + 1 : i + 2] == "\n":
                width = 2
                i += 1
        elif char == PDF_SOFT_HYPHEN:
            out = "-"
        elif char in DROPPED_CHARS:
            out = ""
        if out and keep is not None and not keep(at):
            gap = True
            if out.isspace() and (gap_space is None or out == "\n"):
                gap_space = (out, at)
        elif out:
            if gap and not out.isspace():
                _join(kept, indices, gap_space)
                gap, gap_space = False, None
            if not gap:
                kept.append(out)
                indices.append(at)
            elif gap_space is None or out == "\n":
                gap_space = (out, at)
        i, at = i + 1, at + width
    while gap and kept and kept[-1].isspace():  # a page's end is not followed by a space
        kept.pop()
        indices.pop()
    return PageText("".join(kept), tuple(indices))


def _join(kept: list[str], indices: list[int], space: tuple[str, int] | None) -> None:
    """Before the first character kept after a dropped run: one whitespace where the run,
    or the text around it, had any (a line break if any was one); none at the page's start."""
    while kept and kept[-1].isspace():
        if kept[-1] == "\n" or space is None or space[0] != "\n":
            space = (kept[-1], indices[-1])
        kept.pop()
        indices.pop()
    if kept and space is not None:
        kept.append(space[0])
        indices.append(space[1])
