"""Numbers that are not quantities: years and the numbers of laws, articles, sections,
notes and items. A year is a year-shaped figure that counts nothing ("em 2022", "FY2022",
"2022 2021"; "2022 unidades" counts); a reference is a number after the word of what it
numbers, or after "nº" ("Lei 14.300", "art. 75", "Section 404", "No. 10,000"). Read by
`engine.text.quantities`. Pure code."""

from __future__ import annotations

import re

from engine.text.periods import MONTH_NAMES, MONTHS_EN, MONTHS_PT, is_year

__all__ = ["number_kind"]

_REFERENCE = re.compile(
    r"(?i:\b(?:leis?|laws?|decretos?(?:-lei)?|decrees?|arts?|artigos?|articles?|sections?|secs?"
    r"|se[çc][ãa]o|se[çc][õo]es|incisos?|al[íi]neas?|par[áa]grafos?|paragraphs?|resolu[çc][ãa]o"
    r"(?:\s+normativa)?|resolutions?|portarias?|instru[çc][ãa]o\s+normativa|medida\s+provis[óo]ria"
    r"|emenda\s+constitucional|s[úu]mulas?|notas?|notes?|items?|itens|cap[íi]tulos?|chapters?"
    r"|anexos?|annex(?:es)?|exhibits?|tabelas?|tables?|figuras?|figures?|p[áa]ginas?|pages?"
    r"|processos?|rules?|regras?|ordinances?|bills?|REN|PL|MP|EC)\.?"
    r"|§+)\s*(?:(?i:n[º°o]\.?|n\.\s?[º°]|nr\.|n[úu]mero|number)\s*)?$"
    r"|(?:\bN[º°o]\.|\bn[º°]|\bn\.[º°]|#)\s*$"
)
_YEAR_BEFORE = re.compile(
    r"(?i:\b(?:em|no|na|de|do|da|desde|at[ée]|in|of|since|until|by|during|durante|for|the|o|a"
    r"|ano|year|exerc[íi]cio|fiscal|fy|calendar|through|from|to|and|e|ou|or|vs|versus"
    rf"|{MONTHS_EN}|{MONTHS_PT})\.?)\s*$|(?:FY|[/\-–—(]|\b\d{{1,2}},)\s*$"
)
_YEAR_AFTER = frozenset(
    """and or e ou a o as os the to was were is will would had has have saw marked vs versus
    foi foram é era será seria teve tem tinha marcou registrou até through when quando after
    após before antes que that which in no na em for para com with de do da of on at from
    compared comparado comparada contra against levels level ended encerrado results
    resultados""".split()
)
# A line break a text layer put between two words is a space; " \n " joins two quoted parts.
_WORD_AFTER = re.compile(r"(?:[ \t\u00a0]+|\n)([^\W\d_][\w-]*)")


def number_kind(text: str, start: int, end: int, before_start: int) -> str:
    """The kind of the bare figure at text[start:end] (its sign, if any, from
    `before_start`): "reference", "year" or "quantity"."""
    before = text[max(0, before_start - 40) : before_start]
    if _REFERENCE.search(before):
        return "reference"
    if is_year(text[start:end]) and not _counted(text, end, before):
        return "year"
    return "quantity"


def _counted(text: str, end: int, before: str) -> bool:
    """Whether a number shaped like a year counts something ("2022 unidades"): a word of its
    own follows, not one a year takes, and nothing before it says when."""
    if _YEAR_BEFORE.search(before):
        return False
    after = _WORD_AFTER.match(text, end)
    if after is None:
        return False
    word = after[1]
    folded = word.casefold()
    return word[0].islower() and folded not in _YEAR_AFTER and folded not in MONTH_NAMES
