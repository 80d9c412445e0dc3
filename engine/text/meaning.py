"""The meaning guard beside the number guard: a statement that quotes the right words and
figures can still say the opposite of its excerpt. Three rules, in Portuguese and English:

- **Polarity.** A word the excerpt negates ("não se aplica") is not stated plain ("se
  aplica"), and a word the excerpt states plain is not stated negated. Only a word both sides
  use is compared, so a synonym of the same polarity ("é vedado" for "não é permitido") and a
  statement that leaves a negated clause out pass.
- **Comparison.** A figure's bound keeps its direction: "menor ou igual a 75 kW" is not
  "maior que 75 kW", "at least" is not "at most", "até" is not "acima de". Words of one
  direction are one ("no mínimo" = "pelo menos" = "a partir de").
- **Exception.** An excerpt cut just before its own sentence goes on with an exception
  ("exceto", "salvo", "ressalvado", "except", "unless") says more than its page does
  (`cut_exception`, which needs the page).

`meaning_problem` returns the first disagreement as one line, or None. Pure code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.text.language import detect_language
from engine.text.normalise import collapse_whitespace
from engine.text.tokens import fold_accents

__all__ = ["bound_problem", "cut_exception", "meaning_problem", "polarity_problem"]

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+(?:['’][^\W\d_]+)?")
_CLAUSE_END = re.compile(r"[.;:!?()\[\]\n]")

# --- polarity ---------------------------------------------------------------------------------
_NEGATORS = frozenset(
    "nao nem nunca jamais nenhum nenhuma nenhuns nenhumas "
    "not never none nor neither cannot can't won't isn't aren't doesn't don't didn't wasn't "
    "weren't hasn't haven't hadn't shouldn't wouldn't couldn't mustn't".split()
)
_ENGLISH_ONLY_NEGATORS = frozenset({"no"})  # "no" is "in the" in Portuguese
# Words between a negator and what it negates: auxiliaries, clitics, articles.
_BRIDGE = frozenset(
    "se lhe lhes me te nos vos o a os as um uma e sao foi foram era eram sera serao ser sendo "
    "esta estao estar ha havera pode podem podera poderao podendo deve devem devera deverao "
    "devendo mais tem teve tinha "
    "be is are was were been being do does did will would shall should can could may might "
    "must have has had to the an any longer yet".split()
)
_REACH = 4
"""Tokens a negator reaches forward to the word it negates ("não se lhe aplica")."""


def _tokens(text: str) -> list[str]:
    return [fold_accents(token.casefold()) for token in _TOKEN.findall(text)]


def _spelled(text: str) -> list[tuple[str, str]]:
    """Each token folded for comparing, with its spelling on the page for quoting."""
    return [(fold_accents(token.casefold()), token) for token in _TOKEN.findall(text)]


def _stem(word: str) -> str:
    """A crude stem: "aplica", "aplicam" and "aplicavel" are one word here; so are "apply",
    "applies" and "applied"."""
    word = re.sub(r"(?:ies|ied)$", "y", word)
    if len(word) > 5:
        word = re.sub(r"(?:ing|ed|es)$", "", word)
    if len(word) > 3:
        word = re.sub(r"(?<!s)s$", "", word)
    return word[:5] if len(word) > 5 else word


def _clauses(text: str) -> list[list[tuple[str, str]]]:
    return [tokens for piece in _CLAUSE_END.split(text) if (tokens := _spelled(piece))]


def _negators(language: str) -> frozenset[str]:
    return _NEGATORS | _ENGLISH_ONLY_NEGATORS if language == "en" else _NEGATORS


def _polar_words(text: str) -> dict[str, tuple[bool, str]]:
    """Each content word's stem -> (negated, the words that say it), per clause; a word said
    both ways in the text is left out (the text itself holds both readings), and so is every
    word of a clause with an exception ("cobrada de todos, exceto ..." says "não cobrada" of
    some)."""
    negators = _negators(detect_language(text))
    seen: dict[str, tuple[bool, str]] = {}
    mixed: set[str] = set()
    for spelled in _clauses(text):
        clause = [folded for folded, _ in spelled]
        if _EXCEPTION.search(" ".join(clause)):
            mixed.update(_stem(word) for word in clause)
        for index, word in enumerate(clause):
            if word in negators or word in _BRIDGE or word.isdigit() or len(word) < 3:
                continue
            start = index
            while start > 0 and clause[start - 1] in _BRIDGE and index - start < _REACH:
                start -= 1
            negated = start > 0 and clause[start - 1] in negators
            first = start - 1 if negated else start
            said = " ".join(token for _, token in spelled[first : index + 1])
            stem = _stem(word)
            if stem in seen and seen[stem][0] != negated:
                mixed.add(stem)
            seen.setdefault(stem, (negated, said))
    return {stem: said for stem, said in seen.items() if stem not in mixed}


def polarity_problem(statement: str, excerpt: str) -> str | None:
    """Why the statement negates what the excerpt affirms, or the reverse (None when every
    word both use is said the same way)."""
    ours, theirs = _polar_words(statement), _polar_words(excerpt)
    for stem, (negated, said) in ours.items():
        other = theirs.get(stem)
        if other is not None and other[0] != negated:
            return f"the statement says '{said}' where the excerpt says '{other[1]}'"
    return None


# --- comparison -------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Bound:
    direction: str  # "upper" (at most) or "lower" (at least)
    words: str


_UPPER_BEFORE = (
    "menor ou igual a",
    "menor ou igual",
    "menor que",
    "menor do que",
    "inferior ou igual a",
    "inferior a",
    "igual ou inferior a",
    "igual ou menor que",
    "nao superior a",
    "nao excedente a",
    "nao maior que",
    "no maximo",
    "ate",
    "abaixo de",
    "limitado a",
    "limitada a",
    "less than or equal to",
    "less than",
    "lower than",
    "fewer than",
    "at most",
    "up to",
    "no more than",
    "not more than",
    "not exceeding",
    "not to exceed",
    "below",
    "under",
    "a maximum of",
    "maximum of",
)
_LOWER_BEFORE = (
    "maior ou igual a",
    "maior ou igual",
    "maior que",
    "maior do que",
    "superior ou igual a",
    "superior a",
    "igual ou superior a",
    "igual ou maior que",
    "nao inferior a",
    "nao menor que",
    "no minimo",
    "pelo menos",
    "ao menos",
    "mais de",
    "mais do que",
    "acima de",
    "a partir de",
    "acima",
    "greater than or equal to",
    "greater than",
    "more than",
    "higher than",
    "at least",
    "no less than",
    "not less than",
    "in excess of",
    "exceeding",
    "exceeds",
    "over",
    "above",
    "a minimum of",
    "minimum of",
)
_UPPER_AFTER = ("ou menos", "or less", "or fewer", "or below", "or lower", "ou inferior")
_LOWER_AFTER = ("ou mais", "or more", "or greater", "or above", "or higher", "ou superior")
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")
_UNIT_GAP = 3
"""Tokens between a figure and an "or less" after it (its unit: "75 kW ou menos")."""


def _phrases(phrases: tuple[str, ...], direction: str) -> list[tuple[list[str], _Bound]]:
    return [(phrase.split(), _Bound(direction, phrase)) for phrase in phrases]


_BEFORE = sorted(
    _phrases(_UPPER_BEFORE, "upper") + _phrases(_LOWER_BEFORE, "lower"), key=lambda p: -len(p[0])
)
_AFTER = _phrases(_UPPER_AFTER, "upper") + _phrases(_LOWER_AFTER, "lower")


def _figure_key(token: str) -> str:
    return re.sub(r"\D", "", token)


def _bounds(text: str) -> dict[str, list[_Bound | None]]:
    """Each figure's digits -> the bound said of each of its occurrences (None: no bound)."""
    tokens = _tokens(text)
    found: dict[str, list[_Bound | None]] = {}
    for index, token in enumerate(tokens):
        if not _FIGURE.fullmatch(token):
            continue
        found.setdefault(_figure_key(token), []).append(_bound_at(tokens, index))
    return found


def _bound_at(tokens: list[str], index: int) -> _Bound | None:
    end = index
    for words, bound in _BEFORE:
        if end >= len(words) and tokens[end - len(words) : end] == words:
            return bound
    for gap in range(1, _UNIT_GAP + 2):
        for words, bound in _AFTER:
            at = index + gap
            if tokens[at : at + len(words)] == words:
                return bound
    return None


def bound_problem(statement: str, excerpt: str) -> str | None:
    """Why a figure's bound in the statement points the other way from the excerpt's bound
    on the same figure (None when no figure is bounded both ways)."""
    theirs = _bounds(excerpt)
    for key, said in _bounds(statement).items():
        ours = next((bound for bound in said if bound is not None), None)
        other = [bound for bound in theirs.get(key, []) if bound is not None]
        if ours is None or not other or any(b.direction == ours.direction for b in other):
            continue
        return (
            f"the statement says '{ours.words}' where the excerpt says '{other[0].words}' "
            "of the same figure"
        )
    return None


# --- exception --------------------------------------------------------------------------------
_EXCEPTION = re.compile(
    r"\b(?:exceto|excepto|salvo|ressalvad[oa]s?|com\s+exce[cç][aã]o|a\s+n[aã]o\s+ser\s+que"
    r"|a\s+menos\s+que|except|excepting|unless|save\s+that|save\s+for|with\s+the\s+exception)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.;!?](?=\s|$)|\n\s*\n")
_EXCEPTION_QUOTE = 160


def cut_exception(page: str, excerpt_end: int) -> str | None:
    """The exception the excerpt's own sentence goes on with after `excerpt_end` on `page`
    (quoted up to the sentence's end, at most `_EXCEPTION_QUOTE` characters), or None."""
    rest = page[excerpt_end:]
    end = _SENTENCE_END.search(rest)
    sentence = rest[: end.start() if end is not None else len(rest)]
    found = _EXCEPTION.search(sentence)
    if found is None:
        return None
    quote = collapse_whitespace(sentence[found.start() :])
    return quote if len(quote) <= _EXCEPTION_QUOTE else f"{quote[:_EXCEPTION_QUOTE].rstrip()}…"


def meaning_problem(statement: str, excerpt: str) -> str | None:
    """The first way the statement's words say otherwise than the excerpt's: a bound turned
    around, then a negation added or dropped. None when they agree."""
    return bound_problem(statement, excerpt) or polarity_problem(statement, excerpt)
