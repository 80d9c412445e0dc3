"""The verifier: a claim is published only if its excerpt is on the cited page of the source
it names, every number of its statement is in that excerpt, and the statement means what the
excerpt means (docs/design.md, principle 4).

Pure code: the caller hands over the Snapshot the claim's author read (or a fresh fetch).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.contracts import (
    CONTEXT_MIN_CHARS,
    EXCERPT_MAX_CHARS,
    EXCERPT_MIN_CHARS,
    ROW_MIN_CHARS,
    Claim,
    ClaimStatus,
    Locator,
)
from engine.snapshots import Snapshot, split_page
from engine.text.addressed_to_ai import addressed_to_ai, has_invisible_controls
from engine.text.attribution import attribution_problem
from engine.text.matching import cuts_only, excerpt_pattern, find_excerpt, normalised
from engine.text.meaning import cut_exception, meaning_problem
from engine.text.normalise import collapse_whitespace
from engine.text.numbers import missing_numbers
from engine.text.provisions import provision_of
from engine.verify.contexts import carried_problem, placed, row_problem, table_header_problem
from engine.verify.figure_readings import verify_figure_reading

ADDRESSED_TO_AI = "text addressed to AI systems (prompt injection) is never a finding"
INVISIBLE_CONTROLS = (
    "the claim holds zero-width or bidirectional control characters: a reader could not see "
    "or type what it says"
)


@dataclass(frozen=True)
class Verdict:
    """Whether an excerpt is on the page, why (one line), and where it was found."""

    verified: bool
    reason: str
    locator: Locator | None = None


def verify_excerpt(
    excerpt: str,
    snapshot: Snapshot,
    cited_page: int | None = None,
    *,
    min_chars: int = EXCERPT_MIN_CHARS,
) -> Verdict:
    """Find `excerpt` on the (1-based) `cited_page` of `snapshot`, after normalisation.

    Unpaged snapshots have one text; there a cited page is not checked (web pages have none).
    `min_chars`: a claim's context (a column header such as "2018") may be shorter than an
    excerpt.
    """
    length = len(collapse_whitespace(excerpt))
    if length < min_chars:
        return Verdict(False, f"excerpt too short: {length} chars (minimum {min_chars})")
    if length > EXCERPT_MAX_CHARS:
        return Verdict(False, f"excerpt too long: {length} chars (maximum {EXCERPT_MAX_CHARS})")
    if excerpt_pattern(excerpt) is None:
        return Verdict(False, "excerpt has no text left after normalisation (only markup)")

    if not snapshot.is_paged:
        return _verify_unpaged(excerpt, snapshot.text)
    pages = snapshot.page_texts()
    if cited_page is None:
        found = _find_on_pages(excerpt, pages, range(1, len(pages) + 1))
        if found is not None:
            return Verdict(True, f"excerpt found on page {found.page}", found)
        return Verdict(False, _not_found_reason(excerpt, pages))

    in_range = 1 <= cited_page <= len(pages)
    if in_range:
        found = _find_on_pages(excerpt, pages, [cited_page])
        if found is not None:
            return Verdict(True, f"excerpt found on cited page {cited_page}", found)
    elsewhere = _find_on_pages(excerpt, pages, _by_distance(cited_page, len(pages)))
    if not in_range:
        reason = f"cited page {cited_page} is out of range: the document has {len(pages)} pages"
        if elsewhere is not None:
            reason += f"; the excerpt is on page {elsewhere.page}"
        return Verdict(False, reason, elsewhere)
    if elsewhere is not None:
        return Verdict(
            False, f"excerpt is on page {elsewhere.page}, not on cited page {cited_page}", elsewhere
        )
    return Verdict(False, _not_found_reason(excerpt, pages))


def verify_on_page(claim: Claim, snapshot: Snapshot) -> Claim:
    """The claim marked verified or rejected (with reason and locators) against `snapshot`.

    A claim with a `context` (a list item's lead-in, a table row's column header) passes only
    if the context is on the very page of the excerpt too, or is the header of the table the
    excerpt's page continues, on the page before (`contexts.carried_problem`); the
    statement's numbers may then come from either part. A table row shorter than an excerpt
    passes whole and under its table's header only (`contexts.row_problem`). Then the
    statement must mean what the claim quotes (`_meaning_problem`, reasons "meaning: ..."),
    and neither the claim nor an instruction it completes on its page may address an AI
    system (`_addressed_to_ai`). A figure reading has checks of its own (`figures`)."""
    if claim.read_by == "figure":
        return verify_figure_reading(claim, snapshot, ADDRESSED_TO_AI, INVISIBLE_CONTROLS)
    _, cited_page = split_page(claim.url)
    length = len(collapse_whitespace(claim.excerpt))
    row = claim.context is not None and length < EXCERPT_MIN_CHARS
    verdict = verify_excerpt(
        claim.excerpt, snapshot, cited_page, min_chars=ROW_MIN_CHARS if row else EXCERPT_MIN_CHARS
    )
    if row and verdict.verified:
        verdict = _whole_row(verdict, snapshot)
    elif verdict.reason.startswith("excerpt too short") and length >= ROW_MIN_CHARS:
        verdict = Verdict(False, f"{verdict.reason}; a table row may be shorter with its header")
    context = _verify_context(claim.context, snapshot, verdict, row=row)
    status = ClaimStatus.verified if verdict.verified else ClaimStatus.rejected
    reason = verdict.reason
    quoted = claim.quoted
    injected = _addressed_to_ai(claim, snapshot, verdict)
    if injected is not None:
        status = ClaimStatus.rejected
        reason = f"{ADDRESSED_TO_AI}: “{injected}”"
    elif has_invisible_controls(f"{quoted} {claim.statement}"):
        status = ClaimStatus.rejected
        reason = INVISIBLE_CONTROLS
    elif verdict.verified and context is not None and not context.verified:
        status = ClaimStatus.rejected
        reason = f"context: {context.reason}"
    elif verdict.verified:
        missing = missing_numbers(claim.statement, quoted)
        where = "the excerpt or its context" if context is not None else "the excerpt"
        if missing:
            status = ClaimStatus.rejected
            reason = f"numbers not in {where}: {', '.join(missing)}"
        else:
            reason += f"; every number of the statement is in {where}"
            if context is not None and context.reason.startswith("header from page"):
                reason += f" ({context.reason})"
    if status is ClaimStatus.verified:
        problem = _meaning_problem(claim, snapshot, verdict)
        if problem is not None:
            status, reason = ClaimStatus.rejected, f"meaning: {problem}"
    found_on = verdict.locator.page if verdict.locator is not None else None
    return claim.model_copy(
        update={
            "status": status,
            "reason": reason,
            "locator": verdict.locator,
            "provision": _provision(claim, snapshot, verdict) if verdict.verified else None,
            "context_locator": context.locator if context is not None else None,
            # The text an OCR read of the page's image: the report says so beside it.
            "read_by": "ocr" if found_on in snapshot.ocr_pages else "text",
        }
    )


def _provision(claim: Claim, snapshot: Snapshot, excerpt: Verdict) -> str | None:
    """The statute's provision the excerpt sits in, as its page prints it above the excerpt
    (`engine.text.provisions`): read from the page, never taken from the poster. A figure
    reading or an excerpt outside any article has none."""
    if excerpt.locator is None or claim.read_by == "figure":
        return None
    page = excerpt.locator.page
    text = snapshot.page_texts()[page - 1] if page is not None else snapshot.text
    found = provision_of(text, excerpt.locator.char_start, excerpt.locator.char_end)
    return found.citation() if found is not None else None


def _addressed_to_ai(claim: Claim, snapshot: Snapshot, excerpt: Verdict) -> str | None:
    """The words by which the claim addresses an AI system: its quotes or its statement, its
    context read on into its excerpt (the page's order), or an instruction that runs from
    the block before the excerpt into it, or from it into the block after (split across two
    paragraphs). A whole instruction beside an honest excerpt is not the excerpt's."""
    texts = [claim.quoted, claim.statement]
    if claim.context:
        texts.append(f"{claim.context}\n{claim.excerpt}")
    found = next((words for words in map(addressed_to_ai, texts) if words is not None), None)
    if found is not None or excerpt.locator is None:
        return found
    page = excerpt.locator.page
    text = snapshot.page_texts()[page - 1] if page is not None else snapshot.text
    before, quoted, after = _neighbourhood(
        text, excerpt.locator.char_start, excerpt.locator.char_end
    )
    for lead, joined, alone in (
        (before, f"{before}\n{quoted}", before),
        ("", f"{quoted}\n{after}", after),
    ):
        found = addressed_to_ai(joined)
        if found is None:
            continue
        own = addressed_to_ai(alone)
        if own is None or own != found or lead.rstrip().endswith(":"):
            return found  # the instruction needs the excerpt, or announces it
    return None


NEIGHBOURHOOD_CHARS = 600
"""At most this many characters of the blocks either side of an excerpt are read with it."""


def _neighbourhood(text: str, start: int, end: int) -> tuple[str, str, str]:
    """What stands before the excerpt (the rest of its line and the line or paragraph
    before), the excerpt, and what follows it (the rest of its line and the next one)."""
    head = text[max(0, start - NEIGHBOURHOOD_CHARS) : start].split("\n")
    tail = text[end : end + NEIGHBOURHOOD_CHARS].split("\n")
    previous = next((line for line in reversed(head[:-1]) if line.strip()), "")
    following = next((line for line in tail[1:] if line.strip()), "")
    return f"{previous}\n{head[-1]}", text[start:end], f"{tail[0]}\n{following}"


def _meaning_problem(claim: Claim, snapshot: Snapshot, excerpt: Verdict) -> str | None:
    """Why the statement says otherwise than what the claim quotes (`text.meaning`,
    `text.attribution`), or that the excerpt's sentence goes on, on its page, with an
    exception the excerpt leaves out; None when the meaning holds."""
    problem = meaning_problem(claim.statement, claim.quoted) or attribution_problem(
        claim.statement, claim.excerpt, claim.context
    )
    if problem is not None or excerpt.locator is None:
        return problem
    page = excerpt.locator.page
    text = snapshot.page_texts()[page - 1] if page is not None else snapshot.text
    exception = cut_exception(text, excerpt.locator.char_end)
    if exception is None:
        return None
    return f"the excerpt's sentence goes on with an exception it leaves out: “{exception}”"


def _verify_context(
    context: str | None, snapshot: Snapshot, excerpt: Verdict, *, row: bool = False
) -> Verdict | None:
    """The context's verdict: on the excerpt's own page, before it, and the lead-in or the
    header of the structure the excerpt sits in (`contexts`), or the header of the table the
    excerpt's page continues, on the page before. `row`: the excerpt is a short row, whose
    context must be its table's header. None without a context."""
    if context is None:
        return None
    page = excerpt.locator.page if excerpt.locator is not None else None
    verdict = verify_excerpt(context, snapshot, page, min_chars=CONTEXT_MIN_CHARS)
    if excerpt.locator is None or not excerpt.verified:
        return verdict
    at = (excerpt.locator.char_start, excerpt.locator.char_end)
    if verdict.verified:
        text = snapshot.page_texts()[(page or 1) - 1]
        span, problem = placed(text, context, at)
        if problem is None and row:
            problem = table_header_problem(text, span)
        if problem is None:
            return Verdict(
                True, verdict.reason, Locator(page=page, char_start=span[0], char_end=span[1])
            )
        failed = Verdict(False, f"not the excerpt's lead-in or header: {problem}")
    elif page is not None and verdict.locator is not None:
        failed = Verdict(False, f"found on page {verdict.locator.page}, not on the excerpt's page")
    else:
        failed = verdict
    carried = _carried(context, snapshot, page, at)
    return carried if carried is not None and carried.verified else failed


def _carried(
    context: str, snapshot: Snapshot, page: int | None, excerpt: tuple[int, int]
) -> Verdict | None:
    """The context as the header, on the page before, of the table the excerpt's page
    continues; None when it is not on that page."""
    if page is None or page < 2:
        return None
    pages = snapshot.page_texts()
    previous = pages[page - 2]
    spans = list(find_excerpt(context, previous))
    if not spans:
        return None
    span = spans[-1]  # the header nearest the end of its page, where the table runs on
    problem = carried_problem(previous, span, pages[page - 1], excerpt)
    if problem is not None:
        return Verdict(False, f"not the header of the table page {page} continues: {problem}")
    return Verdict(
        True,
        f"header from page {page - 1}: the table continues on page {page}",
        Locator(page=page - 1, char_start=span[0], char_end=span[1]),
    )


def _whole_row(verdict: Verdict, snapshot: Snapshot) -> Verdict:
    """A short excerpt's verdict: verified only when it is a whole row of a table."""
    assert verdict.locator is not None  # a verified excerpt is located
    page = verdict.locator.page
    text = snapshot.page_texts()[(page or 1) - 1]
    problem = row_problem(text, (verdict.locator.char_start, verdict.locator.char_end))
    if problem is None:
        return verdict
    return Verdict(
        False,
        f"excerpt shorter than {EXCERPT_MIN_CHARS} characters and not a table row: {problem}",
        verdict.locator,
    )


def _verify_unpaged(excerpt: str, text: str) -> Verdict:
    span = next(find_excerpt(excerpt, text), None)
    if span is None:
        return Verdict(False, _not_found_reason(excerpt, (text,)))
    return Verdict(
        True, "excerpt found in the source text", Locator(char_start=span[0], char_end=span[1])
    )


def _find_on_pages(excerpt: str, pages: tuple[str, ...], numbers: Iterable[int]) -> Locator | None:
    for number in numbers:
        span = next(find_excerpt(excerpt, pages[number - 1]), None)
        if span is not None:
            return Locator(page=number, char_start=span[0], char_end=span[1])
    return None


def _by_distance(cited_page: int, page_count: int) -> list[int]:
    """Pages other than the cited one, nearest first (a wrong page number is usually close)."""
    others = [p for p in range(1, page_count + 1) if p != cited_page]
    return sorted(others, key=lambda p: (abs(p - cited_page), p))


def _not_found_reason(excerpt: str, pages: tuple[str, ...]) -> str:
    """Say why nothing was found: a cut word or number, a page break inside the excerpt, or
    absence."""
    if any(cuts_only(excerpt, page) for page in pages):
        return "excerpt found only where it cuts a number or a word in two; quote it whole"
    pattern = excerpt_pattern(excerpt)
    if pattern is not None:
        texts = [normalised(page).text for page in pages]
        for number in range(1, len(pages)):
            if pattern.search(f"{texts[number - 1]} {texts[number]}"):
                return f"excerpt runs across pages {number} and {number + 1}; quote within one page"
    return "excerpt not found in the source text"


def pages_addressing_ai(claims: Iterable[Claim]) -> list[str]:
    """The documents whose claims were rejected for addressing AI systems, each once: the
    report notes that the page contains such text."""
    urls = (
        split_page(c.url)[0]
        for c in claims
        if c.status is ClaimStatus.rejected and (c.reason or "").startswith(ADDRESSED_TO_AI)
    )
    return list(dict.fromkeys(urls))
