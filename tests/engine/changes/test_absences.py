"""Why what the previous report cited is gone (engine/changes/absences.py), told by reading
its source as it is now: removed, the excerpt no longer on its page, or still there."""

import asyncio

import pytest

from engine.changes import explain_gone, gone_reason, with_changes
from engine.contracts import ChangeKind, GoneReason
from engine.snapshots import Snapshot
from engine.sources.protocols import DocumentGone, FetchError
from engine.verify.digest import digest_problem
from tests.support.pages_source import PagesSource
from tests.support.report_changes import BETA, claim, current_report, previous_report

BETA_URL = "https://example.org/beta.html"


@pytest.mark.parametrize(
    ("current", "why"),
    [
        (DocumentGone("not a document of the library"), GoneReason.removed),
        (FetchError("timed out after 20 s"), GoneReason.unreachable),
        (
            Snapshot(url=BETA_URL, text="Beta sold its plants; no revenue this year."),
            GoneReason.excerpt_missing,
        ),
        (Snapshot(url=BETA_URL, text=f"{BETA}\nA new paragraph on Beta."), GoneReason.page_changed),
        (Snapshot(url=BETA_URL, text=BETA), GoneReason.not_cited),
    ],
)
def test_why_a_claim_is_gone_is_what_its_source_says_now(
    current: Snapshot | FetchError, why: GoneReason
) -> None:
    assert gone_reason(claim("b1", "beta", BETA), current) == why


def test_a_gone_source_says_why_and_the_report_is_sealed_again() -> None:
    pages = PagesSource()
    pages.add("https://example.org/alpha.html", "Alpha's page as it is now.")
    compared = asyncio.run(explain_gone(with_changes(current_report(), previous_report()), pages))
    gone = [c for c in compared.changes if c.kind is ChangeKind.gone]
    assert [(c.subject, c.why) for c in gone] == [("source", GoneReason.removed)]
    assert all(c.why is None for c in compared.changes if c.kind is not ChangeKind.gone)
    assert pages.fetches == [BETA_URL]  # only what is gone is read
    assert digest_problem(compared) is None


def test_a_gone_figure_still_on_its_page_says_it_was_not_cited() -> None:
    pages = PagesSource()
    pages.add(BETA_URL, f"{BETA}\nA new paragraph on Beta.")
    compared = asyncio.run(explain_gone(with_changes(current_report(), previous_report()), pages))
    assert [c.why for c in compared.changes if c.kind is ChangeKind.gone] == [
        GoneReason.page_changed
    ]


def test_a_report_without_gone_changes_reads_nothing() -> None:
    pages = PagesSource()
    unchanged = with_changes(previous_report(), previous_report())
    assert asyncio.run(explain_gone(unchanged, pages)) == unchanged
    assert pages.fetches == []
