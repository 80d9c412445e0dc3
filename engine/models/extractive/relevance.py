"""How well a unit of text covers a question: weighted share of the question's terms.

A term counts fully when it is in the unit, half when it is only in the unit's context (the
document title, the page header), so "(1,577)" on 3M's 2018 cash-flow page still knows it is
about 3M and 2018. Generic vocabulary expansions let "capital expenditure" meet "purchases of
property, plant and equipment" without any per-question knowledge.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.models.extractive.statements import (
    asked_statements,
    statement_alternatives,
    statement_marker,
    without_statement_names,
)
from engine.text.synonyms import QUESTION_WORDS, expansions_for
from engine.text.tokens import term_set, tokenize

CONTEXT_WEIGHT = 0.5


@dataclass(frozen=True)
class QueryTerms:
    """The terms of a question, each with a weight, and phrase alternatives."""

    weights: dict[str, float]
    alternatives: tuple[tuple[frozenset[str], frozenset[str]], ...]  # (phrase, equivalent)

    def covered(self, terms: frozenset[str]) -> set[str]:
        """Question terms present in `terms`, directly or through an equivalent phrase."""
        hit = {t for t in self.weights if t in terms}
        for phrase, equivalent in self.alternatives:
            if equivalent <= terms:
                hit |= phrase & self.weights.keys()
        return hit

    def coverage(self, unit: frozenset[str], context: frozenset[str] = frozenset()) -> float:
        total = sum(self.weights.values())
        if total == 0:
            return 0.0
        direct = self.covered(unit)
        indirect = self.covered(context) - direct
        matched = sum(self.weights[t] for t in direct)
        matched += CONTEXT_WEIGHT * sum(self.weights[t] for t in indirect)
        return matched / total


def query_terms(question: str, pool: Sequence[frozenset[str]] = ()) -> QueryTerms:
    """Weights are inverse document frequencies over `pool` (the candidate units), so terms
    every unit shares (the law's subject, the company name) weigh less than the specific ones."""
    # A question for a figure a statement prints is also about that statement's rows.
    named = [statement_marker(key) for key in asked_statements(question)]
    terms = _asked_terms(without_statement_names(question)) + named
    size = len(pool)
    weights: dict[str, float] = {}
    for term in terms:
        frequency = sum(term in unit for unit in pool)
        # A term no candidate has cannot rank them; it still counts, at a neutral weight.
        weights[term] = math.log(1.0 + size / frequency) if frequency else 1.0
    alternatives = tuple(
        (term_set(phrase), term_set(equivalent)) for phrase, equivalent in expansions_for(question)
    ) + statement_alternatives(question)
    return QueryTerms(weights, alternatives)


def _asked_terms(question: str) -> list[str]:
    """The question's distinct tokens, without scaffolding ("amount", "FY") and without a
    compound ("fy2018") whose parts ("2018") are already there."""
    tokens = [t for t in dict.fromkeys(tokenize(question)) if t not in QUESTION_WORDS]
    present = set(tokens)
    return [t for t in tokens if not _is_split_compound(t, present)]


def _is_split_compound(token: str, present: set[str]) -> bool:
    if token.isalpha() or token.isdigit():
        return False
    parts = re.findall(r"\d+|[^\W\d_]+", token)
    return len(parts) > 1 and any(part in present for part in parts)
