"""Pure text work of the offline v1 roles: split, rank, de-duplicate, tidy, guess sources.

Nothing here knows where a sentence came from; that is the point of v1. Sentence units and
relevance are the final architecture's (`engine.models.extractive.sentences` and `.relevance`),
so the two architectures differ in structure, not in how they read a page.
"""

from __future__ import annotations

import re

from engine.contracts import Plan, Subquestion
from engine.models.extractive.relevance import query_terms
from engine.models.extractive.sentences import clean_statement, sentence_spans
from engine.text.normalise import collapse_whitespace, excerpt_key
from engine.text.tokens import term_set
from engine.v1.notes import SourceEntry

_SPACE_BEFORE_PUNCTUATION = re.compile(r"[ \t]+([.,;:!?])(?=\s|$)")


def prose_sentences(text: str) -> list[str]:
    return [clean_statement(span.text(text)) for span in sentence_spans(text)]


def ranked_by_relevance(sentences: list[str], question: str) -> list[str]:
    """Best-covering sentences first; equal ones keep their order."""
    pool = [term_set(s) for s in sentences]
    terms = query_terms(question, pool)
    order = sorted(range(len(sentences)), key=lambda i: -terms.coverage(pool[i]))
    return [sentences[i] for i in order]


def without_duplicates(sentences: list[str]) -> list[str]:
    """One sentence per statement: where one contains another, the fuller one is kept, in the
    place the first of them had."""
    kept: list[str] = []
    keys: list[str] = []
    for sentence in sentences:
        key = excerpt_key(sentence)
        for index, known in enumerate(keys):
            if key in known or known in key:
                if len(key) > len(known):
                    kept[index], keys[index] = sentence, key
                break
        else:
            kept.append(sentence)
            keys.append(key)
    return kept


def sections_for(sentences: list[str], plan: Plan) -> list[tuple[Subquestion, list[str]]]:
    """Each sentence under the subquestion it covers best (the first on a tie), in plan order."""
    pool = [term_set(s) for s in sentences]
    asked = [query_terms(s.text, pool) for s in plan.subquestions]
    grouped: dict[str, list[str]] = {s.id: [] for s in plan.subquestions}
    for sentence, terms in zip(sentences, pool, strict=True):
        scores = [q.coverage(terms) for q in asked]
        best = scores.index(max(scores))
        grouped[plan.subquestions[best].id].append(sentence)
    return [(s, grouped[s.id]) for s in plan.subquestions if grouped[s.id]]


def guess_source(sentence: str, sources: list[SourceEntry]) -> int | None:
    """The source whose title and snippet share the most terms with the sentence, the lowest
    number on a tie: all a writer can do when the sentence carries no provenance."""
    if not sources:
        return None
    words = term_set(sentence)
    best = max(
        sources,
        key=lambda s: (len(words & term_set(f"{s.title} {s.snippet}")), -s.number),
    )
    return best.number


def tidy_whitespace(markdown: str) -> str:
    """Spaces collapsed on each line, no run of blank lines, no trailing space."""
    lines: list[str] = []
    for raw in markdown.splitlines():
        line = collapse_whitespace(raw)
        if line or (lines and lines[-1]):
            lines.append(line)
    return "\n".join(lines).strip() + "\n"


def tidy_punctuation(markdown: str) -> str:
    """No space before a punctuation mark that ends a clause."""
    lines = [_SPACE_BEFORE_PUNCTUATION.sub(r"\1", line) for line in markdown.splitlines()]
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")
