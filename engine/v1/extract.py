"""From the v1 editor's Markdown to the report's sections and claims (pure).

v1 had no board: its claims are recovered from its citations, so the final architecture's
verifier can score them. Each cited sentence becomes one claim per source it names, quoting
the sentence itself as the excerpt, which is what v1 implicitly asserted: "this source says
this". Accessed time and hash are those of the snapshot the researcher read.

A sentence with no usable marker cannot enter `Report.sections` (every sentence there cites a
claim). It goes to `Report.dropped_sentences` with the reason, so an evaluation can count the
uncited prose v1 published; nothing is silently lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from engine.board import dedup_key
from engine.contracts import (
    EXCERPT_MAX_CHARS,
    Claim,
    ClaimStatus,
    DroppedSentence,
    Language,
    Plan,
    Section,
    Sentence,
)
from engine.snapshots import Snapshot, sha256_text, split_page
from engine.text.normalise import collapse_whitespace
from engine.text.tokens import fold_accents
from engine.v1.markdown_markers import MarkedSentence, parse_markdown
from engine.v1.notes import V1_RESEARCHER, SourceEntry
from engine.words import words_for

STATEMENT_MAX_CHARS = 2000
SOURCE_LIST_TITLES = frozenset(
    {"sources", "references", "bibliography", "fontes", "referencias", "bibliografia"}
)
NO_MARKER = "uncited: the v1 writer gave this sentence no source"


@dataclass(frozen=True)
class Extraction:
    title: str | None
    sections: list[Section]
    claims: list[Claim]
    uncited: list[DroppedSentence]
    notes: list[str] = field(default_factory=list)


def extract_report(
    markdown: str,
    plan: Plan,
    sources: list[SourceEntry],
    snapshots: Mapping[str, Snapshot],
    now: datetime,
    language: Language = "en",
) -> Extraction:
    """`snapshots` are the researcher's reads by document URL; `now` stands in for the access
    time of a source it never read; `language` is the notes' (the report's)."""
    by_number = {s.number: s for s in sources}
    marked = parse_markdown(markdown)
    claims: dict[str, Claim] = {}
    sections: list[Section] = []
    uncited: list[DroppedSentence] = []
    notes: list[str] = []
    unknown_note = words_for(language).notes.v1_unknown_sources
    for part in marked.sections:
        if _folded(part.title) in SOURCE_LIST_TITLES:
            continue  # the writer's own bibliography: the report lists its sources itself
        title = part.title or plan.subquestions[0].title or plan.subquestions[0].text
        subquestion = section_subquestion_id(title, plan)
        sentences: list[Sentence] = []
        for marked_sentence in part.sentences:
            cited = [by_number[n] for n in marked_sentence.numbers if n in by_number]
            unknown = [n for n in marked_sentence.numbers if n not in by_number]
            if unknown:
                notes.append(unknown_note.format(numbers=unknown, sentence=marked_sentence.text))
            if not cited:
                uncited.append(_dropped(title, marked_sentence, unknown))
                continue
            own = [
                claim_for(marked_sentence.text, source, subquestion, snapshots, now)
                for source in cited
            ]
            claims.update((c.id, c) for c in own)
            sentences.append(Sentence(text=marked_sentence.text, claim_ids=[c.id for c in own]))
        if sentences:
            sections.append(Section(title=title, sentences=sentences))
    return Extraction(marked.title, sections, list(claims.values()), uncited, notes)


def claim_for(
    text: str,
    source: SourceEntry,
    subquestion: str,
    snapshots: Mapping[str, Snapshot],
    now: datetime,
) -> Claim:
    excerpt = trimmed(text, EXCERPT_MAX_CHARS)
    snapshot = snapshots.get(split_page(source.url)[0])
    return Claim(
        id=dedup_key(source.url, excerpt),
        statement=trimmed(text, STATEMENT_MAX_CHARS),
        url=source.url,
        title=source.title,
        excerpt=excerpt,
        accessed_at=snapshot.fetched_at if snapshot is not None else now,
        source_sha256=snapshot.sha256 if snapshot is not None else sha256_text(""),
        subagent=V1_RESEARCHER,
        subquestion=subquestion,
        status=ClaimStatus.pending,
    )


def section_subquestion_id(section_title: str, plan: Plan) -> str:
    """The id of the subquestion whose heading or text the section bears; the first
    subquestion's when the writer named the section its own way."""
    wanted = _folded(section_title)
    for subquestion in plan.subquestions:
        if wanted in {_folded(subquestion.title), _folded(subquestion.text)}:
            return subquestion.id
    return plan.subquestions[0].id


def trimmed(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary where there is one."""
    text = collapse_whitespace(text)
    if len(text) <= limit:
        return text
    head = text[: limit + 1].rsplit(" ", 1)[0]
    return head if 0 < len(head) <= limit else text[:limit]


def _dropped(section: str, sentence: MarkedSentence, unknown: list[int]) -> DroppedSentence:
    reason = f"cites unknown sources {unknown}" if unknown else NO_MARKER
    return DroppedSentence(section=section, text=sentence.text, claim_ids=[], reason=reason)


def _folded(text: str) -> str:
    return fold_accents(collapse_whitespace(text)).strip(" :.")
