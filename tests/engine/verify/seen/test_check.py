"""The seen check of a claim: text formats are what they show, any other page is read back
from its original by the seer of its kind, and a claim not seen (or not checkable) is
rejected in one line, "not what the page shows"."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.contracts import Claim, ClaimStatus
from engine.documents.parse import DocumentKind
from engine.snapshots import Snapshot
from engine.verify.seen import NOT_SEEN, SeenCheck, SeenDispatcher, SeenLog, Sight
from tests.support.render_samples import build_claim


class Recorded:
    """A seer that answers as told and records what it was asked."""

    def __init__(self, seen: bool = True, method: str = "pdf-ocr") -> None:
        self.asked: list[tuple[Path, int | None, str]] = []
        self._seen = seen
        self._method = method

    async def sight(self, document: Path, page: int | None, excerpt: str) -> Sight:
        self.asked.append((document, page, excerpt))
        reason = "" if self._seen else "nothing of it is drawn there"
        return Sight(self._seen, reason, self._method)


class Kept:
    def __init__(self, files: dict[str, Path]) -> None:
        self._files = files

    def original(self, url: str) -> Path | None:
        return self._files.get(url.split("#")[0])


def check(claim: Claim, content_type: str, seer: Recorded, tmp_path: Path) -> Claim:
    document = tmp_path / "doc.pdf"
    document.write_bytes(b"%PDF-1.7")
    originals = Kept({"https://example.org/doc.pdf": document})
    dispatcher = SeenDispatcher({DocumentKind.pdf: seer})
    snapshot = Snapshot(url=claim.url, text=claim.excerpt, content_type=content_type)
    return asyncio.run(SeenCheck(originals, dispatcher, SeenLog()).seen(claim, snapshot))


PDF_CLAIM = build_claim("c1", url="https://example.org/doc.pdf#page=3", context="Table 4 —")


def test_a_pdf_claim_is_read_back_on_its_page_excerpt_and_context(tmp_path: Path) -> None:
    seer = Recorded()
    checked = check(PDF_CLAIM, "application/pdf", seer, tmp_path)
    assert checked.status is ClaimStatus.verified
    assert checked.seen_by == "pdf-ocr"
    assert [(page, excerpt) for _, page, excerpt in seer.asked] == [
        (3, PDF_CLAIM.excerpt),
        (3, "Table 4 —"),
    ]


def test_a_claim_not_seen_is_rejected_in_one_line(tmp_path: Path) -> None:
    checked = check(PDF_CLAIM, "application/pdf", Recorded(seen=False), tmp_path)
    assert checked.status is ClaimStatus.rejected
    assert checked.seen_by == ""
    assert checked.reason == f"{NOT_SEEN}: nothing of it is drawn there"


def test_text_formats_are_what_they_show(tmp_path: Path) -> None:
    for content_type in ("text/plain", "text/markdown; charset=utf-8"):
        seer = Recorded(seen=False)
        checked = check(build_claim("c2"), content_type, seer, tmp_path)
        assert checked.status is ClaimStatus.verified
        assert checked.seen_by == "text"
        assert seer.asked == []


def test_an_html_page_without_a_browser_fails_closed(tmp_path: Path) -> None:
    checked = check(build_claim("c3"), "text/html; charset=utf-8", Recorded(), tmp_path)
    assert checked.status is ClaimStatus.rejected
    assert checked.reason == f"{NOT_SEEN}: not checked as a reader sees it: no browser"


def test_a_page_whose_original_was_not_kept_fails_closed(tmp_path: Path) -> None:
    claim = build_claim("c4", url="https://example.org/other.pdf#page=1")
    checked = check(claim, "application/pdf", Recorded(), tmp_path)
    assert checked.status is ClaimStatus.rejected
    assert checked.reason is not None
    assert checked.reason.startswith(NOT_SEEN)


def test_a_context_not_seen_rejects_its_claim(tmp_path: Path) -> None:
    class ContextHidden(Recorded):
        async def sight(self, document: Path, page: int | None, excerpt: str) -> Sight:
            await super().sight(document, page, excerpt)
            return Sight(excerpt != "Table 4 —", "nothing of it is drawn there", "pdf-ocr")

    checked = check(PDF_CLAIM, "application/pdf", ContextHidden(), tmp_path)
    assert checked.status is ClaimStatus.rejected
    assert checked.reason == f"{NOT_SEEN}: its context: nothing of it is drawn there"


def test_a_claim_already_rejected_or_a_figure_reading_is_left_as_it_is(tmp_path: Path) -> None:
    rejected = PDF_CLAIM.model_copy(update={"status": ClaimStatus.rejected, "reason": "x"})
    figure = PDF_CLAIM.model_copy(update={"read_by": "figure"})
    seer = Recorded(seen=False)
    assert check(rejected, "application/pdf", seer, tmp_path) == rejected
    assert check(figure, "application/pdf", seer, tmp_path) == figure
    assert seer.asked == []


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
