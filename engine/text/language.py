"""Which language a question is written in: Fonte answers in the language of the question.

Short questions carry few function words ("/research mercado energia solar residencial"),
so content words common in the consultancy's questions and word endings typical of each
language count too; accented letters count for Portuguese. With no evidence at all the
answer is English.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

Language = Literal["pt", "en"]

_WORD = re.compile(r"[^\W\d_]+")

_PORTUGUESE_MARKERS = frozenset(
    """
    o a os as um uma de do da dos das no na nos nas em para pelo pela com que não nao é
    são sao qual quais quanto quantos como quando onde porque por quem mercado está esta
    estão brasil empresas setor lei leis e ou se ao à até ate
    energia preço preços preco precos custo custos tamanho crescimento concorrentes
    concorrência concorrencia regulação regulacao tecnologia tendências tendencias riscos
    geração geracao distribuída distribuida potência potencia usinas vendas receita lucro
    participação participacao nordeste sudeste norte sul país pais governo agência agencia
    """.split()
)
_ENGLISH_MARKERS = frozenset(
    """
    the of and or to in on at by for with from is are was were what which who how when
    where why does do did market companies law laws company amount year
    energy price prices cost costs size growth competitors competition regulation
    technology trends risks generation power plants sales revenue profit share country
    government agency residential
    """.split()
)
_PORTUGUESE_LETTERS = re.compile(r"[ãõçáéíóúâêôà]")
_PORTUGUESE_ENDINGS = (
    "cial", "ncia", "ncias", "dade", "dades", "mento", "mentos", "agem", "ável", "ível",
    "eiro", "eira", "eiros", "eiras", "ções", "ção", "ões", "ão",
)  # fmt: skip
_ENGLISH_ENDINGS = ("tion", "tions", "ity", "ities", "ness", "ship", "ing", "ies", "ntial")


def _ending_votes(word: str) -> tuple[int, int]:
    if len(word) < 5:
        return 0, 0
    return int(word.endswith(_PORTUGUESE_ENDINGS)), int(word.endswith(_ENGLISH_ENDINGS))


def detect_language(text: str) -> Language:
    words = [w.casefold() for w in _WORD.findall(text)]
    portuguese = sum(w in _PORTUGUESE_MARKERS for w in words)
    english = sum(w in _ENGLISH_MARKERS for w in words)
    for word in words:
        if word in _PORTUGUESE_MARKERS or word in _ENGLISH_MARKERS:
            continue
        pt_end, en_end = _ending_votes(word)
        portuguese += pt_end
        english += en_end
    portuguese += len(_PORTUGUESE_LETTERS.findall(text.casefold()))
    return "pt" if portuguese > english else "en"


_LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def locale_language(env: Mapping[str, str]) -> Language | None:
    """The language of the user's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, first set wins, as
    POSIX orders them): "pt" for pt_BR.UTF-8, "en" for en_US, None for C, POSIX or any other."""
    for name in _LOCALE_VARIABLES:
        value = env.get(name, "").strip()
        if value:
            code = value.split(".")[0].split("_")[0].casefold()
            return "pt" if code == "pt" else "en" if code == "en" else None
    return None
