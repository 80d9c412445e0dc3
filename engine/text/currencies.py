"""Currencies as figures print them: a sign or an ISO code before ("R$", "US$", "A$",
"C$", "€", "£", "¥", "CHF"), a code or a word after ("5 JPY", "5 reais", "8 Swiss francs").
Each currency is its own: a dollar of a prefix not known ("Z$") is never the US dollar. Read
by `engine.text.quantities`. Pure code."""

from __future__ import annotations

import re

__all__ = [
    "CURRENCY_AFTER",
    "CURRENCY_BEFORE",
    "CURRENCY_SIGN",
    "MONEY",
    "currency_code",
    "money_word",
]

_SPACES = "\u00a0\u2009\u202f"

# ISO codes read as currencies before or after a figure ("CHF 5", "5 JPY").
_CODES = "USD BRL EUR GBP JPY CNY CHF AUD CAD NZD HKD SGD MXN ARS CLP COP PEN INR KRW ZAR"
_CODES += " SEK NOK DKK TWD RUB TRY"
MONEY = frozenset(_CODES.split())
_DOLLAR_PREFIXES = {"US": "USD", "R": "BRL", "A": "AUD", "AU": "AUD", "C": "CAD", "CA": "CAD"}
_DOLLAR_PREFIXES |= {"NZ": "NZD", "HK": "HKD", "S": "SGD", "SG": "SGD", "MX": "MXN"}
_DOLLAR_PREFIXES |= {"NT": "TWD", "": "USD"}
_CURRENCY_SYMBOLS = {"U$S": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "JP¥": "JPY"}
_CURRENCY_SYMBOLS |= {"CN¥": "CNY", "RMB": "CNY", "₹": "INR", "₩": "KRW"}
_CODE_ALTERNATIVES = "|".join(sorted(MONEY))
CURRENCY_SIGN = (
    rf"(?<![A-Za-z])(?:U\$S|[A-Z]{{0,3}}\$|€|£|(?:JP|CN)?¥|₹|₩)|\b(?:{_CODE_ALTERNATIVES}|RMB)\b"
)
"""A currency as a sign or a code printed before a figure ("R$", "A$", "€", "¥", "CHF")."""
CURRENCY_BEFORE = re.compile(
    rf"({CURRENCY_SIGN})[ \t\n{_SPACES}]*[(\-\u2212\u2013]?[ \t{_SPACES}]*$"
)
CURRENCY_AFTER = re.compile(
    rf"({'|'.join(sorted(MONEY))}|RMB|€|£|¥"
    r"|(?i:(?:australian|canadian|new\s+zealand|hong\s+kong|singapore)\s+dollars?"
    r"|d[óo]lar(?:es)?\s+(?:australianos?|canadenses?)|swiss\s+francs?|francos?\s+su[íi][çc]os?"
    r"|pounds?\s+sterling|libras?\s+esterlinas?|ienes|yen|yuans?|renminbi"
    r"|reais|real|d[óo]lar(?:es)?|dollars?|euros?))(?!\w)"
)
MONEY_WORDS = (
    ("australian", "AUD"),
    ("australiano", "AUD"),
    ("canadian", "CAD"),
    ("canadense", "CAD"),
    ("new zealand", "NZD"),
    ("hong kong", "HKD"),
    ("singapore", "SGD"),
    ("franc", "CHF"),
    ("pound", "GBP"),
    ("libra", "GBP"),
    ("iene", "JPY"),
    ("yen", "JPY"),
    ("yuan", "CNY"),
    ("renminbi", "CNY"),
    ("real", "BRL"),
    ("reais", "BRL"),
    ("dól", "USD"),
    ("dol", "USD"),
    ("euro", "EUR"),
)


def currency_code(sign: str) -> str:
    """The currency a sign or code names: "R$" BRL, "A$" AUD, "$" USD, "¥" JPY, "CHF" CHF;
    a dollar of a prefix not known ("Z$") is its own, never USD."""
    if sign in _CURRENCY_SYMBOLS:
        return _CURRENCY_SYMBOLS[sign]
    if sign.endswith("$"):
        return _DOLLAR_PREFIXES.get(sign[:-1], sign)
    return sign.upper()


def money_word(word: str) -> str:
    """The currency a code or a word after a figure names: "reais" BRL, "Swiss francs" CHF."""
    if word in _CURRENCY_SYMBOLS or word.upper() in MONEY:
        return currency_code(word)
    folded = word.casefold()
    for stem, code in MONEY_WORDS:
        if stem in folded:
            return code
    return word.upper()
