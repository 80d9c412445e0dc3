"""Signs of figures: written negative (a minus, U+2212 or an en dash before the figure or
its currency, or parentheses alone around it, as accounts print a negative) and stated
negative (that, or a word of loss, fall or outflow in its clause). Read by
`engine.text.quantities`. Pure code."""

from __future__ import annotations

import re

from engine.text.currencies import CURRENCY_BEFORE

__all__ = ["SIGNS", "minus_before_currency", "parenthesised", "stated_negative"]

SIGNS = "-\u2212\u2013"
_SPACES = "\u00a0\u2009\u202f"

_FALLING = re.compile(
    r"(?i:\b(?:loss|losses|lost|los[ei]\w*|deficits?|d[ée]ficits?|fell|falls?|falling|dropp?\w*"
    r"|declin\w*|decreas\w*|down|lower|reduc\w*|shr[ua]nk|contract(?:ed|ion)|negatives?|minus"
    r"|slipp\w*|slid\w*|plung\w*|plummet\w*|tumbl\w*|sank|sink\w*|outflows?|used|consum\w*"
    r"|spent|spend\w*|paid|pay\w*|repa\w*|purchas\w*|capex|capital\s+expenditures?"
    r"|expenditures?|expenses?|costs?|charges?|tax|taxes|provisions?|depreciat\w*|amorti[sz]\w*"
    r"|repurchas\w*|buybacks?|redemptions?|withdrawals?|acquisitions?|impairments?"
    r"|write-?(?:downs?|offs?)|preju[íi]zos?|perd\w*|ca[íi]u|ca[íi]ram|cai|cair|quedas?|recu\w*"
    r"|retra\w*|diminu\w*|redu[çcz]\w*|baixas?|encolh\w*|despenc\w*|tomb\w*|negativ[oa]s?"
    r"|menos|sa[íi]das?|gast\w*|pag(?:ou|os?|as?|amentos?|aram)|despesas?|custos?|encargos?"
    r"|impostos?|tributos?|provis\w*|deprecia\w*|amortiza\w*|utilizad\w*|aplicad\w*"
    r"|investi\w*|aquisi[çc]\w*|compras?|recompras?|resgates?|saques?)\b)"
)
_CLAUSE_END = re.compile(
    r"[!?•]|\n\s*\n|\.(?=\s|$)|(?i:\s(?:but|while|whereas|however|mas|enquanto|porém|contudo)\s)"
)
_NEXT_WORDS = re.compile(r"(?:\s+[^\W\d_]+){1,2}")


def parenthesised(text: str, start: int, end: int) -> bool:
    """Whether the figure at text[start:end] stands alone in parentheses, as accounts print
    a negative: "(1.577)", "$(1,577)", "(R$ 1.577)", "(3.2)%"; not "(45%)" nor "(5 MW)"."""
    before = text[:start].rstrip(f" {_SPACES}")
    currency = CURRENCY_BEFORE.search(before[-12:] + " ") if not before.endswith("(") else None
    if currency is not None and before[-12:][: currency.start()].rstrip().endswith("("):
        before = before[-12:][: currency.start()].rstrip()
    return before.endswith("(") and text[end:].lstrip(f" {_SPACES}").startswith(")")


def stated_negative(text: str, start: int, suffix_end: int) -> bool:
    """Whether a word of loss, fall or outflow stands in the clause of the figure at `start`
    before it, or in the two words after what it writes (ending at `suffix_end`)."""
    clause_start = 0
    for match in _CLAUSE_END.finditer(text, 0, start):
        clause_start = match.end()
    after = _NEXT_WORDS.match(text, suffix_end)
    window = text[clause_start:start] + " " + (after[0] if after else "")
    return _FALLING.search(window) is not None


def minus_before_currency(text: str, start: int) -> bool:
    """Whether a minus stands before the currency of the figure at `start`: "−$1,577"."""
    window = text[max(0, start - 12) : start]
    match = CURRENCY_BEFORE.search(window)
    if match is None:
        return False
    at = max(0, start - 12) + match.start()
    return at > 0 and text[at - 1] in SIGNS and not text[at - 2 : at - 1].isalnum()
