"""The eval's seen-check columns: claims checked by rendering, those it rejected, and its time
per claim."""

from __future__ import annotations

import pytest

from engine.contracts import Claim, ClaimStatus
from evals.cases import Case
from evals.metrics import measure
from evals.tables import results_markdown
from evals.totals import totals
from tests.support.eval_builders import claim, report, row

FILING = "file:///corpus/acme-10k.pdf"


def _claim(page: int, excerpt: str, **fields: object) -> Claim:
    return claim(f"{FILING}#page={page}", excerpt).model_copy(update=fields)


def test_claims_checked_by_rendering_and_rejected_by_it_are_counted() -> None:
    seen = _claim(3, "Net revenue was $1,204 million in 2023.", seen_by="pdf-ocr")
    office = _claim(4, "Headcount was 12,000 at year end.", seen_by="office")
    text = _claim(5, "Capex was $88 million in 2023.", seen_by="text")
    unseen = _claim(
        6,
        "Operating income was $310 million.",
        status=ClaimStatus.rejected,
        reason="not what the page shows: nothing of it is drawn there",
    )
    other = _claim(
        7, "Sales were 410 units.", status=ClaimStatus.rejected, reason="excerpt not found"
    )
    metrics = measure(report([seen, office, text, unseen, other]), _case(), {seen.id})
    assert (metrics.seen_rendered, metrics.seen_rejected) == (3, 1)


def test_the_table_shows_them_with_the_time_per_claim() -> None:
    rows = [
        row("final", "c1", seen_rendered=3, seen_rejected=1, seen_seconds=1.5),
        row("final", "c2", seen_rendered=1, seen_rejected=0, seen_seconds=0.5),
    ]
    sums = totals(rows, "final")
    assert (sums.seen_rendered, sums.seen_rejected, sums.seen_seconds) == (4, 1, 2.0)
    table = results_markdown(rows, suite="s", model="offline")
    assert "claims checked by rendering (rejected by it) | 4 (1)" in table
    assert "seen check time per claim | 0.50 s" in table


def _case() -> Case:
    return Case(id="c", question="Q?", required=(), expected_gaps=())


# The seen check runs here, whatever FONTE_SEEN_CHECK the other tests run with (tests/conftest.py).
pytestmark = pytest.mark.seen
