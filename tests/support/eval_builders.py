"""Hand-built claims, reports and rows for the eval tests."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Literal

from engine.contracts import (
    Claim,
    ClaimStatus,
    DroppedSentence,
    Plan,
    Report,
    Section,
    Sentence,
    Spend,
    Subquestion,
    Usage,
    claim_id_for,
)
from engine.snapshots import sha256_text
from evals.metrics import Row, Tally

ACCESSED = datetime(2024, 5, 1, tzinfo=UTC)


def claim(
    url: str,
    excerpt: str,
    *,
    statement: str | None = None,
    status: ClaimStatus = ClaimStatus.verified,
    page_text: str = "page",
) -> Claim:
    return Claim(
        id=claim_id_for(url, excerpt),
        statement=statement or excerpt,
        url=url,
        excerpt=excerpt,
        accessed_at=ACCESSED,
        source_sha256=sha256_text(page_text),
        subagent="s1",
        subquestion="s1",
        status=status,
    )


def report(
    claims: list[Claim],
    sentences: list[tuple[str, list[str]]] | None = None,
    *,
    gaps: list[str] | None = None,
    architecture: Literal["final", "v1"] = "final",
    dropped: list[str] | None = None,
    usage: Usage | None = None,
    usd: float = 0.0,
    partial: bool = False,
) -> Report:
    """A report citing each claim in its own sentence, unless `sentences` says otherwise."""
    cited = sentences if sentences is not None else [(c.statement, [c.id]) for c in claims]
    return Report(
        question="Q?",
        plan=Plan(question="Q?", subquestions=[Subquestion(id="s1", text="Q?")]),
        sections=[
            Section(title="A", sentences=[Sentence(text=t, claim_ids=ids) for t, ids in cited])
        ],
        claims=claims,
        gaps=gaps or [],
        architecture=architecture,
        partial=partial,
        dropped_sentences=[
            DroppedSentence(section="A", text=text, claim_ids=[], reason="uncited")
            for text in dropped or []
        ],
        spend=Spend(usd=usd, usage=usage or Usage()),
    )


def row(arch: str, case_id: str = "c1", **fields: object) -> Row:
    values: dict[str, object] = {each.name: 0 for each in dataclasses.fields(Tally)} | {
        "case_id": case_id,
        "arch": arch,
        "group": "case",
        "required_found": 1,
        "required_on_board": 1,
        "required_total": 2,
        "published_claims": 4,
        "verified_claims": 4,
        "unsupported_numbers": 0,
        "numeric_sentences": 1,
        "uncited_sentences": 0,
        "gaps_declared": 1,
        "gaps_expected": 1,
        "partial": False,
        "seconds": 1.5,
        "usd": 0.0,
        "model_calls": 5,
        "input_tokens": 1000,
        "output_tokens": 100,
        "simulated_latency": False,
    }
    values.update(fields)
    return Row(**values)  # type: ignore[arg-type]
