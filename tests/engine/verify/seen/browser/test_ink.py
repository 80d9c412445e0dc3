"""Pixels of two screenshots (engine/verify/seen/browser/ink.py)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from engine.verify.seen.browser.ink import MIN_CONTRAST, region_of, unpainted


def _png(marks: list[tuple[int, int, int, int, int]]) -> bytes:
    image = Image.new("RGB", (100, 20), "white")
    draw = ImageDraw.Draw(image)
    for x0, y0, x1, y1, grey in marks:
        draw.rectangle((x0, y0, x1, y1), fill=(grey, grey, grey))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


BOXES = [(0.0, 0.0, 10.0, 20.0), (20.0, 0.0, 10.0, 20.0), (40.0, 0.0, 10.0, 20.0)]


def test_a_box_whose_pixels_do_not_change_is_not_painted() -> None:
    shown = _png([(2, 5, 6, 15, 0), (42, 5, 46, 15, 255 - MIN_CONTRAST + 8)])
    without = _png([])
    # box 0: black ink; box 1: nothing drawn; box 2: ink too close to the white beneath
    assert unpainted(shown, without, (0, 0, 100, 20), BOXES) == [1, 2]


def test_ink_at_the_contrast_limit_is_painted() -> None:
    shown = _png([(42, 5, 46, 15, 255 - MIN_CONTRAST)])
    assert unpainted(shown, _png([]), (0, 0, 100, 20), BOXES[2:]) == []


def test_the_region_holds_every_box_inside_the_document() -> None:
    assert region_of([(-3.5, 2.2, 10.0, 5.0), (50.0, 10.0, 1000.0, 5.0)], 100, 12) == (
        0,
        2,
        100,
        10,
    )
    assert region_of([(0.0, 0.0, 0.0, 0.0)], 100, 100) is None


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
