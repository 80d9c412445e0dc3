"""One result shape for every re-check of a saved report: each published claim with its
outcome and a one-line reason, the sentences that no longer hold, and the lines to print."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from engine.contracts import Claim
from engine.snapshots import Snapshot


class Outcome(StrEnum):
    holds = "holds"
    changed = "changed"  # the page changed since access; the excerpt is still on it
    fails = "fails"
    unreachable = "unreachable"  # the page could not be read again: reported, not failed


PROVES = (
    "checked: each published excerpt (and its context) is on its cited page, each claim's "
    "numbers are in what it quotes, each sentence cites verified claims and states no number "
    "outside their quotes, and the report is as it was written (digest). Not checked: that a "
    "sentence's wording follows from its excerpts (--judge asks a model, with "
    "ANTHROPIC_API_KEY)."
)

_LABELS = {
    Outcome.holds: "ok     ",
    Outcome.changed: "changed",
    Outcome.fails: "FAIL   ",
    Outcome.unreachable: "unreach",
}


@dataclass(frozen=True)
class ClaimCheck:
    """One published claim judged again: `claim` carries the new status and reason."""

    claim: Claim
    outcome: Outcome
    reason: str
    fresh: Snapshot | None = None


@dataclass(frozen=True)
class CheckResult:
    """`live`: judged against live re-reads of the pages (`--refetch`), not the text the run
    read."""

    claims: tuple[ClaimCheck, ...] = ()
    sentence_failures: tuple[str, ...] = ()
    live: bool = False
    edited: str | None = None
    """Why the report no longer matches the digest written with it (a failure)."""
    warnings: tuple[str, ...] = ()
    change_failures: tuple[str, ...] = ()
    """Why what changed since the previous report no longer holds as the report says
    (`engine.changes.check_changes`)."""

    @property
    def ok(self) -> bool:
        """No published claim fails, every published sentence still holds, every change
        since the previous report holds, and the report is as it was written."""
        failing = self.sentence_failures or self.change_failures or self.edited
        return self.count(Outcome.fails) == 0 and not failing

    def count(self, outcome: Outcome) -> int:
        return sum(1 for c in self.claims if c.outcome is outcome)

    @property
    def failed(self) -> list[Claim]:
        return [c.claim for c in self.claims if c.outcome is Outcome.fails]

    def lines(self) -> list[str]:
        out = [f"{_LABELS[c.outcome]} {c.claim.id} {c.claim.url} — {c.reason}" for c in self.claims]
        out += [f"FAIL    sentence: {reason}" for reason in self.sentence_failures]
        out += [f"FAIL    {reason}" for reason in self.change_failures]
        out += [f"FAIL    report: {self.edited}"] if self.edited else []
        out += [f"note    {warning}" for warning in self.warnings]
        counts = Counter(c.outcome for c in self.claims)
        holding = counts[Outcome.holds] + counts[Outcome.changed]
        total = len(self.claims)
        if not self.live:
            verdict = "all published claims verified" if self.ok else "verification FAILED"
            out.append(f"{verdict}: {holding}/{total} claims hold")
            out.append(PROVES)
            return out
        verdict = "all published claims still hold" if self.ok else "refetch FAILED"
        details = [
            f"{counts[Outcome.changed]} on a changed page",
            f"{counts[Outcome.fails]} failed",
            f"{counts[Outcome.unreachable]} unreachable",
        ]
        out.append(
            f"{verdict}: {holding}/{total} claims hold on the live pages ({', '.join(details)})"
        )
        return out
