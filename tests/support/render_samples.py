"""Builders for small, valid claims and reports used by the renderer tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from engine.contracts import (
    Claim,
    ClaimStatus,
    Plan,
    Report,
    Section,
    Sentence,
    Subquestion,
)
from engine.snapshots import sha256_text

ACCESSED = datetime(2025, 5, 1, 14, 3, 27, tzinfo=UTC)
PDF_URL = "https://www.aneel.gov.br/relatorio-gd-2024.pdf#page=60"
PDF_EXCERPT = "Tabela 12 — Geração distribuída por região\nO Nordeste concentra 30% da potência"


def build_claim(claim_id: str, **fields: Any) -> Claim:
    values: dict[str, Any] = {
        "id": claim_id,
        "statement": f"Afirmação {claim_id}",
        "url": f"https://example.org/{claim_id}",
        "title": f"Página {claim_id}",
        "excerpt": f"Trecho verificado da afirmação {claim_id} com texto suficiente.",
        "accessed_at": ACCESSED,
        "source_sha256": sha256_text(claim_id),
        "subagent": "sa-1",
        "subquestion": "q1",
        "status": ClaimStatus.verified,
    }
    values.update(fields)
    return Claim(**values)


def build_report(claims: list[Claim], sections: list[Section], **fields: Any) -> Report:
    question = fields.pop("question", "Como está o mercado de energia solar no Nordeste?")
    plan = Plan(question=question, subquestions=[Subquestion(id="q1", text=question)])
    return Report(question=question, plan=plan, claims=claims, sections=sections, **fields)


def cite(text: str, *claim_ids: str) -> Sentence:
    return Sentence(text=text, claim_ids=list(claim_ids))
