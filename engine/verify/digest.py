"""A digest of what a report publishes, written with it, so that `fonte verify` can tell
when its sentences or claims were edited afterwards.

The digest is a plain SHA-256 of the published content (question, title, gaps, sections and
every claim of the board with its verdict and the context it quotes), not a signature: it
catches an edited report, not someone who edits the report and recomputes the digest with
this code. Reports sealed before contexts were covered carry the `sha256:` prefix and are
checked as they were sealed.
"""

from __future__ import annotations

import hashlib
import json

from engine.contracts import Report

DIGEST_PREFIX = "sha256-v2:"
"""Covers each claim's context too."""
LEGACY_PREFIX = "sha256:"


def published_digest(report: Report) -> str:
    return DIGEST_PREFIX + _hexdigest(report, with_contexts=True)


def _hexdigest(report: Report, *, with_contexts: bool) -> str:
    content = {
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
            + ([c.context or ""] if with_contexts else [])
            for c in report.claims
        ],
    }
    canonical = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def sealed(report: Report) -> Report:
    """The report with the digest of what it publishes now."""
    return report.model_copy(update={"digest": published_digest(report)})


def digest_problem(report: Report) -> str | None:
    """Why the report's content does not match its digest, or None when it does."""
    if report.digest is None:
        return "the report carries no digest (written before Fonte wrote one): edits go unseen"
    if report.digest.startswith(LEGACY_PREFIX):
        expected = LEGACY_PREFIX + _hexdigest(report, with_contexts=False)
    else:
        expected = published_digest(report)
    if report.digest != expected:
        return "the report was edited after it was written: its sentences or claims differ"
    return None
