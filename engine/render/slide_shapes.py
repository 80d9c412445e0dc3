"""Drawing text on a slide (python-pptx): a text box that never grows past its size, its
paragraphs, runs in the deck's font and colours (line breaks kept), bullets, table cells."""

from __future__ import annotations

from typing import cast

from pptx.dml.color import RGBColor
from pptx.enum.text import MSO_AUTO_SIZE
from pptx.oxml.ns import qn
from pptx.slide import Slide
from pptx.text.text import TextFrame, _Paragraph
from pptx.util import Inches, Pt

BULLET_INDENT = 0.3
"""Inches between a bullet and its text."""
FONT = "Arial"
"""A font LibreOffice has the metrics of (Liberation Sans), so a deck lays out as fitted."""
INK = RGBColor.from_string("1F2328")  # type: ignore[no-untyped-call]
GREY = RGBColor.from_string("57606A")  # type: ignore[no-untyped-call]
ACCENT = RGBColor.from_string("0550AE")  # type: ignore[no-untyped-call]


def box(slide: Slide, left: float, top: float, width: float, height: float) -> TextFrame:
    """A text box (inches) whose text wraps and never resizes it."""
    shape = slide.shapes.add_textbox(Inches(left), Inches(top), Inches(width), Inches(height))
    frame = cast(TextFrame, shape.text_frame)
    frame.word_wrap = True
    frame.auto_size = MSO_AUTO_SIZE.NONE
    return frame


def paragraph(frame: TextFrame, position: int) -> _Paragraph:
    """The frame's first paragraph for the first text (a new frame has one), a new one
    after it."""
    if position == 0:
        return frame.paragraphs[0]
    return cast(_Paragraph, frame.add_paragraph())  # type: ignore[no-untyped-call]


def styled_run(
    paragraph: _Paragraph,
    text: str,
    size: float,
    *,
    bold: bool = False,
    colour: RGBColor = INK,
) -> None:
    """`text` appended to `paragraph` as plain runs, its newlines as line breaks."""
    for position, line in enumerate(text.split("\n")):
        if position:
            paragraph.add_line_break()  # type: ignore[no-untyped-call]
        piece = paragraph.add_run()
        piece.text = line
        piece.font.size = Pt(size)
        piece.font.name = FONT
        piece.font.bold = bold
        piece.font.color.rgb = colour
    paragraph.space_after = Pt(size * 0.4)


def bullet(paragraph: _Paragraph) -> None:
    properties = paragraph._p.get_or_add_pPr()
    properties.set("marL", str(Inches(BULLET_INDENT)))
    properties.set("indent", str(-Inches(BULLET_INDENT)))
    properties.append(properties.makeelement(qn("a:buChar"), {"char": "•"}))


def cell(frame: TextFrame, text: str, size: float, *, bold: bool = False) -> None:
    frame.word_wrap = True
    styled_run(frame.paragraphs[0], text, size, bold=bold)
