"""`fonte verify --refetch`: read each published claim's page live again and say whether the
claim still holds, holds on a page that changed since it was accessed, fails, or could not be
checked because the page is unreachable."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from engine.contracts import Claim, ClaimStatus, Report
from engine.snapshots import Snapshot, split_page
from engine.sources.protocols import Fetcher, FetchError
from engine.sources.web.snapshot_cache import CachingFetcher
from engine.verifier import verify_claim


class RefetchOutcome(StrEnum):
    holds = "holds"
    changed = "changed"  # the page changed since access; the excerpt is still on it
    fails = "fails"
    unreachable = "unreachable"


_LABELS = {
    RefetchOutcome.holds: "ok     ",
    RefetchOutcome.changed: "changed",
    RefetchOutcome.fails: "FAIL   ",
    RefetchOutcome.unreachable: "unreach",
}


@dataclass(frozen=True)
class ClaimRefetch:
    """One published claim judged against a live read of its page."""

    claim: Claim
    outcome: RefetchOutcome
    reason: str
    fresh: Snapshot | None = None


@dataclass(frozen=True)
class RefetchResult:
    claims: tuple[ClaimRefetch, ...] = ()

    @property
    def ok(self) -> bool:
        """No published claim fails (unreachable pages are reported, not failed)."""
        return all(c.outcome is not RefetchOutcome.fails for c in self.claims)

    def count(self, outcome: RefetchOutcome) -> int:
        return sum(1 for c in self.claims if c.outcome is outcome)

    def lines(self) -> list[str]:
        out = [f"{_LABELS[c.outcome]} {c.claim.id} {c.claim.url} — {c.reason}" for c in self.claims]
        counts = Counter(c.outcome for c in self.claims)
        holding = counts[RefetchOutcome.holds] + counts[RefetchOutcome.changed]
        verdict = "all published claims still hold" if self.ok else "refetch FAILED"
        summary = f"{verdict}: {holding}/{len(self.claims)} claims hold on the live pages"
        details = [
            f"{counts[RefetchOutcome.changed]} on a changed page",
            f"{counts[RefetchOutcome.fails]} failed",
            f"{counts[RefetchOutcome.unreachable]} unreachable",
        ]
        out.append(f"{summary} ({', '.join(details)})")
        return out


async def refetch_claims(report: Report, fetcher: Fetcher, concurrency: int = 8) -> RefetchResult:
    """Judge every verified claim of `report` against a live read of its page.

    Each page is read once however many claims cite it; a `CachingFetcher` is asked for a
    fresh read, never its store.
    """
    published = report.verified_claims()
    documents = list(dict.fromkeys(split_page(c.url)[0] for c in published))
    slots = asyncio.Semaphore(concurrency)

    async def read(url: str) -> Snapshot | FetchError:
        async with slots:
            try:
                if isinstance(fetcher, CachingFetcher):
                    return await fetcher.fetch(url, fresh=True)
                return await fetcher.fetch(url)
            except FetchError as error:
                return error

    reads = dict(zip(documents, await asyncio.gather(*map(read, documents)), strict=True))
    return RefetchResult(tuple(judge(c, reads[split_page(c.url)[0]]) for c in published))


def judge(claim: Claim, fresh: Snapshot | FetchError) -> ClaimRefetch:
    """Pure: how `claim` fares against `fresh`, the live read of its page (or why it failed)."""
    if isinstance(fresh, FetchError):
        return ClaimRefetch(claim, RefetchOutcome.unreachable, f"could not be read: {fresh}")
    checked = verify_claim(claim, fresh)
    changed = fresh.sha256 != claim.source_sha256
    since = f"page changed since accessed on {claim.accessed_at:%Y-%m-%d %H:%M} UTC; "
    if checked.status is not ClaimStatus.verified:
        reason = (since if changed else "") + (checked.reason or "not verified")
        return ClaimRefetch(claim, RefetchOutcome.fails, reason, fresh)
    if changed:
        return ClaimRefetch(claim, RefetchOutcome.changed, since + "excerpt still there", fresh)
    return ClaimRefetch(claim, RefetchOutcome.holds, checked.reason or "verified", fresh)
