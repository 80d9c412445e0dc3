"""Verification: an excerpt is on its page or it is not published (docs/design.md, principle 4).

- `excerpts`: the pure checks. An excerpt (and its context, a lead-in or column header) is
  found on the cited page after normalisation, and every number of a claim's statement is
  in what it quotes (`Claim.quoted`).
- `service`: `ClaimVerifier` finds the text a claim cites (the snapshot its subagent read,
  or a fresh read) and judges the claim with those checks, then has it seen (`Seeing`:
  `seen/`, the excerpt read back from the page as rendered for a reader).
- `draft`: the writer's post-check (`check_draft`, the number guard). A sentence, table cell
  or calculation is published only if it cites verified claims and states no number missing
  from what they quote, except the text of a calculation code recomputes from their figures.
- `recheck` and `refetch`: `fonte verify` on a saved report, against the sources as they are
  or against live re-reads of web pages. Both return a `CheckResult`.
- `digest`: a SHA-256 of what a report publishes, written with report.json, so that verify
  sees a sentence or claim edited afterwards.
- `support`: the pairs `fonte verify --judge` hands a model, and what its verdicts mean.
"""

from engine.verify.digest import digest_problem, published_digest, sealed
from engine.verify.draft import CheckedDraft, check_draft, check_sections
from engine.verify.excerpts import Verdict, verify_excerpt, verify_on_page
from engine.verify.recheck import recheck_report
from engine.verify.refetch import LiveRead, refetch_claims
from engine.verify.result import CheckResult, ClaimCheck, Outcome
from engine.verify.service import ClaimVerifier, Seeing
from engine.verify.support import sentence_pairs, unsupported_sentences

__all__ = [
    "CheckResult",
    "CheckedDraft",
    "ClaimCheck",
    "ClaimVerifier",
    "LiveRead",
    "Outcome",
    "Seeing",
    "Verdict",
    "check_draft",
    "check_sections",
    "digest_problem",
    "published_digest",
    "recheck_report",
    "refetch_claims",
    "sealed",
    "sentence_pairs",
    "unsupported_sentences",
    "verify_excerpt",
    "verify_on_page",
]
