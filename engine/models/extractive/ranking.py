"""Which units of the pages read a subagent quotes: pure ranking, no I/O.

Each claim is a verbatim unit of the page: the excerpt is an exact substring of the text read
and the statement is that excerpt as prose, so nothing is said that the page does not say.
Units are ranked by how much of the subquestion they cover (`relevance`); a table row is read
with its statement and its column header (`statements`; a row of a Word or Excel table with
its own table's header and caption), a unit from a filing that names less
of the question than a rival filing is discounted (`scope`), and a derived measure is quoted
as the rows of what it is computed from (`measures`). A unit is quoted at `QUOTE_THRESHOLD`,
or near the best unit (`NEAR_BEST`) down to `QUOTE_FLOOR`, at most two per page; below that
nothing is quoted and the subquestion stays a gap, which is the honest outcome.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.contracts import EXCERPT_MAX_CHARS, EXCERPT_MIN_CHARS, ROW_MIN_CHARS
from engine.models.extractive.measures import measures_asked, states_measure
from engine.models.extractive.relevance import QueryTerms, query_terms
from engine.models.extractive.scope import off_entity_titles, scope_factors
from engine.models.extractive.sentences import (
    clause_window,
    clean_statement,
    ends_on_abbreviation,
    sentence_spans,
    statement_of,
)
from engine.models.extractive.statements import (
    carried_header,
    cell_table_caption,
    column_headers,
    is_table_row,
    of_asked_periods,
    page_before,
    page_statement,
    row_by_columns,
    row_by_period,
    scale_note,
    short_row_quotable,
    statement_marker,
    statements_printing,
    with_declared_scale,
)
from engine.snapshots import Snapshot, split_page
from engine.sources.standing import STANDING_ORDER, rules_from_environment
from engine.text.addressed_to_ai import addressed_to_ai
from engine.text.boilerplate import Boilerplate, asked_about, boilerplate_kind
from engine.text.normalise import collapse_whitespace, excerpt_key
from engine.text.periods import DATE, is_year
from engine.text.provisions import Provision, provision_of, referenced_articles
from engine.text.questions import asks_quantity
from engine.text.sentences import capitalised, is_fragment, starts_mid_sentence
from engine.text.spans import Span
from engine.text.tokens import term_set, tokenize
from engine.verify.contexts import belongs, cell_table_headers, is_cell_line, is_cell_row

QUOTE_THRESHOLD = 0.4
QUOTE_FLOOR = 0.3
NEAR_BEST = 0.75
MAX_CLAIMS = 6
MAX_CLAIMS_PER_SOURCE = 5
MAX_CLAIMS_PER_PAGE = 2
MAX_REFERENCED = 3
"""Articles a subquestion's quotes refer to that are quoted beside them (`referenced_quotes`)."""
HEADER_CHARS = 240
ANNOTATION_WEIGHT = 0.5
QUANTITY_BONUS = 0.1
ASPECT_SHARE = 0.5
LEAD_IN_CLAUSE_MIN = 80
"""A long lead-in is quoted from a clause boundary that leaves at least this many characters."""

_NUMBER = re.compile(r"\d")
_CURRENCY = re.compile(r"R\$|US\$|[$€£]")

# An enumerated item of a statute (I -, II –, a), § 1º, Parágrafo único) and an article.
_LIST_ITEM = re.compile(r"^\W*(?:[IVXLC]+\s*[-–—]|[a-z]\)|§|par[aá]grafo [uú]nico)", re.I)
_ARTICLE = re.compile(r"^\W*art\.?\s*\d", re.I)
_ANNOTATION = re.compile(r"(?:^|\s)#\w")
_CLAUSE_START = re.compile(r"[,;:.]\s+(?=\S)")


@dataclass(frozen=True)
class Candidate:
    url: str
    page_text: str
    span: Span
    terms: frozenset[str]
    context: frozenset[str]
    hit_rank: int
    words: frozenset[str]
    """The unit's own terms; `terms` adds what its table says of it (statement, columns)."""
    title: str
    """The title of the document the unit is in."""
    lead_in: Span | None = None
    """What the unit means with, quoted beside it: a list item's lead-in, a row's header."""
    carried: str | None = None  # the header of the table a row continues, from the page before


@dataclass(frozen=True)
class Quote:
    url: str
    excerpt: str
    statement: str
    context: str | None = None


def _page_of(snapshot: Snapshot, url: str) -> str:
    page = split_page(url)[1]
    pages = snapshot.page_texts()
    if page is not None and snapshot.is_paged and 1 <= page <= len(pages):
        return pages[page - 1]
    return snapshot.text


def candidates_of(url: str, snapshot: Snapshot, hit_rank: int) -> list[Candidate]:
    page_text = _page_of(snapshot, url)
    header = page_text[:HEADER_CHARS] if snapshot.is_paged else ""
    title = snapshot.title
    context = term_set(f"{title} {header}")
    statement = page_statement(page_text) if snapshot.is_paged else None
    row_subject = frozenset({statement_marker(statement)}) if statement else frozenset[str]()
    headers = list(column_headers(page_text))
    cell_headers = cell_table_headers(page_text)  # the header of each row of cells, by line
    previous = page_before(snapshot, url)
    candidates: list[Candidate] = []
    lead = frozenset[str]()
    lead_in: Span | None = None  # the unit ending in ":" that the list items below complete
    widened: dict[int, Span] = {}  # each column header with the line declaring its scale
    for span in sentence_spans(page_text):
        text = span.text(page_text)
        if addressed_to_ai(text):  # a page talking to its reader's model: never a finding
            continue
        if starts_mid_sentence(clean_statement(text)):  # the rest of a sentence begun before
            continue
        words = terms = term_set(text)
        column_header: Span | None = None
        carried: str | None = None
        cells_header = cell_headers.get(page_text.rfind("\n", 0, span.start) + 1)
        if cells_header is not None:
            # A row of a table of cells (Word, Excel, markdown) means what its caption and
            # its columns say: "Celpe | 0,789" is the "Índice de satisfação" of "Celpe".
            column_header = Span(*cells_header)
            caption = cell_table_caption(page_text, column_header)
            terms = terms | term_set(f"{caption} {column_header.text(page_text)}") | row_subject
        elif is_cell_line(text):
            pass  # a table's header, or a row of a table without one: no other header
        elif is_table_row(text):
            # A row means what its statement and its column header say it means.
            above = [(line, years) for line, years in headers if line.end <= span.start]
            if above:
                line, years = above[-1]
                if line.start not in widened:  # the same for every row under it
                    widened[line.start] = with_declared_scale(page_text, line, span)
                column_header = widened[line.start]
            else:  # a row continuing the table of the page before: that page's header
                carried, years = carried_header(previous, page_text, span) or (None, frozenset())
            terms = terms | years | row_subject
        if _LIST_ITEM.match(text):
            # "I - 15% a partir de 2023": an item means what its article's opening says.
            candidates.append(
                Candidate(
                    url,
                    page_text,
                    span,
                    terms,
                    context | lead,
                    hit_rank,
                    words | lead,
                    title,
                    lead_in=lead_in,
                )
            )
            continue
        if _ARTICLE.match(text):
            lead = terms
        lead_in = span if text.rstrip().endswith(":") else None
        candidates.append(
            Candidate(
                url, page_text, span, terms, context, hit_rank, words, title, column_header, carried
            )
        )
    return candidates


def _ranked(
    candidates: list[Candidate], factors: dict[str, float], terms: QueryTerms, question: str
) -> list[tuple[float, Candidate]]:
    """The in-scope `candidates` (`_in_scope`) that answer, best first."""
    quantity_asked = asks_quantity(question)
    scores = [(_score(terms, c, quantity_asked) * factors[c.title], c) for c in candidates]
    best = max((score for score, _ in scores), default=0.0)
    # A long question (a definition, several periods) is covered by no single unit as much
    # as a short one is: near the best, a unit still answers, down to a floor.
    threshold = min(QUOTE_THRESHOLD, max(QUOTE_FLOOR, NEAR_BEST * best))
    scored = [(score, c) for score, c in scores if score >= threshold]
    # On a tie, the primary source first ("the law at Planalto, not a summary on a blog").
    standing = functools.cache(rules_from_environment().standing_of_unit)  # a page's, once
    scored.sort(key=lambda p: (p[0], STANDING_ORDER[standing(p[1].url, p[1].title)]), reverse=True)
    return scored


def _in_scope(
    candidates: list[Candidate], question: str
) -> tuple[list[Candidate], dict[str, float]]:
    """The candidates of documents about whom the question names (a question that names
    whom it is about is not answered by another entity's document), and each title's
    scope factor."""
    elsewhere = off_entity_titles(question, (c.title for c in candidates))
    candidates = [c for c in candidates if c.title not in elsewhere]
    return candidates, scope_factors(question, (c.title for c in candidates))


def _measure_rows(
    candidates: list[Candidate], factors: dict[str, float], question: str
) -> list[Candidate]:
    """For each printed measure the question needs (`measures`), the statement row of the
    in-scope `candidates` that states it: in the filing the question names, on the statement
    that prints the measure, with the periods asked in its column header, labelled most
    nearly as the measure."""
    measures = measures_asked(question)
    if not measures:
        return []
    years = {token for token in tokenize(question) if is_year(token)}
    rows: list[Candidate] = []
    for measure in measures:
        printed_on = {statement_marker(key) for key in statements_printing(measure)}

        def fit(c: Candidate, printed_on: set[str] = printed_on) -> tuple[float, ...]:
            label = [word for word in c.words if not _NUMBER.search(word)]
            on_statement = bool(printed_on & c.terms)
            return (factors[c.title], on_statement, len(years & c.terms), -len(label), -c.hit_rank)

        stating = [
            c
            for c in candidates
            if is_table_row(c.span.text(c.page_text)) and states_measure(measure, c.words)
        ]
        if stating:
            rows.append(max(stating, key=fit))
    return list(dict.fromkeys(rows))


def _score(terms: QueryTerms, candidate: Candidate, asks_quantity: bool = False) -> float:
    coverage = terms.coverage(candidate.terms, candidate.context)
    if coverage + QUANTITY_BONUS < QUOTE_FLOOR:
        return coverage  # never quoted, whatever else holds: spare the rest
    if not _says_something_asked(terms, candidate.words):
        return 0.0  # only its statement, columns or title match: it states nothing asked
    text = candidate.span.text(candidate.page_text)
    if _ANNOTATION.search(text):  # study notes tagged "#Atenção #STJ", not the statute's words
        coverage *= ANNOTATION_WEIGHT
    if asks_quantity and _NUMBER.search(DATE.sub(" ", text)):  # an amount; dates are none
        coverage += QUANTITY_BONUS
    return coverage + 0.01 / candidate.hit_rank


def _says_something_asked(terms: QueryTerms, words: frozenset[str]) -> bool:
    """Whether the unit's own words hold a term of the question other than a number."""
    return any(not term.isdigit() for term in terms.covered(words))


def choose_quotes(candidates: list[Candidate], subquestion: str, aspect: str = "") -> list[Quote]:
    """What to record, best first. With an `aspect` (a template section such as "Tamanho e
    crescimento do mercado"), a unit must also speak of the aspect itself, not only of the
    topic every section shares: a law about solar energy says nothing of market size."""
    terms = query_terms(subquestion, [c.terms for c in candidates])
    aspect_terms = _aspect_terms(aspect, subquestion, candidates)
    if aspect_terms is not None:
        topic = term_set(subquestion.removeprefix(aspect))
        about = _documents_about(topic, candidates)
        candidates = [c for c in candidates if aspect_terms.coverage(c.terms) >= ASPECT_SHARE]
        # The topic is what every section shares: in a document about it (most of the topic's
        # words are in its text), a unit stating the aspect (a time limit of the law) answers
        # it without naming the topic again, so there the topic counts as its context.
        candidates = [
            replace(c, context=c.context | topic) if split_page(c.url)[0] in about else c
            for c in candidates
        ]

    def window_score(text: str) -> float:
        return terms.coverage(term_set(text))

    # Boilerplate answers nothing (an audit opinion, a signature, a notice, a footnote's
    # explanation), unless the question is about it; a label line may still open a list.
    candidates = [c for c in candidates if not _boilerplate(c, subquestion)]
    in_scope, factors = _in_scope(candidates, subquestion)
    ranked = [candidate for _, candidate in _ranked(in_scope, factors, terms, subquestion)]
    # The most direct unit first, then the row of each figure the answer is computed from
    # (which may share a statement page), then the rest of the ranking.
    measures = [] if aspect_terms is not None else _measure_rows(in_scope, factors, subquestion)
    lists = _lists_by_lead_in(candidates)
    asked_years = {int(t) for t in tokenize(subquestion) if is_year(t)}
    chosen: list[Quote] = []
    per_source: dict[str, int] = {}
    per_page: dict[str, int] = {}
    seen: set[str] = set()
    stated: dict[str, str] = {}
    for candidate in dict.fromkeys([*ranked[:1], *measures, *ranked[1:]]):
        if len(chosen) >= MAX_CLAIMS:
            break
        document, page = split_page(candidate.url)
        # A figure the answer is computed from is quoted wherever it is printed.
        full = per_source.get(document, 0) >= MAX_CLAIMS_PER_SOURCE or (
            page is not None and per_page.get(candidate.url, 0) >= MAX_CLAIMS_PER_PAGE
        )
        if full and candidate not in measures:
            continue
        header = candidate.lead_in  # a row of other periods than those asked answers nothing
        header_text = header.text(candidate.page_text) if header else ""
        if not of_asked_periods(_text(candidate), header_text, asked_years):
            continue
        items = lists.get((candidate.url, candidate.span.start), [])
        listed = _list_quote(candidate, items) if items else None
        if listed is not None:  # a lead-in says nothing without the list it opens
            if excerpt_key(listed.excerpt) in seen:
                continue
            seen |= {excerpt_key(listed.excerpt), *(excerpt_key(_text(item)) for item in items)}
            per_source[document] = per_source.get(document, 0) + 1
            per_page[candidate.url] = per_page.get(candidate.url, 0) + 1
            chosen.append(listed)
            continue
        if boilerplate_kind(_text(candidate)) is Boilerplate.label_line:
            continue  # a label line alone (no list below it) states nothing
        quote = _quote(candidate, window_score)
        if quote is None:
            continue
        if (key := excerpt_key(quote.excerpt)) in seen:
            continue
        seen.add(key)
        # The same row printed on two pages of one filing is one figure: both are quoted
        # (each page is where it is printed) in the same words, so the writer cites it once.
        figures = f"{document}\x00{excerpt_key(_CURRENCY.sub('', quote.statement))}"
        quote = replace(quote, statement=stated.setdefault(figures, quote.statement))
        per_source[document] = per_source.get(document, 0) + 1
        per_page[candidate.url] = per_page.get(candidate.url, 0) + 1
        chosen.append(quote)
    return chosen


def referenced_quotes(
    candidates: list[Candidate], quotes: list[Quote], subquestion: str
) -> list[Quote]:
    """The articles of the same law the `quotes` refer to ("após o período de transição de
    que tratam os arts. 26 e 27 desta Lei"), quoted from their opening (with the items it
    opens): where the rules a quoted provision points at are stated, though they may not
    name the question's words. At most `MAX_REFERENCED`, each sharing a term with the
    subquestion, none already quoted."""
    terms = query_terms(subquestion, [c.terms for c in candidates])
    pages = {c.url: c.page_text for c in candidates}
    lists = _lists_by_lead_in(candidates)
    quoted = {excerpt_key(q.excerpt) for q in quotes}
    in_article: dict[tuple[str, str], list[Candidate]] = {}
    for candidate in candidates:
        provision = provision_of(candidate.page_text, candidate.span.start, candidate.span.end)
        if provision is not None:
            in_article.setdefault((candidate.url, provision.article), []).append(candidate)
    cited = {(q.url, p.article) for q in quotes if (p := _provision_quoted(q, pages))}
    wanted = [
        (quote.url, article)
        for quote in quotes
        for article in referenced_articles(f"{quote.context or ''} {quote.excerpt}")
    ]
    found: list[Quote] = []
    for place in dict.fromkeys(wanted):
        units = in_article.get(place, [])
        if len(found) >= MAX_REFERENCED or place in cited or not units:
            continue
        if not any(_says_something_asked(terms, unit.terms) for unit in units):
            continue  # an article the question has nothing to do with
        opening = units[0]
        items = lists.get((opening.url, opening.span.start), [])
        quote = _list_quote(opening, items) if items else None
        if quote is None:
            quote = _quote(opening, lambda text: terms.coverage(term_set(text)))
        if quote is not None and excerpt_key(quote.excerpt) not in quoted:
            quoted.add(excerpt_key(quote.excerpt))
            cited.add(place)
            found.append(quote)
    return found


def _provision_quoted(quote: Quote, pages: dict[str, str]) -> Provision | None:
    page = pages.get(quote.url, "")
    start = page.find(quote.excerpt)
    return provision_of(page, start, start + len(quote.excerpt)) if start >= 0 else None


def _documents_about(topic: frozenset[str], candidates: list[Candidate]) -> set[str]:
    """The documents whose text holds at least `ASPECT_SHARE` of the topic's words."""
    words: dict[str, set[str]] = {}
    for candidate in candidates:
        words.setdefault(split_page(candidate.url)[0], set()).update(candidate.words)
    wanted = {t for t in topic if not t.isdigit()} or topic
    if not wanted:
        return set()
    return {doc for doc, held in words.items() if len(wanted & held) >= ASPECT_SHARE * len(wanted)}


def _boilerplate(candidate: Candidate, question: str) -> bool:
    kind = boilerplate_kind(_text(candidate))
    if kind is None or kind is Boilerplate.label_line:
        return False
    return not asked_about(question, kind)


def _quote(candidate: Candidate, window_score: Callable[[str], float]) -> Quote | None:
    """The candidate quoted whole, or from its start to a clause boundary (`clause_window`);
    None when what would be published is not a whole sentence (`is_fragment`)."""
    page = candidate.page_text
    window = clause_window(page, candidate.span, window_score)
    if window is None:
        return None
    excerpt = window.span.text(page)
    length = len(collapse_whitespace(excerpt))
    if not ROW_MIN_CHARS <= length <= EXCERPT_MAX_CHARS:
        return None
    if window.lead is not None:
        context: str | None = window.lead.text(page)
    else:
        context = _context_of(candidate, window.span)
    carried = context is None and candidate.carried is not None and window.span == candidate.span
    context = candidate.carried if carried else context
    if not carried and context and not belongs(page, context, (window.span.start, window.span.end)):
        if window.lead is not None:
            return None  # a clause without the label it belongs to means nothing
        context = None  # the verifier would refuse it: quote the unit alone
    if length < EXCERPT_MIN_CHARS and not short_row_quotable(page, window.span, context, carried):
        return None  # a short row is quoted whole, under its table's header
    statement = statement_of(excerpt, candidate.span, window, page)
    if context is not None and window.span == candidate.span and is_cell_row(excerpt):
        # A row of cells under its header says which period or column each cell is of.
        by_column = row_by_columns(excerpt, context)
        statement = row_by_period(clean_statement(excerpt), context) or by_column or statement
    elif context is not None and window.span == candidate.span and is_table_row(excerpt):
        # A row under its column header says which period each figure is for.
        statement = row_by_period(clean_statement(excerpt), context) or statement
        note = scale_note(context)  # "(in millions)": what its figures are in
        if note is not None and note.casefold() not in statement.casefold():
            statement = f"{statement} ({note})"
    if is_fragment(statement):
        return None
    return Quote(candidate.url, excerpt, statement, context)


def still_asked(question: str, quotes: list[Quote]) -> str:
    """The words of `question` no quote says yet: what a page found by a hop must answer."""
    said = term_set(" ".join(f"{q.context or ''} {q.excerpt}" for q in quotes))
    return " ".join(t for t in dict.fromkeys(tokenize(question)) if t not in said)


def _context_of(candidate: Candidate, window: Span) -> str | None:
    """The candidate's context as a quote, unless the excerpt already holds it."""
    span = candidate.lead_in
    if span is None or (window.start <= span.start and span.end <= window.end):
        return None
    return _quotable_end(span.text(candidate.page_text))


def _quotable_end(text: str) -> str | None:
    """A lead-in as a context quote: whole, else its last clauses (or words) that fit."""
    text = text.strip()
    if len(collapse_whitespace(text)) > EXCERPT_MAX_CHARS:
        cut = len(text) - EXCERPT_MAX_CHARS
        tail = text[cut:]
        # A clause starts after ", ; : ." but not after an abbreviation's ("pelo art. 26").
        clause = next(
            (
                m
                for m in _CLAUSE_START.finditer(tail, 0, len(tail) - LEAD_IN_CLAUSE_MIN)
                if not ends_on_abbreviation(text[: cut + m.start() + 1])
            ),
            None,
        )
        text = tail[clause.end() :] if clause else tail.split(maxsplit=1)[-1]
    return text.strip() or None


def _text(candidate: Candidate) -> str:
    return candidate.span.text(candidate.page_text)


def _lists_by_lead_in(candidates: list[Candidate]) -> dict[tuple[str, int], list[Candidate]]:
    """The list items after each lead-in ("… a incidência:", "I - 15% …"), by its place."""
    lists: dict[tuple[str, int], list[Candidate]] = {}
    for candidate in candidates:
        if candidate.lead_in is not None and _LIST_ITEM.match(_text(candidate)):
            lists.setdefault((candidate.url, candidate.lead_in.start), []).append(candidate)
    return lists


def _list_quote(lead_in: Candidate, items: list[Candidate]) -> Quote | None:
    """A lead-in quoted with the items it opens (as many as fit) as excerpt; None if none."""
    start, end = items[0].span.start, None
    for item in items:
        if len(collapse_whitespace(lead_in.page_text[start : item.span.end])) > EXCERPT_MAX_CHARS:
            break
        end = item.span.end
    context = _quotable_end(_text(lead_in))
    if end is None or context is None or not belongs(lead_in.page_text, context, (start, end)):
        return None
    excerpt = lead_in.page_text[start:end]
    # A lead-in quoted from a clause boundary reads from there as a sentence of its own.
    statement = clean_statement(f"{capitalised(context)} {excerpt}")
    return None if is_fragment(statement) else Quote(lead_in.url, excerpt, statement, context)


def speaks_of_aspect(aspect: str, subquestion: str, said: str) -> bool:
    """Whether `said` speaks of a template section's `aspect` itself (its own terms, at
    `ASPECT_SHARE`), not only of the topic every section shares: a claim quoted for another
    section ("Art. 3º … expira em 24 meses …", under the answer) may meet it too."""
    terms = _aspect_terms(aspect, subquestion, [])
    return terms is not None and terms.coverage(term_set(said)) >= ASPECT_SHARE


def _aspect_terms(aspect: str, subquestion: str, candidates: list[Candidate]) -> QueryTerms | None:
    """The aspect's own terms (those the topic does not also use), or None without one."""
    topic = term_set(subquestion.removeprefix(aspect))
    own = " ".join(t for t in tokenize(aspect) if t not in topic)
    if not aspect or not own:
        return None
    return query_terms(own, [c.terms for c in candidates])
