"""`fonte verify`: re-check a saved report's published claims against a fresh read."""

from __future__ import annotations

from engine.contracts import ClaimStatus, Draft, Report
from engine.snapshots import InMemorySnapshotStore
from engine.sources.protocols import Fetcher
from engine.verify.digest import seal_findings
from engine.verify.draft import check_draft
from engine.verify.result import CheckResult, ClaimCheck, Outcome
from engine.verify.service import ClaimVerifier, Seeing


async def recheck_report(
    report: Report,
    fetcher: Fetcher,
    *,
    allow_unsealed: bool = False,
    seeing: Seeing | None = None,
) -> CheckResult:
    """`seeing`: the seen check (`engine.verify.seen.seen_check(fetcher)`, which
    `fonte verify` passes); None checks the text only."""
    # An empty store: every claim is judged against a fresh read, not the run's snapshot.
    verifier = ClaimVerifier(InMemorySnapshotStore(), fetcher, seeing=seeing)
    checked = [await verifier.verify(claim) for claim in report.verified_claims()]
    others = [c for c in report.claims if c.status is not ClaimStatus.verified]
    published = Draft.of_report(report)
    dropped = check_draft(published, [*checked, *others], language=report.language).dropped
    failure, warning = seal_findings(report, allow_unsealed=allow_unsealed)
    return CheckResult(
        claims=tuple(
            ClaimCheck(
                claim,
                Outcome.holds if claim.status is ClaimStatus.verified else Outcome.fails,
                claim.reason or "",
            )
            for claim in checked
        ),
        sentence_failures=tuple(f"{d.text[:80]!r}: {d.reason}" for d in dropped),
        edited=failure,
        warnings=(warning,) if warning else (),
    )
