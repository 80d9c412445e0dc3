"""Verification as a service: find the text a claim cites, then judge it with the pure verifier.

The judging (normalising a page, searching it) is CPU work: it runs in a worker thread, so the
event loop stays free to honour Ctrl-C, the time cap and every other report of a bot worker.
A claim whose excerpt is on its page is then seen (`Seeing`, `engine.verify.seen`): read back
from the page as rendered for a reader; one that is not is rejected, "not what the page
shows".
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from engine.contracts import Claim, ClaimStatus
from engine.snapshots import Snapshot, SnapshotStore
from engine.sources.protocols import Fetcher, FetchError
from engine.sources.standing import StandingRules, evidence_of, rules_from_environment
from engine.verify.excerpts import verify_on_page


class Seeing(Protocol):
    """The seen check of a claim its page's text holds (`engine.verify.seen.SeenCheck`):
    the claim with `seen_by` set, or rejected "not what the page shows: ..."."""

    async def seen(self, claim: Claim, snapshot: Snapshot) -> Claim: ...


class ClaimVerifier:
    """Checks each claim against the snapshot its subagent read, or a fresh read of the source,
    then, with `seeing`, against the page as a reader sees it (None: the text check only)."""

    def __init__(
        self,
        snapshots: SnapshotStore,
        fetcher: Fetcher,
        standing: StandingRules | None = None,
        seeing: Seeing | None = None,
    ) -> None:
        self._snapshots = snapshots
        self._fetcher = fetcher
        self._standing = rules_from_environment() if standing is None else standing
        self._seeing = seeing

    async def verify(self, claim: Claim) -> Claim:
        snapshot = await self._snapshots.get(claim.url)
        if snapshot is None or snapshot.sha256 != claim.source_sha256:
            try:
                snapshot = await self._fetcher.fetch(claim.url)
            except FetchError as error:
                return claim.model_copy(
                    update={
                        "status": ClaimStatus.rejected,
                        "reason": f"source could not be read: {error}",
                    }
                )
        checked = await asyncio.to_thread(verify_on_page, claim, snapshot)
        if self._seeing is not None and checked.status is ClaimStatus.verified:
            checked = await self._seeing.seen(checked, snapshot)
        # The source's date and standing come from what was read, never from the poster.
        published, standing = evidence_of(snapshot, self._standing)
        return checked.model_copy(update={"published": published, "standing": standing})
