"""A Word document (DOCX) as the text a reader sees: paragraphs and tables in body order.

A paragraph is a line; a blank line sets it apart from the next, except between the items
of a list (numbered paragraphs), which follow their lead-in line by line. A table is a row a
line, its cells joined by " | " (a cell boundary the matcher never crosses); a vertically
merged cell shows its text once, in its first row.

Left out, as Word shows nothing of them: hidden runs (`w:vanish`, set on the run, its
character style, its paragraph's style or the document's defaults), text of (nearly) the
colour behind it (its highlight or shading, the paragraph's, the table cell's, the page
background, else white), text smaller than 2 pt, deleted revisions, field codes, hidden
table rows. Headers, footers, footnotes, comments and text boxes are not read.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import docx
from docx.document import Document
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph
from docx.text.run import Run

from engine.documents.office.colours import TINY_POINTS, WHITE, rgb, unseen
from engine.text.normalise import collapse_whitespace

_Xml = Any
"""An lxml element of the document (lxml has no type information)."""

_RUNS = (
    "./w:r | ./w:hyperlink/w:r | ./w:ins/w:r | ./w:smartTag/w:r | ./w:fldSimple/w:r"
    " | ./w:sdt/w:sdtContent/w:r | ./w:customXml/w:r | ./w:ins/w:hyperlink/w:r"
)
_FALSE = frozenset({"0", "false", "off"})
_THEME_WHITE = frozenset({"background1", "light1"})
_HIGHLIGHTS = {
    "white": "FFFFFF",
    "yellow": "FFFF00",
    "green": "00FF00",
    "cyan": "00FFFF",
    "magenta": "FF00FF",
    "blue": "0000FF",
    "red": "FF0000",
    "darkBlue": "000080",
    "darkCyan": "008080",
    "darkGreen": "008000",
    "darkMagenta": "800080",
    "darkRed": "800000",
    "darkYellow": "808000",
    "darkGray": "808080",
    "lightGray": "C0C0C0",
    "black": "000000",
}


def read_docx(data: bytes) -> tuple[str, str]:
    """The visible text and the title (from the document's properties, "" when none)."""
    document = docx.Document(io.BytesIO(data))
    reader = _Reader(document)
    return reader.text(), collapse_whitespace(document.core_properties.title or "")


class _Reader:
    def __init__(self, document: Document) -> None:
        self._document = document
        styles = document.styles.element
        self._styles = {s.get(qn("w:styleId")): s for s in styles.iterchildren(qn("w:style"))}
        defaults = styles.find(qn("w:docDefaults"))
        default_rpr = (
            None if defaults is None else defaults.find(f"{qn('w:rPrDefault')}/{qn('w:rPr')}")
        )
        self._default_rpr = default_rpr
        background = document.element.find(qn("w:background"))
        page = None if background is None else rgb(background.get(qn("w:color")))
        self._page = page or WHITE

    def text(self) -> str:
        pieces: list[str] = []
        after_paragraph = False
        for block in self._document.iter_inner_content():
            if isinstance(block, Paragraph):
                line = self._paragraph(block, self._page)
                if not line:
                    continue
                joiner = "\n" if after_paragraph and self._is_list(block) else "\n\n"
                pieces.append((joiner if pieces else "") + line)
                after_paragraph = True
            elif isinstance(block, Table):
                rows = [row for row in self._table(block) if row.strip(" |")]
                if rows:
                    pieces.append(("\n\n" if pieces else "") + "\n".join(rows))
                    after_paragraph = False
        return "".join(pieces)

    def _table(self, table: Table) -> Iterator[str]:
        for tr in table._tbl.tr_lst:
            properties = tr.find(qn("w:trPr"))
            if properties is not None and _on(properties.find(qn("w:hidden"))):
                continue
            cells: list[str] = []
            for tc in tr.tc_lst:
                merge = tc.find(f"{qn('w:tcPr')}/{qn('w:vMerge')}")
                if merge is not None and merge.get(qn("w:val")) != "restart":
                    cells.append("")  # the merged cell's text is in its first row
                    continue
                shading = tc.find(f"{qn('w:tcPr')}/{qn('w:shd')}")
                behind = _fill(shading) or self._page
                texts = (self._paragraph(Paragraph(p, table), behind) for p in tc.iter(qn("w:p")))
                cells.append(" ".join(t for t in texts if t.strip()))
            while cells and not cells[-1]:
                cells.pop()
            yield " | ".join(cells).strip()

    def _paragraph(self, paragraph: Paragraph, behind: str) -> str:
        p = paragraph._p
        shading = p.find(f"{qn('w:pPr')}/{qn('w:shd')}")
        behind = _fill(shading) or behind
        chain = self._style_chain(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}"))
        shown: list[str] = []
        for r in p.xpath(_RUNS):
            run_style = self._style_chain(r.find(f"{qn('w:rPr')}/{qn('w:rStyle')}"))
            properties = [r.find(qn("w:rPr")), *run_style, *chain, self._default_rpr]
            if not self._hidden(properties, behind):
                shown.append(Run(r, paragraph).text)
        return collapse_whitespace("".join(shown))

    def _hidden(self, properties: list[_Xml], behind: str) -> bool:
        rprs = [p for p in properties if p is not None]
        if _on(_first(rprs, "w:vanish")) or _on(_first(rprs, "w:specVanish")):
            return True
        size = _first(rprs, "w:sz")
        if size is not None and _half_points(size) < TINY_POINTS:
            return True
        colour = _first(rprs, "w:color")
        if colour is None:
            return False
        highlight = _first(rprs, "w:highlight")
        marked = _HIGHLIGHTS.get(highlight.get(qn("w:val"), "")) if highlight is not None else None
        seen_on = marked or _fill(_first(rprs, "w:shd")) or behind
        return unseen(_colour(colour), seen_on)

    def _style_chain(self, reference: _Xml) -> list[_Xml]:
        """The run properties of a style and of the styles it is based on, nearest first."""
        found: list[_Xml] = []
        style_id = None if reference is None else reference.get(qn("w:val"))
        seen: set[str] = set()
        while style_id and style_id not in seen and style_id in self._styles:
            seen.add(style_id)
            style = self._styles[style_id]
            found.append(style.find(qn("w:rPr")))
            based = style.find(qn("w:basedOn"))
            style_id = None if based is None else based.get(qn("w:val"))
        return found

    def _is_list(self, paragraph: Paragraph) -> bool:
        if paragraph._p.find(f"{qn('w:pPr')}/{qn('w:numPr')}") is not None:
            return True
        style = paragraph._p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}")
        style_id = "" if style is None else style.get(qn("w:val"), "")
        defined = self._styles.get(style_id)
        return defined is not None and defined.find(f"{qn('w:pPr')}/{qn('w:numPr')}") is not None


def _first(rprs: list[_Xml], tag: str) -> _Xml | None:
    """The nearest run-property element `tag` among `rprs` (the run's own first)."""
    for rpr in rprs:
        found = rpr.find(qn(tag))
        if found is not None:
            return found
    return None


def _on(element: _Xml | None) -> bool:
    if element is None:
        return False
    return str(element.get(qn("w:val"), "true")).lower() not in _FALSE


def _half_points(element: _Xml) -> float:
    try:
        return int(element.get(qn("w:val"), "24")) / 2
    except ValueError:
        return 12.0


def _colour(element: _Xml) -> str | None:
    theme = element.get(qn("w:themeColor"))
    if theme in _THEME_WHITE:
        return WHITE
    return rgb(element.get(qn("w:val")))


def _fill(shading: _Xml | None) -> str | None:
    return None if shading is None else rgb(shading.get(qn("w:fill")))
