"""`fonte verify`: re-check a saved report's published claims against a fresh read."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.contracts import Claim, ClaimStatus, Report
from engine.draft_check import check_sections
from engine.snapshots import InMemorySnapshotStore
from engine.sources.protocols import Fetcher
from engine.verification import ClaimVerifier


@dataclass(frozen=True)
class RecheckResult:
    checked: list[Claim] = field(default_factory=list)
    failed: list[Claim] = field(default_factory=list)
    sentence_failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed and not self.sentence_failures

    def lines(self) -> list[str]:
        failed = {c.id for c in self.failed}
        out = [
            f"{'FAIL' if c.id in failed else 'ok  '} {c.id} {c.url} — {c.reason}"
            for c in self.checked
        ]
        out += [f"FAIL sentence: {reason}" for reason in self.sentence_failures]
        verdict = "all published claims verified" if self.ok else "verification FAILED"
        out.append(
            f"{verdict}: {len(self.checked) - len(self.failed)}/{len(self.checked)} claims hold"
        )
        return out


async def recheck_report(report: Report, fetcher: Fetcher) -> RecheckResult:
    # An empty store: every claim is judged against a fresh read, not the run's snapshot.
    verifier = ClaimVerifier(InMemorySnapshotStore(), fetcher)
    published = report.verified_claims()
    checked = [await verifier.verify(claim) for claim in published]
    failed = [c for c in checked if c.status is not ClaimStatus.verified]
    others = [c for c in report.claims if c.status is not ClaimStatus.verified]
    _, dropped = check_sections(report.sections, [*checked, *others])
    return RecheckResult(
        checked=checked,
        failed=failed,
        sentence_failures=[f"{d.text[:80]!r}: {d.reason}" for d in dropped],
    )
