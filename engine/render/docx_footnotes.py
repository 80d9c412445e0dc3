"""Real Word footnotes for a python-docx document, which has no footnote API (1.2).

The part is built as Word writes it: `word/footnotes.xml` holding the separator and
continuation separator (ids -1 and 0) and then one `w:footnote` per note, related to the
document part by the footnotes relationship; its content type goes into
`[Content_Types].xml` with the part (python-docx writes one Override per part). A note's
number in the text is a `w:footnoteReference` run; inside the note, a `w:footnoteRef` run
repeats it. Links inside a note are relationships of the footnotes part itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from docx.document import Document as WordDocument
from docx.enum.style import WD_STYLE_TYPE
from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part, XmlPart
from docx.oxml import OxmlElement, parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.oxml.xmlchemy import BaseOxmlElement
from docx.shared import Pt
from docx.text.paragraph import Paragraph

from engine.render.office import xml_safe

FOOTNOTES_PART = "/word/footnotes.xml"
NOTE_STYLE = "Footnote Text"
NOTE_STYLE_ID = "FootnoteText"
REFERENCE_STYLE = "Footnote Reference"
NOTE_SIZE = 16
"""Half-points: notes in 8 pt."""
LINK_COLOUR = "0550AE"

_SEPARATORS = (
    f"<w:footnotes {nsdecls('w', 'r')}>"
    '<w:footnote w:type="separator" w:id="-1"><w:p><w:pPr>'
    '<w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
    "<w:r><w:separator/></w:r></w:p></w:footnote>"
    '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:pPr>'
    '<w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
    "<w:r><w:continuationSeparator/></w:r></w:p></w:footnote>"
    "</w:footnotes>"
)

Style = Literal["text", "quote", "strong", "link"]


@dataclass(frozen=True)
class NoteRun:
    """A run of a note: plain text, a quotation (italic), strong text, or a URL (a link when
    `href` is given, else shown as text)."""

    text: str
    style: Style = "text"
    href: str | None = None


Line = Sequence[NoteRun]
"""One paragraph of a note."""


class Footnotes:
    """The footnotes of one document: `add` puts a note's number at the end of a paragraph
    and its text at the foot of the page."""

    def __init__(self, document: WordDocument) -> None:
        story = document.part
        self._element = parse_xml(_SEPARATORS)
        self._part = XmlPart(
            PackURI(FOOTNOTES_PART), CT.WML_FOOTNOTES, self._element, story.package
        )
        story.relate_to(self._part, RT.FOOTNOTES)
        self._count = 0
        _add_styles(document)

    def __len__(self) -> int:
        return self._count

    def add(self, paragraph: Paragraph, lines: Sequence[Line], *, follows: bool = False) -> int:
        """A footnote holding `lines`, referenced at the end of `paragraph` (after a comma
        when it `follows` another reference); its number."""
        self._count += 1
        number = self._count
        if follows:
            paragraph.add_run(",", style=REFERENCE_STYLE)
        reference = paragraph.add_run(style=REFERENCE_STYLE)
        mark = OxmlElement("w:footnoteReference")
        mark.set(qn("w:id"), str(number))
        reference._r.append(mark)

        note = OxmlElement("w:footnote")
        note.set(qn("w:id"), str(number))
        for position, line in enumerate(lines or [[]]):
            note_paragraph = OxmlElement("w:p")
            properties = OxmlElement("w:pPr")
            style = OxmlElement("w:pStyle")
            style.set(qn("w:val"), NOTE_STYLE_ID)
            properties.append(style)
            spacing = OxmlElement("w:spacing")
            spacing.set(qn("w:after"), "40")
            properties.append(spacing)
            note_paragraph.append(properties)
            if position == 0:
                own = _run("", superscript=True)
                own.append(OxmlElement("w:footnoteRef"))
                note_paragraph.append(own)
                note_paragraph.append(_run(" "))
            for piece in line:
                note_paragraph.append(self._piece(piece))
            note.append(note_paragraph)
        self._element.append(note)
        return number

    def _piece(self, piece: NoteRun) -> BaseOxmlElement:
        if piece.style != "link" or piece.href is None:
            return _run(piece.text, italic=piece.style == "quote", bold=piece.style == "strong")
        return hyperlink(self._part, piece.href, piece.text, size=NOTE_SIZE)


def hyperlink(part: Part, href: str, text: str, *, size: int | None = None) -> BaseOxmlElement:
    """A `w:hyperlink` to `href` (an external relationship of `part`) showing `text`."""
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), part.relate_to(href, RT.HYPERLINK, is_external=True))
    link.append(_run(text, colour=LINK_COLOUR, underline=True, size=size))
    return link


def _run(
    text: str,
    *,
    size: int | None = NOTE_SIZE,
    italic: bool = False,
    bold: bool = False,
    superscript: bool = False,
    colour: str | None = None,
    underline: bool = False,
) -> BaseOxmlElement:
    """A `w:r` of note text: `text` verbatim (newlines as line breaks), never interpreted."""
    run = OxmlElement("w:r")
    properties = OxmlElement("w:rPr")
    if bold:
        properties.append(OxmlElement("w:b"))
    if italic:
        properties.append(OxmlElement("w:i"))
    if colour is not None:
        colour_element = OxmlElement("w:color")
        colour_element.set(qn("w:val"), colour)
        properties.append(colour_element)
    if size is not None:
        size_element = OxmlElement("w:sz")
        size_element.set(qn("w:val"), str(size))
        properties.append(size_element)
    if underline:
        line = OxmlElement("w:u")
        line.set(qn("w:val"), "single")
        properties.append(line)
    if superscript:
        align = OxmlElement("w:vertAlign")
        align.set(qn("w:val"), "superscript")
        properties.append(align)
    run.append(properties)
    for position, part in enumerate(xml_safe(text).replace("\r\n", "\n").split("\n")):
        if position:
            run.append(OxmlElement("w:br"))
        if part:
            text_element = OxmlElement("w:t")
            text_element.set(qn("xml:space"), "preserve")
            text_element.text = part
            run.append(text_element)
    return run


def _add_styles(document: WordDocument) -> None:
    """The note text (small) and the note number (superscript) as styles, as Word names them,
    so LibreOffice shows the numbers in the notes at the notes' size too."""
    names = {style.name for style in document.styles}
    if NOTE_STYLE not in names:
        note = document.styles.add_style(NOTE_STYLE, WD_STYLE_TYPE.PARAGRAPH)
        note.base_style = document.styles["Normal"]
        note.font.size = Pt(NOTE_SIZE / 2)
    if REFERENCE_STYLE not in names:
        reference = document.styles.add_style(REFERENCE_STYLE, WD_STYLE_TYPE.CHARACTER)
        reference.font.superscript = True
