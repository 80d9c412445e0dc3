"""Tokens for BM25, the same for queries and passages, in Portuguese and English.

Casefolded, accents stripped ("geração" -> "geracao"), numbers kept with one spelling for
both languages ("1,577" and "1.577" -> "1577"; "3,5" and "3.5" -> "3.5"), stopwords dropped,
and plurals folded by a few language-agnostic suffix rules (no per-language stemmer: a
library mixes both languages, often in one document).
"""

from __future__ import annotations

import re
import unicodedata
from itertools import chain

# Bump when any rule below changes: cached indexes built with older tokens are then ignored.
TOKENIZER_VERSION = 1

_COMBINING_MARKS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_WORD = re.compile(r"\d+(?:[.,]\d+)+|[^\W_]+")
_LETTER_OR_DIGIT_RUN = re.compile(r"\d+|[^\W\d_]+")

_ENGLISH_STOPWORDS = """
a about above after again all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers him his how i if in into is it its itself just me more
most my no nor not of off on once only or other our ours out over own same she should so some
such than that the their theirs them then there these they this those through to too under
until up very was we were what when where which while who whom why will with would you your
"""
_PORTUGUESE_STOPWORDS = """
a ao aos aquela aquelas aquele aqueles aquilo as ate com como da das de dela delas dele deles
depois do dos e ela elas ele eles em entre era eram essa essas esse esses esta estao estas
este estes eu foi foram ha isso isto ja lhe lhes mais mas me mesmo meu meus minha minhas muito
na nao nas nem no nos nossa nossas nosso nossos num numa o os ou para pela pelas pelo pelos por
qual quais quando que quem sao se sem ser seu seus so sua suas tambem te tem ter teu um uma
umas uns voce voces
"""
STOPWORDS = frozenset((_ENGLISH_STOPWORDS + _PORTUGUESE_STOPWORDS).split())

# (suffix, replacement), first match wins; only for words longer than 3 letters.
_PLURAL_RULES = (
    ("oes", "ao"),  # geracoes -> geracao
    ("aes", "ao"),  # capitaes -> capitao
    ("ais", "al"),  # nacionais -> nacional
    ("eis", "el"),  # niveis -> nivel
    ("ies", "y"),  # companies -> company
    ("ss", "ss"),  # business stays
    ("us", "us"),  # status stays
    ("is", "is"),  # analysis stays
    ("s", ""),  # limites -> limite, sales -> sale
)


def fold_accents(text: str) -> str:
    """Casefold and drop combining marks: "Geração" -> "geracao"."""
    folded = text.casefold()
    if folded.isascii():
        return folded
    return _COMBINING_MARKS.sub("", unicodedata.normalize("NFKD", folded))


def tokenize(text: str) -> list[str]:
    """The index tokens of `text`, in order, repeats kept (BM25 counts them)."""
    return tokens_of_words(index_words(text))


def index_words(text: str) -> list[str]:
    """The words `tokenize` reads in `text`: folded (`fold_accents`), numbers whole."""
    return _WORD.findall(fold_accents(text))


_KNOWN_WORDS = 1 << 18
"""Words whose tokens are kept (`_TOKENS_OF`): a library's vocabulary, nearly all of it."""
_TOKENS_OF: dict[str, tuple[str, ...]] = {}


def tokens_of_words(words: list[str]) -> list[str]:
    """The tokens of `words` (from `index_words`), in order: each word's looked up all at once
    (`map` over a dict: indexing a library tokenizes every word it holds, and a call per
    word cost a sixth of it), made only for a word not seen before."""
    found = list(map(_TOKENS_OF.get, words))
    if None in found:
        if len(_TOKENS_OF) > _KNOWN_WORDS:
            _TOKENS_OF.clear()
        for position, word in enumerate(words):
            if found[position] is None:
                found[position] = _TOKENS_OF[word] = _word_tokens(word)
    return list(chain.from_iterable(found))  # type: ignore[arg-type]  # None is gone


def _word_tokens(word: str) -> tuple[str, ...]:
    if word[0].isdigit() and not word.isalnum():
        return (_spell_number(word),)
    if word.isdigit():
        return (word,)
    if len(word) == 1 or word in STOPWORDS:
        return ()
    runs = _LETTER_OR_DIGIT_RUN.findall(word)
    if len(runs) == 1:
        return (fold_plural(word),)
    # "fy2018" also counts as "2018": filings write the year apart from the prefix.
    parts = [fold_plural(run) if run.isalpha() else run for run in runs if len(run) > 1]
    return (word, *(part for part in parts if part not in STOPWORDS))


def fold_plural(word: str) -> str:
    """Singular form by suffix rules; the same word always folds the same way."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix, replacement in _PLURAL_RULES:
        if word.endswith(suffix):
            return word[: len(word) - len(suffix)] + replacement
    return word


def _spell_number(number: str) -> str:
    """One spelling for grouped or decimal numbers written the English or Portuguese way."""
    groups = re.split(r"[.,]", number)
    last = groups[-1]
    if len(last) == 3 and groups[0] != "0":
        return "".join(groups)
    return "".join(groups[:-1]) + "." + last


def term_set(text: str) -> frozenset[str]:
    """The distinct tokens of `text`: what relevance and coverage compare."""
    return frozenset(tokenize(text))
