"""Which of the documents read a question names: the share of its words a title holds.

A question about "3M's FY2022 capital intensity" names a company and a period. Of the filings
a subagent opened, "3M_2022_10K" is the one it names; "3M_2018_10K" names half of it and
"BOEING_2022_10K" the other half. A unit from a document that names less of the question than
the best one is discounted (never dropped): the same sentence in the filing asked about is
the better citation. Only documents naming some of the same words compete (see
`scope_factors`). Titles glue words ("AMERICANEXPRESS", "BestBuy"), so two adjacent
question words also match one title word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise

from engine.text.abbreviations import abbreviated_words, short_names
from engine.text.periods import QUARTER, SHORT_FISCAL_YEAR, YEAR
from engine.text.synonyms import QUESTION_WORDS
from engine.text.tokens import tokenize

SCOPE_FLOOR = 0.7
"""The factor for a document whose title names none of what the best title names."""

_PERIOD = re.compile(rf"^(?:{YEAR}|{SHORT_FISCAL_YEAR}|{QUARTER}|\d{{1,2}}[kq])$")
"""Words of a title that say when or what kind of document it is, not whom it is about."""
_KIND = re.compile(r"^\d{1,2}[kq]$")


def named_words(question_tokens: list[str], title: str, shorts: Iterable[str] = ()) -> set[str]:
    """The question's words that `title` holds, alone or glued to the next word, and the
    title words a short name of the question stands for ("JnJ": "johnson")."""
    ordered = tokenize(title.replace("_", " "))
    title_words = set(ordered)
    named = {token for token in question_tokens if token in title_words}
    for first, second in pairwise(question_tokens):
        if first + second in title_words:
            named |= {first, second}
    for short in shorts:
        named |= abbreviated_words(short, ordered)
    return named


def scope_factors(question: str, titles: Iterable[str]) -> dict[str, float]:
    """A factor in [SCOPE_FLOOR, 1] per title. A document is measured only against the
    documents naming some of the same words (other filings of the same company, other
    periods): "Sathish Kalathil" is not a lesser "Christopher Nolan", and a page the question
    does not name at all (the second hop of a multi-hop question) is not discounted."""
    named = _named_by_title(question, titles)
    factors: dict[str, float] = {}
    for title, words in named.items():
        rivals = [len(other) for other in named.values() if other & words]
        best = max(rivals, default=0)
        factors[title] = 1.0 if best == 0 else SCOPE_FLOOR + (1 - SCOPE_FLOOR) * len(words) / best
    return factors


def off_entity_titles(question: str, titles: Iterable[str]) -> set[str]:
    """Titles of documents about another entity while another title names whom the question
    is about ("3M_2018_10K" for "FY2018 capital expenditure for 3M"): titles that name only
    the question's period or document kind ("BOEING_2018_10K"), or nothing of the question
    while being a filing of a kind ("AMAZON_2017_10K", "BESTBUY_2024Q2_10Q": a 10-K or 10-Q
    of someone else). A page of no such kind naming nothing of the question (a second-hop
    page of the web) is never one of them."""
    named = _named_by_title(question, titles)
    about = {title for title, words in named.items() if any(not _PERIOD.match(w) for w in words)}
    if not about:
        return set()
    return {
        title
        for title, words in named.items()
        if title not in about and (words or _kind_words(title))
    }


def _named_by_title(question: str, titles: Iterable[str]) -> dict[str, set[str]]:
    """What of `question` each title names (`named_words`), question scaffolding aside."""
    tokens = [token for token in tokenize(question) if token not in QUESTION_WORDS]
    shorts = short_names(question)
    return {title: named_words(tokens, title, shorts) for title in set(titles)}


def _kind_words(title: str) -> set[str]:
    """The words of a title that say what kind of document it is ("10k", "10q", "8k")."""
    return {word for word in tokenize(title.replace("_", " ")) if _KIND.match(word)}
