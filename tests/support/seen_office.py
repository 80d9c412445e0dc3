"""Office files for the seen check's tests beside `office_files.py`: a DOCX with a comment, a
header and a text box, and an XLSX with a very hidden sheet."""

from __future__ import annotations

import io

import docx
import openpyxl
from docx.oxml import parse_xml

DOCX_BODY = "Acme employed 1,200 people at the end of 2024."
DOCX_COMMENT = "Acme employed 9,600 people at the end of 2024."
DOCX_HEADER = "Acme annual report, fiscal year 2024"
DOCX_TEXT_BOX = "Acme opened 7 plants in 2024."
XLSX_SHOWN = "Capacidade instalada da Bahia em 2024"
XLSX_VERY_HIDDEN = "Capacidade instalada do Piauí: 4.321 MW"

_TEXT_BOX = (
    '<w:r xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:v="urn:schemas-microsoft-com:vml"><w:pict>'
    '<v:shape id="box1" style="width:300pt;height:40pt" stroked="t">'
    "<v:textbox><w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent>"
    "</v:textbox></v:shape></w:pict></w:r>"
)


def docx_with_extras() -> bytes:
    """The body sentence, a comment on it (a reader of the page does not see comments), a
    header and a text box (a reader does see both)."""
    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = DOCX_HEADER
    paragraph = document.add_paragraph()
    run = paragraph.add_run(DOCX_BODY)
    document.add_comment(run, text=DOCX_COMMENT, author="reviewer")
    document.add_paragraph()._p.append(parse_xml(_TEXT_BOX.format(text=DOCX_TEXT_BOX)))
    stream = io.BytesIO()
    document.save(stream)
    return stream.getvalue()


def xlsx_very_hidden() -> bytes:
    """A shown sheet, and a sheet only a macro or the file's XML can show ("veryHidden")."""
    book = openpyxl.Workbook()
    book.active["A1"] = XLSX_SHOWN
    secret = book.create_sheet("Rascunho")
    secret["A1"] = XLSX_VERY_HIDDEN
    secret.sheet_state = "veryHidden"
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()
