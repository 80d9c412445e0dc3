"""Quote the verified claims as they are: sections from verified claims only, each sentence
a cited claim. The offline model writes this way, and the orchestrator falls back to it when a
model's writer fails or the budget cannot pay for one.

It composes nothing of its own: every sentence is the statement of a verified claim, whose
excerpt the verifier found on the cited page. Near-identical statements merge into one
sentence citing all their claims.
"""

from __future__ import annotations

from engine.contracts import Claim, Draft, Plan, Section, Sentence
from engine.planning.briefs import Brief
from engine.text.normalise import excerpt_key

MAX_SENTENCES_PER_SECTION = 8


def title_for(brief: Brief) -> str:
    question = brief.question.strip()
    return f"Relatório: {question}" if brief.language == "pt" else f"Report: {question}"


def _merge_duplicates(claims: list[Claim]) -> list[Sentence]:
    sentences: list[Sentence] = []
    keys: list[str] = []
    for claim in claims:
        key = excerpt_key(claim.statement)
        for index, known in enumerate(keys):
            if key in known or known in key:
                merged = [*sentences[index].claim_ids, claim.id]
                # Keep the fuller wording: the longer statement says everything the shorter does.
                text = claim.statement if len(key) > len(known) else sentences[index].text
                sentences[index] = Sentence(text=text, claim_ids=merged)
                keys[index] = max(key, known, key=len)
                break
        else:
            sentences.append(Sentence(text=claim.statement, claim_ids=[claim.id]))
            keys.append(key)
    return sentences


def verbatim_draft(brief: Brief, plan: Plan, verified: list[Claim]) -> Draft:
    sections: list[Section] = []
    for subquestion in plan.subquestions:
        own = [c for c in verified if c.subquestion == subquestion.id]
        sentences = _merge_duplicates(own)[:MAX_SENTENCES_PER_SECTION]
        if sentences:
            sections.append(
                Section(title=subquestion.title or subquestion.text, sentences=sentences)
            )
    return Draft(title=title_for(brief), sections=sections)
