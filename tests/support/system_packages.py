"""The system packages a test may find missing on a developer's machine, and how to tell.

`scripts/test` installs them where it can (as root, or with passwordless sudo). Elsewhere it
names what is missing, and the tests that need it skip with the reason: Chromium, LibreOffice,
Tesseract and Redis are looked for before such a test runs; Pango is found missing only when a
report's PDF is made, since any report may make one (`pango_problem`).
"""

from __future__ import annotations

import functools


@functools.cache
def pango_problem() -> str | None:
    """Why report.pdf cannot be made here (WeasyPrint cannot load Pango), or None."""
    from engine.render.pdf import load_weasyprint

    try:
        load_weasyprint()
    except OSError as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return (
            "report.pdf needs Pango, which is not installed (sudo apt-get install "
            f"libpango-1.0-0 libpangoft2-1.0-0): {first}"
        )
    return None


def failed_for_want_of_pango(texts: list[str]) -> bool:
    """Whether a failed test's output shows a PDF that could not be made for want of Pango:
    the renderer's one warning line names the library it could not load."""
    return pango_problem() is not None and any("libpango" in text for text in texts)
