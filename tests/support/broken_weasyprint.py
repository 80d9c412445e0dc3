"""WeasyPrint whose PDF writer fails (Pango missing, a layout bug), for the tests of a report
that loses only its PDF: `monkeypatch.setattr("engine.render.pdf.load_weasyprint", lambda:
BrokenWeasyPrint)`."""

from __future__ import annotations

PANGO_MISSING = "cannot load library 'libpango-1.0-0'"


class BrokenWeasyPrint:
    @staticmethod
    def URLFetcher(**_: object) -> object:
        return object()

    class HTML:
        def __init__(self, **_: object) -> None:
            pass

        def write_pdf(self) -> bytes:
            raise RuntimeError(PANGO_MISSING)
