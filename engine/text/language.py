"""Which language a question is written in: Fonte answers in the language of the question."""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["pt", "en"]

_WORD = re.compile(r"[^\W\d_]+")

_PORTUGUESE_MARKERS = frozenset(
    """
    o a os as um uma de do da dos das no na nos nas em para pelo pela com que não nao é
    são sao qual quais quanto quantos como quando onde porque por quem mercado está esta
    estão brasil empresas setor lei leis e ou se ao à até ate
    """.split()
)
_ENGLISH_MARKERS = frozenset(
    """
    the of and or to in on at by for with from is are was were what which who how when
    where why does do did market companies law laws company amount year
    """.split()
)
_PORTUGUESE_LETTERS = re.compile(r"[ãõçáéíóúâêôà]")


def detect_language(text: str) -> Language:
    words = [w.casefold() for w in _WORD.findall(text)]
    portuguese = sum(w in _PORTUGUESE_MARKERS for w in words)
    english = sum(w in _ENGLISH_MARKERS for w in words)
    portuguese += len(_PORTUGUESE_LETTERS.findall(text.casefold()))
    return "pt" if portuguese > english else "en"
