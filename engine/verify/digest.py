"""A digest of what a report publishes, written with it, so that `fonte verify` can tell
when anything a reader sees was edited afterwards.

The digest is a plain SHA-256 of the published content, not a signature: it catches an edited
report, not someone who edits the report and recomputes the digest with this code. Since
`sha256-v4:` it covers all a reader sees: question, title, language, partial flag, gaps,
notes, the summary, sections, figures tables, calculations, conflicts, and every claim of
the board with its title, excerpt, context, access date and verdict; since `sha256-v5:`
also each claim's source date and standing, which the Sources part shows; since `sha256-v6:`
also which source each document came from (`origins`: team library, web, shared in the
conversation), which every format prints beside it; since `sha256-v7:` also how each claim
was seen (`seen_by`: rendered and read back, or a text format); since `sha256-v8:` also
what changed since the previous report (`changes`) and that report as this one cites it
(`previous`: its date, its seal, the claims its changes cite, as it sealed them). A report
without a digest is *unsealed*: `fonte verify` fails it unless told to allow it. Reports
sealed earlier (`sha256-v7:`, `sha256-v6:`, `sha256-v5:`, `sha256-v4:`, `sha256-v3:`, `sha256-v2:`,
`sha256:`) are checked as they were sealed.
"""

from __future__ import annotations

import hashlib
import json

from engine.contracts import Report

DIGEST_PREFIX = "sha256-v8:"
"""Covers what changed since the previous report too (`Report.changes`, `Report.previous`):
a change removed, a value edited on either side or an old claim reworded must break it."""
V7_PREFIX = "sha256-v7:"
"""Covers how each claim was seen too (`Claim.seen_by`): a claim relabelled as checked by
rendering, or one whose check was removed, must break it."""
V6_PREFIX = "sha256-v6:"
"""Covers the documents' origins too: a web page relabelled "team library" must break it."""
V5_PREFIX = "sha256-v5:"
"""Covers each claim's source date and standing too, and how its page was read (a figure
reading is checked by rules of its own, so flipping it must break the seal)."""
V4_PREFIX = "sha256-v4:"
"""Covers the summary, figures tables and calculations too."""
V3_PREFIX = "sha256-v3:"
V2_PREFIX = "sha256-v2:"
LEGACY_PREFIX = "sha256:"
UNSEALED = "the report is unsealed: it carries no digest, so edits to it would go unseen"
EDITED = "the report was edited after it was written: its sentences or claims differ"


def published_digest(report: Report) -> str:
    return DIGEST_PREFIX + _hexdigest(report, version=8)


def _hexdigest(report: Report, *, version: int = 8, with_contexts: bool = True) -> str:
    content: dict[str, object] = {
        "question": report.question,
        "title": report.title,
        "partial": report.partial,
        "gaps": report.gaps,
        "sections": [
            {
                "title": section.title,
                "sentences": [[s.text, s.claim_ids] for s in section.sentences],
            }
            for section in report.sections
        ],
        "claims": [
            [c.id, c.statement, c.url, c.excerpt, c.source_sha256, c.status.value]
            + ([c.context or ""] if with_contexts or version >= 3 else [])
            + ([c.title, c.accessed_at.isoformat(), c.reason or ""] if version >= 3 else [])
            + ([c.published, c.standing or "", c.read_by] if version >= 5 else [])
            + ([c.seen_by] if version >= 7 else [])
            for c in report.claims
        ],
    }
    if version >= 3:
        content |= {
            "language": report.language,
            "notes": report.notes,
            "conflicts": [c.model_dump(mode="json") for c in report.conflicts],
        }
    if version >= 4:
        content |= {
            "summary": [s.model_dump(mode="json") for s in report.summary],
            "sections": [s.model_dump(mode="json") for s in report.sections],
            "tables": [t.model_dump(mode="json") for t in report.tables],
            "calculations": [c.model_dump(mode="json") for c in report.calculations],
        }
    if version >= 6:
        content["origins"] = report.origins
    if version >= 8:
        previous = report.previous
        content |= {
            "previous": previous.model_dump(mode="json") if previous is not None else None,
            "changes": [c.model_dump(mode="json") for c in report.changes],
        }
    canonical = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def sealed(report: Report) -> Report:
    """The report with the digest of what it publishes now."""
    return report.model_copy(update={"digest": published_digest(report)})


def digest_problem(report: Report) -> str | None:
    """Why the report's content does not match its digest (`UNSEALED` without one), or None
    when it does."""
    if report.digest is None:
        return UNSEALED
    if report.digest.startswith(LEGACY_PREFIX):
        expected = LEGACY_PREFIX + _hexdigest(report, version=1, with_contexts=False)
    elif report.digest.startswith(V7_PREFIX):
        expected = V7_PREFIX + _hexdigest(report, version=7)
    elif report.digest.startswith(V6_PREFIX):
        expected = V6_PREFIX + _hexdigest(report, version=6)
    elif report.digest.startswith(V5_PREFIX):
        expected = V5_PREFIX + _hexdigest(report, version=5)
    elif report.digest.startswith(V4_PREFIX):
        expected = V4_PREFIX + _hexdigest(report, version=4)
    elif report.digest.startswith(V3_PREFIX):
        expected = V3_PREFIX + _hexdigest(report, version=3)
    elif report.digest.startswith(V2_PREFIX):
        expected = V2_PREFIX + _hexdigest(report, version=2)
    else:
        expected = published_digest(report)
    return EDITED if report.digest != expected else None


def seal_findings(report: Report, *, allow_unsealed: bool = False) -> tuple[str | None, str | None]:
    """(failure, warning) of the report's seal for `fonte verify`: an edited report fails;
    an unsealed one fails too, unless `allow_unsealed`, when it is only a warning."""
    problem = digest_problem(report)
    if problem == UNSEALED and allow_unsealed:
        return None, problem
    return problem, None
