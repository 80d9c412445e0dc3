"""The writer's post-check: a sentence enters the report only if it cites verified claims and
every number it states is in one of the excerpts it cites (or their contexts, verified on the
same page: a table's column header gives a row's periods). Whatever is dropped is recorded."""

from __future__ import annotations

from engine.contracts import Claim, ClaimStatus, DroppedSentence, Section, Sentence
from engine.text.numbers import missing_numbers


def _why_dropped(sentence: Sentence, verified: dict[str, Claim]) -> str | None:
    unknown = [cid for cid in sentence.claim_ids if cid not in verified]
    if unknown:
        return f"cites claims that are not verified: {', '.join(unknown)}"
    excerpts = " \n ".join(verified[cid].quoted for cid in sentence.claim_ids)
    missing = missing_numbers(sentence.text, excerpts)
    if missing:
        return f"numbers in no cited excerpt: {', '.join(missing)}"
    return None


def check_sections(
    sections: list[Section], claims: list[Claim]
) -> tuple[list[Section], list[DroppedSentence]]:
    verified = {c.id: c for c in claims if c.status is ClaimStatus.verified}
    kept_sections: list[Section] = []
    dropped: list[DroppedSentence] = []
    for section in sections:
        kept: list[Sentence] = []
        for sentence in section.sentences:
            reason = _why_dropped(sentence, verified)
            if reason is None:
                kept.append(sentence)
            else:
                dropped.append(
                    DroppedSentence(
                        section=section.title,
                        text=sentence.text,
                        claim_ids=sentence.claim_ids,
                        reason=reason,
                    )
                )
        if kept:
            kept_sections.append(Section(title=section.title, sentences=kept))
    return kept_sections, dropped
