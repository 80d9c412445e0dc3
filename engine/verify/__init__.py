"""Verification: an excerpt is on its page or it is not published (DESIGN.md, principle 4).

- `excerpts`: the pure checks. An excerpt is found on the cited page after normalisation,
  and every number of a claim's statement is in its excerpt.
- `service`: `ClaimVerifier` finds the text a claim cites (the snapshot its subagent read,
  or a fresh read) and judges the claim with those checks.
- `draft`: the writer's post-check. A sentence is published only if it cites verified claims
  and states no number missing from their excerpts.
- `recheck` and `refetch`: `fonte verify` on a saved report, against the sources as they are
  or against live re-reads of web pages. Both return a `CheckResult`.
"""

from engine.verify.draft import check_sections
from engine.verify.excerpts import Verdict, verify_claim, verify_excerpt
from engine.verify.recheck import recheck_report
from engine.verify.refetch import LiveRead, refetch_claims
from engine.verify.result import CheckResult, ClaimCheck, Outcome
from engine.verify.service import ClaimVerifier

__all__ = [
    "CheckResult",
    "ClaimCheck",
    "ClaimVerifier",
    "LiveRead",
    "Outcome",
    "Verdict",
    "check_sections",
    "recheck_report",
    "refetch_claims",
    "verify_claim",
    "verify_excerpt",
]
