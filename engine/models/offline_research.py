"""The offline subagent: search, read the best sources, quote the sentences that answer.

Each claim is a verbatim unit of the page: the excerpt is an exact substring of the text read
and the statement is that excerpt as prose, so nothing is said that the page does not say.
Units are ranked by how much of the subquestion they cover; below a threshold nothing is
quoted and the subquestion stays a gap, which is the honest outcome.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from engine.agents.toolbox import Assignment, Toolbox
from engine.budget import StepRefused
from engine.normalise import collapse_whitespace, excerpt_key
from engine.relevance import QueryTerms, query_terms
from engine.sentences import Span, best_window, clean_statement, sentence_spans
from engine.snapshots import Snapshot, split_page
from engine.sources.protocols import FetchError, SearchHit
from engine.terms import term_set, tokenize

QUOTE_THRESHOLD = 0.4
MAX_CLAIMS = 6
MAX_READS = 8
MAX_CLAIMS_PER_SOURCE = 5
HEADER_CHARS = 240
ANNOTATION_WEIGHT = 0.5
QUANTITY_BONUS = 0.1
ASPECT_SHARE = 0.5

_NUMBER = re.compile(r"\d")
_QUANTITY_QUESTION = re.compile(
    r"\b(quanto|quantos|quantas|até quando|ate quando|quando|qual (?:o|a) (?:valor|prazo|limite)|"
    r"limites?|prazo|how (?:much|many|long)|when|what (?:is|was) the (?:amount|value|total)|"
    r"amount|percent|rate|ratio)\b",
    re.IGNORECASE,
)

# An enumerated item of a statute (I -, II –, a), § 1º, Parágrafo único) and an article.
_LIST_ITEM = re.compile(r"^\W*(?:[IVXLC]+\s*[-–—]|[a-z]\)|§|par[aá]grafo [uú]nico)", re.I)
_ARTICLE = re.compile(r"^\W*art\.?\s*\d", re.I)
_ANNOTATION = re.compile(r"(?:^|\s)#\w")


@dataclass(frozen=True)
class Candidate:
    url: str
    page_text: str
    span: Span
    terms: frozenset[str]
    context: frozenset[str]
    hit_rank: int


@dataclass(frozen=True)
class Quote:
    url: str
    excerpt: str
    statement: str


def _page_of(snapshot: Snapshot, url: str) -> str:
    page = split_page(url)[1]
    pages = snapshot.page_texts()
    if page is not None and snapshot.is_paged and 1 <= page <= len(pages):
        return pages[page - 1]
    return snapshot.text


def candidates_of(url: str, snapshot: Snapshot, hit_rank: int) -> list[Candidate]:
    page_text = _page_of(snapshot, url)
    header = page_text[:HEADER_CHARS] if snapshot.is_paged else ""
    context = term_set(f"{snapshot.title} {header}")
    candidates: list[Candidate] = []
    lead = frozenset[str]()
    for span in sentence_spans(page_text):
        text = span.text(page_text)
        terms = term_set(text)
        if _LIST_ITEM.match(text):
            # "I - 15% a partir de 2023": an item means what its article's opening says.
            candidates.append(Candidate(url, page_text, span, terms, context | lead, hit_rank))
            continue
        if _ARTICLE.match(text):
            lead = terms
        candidates.append(Candidate(url, page_text, span, terms, context, hit_rank))
    return candidates


def distinct_hits(hits: list[SearchHit], avoid: tuple[str, ...]) -> list[SearchHit]:
    seen: set[str] = set()
    kept: list[SearchHit] = []
    for hit in hits:
        if hit.url in seen or hit.url in avoid:
            continue
        seen.add(hit.url)
        kept.append(hit)
    return kept


async def _read_candidates(
    assignment: Assignment, tools: Toolbox
) -> tuple[list[Candidate], StepRefused | None]:
    """Search and read; returns the candidates gathered and the refusal that stopped it."""
    query = assignment.subquestion.text
    if assignment.gap:
        query = f"{assignment.subquestion.text} {assignment.question}"
    try:
        hits = distinct_hits(await tools.search(query, limit=12), assignment.avoid_urls)
    except StepRefused as refusal:
        return [], refusal
    # The pages are independent: read them at the same time, each read its own budget step.
    reads = await asyncio.gather(
        *(tools.read(hit.url) for hit in hits[:MAX_READS]), return_exceptions=True
    )
    candidates: list[Candidate] = []
    refused: StepRefused | None = None
    for hit, read in zip(hits, reads, strict=False):
        if isinstance(read, StepRefused):
            refused = refused or read
        elif isinstance(read, FetchError):  # one unreadable page must not end the subagent
            tools.notes.append(f"could not read {hit.url}: {read}")
        elif isinstance(read, BaseException):
            raise read
        else:
            candidates.extend(candidates_of(hit.url, read, hit.rank))
    return candidates, refused


def _ranked(
    candidates: list[Candidate], terms: QueryTerms, asks_quantity: bool
) -> list[tuple[float, Candidate]]:
    scores = [(_score(terms, c, asks_quantity), c) for c in candidates]
    scored = [(score, c) for score, c in scores if score >= QUOTE_THRESHOLD]
    scored.sort(key=lambda pair: pair[0], reverse=True)
    return scored


def _score(terms: QueryTerms, candidate: Candidate, asks_quantity: bool = False) -> float:
    coverage = terms.coverage(candidate.terms, candidate.context)
    text = candidate.span.text(candidate.page_text)
    if _ANNOTATION.search(text):  # study notes tagged "#Atenção #STJ", not the statute's words
        coverage *= ANNOTATION_WEIGHT
    if asks_quantity and _NUMBER.search(text):  # the answer to "how much" holds a number
        coverage += QUANTITY_BONUS
    return coverage + 0.01 / candidate.hit_rank


def choose_quotes(candidates: list[Candidate], subquestion: str, aspect: str = "") -> list[Quote]:
    """What to record, best first. With an `aspect` (a template section such as "Tamanho e
    crescimento do mercado"), a unit must also speak of the aspect itself, not only of the
    topic every section shares: a law about solar energy says nothing of market size."""
    terms = query_terms(subquestion, [c.terms for c in candidates])
    aspect_terms = _aspect_terms(aspect, subquestion, candidates)
    if aspect_terms is not None:
        candidates = [c for c in candidates if aspect_terms.coverage(c.terms) >= ASPECT_SHARE]

    def window_score(text: str) -> float:
        return terms.coverage(term_set(text))

    chosen: list[Quote] = []
    per_source: dict[str, int] = {}
    seen: set[str] = set()
    asks_quantity = bool(_QUANTITY_QUESTION.search(subquestion))
    for _, candidate in _ranked(candidates, terms, asks_quantity):
        if len(chosen) >= MAX_CLAIMS:
            break
        document = split_page(candidate.url)[0]
        if per_source.get(document, 0) >= MAX_CLAIMS_PER_SOURCE:
            continue
        window = best_window(candidate.page_text, candidate.span, window_score)
        excerpt = window.text(candidate.page_text)
        key = excerpt_key(excerpt)
        if key in seen or not 20 <= len(collapse_whitespace(excerpt)) <= 400:
            continue
        seen.add(key)
        per_source[document] = per_source.get(document, 0) + 1
        chosen.append(Quote(candidate.url, excerpt, _statement(excerpt, candidate.span, window)))
    return chosen


def _aspect_terms(aspect: str, subquestion: str, candidates: list[Candidate]) -> QueryTerms | None:
    """The aspect's own terms (those the topic does not also use), or None without one."""
    topic = term_set(subquestion.removeprefix(aspect))
    own = " ".join(t for t in tokenize(aspect) if t not in topic)
    if not aspect or not own:
        return None
    return query_terms(own, [c.terms for c in candidates])


def _statement(excerpt: str, unit: Span, window: Span) -> str:
    """The excerpt as prose; where a long unit was narrowed, an ellipsis marks the cut so the
    statement does not read as if the sentence ended there."""
    before = "…" if window.start > unit.start else ""
    after = "…" if window.end < unit.end else ""
    return f"{before}{clean_statement(excerpt)}{after}"


async def research_offline(assignment: Assignment, tools: Toolbox) -> None:
    candidates, refused = await _read_candidates(assignment, tools)
    subquestion = assignment.subquestion
    aspect = subquestion.title if subquestion.text.startswith(f"{subquestion.title}:") else ""
    for quote in choose_quotes(candidates, subquestion.text, aspect):
        await tools.record_claim(quote.statement, quote.url, quote.excerpt)
    if refused is not None:
        raise refused  # after quoting what was read: a stopped subagent returns what it has
