"""Documents as a reader sees them: a file's or a fetched body's pages of visible text.

`parse` reads PDF, HTML, Markdown and text into pages (`ParsedFile`); `pdf_text` and
`pdf_objects` keep only the PDF text a reader sees (no white-on-white, clipped, covered or
off-page text), `ocr` reads the pages without a text layer (Tesseract), `visible_html` and
`html_text` do the same for HTML. Both the library
(`engine.sources.library`) and the web reader (`engine.sources.web`) read through here, so a
page reads the same whichever way it arrived.
"""

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
