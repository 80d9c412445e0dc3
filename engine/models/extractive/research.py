"""The offline subagent: search, read the best sources, quote the units that answer, then
take a second hop to the names the first round left.

Which pages are read: `reading`; which units are quoted: `ranking`; which names to look up
after the first round: `hops`. This module does the searching and reading, within the
subagent's budget steps.
"""

from __future__ import annotations

import asyncio

from engine.agents.toolbox import Assignment, Toolbox
from engine.budget import StepRefused
from engine.documents.images import FIGURE_PAGE_MAX_CHARS, is_figure_page
from engine.models.extractive.hops import hop_names, is_about, is_heading, names_the_page
from engine.models.extractive.ranking import (
    Candidate,
    Quote,
    candidates_of,
    choose_quotes,
    referenced_quotes,
    still_asked,
)
from engine.models.extractive.reading import SEARCH_LIMIT, documents_to_open, pages_to_read
from engine.snapshots import Snapshot, split_page
from engine.sources.protocols import FetchError, SearchError, SearchHit
from engine.text.numbers import numbers_in
from engine.text.periods import YEAR_TOKEN
from engine.text.provisions import referenced_articles

HOP_HITS = 10
FIGURE_HITS = 3
"""The search's best hits that may be a figure gap: lower hits are rarely the answer."""
HOP_QUOTES = 2
MAX_HOP_ROUNDS = 3


async def _read_candidates(
    assignment: Assignment, tools: Toolbox
) -> tuple[list[Candidate], StepRefused | None, list[SearchHit]]:
    """Search and read (see `engine.models.extractive.reading`); returns the candidates
    gathered, the refusal that stopped it and the search's hits."""
    query = assignment.subquestion.text
    if assignment.gap:
        query = f"{assignment.subquestion.text} {assignment.question}"
    avoid = assignment.avoid_urls
    try:
        found = await tools.search(query, limit=SEARCH_LIMIT)
    except StepRefused as refusal:
        return [], refusal, []
    to_open = documents_to_open(found, avoid)
    # The documents are independent: open them at the same time, each read its own step.
    reads = await asyncio.gather(*(tools.read(url) for url in to_open), return_exceptions=True)
    refused: StepRefused | None = None
    opened: dict[str, Snapshot] = {}
    for url, read in zip(to_open, reads, strict=True):
        if isinstance(read, StepRefused):
            refused = refused or read
        elif isinstance(read, FetchError):  # one unreadable page must not end the subagent
            tools.notes.append(f"could not read {url}: {read}")
        elif isinstance(read, BaseException):
            raise read
        else:
            opened[split_page(url)[0]] = read
    candidates: list[Candidate] = []
    for page in pages_to_read(found, opened, query, avoid):
        snapshot = await tools.read(page.url)  # its document is open: no step
        # Scoring a page is CPU work: off the event loop, one page at a time, so a stop or the
        # time cap takes effect between pages.
        candidates.extend(await asyncio.to_thread(candidates_of, page.url, snapshot, page.rank))
    return candidates, refused, found


async def extractive_research(assignment: Assignment, tools: Toolbox) -> None:
    candidates, refused, found = await _read_candidates(assignment, tools)
    subquestion = assignment.subquestion
    aspect = subquestion.title if subquestion.text.startswith(f"{subquestion.title}:") else ""
    quotes = await asyncio.to_thread(choose_quotes, candidates, subquestion.text, aspect)
    # The articles of the same law a quoted provision points at state the rules it names
    # (scored off the event loop; a subagent whose quotes name none does not wait for it).
    if any(referenced_articles(f"{q.context or ''} {q.excerpt}") for q in quotes):
        quotes += await asyncio.to_thread(referenced_quotes, candidates, quotes, subquestion.text)
    for quote in quotes:
        await tools.record_claim(quote.statement, quote.url, quote.excerpt, quote.context)
    await _figure_gaps(found, quotes, tools)
    if refused is not None:
        raise refused  # after quoting what was read: a stopped subagent returns what it has
    if not aspect:  # a template section is one aspect of a topic: nothing to hop to
        await _hops(subquestion.text, quotes, candidates, tools)


async def _figure_gaps(found: list[SearchHit], quotes: list[Quote], tools: Toolbox) -> None:
    """A page among the first `FIGURE_HITS` hits that is a figure with little or no text is
    a declared gap (the answer may be in the figure, which this model cannot read; Claude
    can, `view_figure`), unless a page ranked above it was quoted stating an amount."""
    amounts = {quote.url for quote in quotes if _states_amount(quote)}
    for hit in found[:FIGURE_HITS]:
        base, page = split_page(hit.url)
        if hit.url in amounts:
            return  # the search's better hits were answered in text
        if page is None or not tools.has_read(base):
            continue
        snapshot = await tools.read(hit.url)  # its document is open: no step
        pages = snapshot.pages or ()
        if not 1 <= page <= len(pages) or len(pages[page - 1].strip()) >= FIGURE_PAGE_MAX_CHARS:
            continue  # a page of text: a text reader can answer from it
        if is_figure_page(await tools.figures(hit.url), pages[page - 1]):
            tools.note_figure_gap(hit.url, snapshot.title)


def _states_amount(quote: Quote) -> bool:
    """Whether a quote states a number that is not a year ("12 novas usinas")."""
    said = f"{quote.context or ''} {quote.excerpt}"
    return any(not YEAR_TOKEN.fullmatch(n.raw) for n in numbers_in(said))


async def _hops(
    question: str, quotes: list[Quote], candidates: list[Candidate], tools: Toolbox
) -> None:
    """Hop after hop while a hop's page names something new, at most `MAX_HOP_ROUNDS`: "the
    spouse of the director of the film shot in Leland" goes Leland -> the film -> its
    director. Each round starts from the quotes of the round before."""
    looked_up: set[str] = set()
    said = list(quotes)
    for _ in range(MAX_HOP_ROUNDS):
        left = still_asked(question, said)
        quotes, candidates = await _hop_round(question, left, quotes, candidates, tools, looked_up)
        if not quotes:
            return
        said += quotes


async def _hop_round(
    question: str,
    left: str,
    quotes: list[Quote],
    candidates: list[Candidate],
    tools: Toolbox,
    looked_up: set[str],
) -> tuple[list[Quote], list[Candidate]]:
    """Look up the names the first round left (see `hops`), within the steps left: the
    searches for all names at once, then the reads of their pages at once (the tool calls
    of one turn each, as a model asks for independent lookups together), and quote what the
    page about each name says of what is `left` of the question (`still_asked`)."""
    titles = {c.url: c.title for c in candidates}
    quoted_titles = [titles[q.url] for q in quotes if q.url in titles]
    pages: dict[str, dict[str, str]] = {}
    for candidate in candidates:
        pages.setdefault(candidate.title, {})[candidate.url] = candidate.page_text
    read = {title: list(texts.values()) for title, texts in pages.items()}
    names = [
        name  # a caption of the documents read is their structure, not a thing to look up
        for name in hop_names(question, [q.excerpt for q in quotes], quoted_titles)
        if name not in looked_up and not is_heading(name, read)
    ]
    looked_up.update(names)
    searches = await asyncio.gather(
        *(tools.search(name, limit=HOP_HITS) for name in names), return_exceptions=True
    )
    to_read: list[tuple[str, SearchHit]] = []
    for name, found in zip(names, searches, strict=True):
        if isinstance(found, StepRefused):
            continue  # no step left for this one
        if isinstance(found, SearchError):
            tools.notes.append(f"second hop: search for {name!r} failed: {found}")
            continue
        if isinstance(found, BaseException):
            raise found
        # The page about the name, read now or in the first round (then it costs no step,
        # and is read again for the question with the name it is about).
        about = [h for h in found if is_about(name, h.title)]
        page = next(iter(about or [h for h in found if names_the_page(name, h.title)]), None)
        if page is not None:  # no page is about that name: it was not one worth a hop
            to_read.append((name, page))
    reads = await asyncio.gather(
        *(tools.read(page.url) for _, page in to_read), return_exceptions=True
    )
    hop_quotes: list[Quote] = []
    hop_candidates: list[Candidate] = []
    for (name, page), snapshot in zip(to_read, reads, strict=True):
        if isinstance(snapshot, StepRefused):
            continue
        if isinstance(snapshot, FetchError):
            tools.notes.append(f"could not read {page.url}: {snapshot}")
            continue
        if isinstance(snapshot, BaseException):
            raise snapshot
        found_here = await asyncio.to_thread(candidates_of, page.url, snapshot, 1)
        hop = await asyncio.to_thread(choose_quotes, found_here, f"{left} {name}")
        for quote in hop[:HOP_QUOTES]:
            await tools.record_claim(quote.statement, quote.url, quote.excerpt, quote.context)
        hop_quotes += hop[:HOP_QUOTES]
        hop_candidates += found_here
    return hop_quotes, hop_candidates
