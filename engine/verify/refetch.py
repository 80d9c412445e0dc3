"""`fonte verify --refetch`: read each published claim's page live again and say whether the
claim still holds, holds on a page that changed since it was accessed, fails, or could not be
checked because the page is unreachable."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from engine.contracts import Claim, ClaimStatus, Report
from engine.snapshots import Snapshot, split_page
from engine.sources.protocols import FetchError
from engine.verify.digest import seal_findings
from engine.verify.excerpts import verify_on_page
from engine.verify.result import CheckResult, ClaimCheck, Outcome

LiveRead = Callable[[str], Awaitable[Snapshot]]
"""Reads a URL live, never from a snapshot store (the CLI passes `WebFetcher.fetch`)."""


async def refetch_claims(
    report: Report, read_live: LiveRead, concurrency: int = 8, *, allow_unsealed: bool = False
) -> CheckResult:
    """Judge every verified claim of `report` against a live read of its page; each page is
    read once however many claims cite it."""
    published = report.verified_claims()
    documents = list(dict.fromkeys(split_page(c.url)[0] for c in published))
    slots = asyncio.Semaphore(concurrency)

    async def read(url: str) -> Snapshot | FetchError:
        async with slots:
            try:
                return await read_live(url)
            except FetchError as error:
                return error

    reads = dict(zip(documents, await asyncio.gather(*map(read, documents)), strict=True))
    failure, warning = seal_findings(report, allow_unsealed=allow_unsealed)
    return CheckResult(
        tuple(judge(c, reads[split_page(c.url)[0]]) for c in published),
        live=True,
        edited=failure,
        warnings=(warning,) if warning else (),
    )


def judge(claim: Claim, fresh: Snapshot | FetchError) -> ClaimCheck:
    """Pure: how `claim` fares against `fresh`, the live read of its page (or why it failed)."""
    if isinstance(fresh, FetchError):
        return ClaimCheck(claim, Outcome.unreachable, f"could not be read: {fresh}")
    checked = verify_on_page(claim, fresh)
    changed = fresh.sha256 != claim.source_sha256
    since = f"page changed since accessed on {claim.accessed_at:%Y-%m-%d %H:%M} UTC; "
    if checked.status is not ClaimStatus.verified:
        reason = (since if changed else "") + (checked.reason or "not verified")
        return ClaimCheck(claim, Outcome.fails, reason, fresh)
    if changed:
        return ClaimCheck(claim, Outcome.changed, since + "excerpt still there", fresh)
    return ClaimCheck(claim, Outcome.holds, checked.reason or "verified", fresh)
