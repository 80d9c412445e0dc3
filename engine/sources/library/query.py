"""The words a question is searched with: its own words, minus question scaffolding, plus
the synonyms documents print instead (see `expand`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.text.abbreviations import short_names
from engine.text.synonyms import QUESTION_WORDS, expand_query_tokens
from engine.text.tokens import tokenize


@dataclass(frozen=True)
class SearchTerms:
    words: list[str]
    """The question's own tokens: these are matched against titles too."""
    expanded: list[str]
    """`words` followed by synonym tokens: these are matched against passages."""
    short_names: list[str] = field(default_factory=list)
    """Words the query writes as an acronym or nickname ("AMEX", "JnJ", "MGM"), lowercased:
    titles may spell them out ("AMERICANEXPRESS", "JOHNSON_JOHNSON", "MGMRESORTS")."""


def search_terms(query: str) -> SearchTerms:
    words = [token for token in tokenize(query) if token not in QUESTION_WORDS]
    return SearchTerms(words, expand_query_tokens(words), short_names(query))
