"""The seen check as every entry point builds it: the seers of each kind, each made (and
its renderer imported) when a document of its kind is first seen, and the originals of the
research's sources."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from engine.documents.parse import DocumentKind
from engine.settings import env_flag
from engine.sources.protocols import Originals
from engine.verify.seen.check import SeenCheck, SeenLog
from engine.verify.seen.dispatch import SeenDispatcher
from engine.verify.seen.protocol import Seer, Sight

if TYPE_CHECKING:
    from engine.verify.seen.browser_seer import BrowserSeer
    from engine.verify.seen.office import OfficeSeer
    from engine.verify.seen.pdf_seer import PdfSeer

S = TypeVar("S", bound=Seer)


class OnFirstSight(Generic[S]):
    """A `Seer` that makes its seer the first time it is asked to see: a research that cites
    only text imports no renderer (Chromium's driver, pdfium, numpy)."""

    def __init__(self, make: Callable[[], S]) -> None:
        self._make = make
        self._seer: S | None = None
        self._making = threading.Lock()  # the bot sees from several threads

    def opened(self) -> S:
        with self._making:
            if self._seer is None:
                self._seer = self._make()
            return self._seer

    async def sight(self, document: Path, page: int | None, excerpt: str) -> Sight:
        return await self.opened().sight(document, page, excerpt)


def _browser() -> BrowserSeer:
    from engine.verify.seen.browser_seer import BrowserSeer

    return BrowserSeer()


def _pdf() -> PdfSeer:
    from engine.verify.seen.pdf_seer import PdfSeer

    return PdfSeer()


def _office(pdf: OnFirstSight[PdfSeer]) -> Callable[[], OfficeSeer]:
    def make() -> OfficeSeer:
        from engine.verify.seen.office import OfficeSeer

        return OfficeSeer(pdf.opened())

    return make


SHARED_BROWSER: OnFirstSight[BrowserSeer] = OnFirstSight(_browser)
"""The one headless Chromium of the process, launched at the first HTML page and reused by
every run (closed when the process exits)."""


def default_seers() -> dict[DocumentKind, Seer]:
    """A seer per kind: PDF, the Office kinds through it, and HTML in the browser."""
    pdf = OnFirstSight(_pdf)
    office = OnFirstSight(_office(pdf))
    return {
        DocumentKind.html: SHARED_BROWSER,
        DocumentKind.pdf: pdf,
        DocumentKind.docx: office,
        DocumentKind.pptx: office,
        DocumentKind.xlsx: office,
    }


SHARED_LOG = SeenLog()
"""What every seen check built without a log of its own did in this process (the evals
read it around each report)."""


SEEN_CHECK_SETTING = "FONTE_SEEN_CHECK"
"""On by default. Off (`0`, `off`) leaves the text check alone: for a test of something else,
which then need not render every page it cites; never for a report a client reads."""


def seen_check(
    fetcher: object, log: SeenLog | None = None, env: Mapping[str, str] | None = None
) -> SeenCheck | None:
    """The seen check of a research whose documents `fetcher` reads: its originals when it
    keeps them (`Originals`), else none (every claim on a page that is not text fails).
    None when `FONTE_SEEN_CHECK` turns it off."""
    if not env_flag(os.environ if env is None else env, SEEN_CHECK_SETTING, default=True):
        return None
    originals = fetcher if isinstance(fetcher, Originals) else None
    return SeenCheck(originals, SeenDispatcher(default_seers()), SHARED_LOG if log is None else log)
