"""A PowerPoint deck (PPTX) as one page of text per slide: page N is slide N.

A slide's text is its shapes' text in the order of the slide (groups read through), a
paragraph a line, shapes apart by a blank line, a table a row a line with its cells joined
by " | "; the speaker notes follow after a blank line (a reader sees them under the slide).

Left out, as PowerPoint shows nothing of them: hidden slides (their page stays, empty, so
that page N is still slide N), hidden shapes, shapes wholly off the slide, text smaller than
2 pt, and text of (nearly) the colour behind it: the shape's own solid fill, else the
slide's background (the slide's, its layout's or its master's, theme colours resolved
through the master's colour map). Behind a fill the file does not spell out (a shape style,
a gradient, a picture) text is kept. Charts and pictures are not read.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pptx
from lxml import etree
from pptx.opc.constants import RELATIONSHIP_TYPE
from pptx.oxml.ns import qn
from pptx.shapes.group import GroupShape

from engine.documents.office.colours import TINY_POINTS, rgb, unseen
from engine.text.normalise import collapse_whitespace

_Xml = Any
"""An lxml element of the deck (lxml has no type information)."""

_EMU_PER_POINT = 12_700
_UNKNOWN = "unknown"


def read_pptx(data: bytes) -> tuple[tuple[str, ...], str]:
    """The visible text of each slide and the title (the deck's properties, "" if none)."""
    deck = pptx.Presentation(io.BytesIO(data))
    width, height = deck.slide_width or 0, deck.slide_height or 0
    pages: list[str] = []
    for slide in deck.slides:
        if slide._element.get("show") in ("0", "false"):
            pages.append("")
            continue
        colours = _Colours(slide)
        parts = [
            text
            for shape in slide.shapes
            if _on_slide(shape, width, height)
            for text in _shape_texts(shape, colours, colours.background)
        ]
        notes = _notes(slide)
        pages.append("\n\n".join([*parts, *([notes] if notes else [])]))
    return tuple(pages), collapse_whitespace(deck.core_properties.title or "")


def _shape_texts(shape: Any, colours: _Colours, behind: str | None) -> Iterator[str]:
    if _hidden_shape(shape._element):
        return
    if isinstance(shape, GroupShape):
        for child in shape.shapes:  # a group: its children's positions are the group's own
            yield from _shape_texts(child, colours, behind)
        return
    if getattr(shape, "has_table", False) and shape.has_table:
        rows = [_row(row, colours) for row in shape.table.rows]
        text = "\n".join(row for row in rows if row.strip(" |"))
        if text:
            yield text
        return
    if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        fill = colours.fill(shape._element.find(qn("p:spPr")), shape._element)
        text = _frame_text(shape.text_frame._txBody, colours, behind if fill == "" else fill)
        if text:
            yield text


def _row(row: Any, colours: _Colours) -> str:
    cells: list[str] = []
    for cell in row.cells:
        if cell.is_spanned:
            cells.append("")
            continue
        fill = colours.fill(cell._tc.find(qn("a:tcPr")), None) or None
        cells.append(collapse_whitespace(_frame_text(cell._tc.find(qn("a:txBody")), colours, fill)))
    while cells and not cells[-1]:
        cells.pop()
    return " | ".join(cells).strip()


def _frame_text(body: _Xml | None, colours: _Colours, behind: str | None) -> str:
    """The visible lines of a text body; `behind` None when the colour behind is unknown."""
    if body is None:
        return ""
    lines: list[str] = []
    for paragraph in body.iterchildren(qn("a:p")):
        pieces: list[str] = []
        for child in paragraph.iterchildren():
            if child.tag == qn("a:br"):
                pieces.append("\n")
            elif child.tag in (qn("a:r"), qn("a:fld")) and not _hidden_run(child, colours, behind):
                pieces.append("".join(t.text or "" for t in child.iterchildren(qn("a:t"))))
        line = "\n".join(collapse_whitespace(part) for part in "".join(pieces).split("\n"))
        if line.strip():
            lines.append(line.strip())
    return "\n".join(lines)


def _hidden_run(run: _Xml, colours: _Colours, behind: str | None) -> bool:
    properties = run.find(qn("a:rPr"))
    if properties is None:
        return False
    size = properties.get("sz")
    if size is not None and size.isdigit() and int(size) / 100 < TINY_POINTS:
        return True
    fill = properties.find(qn("a:solidFill"))
    colour = colours.colour(fill) if fill is not None else None
    return behind is not None and unseen(colour, behind)


def _hidden_shape(element: _Xml) -> bool:
    properties = element.find(f".//{qn('p:cNvPr')}")
    return properties is not None and properties.get("hidden") in ("1", "true")


def _on_slide(shape: Any, width: int, height: int) -> bool:
    left, top, cx, cy = shape.left, shape.top, shape.width, shape.height
    if None in (left, top, cx, cy) or not width or not height:
        return True  # placed by its layout
    return bool(left < width and top < height and left + cx > 0 and top + cy > 0)


def _notes(slide: Any) -> str:
    if not slide.has_notes_slide:
        return ""
    frame = slide.notes_slide.notes_text_frame
    return (
        ""
        if frame is None
        else "\n".join(line.strip() for line in frame.text.splitlines() if line.strip())
    )


class _Colours:
    """The colours of one slide: its background, and theme colours as its master maps them."""

    def __init__(self, slide: Any) -> None:
        layout = slide.slide_layout
        master = layout.slide_master
        self._map = _colour_map(master._element)
        self._theme = _theme_colours(master)
        self.background = self._background([slide._element, layout._element, master._element])

    def colour(self, fill: _Xml) -> str | None:
        """The RGB of a solid fill (`a:solidFill`, `a:bgRef`), None when it is not plain."""
        explicit = fill.find(qn("a:srgbClr"))
        if explicit is not None:
            return rgb(explicit.get("val"))
        scheme = fill.find(qn("a:schemeClr"))
        if scheme is not None and not len(scheme):  # no tint or shade changes it
            name = scheme.get("val", "")
            return self._theme.get(self._map.get(name, name))
        return None

    def fill(self, properties: _Xml | None, shape: _Xml | None) -> str | None:
        """What a shape's own fill is: its RGB, "" when it has none (the slide shows through),
        None when it has one the reader cannot tell (a gradient, a picture, a style's)."""
        if properties is not None:
            if properties.find(qn("a:noFill")) is not None:
                return ""
            solid = properties.find(qn("a:solidFill"))
            if solid is not None:
                return self.colour(solid)
            if any(
                properties.find(qn(tag)) is not None
                for tag in ("a:gradFill", "a:blipFill", "a:pattFill")
            ):
                return None
        style = None if shape is None else shape.find(f"{qn('p:style')}/{qn('a:fillRef')}")
        if style is not None and style.get("idx", "0") != "0":
            return None
        return ""

    def _background(self, elements: list[_Xml]) -> str | None:
        for element in elements:
            bg = element.find(f"{qn('p:cSld')}/{qn('p:bg')}")
            if bg is None:
                continue
            solid = bg.find(f"{qn('p:bgPr')}/{qn('a:solidFill')}")
            reference = bg.find(qn("p:bgRef"))
            plain = solid if solid is not None else reference
            if plain is None or (
                reference is not None and reference.get("idx", "0") not in ("0", "1001")
            ):
                return None  # a gradient, a picture, a theme's fill style
            return self.colour(plain)
        return self._theme.get(self._map.get("bg1", "lt1"))


def _colour_map(master: _Xml) -> dict[str, str]:
    mapping = master.find(qn("p:clrMap"))
    return {} if mapping is None else dict(mapping.attrib)


def _theme_colours(master: Any) -> dict[str, str]:
    """The theme's colours by name (lt1, dk1, accent1, …), as RGB."""
    try:
        theme = master.part.part_related_by(RELATIONSHIP_TYPE.THEME)
        root = etree.fromstring(theme.blob)
    except (KeyError, etree.XMLSyntaxError):
        return {}
    colours: dict[str, str] = {}
    scheme = root.find(f".//{qn('a:clrScheme')}")
    for entry in [] if scheme is None else list(scheme):
        name = etree.QName(entry).localname
        for value in entry:
            found = rgb(value.get("val") if value.get("lastClr") is None else value.get("lastClr"))
            if found:
                colours[name] = found
    return colours
