"""The five v1 roles without a model: extractive, like the final offline model they share
sentence units, candidate reading and quote choice with.

The researcher quotes page sentences for each subquestion as the final subagents do, but then
pools them into one summary ranked by relevance to the whole question, and from there on a
sentence no longer knows its page. The writer guesses each sentence's source from the numbered
list; the analyst, reviewer and editor only reshape prose.
"""

from __future__ import annotations

from engine.budget import Meter
from engine.contracts import Plan
from engine.models.extractive.ranking import Candidate, candidates_of, choose_quotes
from engine.models.extractive.reading import SEARCH_LIMIT, documents_to_open, pages_to_read
from engine.models.extractive.sentences import clean_statement
from engine.models.protocol import Brief
from engine.snapshots import Snapshot, split_page
from engine.sources.protocols import FetchError, SearchError
from engine.v1.metering import record_free_call
from engine.v1.notes import ResearchNotes, SourceEntry, notes_text, source_list_text
from engine.v1.prose import (
    guess_source,
    prose_sentences,
    ranked_by_relevance,
    sections_for,
    tidy_punctuation,
    tidy_whitespace,
    without_duplicates,
)
from engine.v1.tools import ResearchTools
from engine.writing.verbatim import MAX_SENTENCES_PER_SECTION, title_for


class OfflineV1Roles:
    name = "offline"

    async def research(
        self, brief: Brief, plan: Plan, tools: ResearchTools, meter: Meter
    ) -> ResearchNotes:
        sentences: list[str] = []
        for subquestion in plan.subquestions:
            tools.begin(subquestion)
            candidates = await _read_for(subquestion.text, tools)
            quotes = choose_quotes(candidates, subquestion.text)
            sentences.extend(clean_statement(quote.excerpt) for quote in quotes)
        tools.finish()
        summary = "\n".join(ranked_by_relevance(sentences, brief.question))
        notes = ResearchNotes(summary, tools.consulted())
        # One context held the question, the plan and every result and page it read.
        prompt = "\n".join([brief.question, *(s.text for s in plan.subquestions), *tools.seen])
        await record_free_call(meter, prompt, notes_text(notes))
        return notes

    async def analyse(self, brief: Brief, notes: ResearchNotes, meter: Meter) -> str:
        sentences = without_duplicates(prose_sentences(notes.summary))
        analysis = "\n".join(ranked_by_relevance(sentences, brief.question))
        await record_free_call(meter, f"{brief.question}\n{notes_text(notes)}", analysis)
        return analysis

    async def write(
        self, brief: Brief, plan: Plan, analysis: str, sources: list[SourceEntry], meter: Meter
    ) -> str:
        blocks = [f"# {title_for(brief)}"]
        for subquestion, sentences in sections_for(prose_sentences(analysis), plan):
            lines = [_with_marker(s, sources) for s in sentences[:MAX_SENTENCES_PER_SECTION]]
            blocks.append("\n".join([f"## {subquestion.title or subquestion.text}", *lines]))
        draft = "\n\n".join(blocks) + "\n"
        prompt = "\n".join([brief.question, analysis, source_list_text(sources)])
        await record_free_call(meter, prompt, draft)
        return draft

    async def review(self, brief: Brief, draft: str, meter: Meter) -> str:
        reviewed = tidy_whitespace(draft)
        await record_free_call(meter, f"{brief.question}\n{draft}", reviewed)
        return reviewed

    async def edit(self, brief: Brief, text: str, meter: Meter) -> str:
        edited = tidy_punctuation(text)
        await record_free_call(meter, f"{brief.question}\n{text}", edited)
        return edited


async def _read_for(query: str, tools: ResearchTools) -> list[Candidate]:
    """Search, then open the documents one after another and look at their pages as the
    final subagent does (`engine.models.extractive.reading`); a document that cannot be read is
    skipped, as a researcher moves on from a broken link."""
    try:
        found = await tools.search(query, limit=SEARCH_LIMIT)
    except SearchError:
        return []
    opened: dict[str, Snapshot] = {}
    for url in documents_to_open(found):
        try:
            opened[split_page(url)[0]] = await tools.read(url)
        except FetchError:
            continue
    candidates: list[Candidate] = []
    for page in pages_to_read(found, opened, query):
        candidates.extend(candidates_of(page.url, await tools.read(page.url), page.rank))
    return candidates


def _with_marker(sentence: str, sources: list[SourceEntry]) -> str:
    number = guess_source(sentence, sources)
    return sentence if number is None else f"{sentence} [{number}]"
