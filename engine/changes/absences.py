"""Why a figure, a finding or a source the previous report cited is gone from the new one,
told by re-reading each of its old claims in the current sources (the only step of a
comparison that reads; `engine.changes.differences` is pure):

- `removed`: the source holds no such document any more (`DocumentGone`: a file no longer in
  the library, a page answering 404 or 410);
- `excerpt_missing`: the document is there and its excerpt is not on its cited page;
- `page_changed`: the document changed since the previous report read it, and the excerpt
  is still on it: this run did not cite it;
- `not_cited`: the document is as the previous report read it: this run did not cite it;
- `unreachable`: the document could not be read to tell (a timeout, a refusal).

Of a change's old claims, the one that says most wins: one still on its page says the
figure can still be found (`not_cited`, `page_changed`), before one whose excerpt is missing,
before one whose file is removed, before one that could not be read."""

from __future__ import annotations

from engine.contracts import ChangeKind, Claim, ClaimStatus, GoneReason, Report, ReportChange
from engine.snapshots import Snapshot
from engine.sources.protocols import DocumentGone, Fetcher, FetchError
from engine.verify.digest import sealed
from engine.verify.excerpts import verify_on_page

__all__ = ["explain_gone", "gone_reason"]

_TELLING = (
    GoneReason.not_cited,
    GoneReason.page_changed,
    GoneReason.excerpt_missing,
    GoneReason.removed,
    GoneReason.unreachable,
)
"""The reasons in the order one claim's reason tells more than another's."""


def gone_reason(claim: Claim, current: Snapshot | FetchError) -> GoneReason:
    """Pure: why `claim`, cited by the previous report, is gone, given `current`, the read
    of its document now (or the error reading it)."""
    if isinstance(current, DocumentGone):
        return GoneReason.removed
    if isinstance(current, FetchError):
        return GoneReason.unreachable
    if verify_on_page(claim, current).status is not ClaimStatus.verified:
        return GoneReason.excerpt_missing
    if current.sha256 != claim.source_sha256:
        return GoneReason.page_changed
    return GoneReason.not_cited


async def explain_gone(report: Report, fetcher: Fetcher) -> Report:
    """`report` (carrying its changes: `with_changes`) with each gone change saying why,
    each document read once through `fetcher`, which must read the sources as they are now
    (not a snapshot of the previous run); sealed again."""
    if report.previous is None or not any(c.kind is ChangeKind.gone for c in report.changes):
        return report
    old = {claim.id: claim for claim in report.previous.claims}
    reads: dict[str, Snapshot | FetchError] = {}

    async def read(url: str) -> Snapshot | FetchError:
        if url not in reads:
            try:
                reads[url] = await fetcher.fetch(url)
            except FetchError as error:
                reads[url] = error
        return reads[url]

    explained: list[ReportChange] = []
    for change in report.changes:
        if change.kind is ChangeKind.gone:
            reasons = [
                gone_reason(old[cid], await read(old[cid].url)) for cid in change.old_claim_ids
            ]
            change = change.model_copy(update={"why": min(reasons, key=_TELLING.index)})
        explained.append(change)
    return sealed(report.model_copy(update={"changes": explained}))
