"""Question words in English and Portuguese: the interrogatives that open or join questions,
the auxiliaries that open a yes/no question, and whether a question asks for a quantity or a
date. Callers compose their own patterns from these groups (`words_alternation`), so that a
rule on where a question starts or what joins two of them keeps one list of words.

The words of how a question is phrased rather than what it asks ("amount", "give", "FY")
are `engine.text.synonyms.QUESTION_WORDS`. Pure code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "AUXILIARIES_EN",
    "INTERROGATIVES_EN",
    "INTERROGATIVES_PT",
    "LONG_INTERROGATIVES_PT",
    "asks_current",
    "asks_over_time",
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


# A question about the state now ("today", "hoje", "atualmente", "the latest"), and one about
# change over time ("evolução", "over time", "trend", "since", "ano a ano").
_CURRENT_QUESTION = re.compile(
    r"\b(today|now|nowadays|currently|latest|most recent|as of now|to date|hoje"
    r"|hoje em dia|atualmente|atual|atuais|agora|mais recentes?|[úu]ltimos? dados?)\b",
    re.IGNORECASE,
)
_OVER_TIME_QUESTION = re.compile(
    r"\b(over time|over the (?:years|last \w+ years)|trend|trends|evolution|evolved|history"
    r"|historical|year by year|each year|since|evolu[çc][ãa]o|evoluiu|ao longo d[oa]s? \w+"
    r"|hist[óo]rico|s[ée]rie hist[óo]rica|tend[êe]ncia|desde|ano a ano|a cada ano)\b",
    re.IGNORECASE,
)


def asks_current(question: str) -> bool:
    """Whether `question` asks for the state now ("How many does Acme employ today?")."""
    return _CURRENT_QUESTION.search(question) is not None and not asks_over_time(question)


def asks_over_time(question: str) -> bool:
    """Whether `question` asks how something changed over time ("a evolução desde 2019")."""
    return _OVER_TIME_QUESTION.search(question) is not None


def asks_quantity(question: str) -> bool:
    """Whether `question` asks for an amount, a limit or a date ("how much", "quanto",
    "até quando", "what is the rate")."""
    return _QUANTITY_QUESTION.search(question) is not None


# A question for what a law or a regime provides as a whole ("Quais são as regras da
# minigeração?", "O que a Lei 14.300 estabelece?", "What are the rules of Brazil's law on …?"),
# not for one provision of it ("Qual o prazo …?"). In English "rules" and "provisions" are a
# law's only beside a word for a law ("provisions for income taxes" are a filing's).
_RULES_QUESTION = re.compile(
    r"\b(?:regras?|normas?|disposi[çc][õo]es|regime jur[íi]dico|marco legal"
    r"|o que (?:a |o )?(?:lei|decreto|norma|marco)\b[^?]*\b(?:diz|estabelece|prev[êe]|determina"
    r"|disp[õo]e)|o que (?:diz|estabelece|prev[êe]|determina|disp[õo]e)|legal framework"
    r"|what does (?:the )?(?:law|act|decree|statute)\b[^?]*\b(?:say|provide|establish|require))\b",
    re.IGNORECASE,
)
_LAW_RULES_EN = re.compile(r"\b(?:rules?|provisions?)\b", re.IGNORECASE)
_LAW_WORD = re.compile(
    r"\b(?:laws?|acts?|statutes?|decrees?|lei|decreto|marco|legislation|legal)\b", re.IGNORECASE
)


def asks_rules(question: str) -> bool:
    """Whether `question` asks for the rules a law lays down as a whole ("Quais são as
    regras da micro e minigeração?", "What are the rules of Brazil's Marco Civil?")."""
    if asks_quantity(question):
        return False
    if _RULES_QUESTION.search(question):
        return True
    return bool(_LAW_RULES_EN.search(question) and _LAW_WORD.search(question))
