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

import engine.doors

__getattr__, __dir__, __all__ = engine.doors.door(__name__)
