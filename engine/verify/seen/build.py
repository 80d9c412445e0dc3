"""The seen check as every entry point builds it: the seers of each kind, and the originals
of the research's sources."""

from __future__ import annotations

from engine.documents.parse import DocumentKind
from engine.sources.protocols import Originals
from engine.verify.seen.check import SeenCheck, SeenLog
from engine.verify.seen.dispatch import SeenDispatcher
from engine.verify.seen.office import OfficeSeer
from engine.verify.seen.pdf import PdfSeer
from engine.verify.seen.protocol import Seer


def default_seers() -> dict[DocumentKind, Seer]:
    """A seer per kind that has one here: PDF, and the Office kinds through it. HTML has
    none until a browser seer is plugged in: its claims fail closed."""
    pdf = PdfSeer()
    office = OfficeSeer(pdf)
    return {
        DocumentKind.pdf: pdf,
        DocumentKind.docx: office,
        DocumentKind.pptx: office,
        DocumentKind.xlsx: office,
    }


SHARED_LOG = SeenLog()
"""What every seen check built without a log of its own did in this process (the evals
read it around each report)."""


def seen_check(fetcher: object, log: SeenLog | None = None) -> SeenCheck:
    """The seen check of a research whose documents `fetcher` reads: its originals when it
    keeps them (`Originals`), else none (every claim on a page that is not text fails)."""
    originals = fetcher if isinstance(fetcher, Originals) else None
    return SeenCheck(originals, SeenDispatcher(default_seers()), SHARED_LOG if log is None else log)
