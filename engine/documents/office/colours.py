"""When coloured text cannot be seen: its colour is (nearly) the colour behind it."""

from __future__ import annotations

import re

WHITE = "FFFFFF"
NEAR = 24
"""Colours whose every channel differs by at most this much look the same to a reader."""
TINY_POINTS = 2.0
"""Text set smaller than this (in points) cannot be read."""

_HEX = re.compile(r"^[0-9A-Fa-f]{6}$")


def rgb(value: object) -> str | None:
    """`value` ("FFFFFF", "FF1F4E79" as ARGB, an RGBColor) as six upper-case hex digits, or
    None when it is no explicit colour ("auto", a theme colour)."""
    text = str(value or "").strip()
    if len(text) == 8:
        text = text[2:]
    return text.upper() if _HEX.match(text) else None


def unseen(colour: str | None, behind: str | None) -> bool:
    """Whether text of `colour` vanishes on `behind` (both hex, None when unknown)."""
    if colour is None or behind is None:
        return False
    return all(
        abs(int(colour[i : i + 2], 16) - int(behind[i : i + 2], 16)) <= NEAR for i in (0, 2, 4)
    )
