"""Question words in English and Portuguese: the interrogatives that open or join questions,
the auxiliaries that open a yes/no question, and whether a question asks for a quantity or a
date. Callers compose their own patterns from these groups (`words_alternation`), so that a
rule on where a question starts or what joins two of them keeps one list of words.

The words of how a question is phrased rather than what it asks ("amount", "give", "FY")
are `engine.text.vocabulary.QUESTION_WORDS`. Pure code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "AUXILIARIES_EN",
    "INTERROGATIVES_EN",
    "INTERROGATIVES_PT",
    "LONG_INTERROGATIVES_PT",
    "asks_quantity",
    "words_alternation",
]

INTERROGATIVES_EN = ("what", "which", "how", "who", "when", "where", "why")
INTERROGATIVES_PT = (
    "o que",
    "qual",
    "quais",
    "quanto",
    "quantos",
    "quantas",
    "quando",
    "como",
    "onde",
    "quem",
)
LONG_INTERROGATIVES_PT = ("por que", "até quando", "ate quando")
"""Portuguese interrogatives of two words whose first word is no question word alone."""
AUXILIARIES_EN = ("is", "are", "does", "did", "has", "have", "was", "were")
"""The verbs that open an English yes/no question."""


def words_alternation(*groups: Iterable[str]) -> str:
    """A regex fragment matching any word of `groups`, longest first, each escaped; callers
    add the boundaries (`\\b`) and flags they need."""
    words = dict.fromkeys(word for group in groups for word in group)
    return "(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + ")"


# A question answered by an amount, a limit or a date: "quanto", "qual o valor", "prazo",
# "how much", "when", "what was the amount", "rate".
_QUANTITY_QUESTION = re.compile(
    r"\b(quanto|quantos|quantas|até quando|ate quando|quando|qual (?:o|a) (?:valor|prazo|limite)|"
    r"limites?|prazo|how (?:much|many|long)|when|what (?:is|was) the (?:amount|value|total)|"
    r"amount|percent|rate|ratio)\b",
    re.IGNORECASE,
)


def asks_quantity(question: str) -> bool:
    """Whether `question` asks for an amount, a limit or a date ("how much", "quanto",
    "até quando", "what is the rate")."""
    return _QUANTITY_QUESTION.search(question) is not None
