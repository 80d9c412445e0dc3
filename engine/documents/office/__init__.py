"""Office files as a reader sees them: a Word document's text, a deck's slides, a workbook's
sheets, with nothing Office would not show (hidden runs and rows, hidden slides and sheets,
text the colour of what is behind it).

How they are cited: a DOCX is one text (its URL, no page); a PPTX is paged by slide and an
XLSX by sheet, so `url#page=N` is slide N or sheet N (hidden ones keep their number, with
no text). A sheet's page opens with its name; the cells a quoted span covers are
`cell_range(sheet, start, end)` of the excerpt's offsets ("B3:D3"). There is no rendering of
an Office page: claims on them carry no page crop.

Their callers check a package first (`parse.over_limits`): the readers trust that its parts
inflate within `limits`, and `check_grid` that a workbook's cells do.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
