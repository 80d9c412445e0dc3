"""What a PDF page's objects tell of its text, read through lean ctypes prototypes of pdfium.

`read_objects` walks the page's objects in drawing order (into forms) and records, for
`pdf_text` to judge, each text object's bounds; the suspects: text in render mode 3
(invisible) or 7 (clip only), with fill alpha 0, drawn under `MIN_FONT_SIZE` points tall
(font size times every matrix: the bounds hold both; a glyph that small is confirmed by its
font size and matrix when it is wider than tall or next to another small one, so a lone
full stop costs nothing), or in white or the colour of an opaque shape drawn before it; and
the shapes that may lie beneath text or cover it (an opaque image or filled rectangle of the
page, cut to its clipping path; an image mask, a form's contents or a shape thinner than
`MIN_SHAPE` covers nothing). Filings draw a glyph per text object, a thousand a page: each
costs four calls (object, render mode, bounds, fill colour), anything more only the odd one.
Errors propagate: the caller keeps the page's plain text.
"""

from __future__ import annotations

import ctypes
import math
import struct
from ctypes import byref, c_float, c_int, c_uint, c_uint64, c_ulong, c_void_p
from dataclasses import dataclass
from typing import Any

import pypdfium2
import pypdfium2.raw as pdfium_c

from engine.documents.layout import Box

MIN_FONT_SIZE = 3.0
"""Points: smaller text is not read (footnote markers are 5 or 6 pt)."""
COLOUR_TOLERANCE = 8
"""Per channel (0-255): text this close to its background does not show."""
SCAN_SHARE = 0.8
"""An image covering this share of the page is a scan; text on it is its OCR layer."""
MIN_SHAPE = 2.0
"""Points: a shape thinner than this (a table rule) neither hides text nor lies beneath it."""

Matrix = tuple[float, float, float, float, float, float]
Colour = tuple[int, int, int]

WHITE_RGB: Colour = (255, 255, 255)
_PATH, _IMAGE, _SHADING, _FORM = 2, 3, 4, 5
HIDDEN, INVISIBLE, COLOURED = 1, 2, 3  # a suspect: always unseen, unless on a scan, or
# unseen when its colour is its background's
_NO_BOX = struct.pack("4f", *[math.nan] * 4)
_OPAQUE_BLACK = 255 << 32  # (blue, alpha) as pdfium writes them, read as one 64-bit word


def bind(name: str, restype: Any, *argtypes: Any) -> Any:
    """pdfium's `name` through a plain prototype: the leading handles typed, out-parameters
    passed by reference untyped (the fastest ctypes call)."""
    address = ctypes.cast(getattr(pdfium_c, name), c_void_p).value
    return ctypes.CFUNCTYPE(restype, *argtypes)(int(address or 0))


_P = c_void_p
_count_objects = bind("FPDFPage_CountObjects", c_int, _P)
_get_object = bind("FPDFPage_GetObject", _P, _P, c_int)
_form_count = bind("FPDFFormObj_CountObjects", c_int, _P)
_form_object = bind("FPDFFormObj_GetObject", _P, _P, c_ulong)
_object_type = bind("FPDFPageObj_GetType", c_int, _P)
_render_mode = bind("FPDFTextObj_GetTextRenderMode", c_int, _P)
_fill_colour = bind("FPDFPageObj_GetFillColor", c_int, _P)
_stroke_colour = bind("FPDFPageObj_GetStrokeColor", c_int, _P)
_bounds = bind("FPDFPageObj_GetBounds", c_int, _P)
_font_size = bind("FPDFTextObj_GetFontSize", c_int, _P)
_get_matrix = bind("FPDFPageObj_GetMatrix", c_int, _P)
_transparent = bind("FPDFPageObj_HasTransparency", c_int, _P)
_draw_mode = bind("FPDFPath_GetDrawMode", c_int, _P)
_stroke_width = bind("FPDFPageObj_GetStrokeWidth", c_int, _P)
_count_segments = bind("FPDFPath_CountSegments", c_int, _P)
_get_segment = bind("FPDFPath_GetPathSegment", _P, _P, c_int)
_segment_type = bind("FPDFPathSegment_GetType", c_int, _P)
_segment_point = bind("FPDFPathSegment_GetPoint", c_int, _P)
_clip_path = bind("FPDFPageObj_GetClipPath", _P, _P)
_clip_count = bind("FPDFClipPath_CountPaths", c_int, _P)
_clip_segments = bind("FPDFClipPath_CountPathSegments", c_int, _P, c_int)
_clip_segment = bind("FPDFClipPath_GetPathSegment", _P, _P, c_int, c_int)
_image_metadata = bind("FPDFImageObj_GetImageMetadata", c_int, _P, _P)


def address(handle: Any) -> int:
    """A pdfium handle (a ctypes pointer) as the integer the prototypes take."""
    return int(ctypes.cast(handle, c_void_p).value or 0)


@dataclass
class Shape:
    before: int  # how many text objects were drawn before it
    box: Box
    colour: Colour | None  # None: an image or a shading, whose colour is not one
    opaque: bool
    covers: bool = False  # an opaque image or filled rectangle, at the page's top level
    scan: bool = False


class PageObjects:
    """What the walk found (suspects: object → kind, order, colour; shapes in drawing order;
    boxes: each text object's bounds on the page, 4 floats), and out-parameters reused."""

    def __init__(self, page: int) -> None:
        self.page, self.boxes = page, bytearray()
        self.small: list[tuple[int, int, Matrix | None]] = []  # maybe tiny: obj, end, form
        self.suspects: dict[int, tuple[int, int, Colour]] = {}
        self.shapes: list[Shape] = []
        self.colours: set[Colour] = set()  # opaque shapes' colours so far
        self.colour, self.bounds = (c_uint * 4)(), (c_float * 4)()
        self.size, self.matrix = c_float(), (c_float * 6)()
        self.size_ref, self.matrix_ref = byref(self.size), byref(self.matrix)
        self.word = (c_uint64 * 2).from_buffer(self.colour)
        self.colour_refs = tuple(byref(self.colour, 4 * n) for n in range(4))
        self.bound_refs = tuple(byref(self.bounds, 4 * n) for n in range(4))


def read_objects(page: pypdfium2.PdfPage) -> PageObjects:
    """What `page`'s objects tell of its text: suspects, shapes and each text's bounds."""
    found = PageObjects(page=address(page.raw))
    _walk(found, found.page, _count_objects(found.page), _get_object, None)
    _confirm_small(found)
    return found


def _walk(found: PageObjects, holder: int, count: int, get: Any, form: Matrix | None) -> None:
    """Read the objects of the page (`form` None) or of a form XObject, in drawing order.
    A text object's order is its place in `found.boxes`, which holds its bounds."""
    word, bounds, suspects, small = found.word, found.bounds, found.suspects, found.small
    c0, c1, c2, c3 = found.colour_refs
    b0, b1, b2, b3 = found.bound_refs
    boxes = found.boxes
    store = boxes.__iadd__
    fill, get_bounds, render_mode = _fill_colour, _bounds, _render_mode
    limit = MIN_FONT_SIZE / _scale(form) if form is not None else MIN_FONT_SIZE
    last0 = last1 = -1  # the last colour judged (two 64-bit words), and its verdict
    verdict = 0
    for k in range(count):
        obj = get(holder, k)
        mode = render_mode(obj)
        if mode:
            if mode < 0:
                _walk_other(found, obj, form)
                last0 = -1  # a new shape's colour may be a background now
            else:
                _odd_text(found, obj, mode, form)
            continue
        if not get_bounds(obj, b0, b1, b2, b3):
            store(_NO_BOX)
        else:
            store(bounds if form is None else _form_box(found, form))
            if bounds[3] - bounds[1] < limit:
                small.append((obj, len(boxes), form))
        if not fill(obj, c0, c1, c2, c3):
            continue  # a pattern: pdfium cannot tell its colour, so it is not judged by it
        if word[0] != last0 or word[1] != last1:
            last0, last1 = word[0], word[1]
            verdict = 0 if last0 == 0 and last1 == _OPAQUE_BLACK else _colour_verdict(found)
        if verdict:
            red, green, blue, _ = found.colour
            suspects[obj] = (verdict, len(boxes) // 16 - 1, (red, green, blue))


def _confirm_small(found: PageObjects) -> None:
    """Which of the text objects drawn less than `MIN_FONT_SIZE` tall are small text, not a
    full stop or a dash of normal text: those drawn that small in a row, or wider than
    tall, are checked by font size and matrix. A lone small glyph (hiding no word) is not."""
    small = found.small
    for n, (obj, end, form) in enumerate(small):
        order = end // 16 - 1
        left, bottom, right, top = struct.unpack_from("4f", found.boxes, end - 16)
        in_row = (n > 0 and small[n - 1][1] == end - 16) or (
            n + 1 < len(small) and small[n + 1][1] == end + 16
        )
        if (in_row or right - left > top - bottom) and _tiny(found, obj, form):
            found.suspects[obj] = (HIDDEN, order, WHITE_RGB)


def _colour_verdict(found: PageObjects) -> int:
    """What text in the colour just read needs: 0 nothing, else its suspect kind."""
    red, green, blue, alpha = found.colour
    if alpha == 0:
        return HIDDEN
    rgb = (red, green, blue)
    if near(rgb, WHITE_RGB) or any(near(rgb, colour) for colour in found.colours):
        return COLOURED
    return 0


def _odd_text(found: PageObjects, obj: int, mode: int, form: Matrix | None) -> None:
    """A text object not simply filled: invisible, stroked, or adding to the clip."""
    if not _bounds(obj, *found.bound_refs):
        found.boxes += _NO_BOX
    else:
        found.boxes += found.bounds if form is None else _form_box(found, form)
    order = len(found.boxes) // 16 - 1
    if mode in (3, 7):
        found.suspects[obj] = (INVISIBLE, order, WHITE_RGB)
        return
    if _tiny(found, obj, form):
        found.suspects[obj] = (HIDDEN, order, WHITE_RGB)
        return
    stroke = _colour(found, obj, _stroke_colour)
    fill = _colour(found, obj, _fill_colour) if mode not in (1, 5) else stroke
    if stroke is None or fill is None or (mode not in (1, 5) and not near(stroke, fill)):
        return  # a pattern, or a fill and an outline apart: it shows against anything
    verdict = _colour_verdict(found)
    if verdict:
        found.suspects[obj] = (verdict, order, fill)


def _colour(found: PageObjects, obj: int, read: Any) -> Colour | None:
    if not read(obj, *found.colour_refs):
        return None
    red, green, blue, _ = found.colour
    return (red, green, blue)


def _tiny(found: PageObjects, obj: int, form: Matrix | None) -> bool:
    """Whether the text object's glyphs are drawn under `MIN_FONT_SIZE` points tall."""
    if not _font_size(obj, found.size_ref) or not _get_matrix(obj, found.matrix_ref):
        return False
    a, b, c, d, e, f = found.matrix
    if form is not None:
        a, b, c, d, e, f = _compose((a, b, c, d, e, f), form)
    return bool(round(found.size.value * math.hypot(c, d), 1) < MIN_FONT_SIZE)  # 3.99 × 0.75 is 3


def _form_box(found: PageObjects, form: Matrix) -> bytes:
    """The bounds just read, of an object in a form, on the page (packed as pdfium's)."""
    return struct.pack("4f", *_mapped(form, tuple(found.bounds)))


def _mapped(form: Matrix, box: Any) -> Box:
    left, bottom, right, top = box
    corners = [_apply(form, x, y) for x in (left, right) for y in (bottom, top)]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return (min(xs), min(ys), max(xs), max(ys))


def _walk_other(found: PageObjects, obj: int, form: Matrix | None) -> None:
    """A path, an image, a shading or a form: shapes for the colour and covering tests."""
    kind = _object_type(obj)
    if kind == _FORM:
        matrix = _matrix(obj)
        if matrix is None:
            return
        inner = matrix if form is None else _compose(matrix, form)
        _walk(found, obj, _form_count(obj), _form_object, inner)
        return
    if kind not in (_PATH, _IMAGE, _SHADING):
        return
    box = _object_box(found, obj, form)
    if box is None or min(box[2] - box[0], box[3] - box[1]) < MIN_SHAPE:
        return  # a rule or a hairline: it hides no character, nor is it one's background
    opaque = not _transparent(obj)
    texts = len(found.boxes) // 16  # text objects drawn before
    if kind != _PATH:  # an image (an image mask paints its shape only) or a shading
        covers = kind == _IMAGE and opaque and form is None and texts > 0
        _add(found, Shape(texts, box, None, opaque), obj, covers and not _image_mask(found, obj))
        return
    fill_mode, stroke = c_int(), c_int()
    if not _draw_mode(obj, byref(fill_mode), byref(stroke)):
        return
    colour = _colour(found, obj, _fill_colour) if fill_mode.value else None
    if colour is not None and found.colour[3] == 0:
        colour = None
    if colour is None:
        width = c_float()
        if not stroke.value or not _stroke_width(obj, byref(width)) or width.value < MIN_SHAPE:
            return  # nothing filled, or a thin outline
        colour = _colour(found, obj, _stroke_colour)  # a thick stroke is a band of colour
        if colour is None or found.colour[3] == 0:
            return
        found.shapes.append(Shape(texts, box, colour, opaque))
    else:
        covers = opaque and form is None and texts > 0
        _add(found, Shape(texts, box, colour, opaque), obj, covers and _rectangle(obj))
    if opaque:
        found.colours.add(colour)


def _add(found: PageObjects, shape: Shape, obj: int, covers: bool) -> None:
    """A shape; one that covers is cut to its clipping path (a cover clipped away whole is
    only a background)."""
    if covers:
        box = _clip(obj, shape.box)
        if box is not None:
            found.shapes.append(Shape(shape.before, box, shape.colour, shape.opaque, True))
            return
    found.shapes.append(shape)


def _image_mask(found: PageObjects, obj: int) -> bool:
    """Whether the image is a stencil mask (one bit, no colour space of its own)."""
    metadata = pdfium_c.FPDF_IMAGEOBJ_METADATA()
    if not _image_metadata(obj, found.page, byref(metadata)):
        return True  # unknown: not a cover
    return bool(metadata.bits_per_pixel <= 1 or metadata.colorspace == 0)


def _rectangle(obj: int) -> bool:
    """Whether a filled path is one axis-aligned rectangle (a filled path of another shape
    does not cover its whole box)."""
    count = _count_segments(obj)
    if not 4 <= count <= 6:
        return False
    points = _points(obj, count, lambda n: _get_segment(obj, n))
    if points is None:
        return False
    xs, ys = {round(x, 1) for x, _ in points}, {round(y, 1) for _, y in points}
    return len(xs) == 2 and len(ys) == 2


def _points(obj: int, count: int, segment_at: Any) -> list[tuple[float, float]] | None:
    """The points of a path's `count` segments; None when one is a curve or unreadable."""
    x, y = c_float(), c_float()
    points = []
    for n in range(count):
        segment = segment_at(n)
        if not segment or _segment_type(segment) == pdfium_c.FPDF_SEGMENT_BEZIERTO:
            return None
        if not _segment_point(segment, byref(x), byref(y)):
            return None
        points.append((x.value, y.value))
    return points


def text_objects(holder: int, form: int | None) -> list[int]:
    """The text objects of the page (`form` None) or of a form, in the order `_walk` reads
    them (a text object's order in `found.boxes`)."""
    count = _count_objects(holder) if form is None else _form_count(holder)
    get = _get_object if form is None else _form_object
    objects = []
    for k in range(count):
        obj = get(holder, k)
        mode = _render_mode(obj)
        if mode >= 0:
            objects.append(obj)
        elif _object_type(obj) == _FORM and _matrix(obj) is not None:
            objects.extend(text_objects(obj, obj))
    return objects


def _object_box(found: PageObjects, obj: int, form: Matrix | None) -> Box | None:
    if not _bounds(obj, *found.bound_refs):
        return None
    left, bottom, right, top = found.bounds
    return (left, bottom, right, top) if form is None else _mapped(form, found.bounds)


def _clip(obj: int, box: Box) -> Box | None:
    """`box` cut to the object's clipping path (each path's extent); None when nothing is
    left of it, or the clip cannot be read."""
    clip = _clip_path(obj)
    if not clip:
        return box
    left, bottom, right, top = box
    for path in range(_clip_count(clip)):
        count = _clip_segments(clip, path)
        points = _points(obj, count, lambda n, p=path: _clip_segment(clip, p, n))
        if not points:
            return None
        left, right = max(left, min(x for x, _ in points)), min(right, max(x for x, _ in points))
        bottom, top = max(bottom, min(y for _, y in points)), min(top, max(y for _, y in points))
    if right <= left or top <= bottom:
        return None
    return (left, bottom, right, top)


def _matrix(obj: int) -> Matrix | None:
    matrix = (c_float * 6)()
    if not _get_matrix(obj, byref(matrix)):
        return None
    a, b, c, d, e, f = matrix
    return (a, b, c, d, e, f)


def _compose(inner: Matrix, outer: Matrix) -> Matrix:
    """`inner` then `outer` (PDF's row-vector convention: inner × outer)."""
    a, b, c, d, e, f = inner
    p, q, r, s, _, _ = outer
    x, y = _apply(outer, e, f)
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, x, y)


def _scale(matrix: Matrix) -> float:
    """The least a matrix stretches a length (how small a form draws its contents)."""
    a, b, c, d, _, _ = matrix
    return max(min(math.hypot(a, b), math.hypot(c, d)), 1e-6)


def _apply(matrix: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = matrix
    return (a * x + c * y + e, b * x + d * y + f)


def near(colour: Colour, other: Colour) -> bool:
    return all(abs(a - b) <= COLOUR_TOLERANCE for a, b in zip(colour, other, strict=True))
