"""A claim quoting an excerpt on a page, as a subagent posts it to the board, and the
verifier's verdict on it (engine/verify/excerpts.py `verify_on_page`): the one builder the
verifier's tests share, so that each test says only its page, statement, excerpt and context."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.contracts import Claim
from engine.snapshots import Snapshot
from engine.verify.excerpts import verify_on_page

ACCESSED = datetime(2026, 11, 1, tzinfo=UTC)
PAGE_URL = "https://example.org/doc"


def claim_on(
    snapshot: Snapshot,
    statement: str,
    excerpt: str,
    context: str | None = None,
    *,
    url: str | None = None,
) -> Claim:
    """A pending claim quoting `excerpt` from `snapshot` (at `url`, the snapshot's own by default)."""
    return Claim(
        id="c1",
        statement=statement,
        url=url or snapshot.url,
        excerpt=excerpt,
        context=context,
        accessed_at=ACCESSED,
        source_sha256=snapshot.sha256,
        subagent="researcher-1",
        subquestion="s1",
    )


def judged(
    page: str, statement: str, excerpt: str, context: str | None = None, *, url: str = PAGE_URL
) -> Claim:
    """The verdict on a claim quoting `excerpt` from a one-page snapshot of `page` at `url`."""
    snapshot = Snapshot(url=url, text=page)
    return verify_on_page(claim_on(snapshot, statement, excerpt, context), snapshot)
