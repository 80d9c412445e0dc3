from engine.text.boilerplate import asked_about, boilerplate_kind
from engine.text.comparisons import compared_sides
from engine.text.escapes import escaped
from engine.text.language import Language, detect_language
from engine.text.normalise import (
    MatchText,
    clip,
    collapse_whitespace,
    excerpt_key,
    normalise_for_match,
)
from engine.text.numbers import NumberToken, missing_numbers, numbers_in
from engine.text.quantities import Quantity, declarations, quantities_stated
from engine.text.sentences import is_fragment
from engine.text.tokens import STOPWORDS, fold_accents, term_set, tokenize

__all__ = [
    "STOPWORDS",
    "Language",
    "MatchText",
    "NumberToken",
    "Quantity",
    "asked_about",
    "boilerplate_kind",
    "clip",
    "collapse_whitespace",
    "compared_sides",
    "declarations",
    "detect_language",
    "escaped",
    "excerpt_key",
    "fold_accents",
    "is_fragment",
    "missing_numbers",
    "normalise_for_match",
    "numbers_in",
    "quantities_stated",
    "term_set",
    "tokenize",
]
