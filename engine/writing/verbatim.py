"""The report an analyst sends, written from verified claims only: the answer first (a
summary of cited points, with the changes a comparison asks for computed in code), then one
section per subquestion quoting its verified statements, the figures tables and the
calculations. The offline model writes this way, and the orchestrator falls back to it when
a model's writer fails or the budget cannot pay for one.

It composes nothing a source does not say: a section's sentence is the statement of a
verified claim, whose excerpt the verifier found on the cited page, and a summary point is
such a statement or a sentence stating verified figures and calculated results (see
`summary`). Near-identical statements merge into one sentence citing all their claims, and so
do two claims of one document that quote the same figures (one row printed on two pages).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.contracts import Claim, Draft, Figure, Language, Plan, Section, Sentence
from engine.planning.briefs import Brief
from engine.text.normalise import collapse_whitespace, excerpt_key
from engine.text.provisions import parse_citation, without_marker
from engine.words import words_for
from engine.writing.figures import figures_tables, gather_figures
from engine.writing.summary import summary_for

MAX_SENTENCES_PER_SECTION = 8
MAX_TITLE_WORDS = 14

# What opens a question and says nothing of its subject ("How did", "Qual é o", "Como está a").
_OPENING = re.compile(
    r"^(?:(?:how|what|which|who|when|where|why|did|does|do|is|are|was|were|has|have|had|"
    r"the|an?|tell me about|como|qual|quais|quanto|quantos|quantas|quando|onde|quem|"
    r"o que|que|é|e|está|esta|estão|estao|são|sao|foi|foram|anda|andam|os?|as?|"
    r"fale sobre|me fale sobre)\s+)+",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"[^?]*\?")


def title_for(brief: Brief) -> str:
    """A short title in the question's own words (its subject, without the words that open
    it), or the question itself when that would be too short or too long. The renderers
    state the question once; the title does not repeat it under a label."""
    question = collapse_whitespace(brief.question)
    first = _QUESTION.match(question)
    asked = first.group(0) if first else question
    subject = _OPENING.sub("", asked.strip().rstrip("?!. ")).strip(" ,;:")
    if not 2 <= len(subject.split()) <= MAX_TITLE_WORDS:
        return question
    return subject[:1].upper() + subject[1:]


def _document(claim: Claim) -> str:
    return claim.url.split("#", 1)[0]


def _merge_duplicates(claims: list[Claim]) -> list[Sentence]:
    """One sentence per statement: a statement contained in another, or a claim quoting no
    figure but those of another claim of the same document, joins it (both cited)."""
    figures = gather_figures(claims)
    held = {
        c.id: frozenset(i for i, f in enumerate(figures) if c.id in f.claim_ids) for c in claims
    }
    sentences: list[Sentence] = []
    keys: list[str] = []
    owners: list[Claim] = []  # the claim whose statement each sentence holds
    for claim in claims:
        key = excerpt_key(claim.statement)
        for index, known in enumerate(keys):
            owner = owners[index]
            same_words = key in known or known in key
            same_figures = _document(claim) == _document(owner) and _nested(
                held[claim.id], held[owner.id]
            )
            if not (same_words or same_figures):
                continue
            # Keep the fuller one: the statement with more figures, else the longer wording.
            fuller = (
                len(held[claim.id]) > len(held[owner.id])
                if same_figures and held[claim.id] != held[owner.id]
                else len(key) > len(known)
            )
            merged = list(dict.fromkeys([*sentences[index].claim_ids, claim.id]))
            text = claim.statement if fuller else sentences[index].text
            sentences[index] = Sentence(text=text, claim_ids=merged)
            keys[index], owners[index] = (key, claim) if fuller else (known, owner)
            break
        else:
            sentences.append(Sentence(text=claim.statement, claim_ids=[claim.id]))
            keys.append(key)
            owners.append(claim)
    return sentences


def _nested(one: frozenset[int], other: frozenset[int]) -> bool:
    return bool(one) and bool(other) and (one <= other or other <= one)


def _sections(plan: Plan, verified: list[Claim]) -> list[Section]:
    sections: list[Section] = []
    for subquestion in plan.subquestions:
        own = [c for c in verified if c.subquestion == subquestion.id]
        sentences = _merge_duplicates(own)[:MAX_SENTENCES_PER_SECTION]
        if sentences:
            sections.append(
                Section(title=subquestion.title or subquestion.text, sentences=sentences)
            )
    return sections


def _published_figures(sentences: Sequence[Sentence], verified: Sequence[Claim]) -> list[Figure]:
    cited = {cid for sentence in sentences for cid in sentence.claim_ids}
    return gather_figures([c for c in verified if c.id in cited])


def _as_merged(points: list[Sentence], sections: list[Section]) -> list[Sentence]:
    """A point quoting one claim says it as its section does: with every claim its statement
    merged with (the same row from two pages cites both)."""
    merged = {
        cid: sentence
        for section in sections
        for sentence in section.sentences
        if len(sentence.claim_ids) > 1
        for cid in sentence.claim_ids
    }
    said: list[Sentence] = []
    for point in points:
        if len(point.claim_ids) == 1 and not point.calculation_ids:
            point = merged.get(point.claim_ids[0], point)
        if point not in said:
            said.append(point)
    return said


def provision_named(claim: Claim, language: Language) -> str:
    """The claim's statement as a sentence that names the statute's provision it states
    ("Art. 26, § 1º: O faturamento …"; in English "Art. 26, § 1º, item II: …"), the marker
    the statement opens with taken off; the statement itself outside a statute. The
    provision is the one the verifier read above the excerpt on its page."""
    provision = parse_citation(claim.provision) if claim.provision else None
    if provision is None:
        return claim.statement
    words = words_for(language).laws
    parts = [words.article.format(n=provision.article)]
    if provision.paragraph == "único":
        parts.append(words.sole_paragraph)
    elif provision.paragraph is not None:
        parts.append(words.paragraph.format(n=provision.paragraph))
    if provision.item is not None:
        parts.append(words.item.format(n=provision.item))
    if provision.letter is not None:
        parts.append(words.letter.format(n=provision.letter))
    body = without_marker(claim.statement)
    return words.stated.format(provision=", ".join(parts), body=body)


def verbatim_draft(brief: Brief, plan: Plan, verified: list[Claim]) -> Draft:
    # Every sentence from a statute names its article, paragraph and item.
    verified = [
        c.model_copy(update={"statement": provision_named(c, brief.language)}) for c in verified
    ]
    sections = _sections(plan, verified)
    summary = summary_for(brief.question, plan, verified, gather_figures(verified), brief.language)
    points = _as_merged(summary.points, sections)
    published = [*points, *(s for section in sections for s in section.sentences)]
    # A comparison's tables show the figures its points compare; another report's tables (or
    # a comparison's whose points state too few figures for one) gather those its sentences
    # quote.
    tables = figures_tables(
        summary.figures, summary.calculations, language=brief.language, claims=verified
    )
    if not tables:
        tables = figures_tables(
            _published_figures(published, verified),
            summary.calculations,
            language=brief.language,
            claims=verified,
        )
    return Draft(
        title=title_for(brief),
        summary=points,
        sections=sections,
        tables=tables,
        calculations=summary.calculations,
    )
