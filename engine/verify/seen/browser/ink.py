"""Whether a character is painted where the browser laid it out: pure pixel arithmetic over
two screenshots of one region, the page as shown and the page with the excerpt's own glyphs
made transparent (engine/verify/seen/browser_seer.py takes both).

A character is seen when some pixel of its box changes by at least `MIN_CONTRAST` on a
channel between the two. What hides it leaves its box unchanged: a box drawn over it, a clip,
a mask, zero opacity, the colour of what is beneath, a transform that shrinks or moves it.
Text nearly the colour of its background changes its box too little to count.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import numpy as np
from PIL import Image

from engine.documents.layout import Box

MIN_CONTRAST = 32
"""Of 255, on one channel: #e0e0e0 text on white is not read, #d0d0d0 is."""

Region = tuple[int, int, int, int]
"""x, y, width, height in whole CSS pixels of the document."""


def region_of(boxes: Sequence[Box], width: float, height: float) -> Region | None:
    """The whole-pixel region holding every box, inside the document; None when empty."""
    shown = [b for b in boxes if b[2] > 0 and b[3] > 0]
    if not shown:
        return None
    left = max(0, math.floor(min(b[0] for b in shown)))
    top = max(0, math.floor(min(b[1] for b in shown)))
    right = min(math.ceil(width), math.ceil(max(b[0] + b[2] for b in shown)))
    bottom = min(math.ceil(height), math.ceil(max(b[1] + b[3] for b in shown)))
    if right <= left or bottom <= top:
        return None
    return left, top, right - left, bottom - top


def unpainted(shown: bytes, without: bytes, region: Region, boxes: Sequence[Box]) -> list[int]:
    """Indices of `boxes` whose pixels do not change between `shown` and `without` (PNG
    screenshots of `region`): characters a reader does not see there."""
    before = _pixels(shown)
    after = _pixels(without)
    if before.shape != after.shape:
        return list(range(len(boxes)))
    change = np.abs(before - after).max(axis=2)
    left, top = region[0], region[1]
    rows, cols = change.shape
    out: list[int] = []
    for index, (x, y, w, h) in enumerate(boxes):
        x0 = max(0, math.floor(x) - left)
        y0 = max(0, math.floor(y) - top)
        x1 = min(cols, math.ceil(x + w) - left)
        y1 = min(rows, math.ceil(y + h) - top)
        if x1 <= x0 or y1 <= y0 or int(change[y0:y1, x0:x1].max()) < MIN_CONTRAST:
            out.append(index)
    return out


def _pixels(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.int16)
