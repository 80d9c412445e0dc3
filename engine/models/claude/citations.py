"""What Claude cited in one reply, and how a cited passage may repair a claim. Pure code.

Claims come only from `record_claim`: its statement is a sentence Claude wrote to stand on
its own. Cited text blocks are not statements — the citations documentation says a reply is
split into several text blocks, often mid-sentence
(https://platform.claude.com/docs/en/build-with-claude/citations) — but their `cited_text`
is exact page text. When a `record_claim` excerpt of the same reply is not exactly on the
page, the cited passage of that page that shares most of its words stands in for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anthropic.types import CitationCharLocation, CitationPageLocation, Message, TextBlock

from engine.verify.excerpts import Verdict

MIN_SHARED_WORDS = 0.5
"""A cited passage repairs an excerpt only if it holds at least half of the excerpt's words."""

_WORD = re.compile(r"\w+")


def cited_passages(message: Message, documents: Sequence[str]) -> dict[str, list[str]]:
    """The passages `message` cites, by the url of the document each one is from
    (`documents[i]` is the url of the i-th document block sent in the conversation)."""
    passages: dict[str, list[str]] = {}
    for block in message.content:
        if not isinstance(block, TextBlock) or not block.citations:
            continue
        for citation in block.citations:
            if not isinstance(citation, CitationCharLocation | CitationPageLocation):
                continue  # e.g. a server-side search result: not a page read here
            if 0 <= citation.document_index < len(documents) and citation.cited_text.strip():
                url = documents[citation.document_index]
                if citation.cited_text not in passages.setdefault(url, []):
                    passages[url].append(citation.cited_text)
    return passages


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


def repair_candidates(excerpt: str, passages: Sequence[str]) -> list[str]:
    """Cited passages that could be what `excerpt` meant to quote, the closest first."""
    wanted = _words(excerpt)
    if not wanted:
        return []
    scored = []
    for passage in passages:
        shared = len(wanted & _words(passage)) / len(wanted)
        if shared >= MIN_SHARED_WORDS and passage.strip() != excerpt.strip():
            scored.append((shared, passage))
    return [passage for _, passage in sorted(scored, key=lambda pair: -pair[0])]


def verdict_message(claim_id: str | None, verdict: Verdict, repaired: bool) -> str:
    """The verifier's word on a recorded claim, as the tool result tells it to Claude."""
    if claim_id is None:
        return "already recorded: the same excerpt of the same page"
    if verdict.verified:
        fix = (
            " Your excerpt was not exact; the passage you cited from that page replaced it."
            if repaired
            else ""
        )
        return f"recorded as {claim_id}: verified ({verdict.reason}).{fix}"
    hint = _hint(verdict.reason)
    return f"recorded as {claim_id} but it will be rejected: {verdict.reason}. {hint}"


def _hint(reason: str) -> str:
    on_page = re.search(r"excerpt is on page (\d+)", reason)
    if on_page:
        return f"Record it again with the url ending in #page={on_page.group(1)}."
    if "too long" in reason:
        return "Record it again with a shorter excerpt: the sentence that states the fact."
    if "too short" in reason:
        return "Record it again with a longer excerpt: the whole sentence that states the fact."
    if "cuts a number" in reason:
        return "Record it again quoting every number whole."
    if "numbers not in the excerpt" in reason:
        return "Quote the passage with those numbers, or state only what the excerpt says."
    return "Copy the excerpt character for character from the page and record it again."
