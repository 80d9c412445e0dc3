"""Short names and what they stand for: "AMEX" for American Express, "JnJ" for Johnson &
Johnson, "MGM" for MGM Resorts. Questions use them; titles and filings spell names out, often
glued ("AMERICANEXPRESS_2022_10K"). Pure functions.
"""

from __future__ import annotations

import re

# Capitals at both ends, letters (or "&") only: AMEX, MGM, JnJ, P&G; not FY2022 nor "The".
_SHORT_NAME = re.compile(r"(?<![\w&])[A-Z][A-Za-z&]{0,6}[A-Z](?![\w&])")


def short_names(text: str) -> list[str]:
    """The acronyms and nicknames `text` writes, lowercased, "&" dropped."""
    names = [name.lower().replace("&", "") for name in _SHORT_NAME.findall(text)]
    return [name for name in names if len(name) >= 2]


def abbreviated_words(name: str, title_words: list[str]) -> set[str]:
    """The title words a short name stands for: a word it begins ("mgm" in "mgmresorts"),
    or a run of words whose letters it takes in order, starting with the first letter of the
    run's first word and ending on the last word ("jnj" for "johnson johnson", "amex" for
    "americanexpress"). Letters only, three or more."""
    if len(name) < 3 or not name.isalpha():
        return set()
    found: set[str] = set()
    for start, word in enumerate(title_words):
        if not word.isalpha() or word[0] != name[0]:
            continue
        if word.startswith(name) and len(word) > len(name):
            found.add(word)
            continue
        for end in range(start, len(title_words)):
            run = title_words[start : end + 1]
            if not all(w.isalpha() for w in run):
                break
            if _takes_letters_in_order(name, "".join(run)) and name[-1] in run[-1]:
                found |= set(run)
                break
    return found


def _takes_letters_in_order(name: str, word: str) -> bool:
    letters = iter(word)
    return all(letter in letters for letter in name)
