"""`fonte verify --judge`: does each published sentence follow from the excerpts it cites?

Code cannot tell that a reworded sentence still says what its excerpts say; a model can
judge it. Each (sentence, cited claim) pair goes to the model's support judge as a claim
whose statement is the sentence; a sentence holds when at least one of its excerpts entails
it. Pure: the CLI runs the model between `sentence_pairs` and `unsupported_sentences`.
"""

from __future__ import annotations

from engine.contracts import Claim, ClaimStatus, Report, Support


def pair_id(section: int, sentence: int, claim_id: str) -> str:
    return f"s{section}.{sentence}:{claim_id}"


def sentence_pairs(report: Report) -> list[Claim]:
    """One claim per published sentence and verified claim it cites: the claim's excerpt
    and source with the sentence as its statement."""
    verified = {c.id: c for c in report.claims if c.status is ClaimStatus.verified}
    pairs = []
    for s_index, section in enumerate(report.sections):
        for t_index, sentence in enumerate(section.sentences):
            for claim_id in dict.fromkeys(sentence.claim_ids):
                if claim_id in verified:
                    pairs.append(
                        verified[claim_id].model_copy(
                            update={
                                "id": pair_id(s_index, t_index, claim_id),
                                "statement": sentence.text,
                                "support": None,
                            }
                        )
                    )
    return pairs


def unsupported_sentences(report: Report, judged: list[Claim]) -> list[str]:
    """One line per sentence that no cited excerpt entails, with what the judge said (an
    unverified citation is the draft check's business, not the judge's)."""
    verdicts = {claim.id: claim.support for claim in judged}
    verified = {c.id for c in report.claims if c.status is ClaimStatus.verified}
    lines = []
    for s_index, section in enumerate(report.sections):
        for t_index, sentence in enumerate(section.sentences):
            said = [
                verdicts.get(pair_id(s_index, t_index, claim_id))
                for claim_id in dict.fromkeys(sentence.claim_ids)
                if claim_id in verified
            ]
            if Support.entails not in said:
                labels = ", ".join(sorted({v.value if v else "not judged" for v in said}))
                lines.append(f"{sentence.text[:80]!r}: no cited excerpt entails it ({labels})")
    return lines
