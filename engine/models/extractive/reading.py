"""How an offline researcher reads: which documents to open, and which of their pages to look at.

Shared by the final architecture's subagent and v1's researcher, so that the two differ in
structure (parallel subagents and a verifier against roles in sequence), not in how well
they read. Pure: the callers do the searching and reading, each in its own way.

- Documents are opened from the first `DOCUMENT_HITS` hits, at most `MAX_READS` of them;
  opening one is a read (a budget step).
- A further page of a document already open costs no step, so every hit page of the open
  documents among the first `SEARCH_LIMIT` hits is looked at.
- In the first `STATEMENT_DOCUMENTS` open documents, the primary statements that print what
  is asked (`statements.asked_statements`) are looked at too, as an analyst opens a 10-K at
  its balance sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.models.extractive.statements import asked_statements, statement_pages
from engine.snapshots import Snapshot, split_page, with_page
from engine.sources.protocols import SearchHit

SEARCH_LIMIT = 48
DOCUMENT_HITS = 12
MAX_READS = 8
STATEMENT_DOCUMENTS = 2
STATEMENT_PAGES = 3


@dataclass(frozen=True)
class PageToRead:
    url: str
    """The page (`#page=N`) or document to look at."""
    rank: int
    """Its hit's rank; pages no hit named rank after every hit."""


def distinct_hits(hits: Sequence[SearchHit], avoid: Sequence[str]) -> list[SearchHit]:
    """`hits` without repeats and without the URLs to avoid, in order."""
    seen: set[str] = set()
    kept: list[SearchHit] = []
    for hit in hits:
        if hit.url in seen or hit.url in avoid:
            continue
        seen.add(hit.url)
        kept.append(hit)
    return kept


def documents_to_open(found: Sequence[SearchHit], avoid: Sequence[str] = ()) -> list[str]:
    """The URL of each document's first hit, among the first `DOCUMENT_HITS` hits, in hit
    order, at most `MAX_READS`."""
    first_hit: dict[str, str] = {}
    for hit in distinct_hits(found[:DOCUMENT_HITS], avoid):
        first_hit.setdefault(split_page(hit.url)[0], hit.url)
    return list(first_hit.values())[:MAX_READS]


def pages_to_read(
    found: Sequence[SearchHit],
    opened: Mapping[str, Snapshot],
    query: str,
    avoid: Sequence[str] = (),
) -> list[PageToRead]:
    """The pages to look at; `opened` maps each document that could be opened (its URL as
    asked, without page) to its snapshot, in opening order."""
    hits = distinct_hits(found, avoid)
    pages = [PageToRead(h.url, h.rank) for h in hits if split_page(h.url)[0] in opened]
    listed = {page.url for page in pages} | set(avoid)
    wanted = asked_statements(query)
    for document, snapshot in list(opened.items())[:STATEMENT_DOCUMENTS]:
        if not wanted or not snapshot.is_paged:
            continue
        by_statement = statement_pages(snapshot.page_texts())
        for key in wanted:
            for page in by_statement.get(key, [])[:STATEMENT_PAGES]:
                url = with_page(document, page)
                if url not in listed:
                    listed.add(url)
                    pages.append(PageToRead(url, len(hits) + 1))
    return pages
