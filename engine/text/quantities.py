"""Numbers compared as quantities (value, unit, scale), not as strings. Pure functions.

A quantity is a number written in digits (`numbers_in`) with what is written around it:
a currency before or after ("R$", "US$", "$" = USD, "€", "BRL", "reais", "dollars"), a scale
word after ("mil", "milhões", "mi", "bi", "thousand", "million", "mn", "bn", "75k", "US$ 5M";
"$5m"/"$5b" only after a currency) and a unit after: "%" ("por cento", "percent"),
percentage points ("p.p.", "pontos percentuais"), an SI symbol whose case carries meaning
("mW" is a milliwatt, "MW" a megawatt; "KW" is read as kW) or a unit word ("quilowatts-hora").
Its magnitude is face value × scale word × SI prefix, in its base unit (W, Wh, Wp, VA, V, A,
Hz, B, bit, m, g, L; "t" is 10⁶ g). Signs are not compared: "(1,577)" and "-5" stand for
their absolute values too, so "fell 5%" restates "-5%".

Separators are read as the text itself uses them. "1.234,5" and "0,5" are Portuguese, "1,234.5"
and "0.5" English; when a text's unambiguous figures are all of one convention, that
convention reads its ambiguous figures too (one separator, three digits after: "5.000",
"1,500"). Otherwise the language (given, or `detect_language`) settles an ambiguous figure
only towards the thousands reading usual in it: "5.000" in Portuguese is 5000 and "1,500" in
English is 1500, while "5.000" in English and "1,500" in Portuguese keep both readings.

A statement's number is backed when a quantity of the quoted text has an equal magnitude and
a unit that agrees (either side has none, or both name the same one: W ≠ Wh, % ≠ p.p.,
BRL ≠ USD). A number of the statement that still has two readings is backed only if each
reading is, or if the quoted text has the identical token (same digits and separators, so it
was copied as written); it then takes that token's readings.

Bare numbers. A statement's number with no unit and no scale claims only its digits: it is
backed by any quoted number of equal face value ("2022: 11,512" from "11,512 (In millions)").
A statement may add a unit to a bare quoted number ("20%" from "20", "$2.50" from "2.50"), but
a scale word or SI prefix changes the magnitude and must be backed: "$11,512 million" and
"75 kW" are not backed by a bare "11,512" or "75". Declarations elsewhere in the quoted text
(headers such as "(In millions)", "(Millions)", "($ million)", "in thousands", "(R$ mil)",
"em milhões de reais", "(MW)", "Potência (kW)") lend their scale and unit to its numbers that
have none of their own (a currency amount without a scale takes a declared scale too):
"$11,512 million" is backed by "Operating Profit 11,512 11,162 ... (In millions)". A bare
number may still be read at face value beside a declaration ("EPS 2.50" under "(In millions,
except per share)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from engine.text.language import detect_language
from engine.text.numbers import NumberToken, numbers_in

_SPACES = "\u00a0\u2009\u202f"
_GAP = re.compile(rf"[ \t{_SPACES}]*")
_SIGNS = "-\u2212"
_MONEY = frozenset({"BRL", "USD", "EUR", "GBP"})
_ONE = Decimal(1)

_CURRENCY_SYMBOLS = {"R$": "BRL", "US$": "USD", "U$S": "USD", "$": "USD", "€": "EUR", "£": "GBP"}
_CURRENCY_CODE = r"R\$|US\$|U\$S|\$|€|£|\b(?:USD|BRL|EUR|GBP)"
_CURRENCY_BEFORE = re.compile(rf"({_CURRENCY_CODE})[ \t\n{_SPACES}]*[(\-\u2212]?[ \t{_SPACES}]*$")
_CURRENCY_AFTER = re.compile(
    r"(USD|BRL|EUR|GBP|€|£|(?i:reais|real|d[óo]lar(?:es)?|dollars?|euros?))(?!\w)"
)

_SCALE_WORD = re.compile(
    r"((?i:mil|milh[ãa]o|milh[õo]es|mi|mln|mn|bilh[ãa]o|bilh[õo]es|bi|bn|trilh[ãa]o|"
    r"trilh[õo]es|tri|tn|thousands?|millions?|billions?|trillions?)|[kKM])(?!\w)"
)
_CURRENCY_SCALE = re.compile(r"([kKmMbB])(?!\w)")  # "$5m", "$5B": only after a currency
_OF = re.compile(rf"[ \t{_SPACES}]+(?i:de|of)[ \t{_SPACES}]+")
_EXPONENT = {"k": 3, "thousand": 3, "mil": 3, "milhare": 3, "m": 6, "mi": 6, "mn": 6, "mln": 6}
_EXPONENT |= {"million": 6, "milhao": 6, "milhoe": 6, "b": 9, "bi": 9, "bn": 9, "billion": 9}
_EXPONENT |= {"bilhao": 9, "bilhoe": 9, "tri": 12, "tn": 12, "trillion": 12, "trilhao": 12}
_EXPONENT |= {"trilhoe": 12}

_PERCENT = re.compile(
    r"(?P<pp>p\.\s?p\.?|pp|(?i:pontos?\s+percentua(?:is|l)|percentage\s+points?))(?!\w)"
    r"|(?P<pc>%|(?i:por\s+cento|percent|per\s+cent))(?!\w)"
)
_SI = re.compile(r"(?P<prefix>[kKMGTmc]?)(?P<base>Wh|Wp|W|VA|V|A|Hz|B|bits?|g|m|L|t)(?!\w)")
_SI_WORD = re.compile(
    r"(?i:(?P<prefix>quilo|kilo|mega|giga|tera)?watts?(?:[- ]?(?P<hour>horas?|hours?))?)(?!\w)"
    r"|(?i:(?P<bytes>bytes?))(?!\w)"
)
_PREFIX = {"": 0, "k": 3, "K": 3, "M": 6, "G": 9, "T": 12, "m": -3, "c": -2}
_PREFIX |= {"quilo": 3, "kilo": 3, "mega": 6, "giga": 9, "tera": 12}

_DECLARED_SCALE = re.compile(
    rf"(?i:\(\s*(?:(?P<c1>{_CURRENCY_CODE})\s*)?(?:(?:in|em)\s+)?(?:(?P<c2>{_CURRENCY_CODE})\s*)?"
    rf"|\b(?:in|em)\s+(?:(?P<c3>{_CURRENCY_CODE})\s*)?)"
    r"(?P<scale>(?i:thousands?|millions?|billions?|milhares|milh[õo]es|bilh[õo]es|mil))\b"
    r"(?P<of>(?i:\s+(?:de|of)\s+(?:reais|(?:US\s+)?d[óo]lares|(?:US\s+)?dollars|euros)))?"
)
_DECLARED_THOUSANDS = re.compile(rf"\(\s*(?:(?P<c>{_CURRENCY_CODE})\s*)?'?000s?\s*\)")
_DECLARED_UNIT_OPEN = re.compile(r"\(\s*(?:(?i:in|em)\s+)?")


@dataclass(frozen=True)
class Quantity:
    """A number as written (`raw`) with its possible face values, unit and scale.

    `readings`: the absolute values it can mean, thousands reading first (two only for an
    ambiguous figure such as "5.000" that nothing settles). `scale`: scale word × SI prefix
    (1 when none). `unit`: the base unit ("W", "Wh", "%", "pp", "BRL", ...) or None."""

    raw: str
    digits: str
    readings: tuple[Decimal, ...]
    scale: Decimal
    unit: str | None
    start: int
    end: int

    @property
    def bare(self) -> bool:
        return self.unit is None and self.scale == _ONE


Reading = tuple[str | None, Decimal]  # a unit and a scale a quoted number may carry


def quantities(text: str, language: str | None = None) -> list[Quantity]:
    """The quantities written in `text`, left to right (see the module docstring)."""
    tokens = numbers_in(text)
    faces = [_faces(token) for token in tokens]
    convention = _convention(text, tokens, faces)
    usual = (language or detect_language(text))[:2]
    found: list[Quantity] = []
    for token, (en, pt) in zip(tokens, faces, strict=True):
        readings = _settle(token, en, pt, convention, usual)
        digits = token.raw.lstrip(_SIGNS)
        start = token.end - len(digits)
        currency = _currency_before(text, start)
        scale, unit = _suffix(text, token.end, currency is not None)
        found.append(
            Quantity(token.raw, digits, readings, scale, currency or unit, start, token.end)
        )
    return found


def unsupported_numbers(
    statement: str,
    quoted: str,
    *,
    statement_language: str | None = None,
    quoted_language: str | None = None,
) -> list[str]:
    """Raw numbers of `statement` that no quantity of `quoted` backs, each once, in order."""
    declared = declarations(quoted)
    backing = [(q, _carried(q, declared)) for q in quantities(quoted, quoted_language)]
    unsupported: list[str] = []
    for claimed in quantities(statement, statement_language):
        if not _backed(claimed, backing) and claimed.raw not in unsupported:
            unsupported.append(claimed.raw)
    return unsupported


def declarations(text: str) -> list[Reading]:
    """The units and scales `text` declares for its figures: "(In millions)" is (None, 10⁶),
    "em milhões de reais" ("BRL", 10⁶), "(R$ mil)" ("BRL", 10³), "(MW)" ("W", 10⁶)."""
    found: list[Reading] = []
    for match in _DECLARED_SCALE.finditer(text):
        code = match.group("c1") or match.group("c2") or match.group("c3")
        unit = _CURRENCY_SYMBOLS.get(code, code) if code else None
        if match.group("of"):
            unit = _money_word(match.group("of").split()[-1])
        found.append((unit, Decimal(10) ** _exponent(match.group("scale"))))
    for match in _DECLARED_THOUSANDS.finditer(text):
        code = match.group("c")
        found.append((_CURRENCY_SYMBOLS.get(code, code) if code else None, Decimal(1000)))
    for match in _DECLARED_UNIT_OPEN.finditer(text):
        unit, scale, end = _unit_at(text, match.end())
        symbol = re.match(rf"({_CURRENCY_CODE})\s*", text[match.end() :])
        if unit is None and symbol:
            unit, scale = _CURRENCY_SYMBOLS.get(symbol[1], symbol[1]), _ONE
            end = match.end() + symbol.end()
        if unit is not None and text[end : end + 1] == ")":
            found.append((unit, scale))
    return found


# -- backing -------------------------------------------------------------------------------


def _backed(claimed: Quantity, backing: list[tuple[Quantity, list[Reading]]]) -> bool:
    for quantity, carried in backing:
        if quantity.digits == claimed.digits and any(
            _backs(value, claimed, quantity, carried) for value in quantity.readings
        ):
            return True  # copied as the source wrote it: read as the source reads it
    return all(
        any(_backs(value, claimed, q, carried) for q, carried in backing)
        for value in claimed.readings
    )


def _backs(value: Decimal, claimed: Quantity, quoted: Quantity, carried: list[Reading]) -> bool:
    """Whether `value` (a reading of `claimed`) is a magnitude the quoted number states."""
    for face in quoted.readings:
        for unit, scale in carried:
            if claimed.unit and unit and claimed.unit != unit:
                continue
            if claimed.bare:
                if value == face or ((unit is None or unit in _MONEY) and value == face * scale):
                    return True
            elif value * claimed.scale == face * scale:
                return True
    return False


def _carried(quantity: Quantity, declared: list[Reading]) -> list[Reading]:
    """The units and scales a quoted number may carry: its own, and the text's declared ones
    when it writes none (a currency amount without a scale takes a declared scale)."""
    own: list[Reading] = [(quantity.unit, quantity.scale)]
    if quantity.scale != _ONE:
        return own
    if quantity.unit is None:
        return own + declared
    if quantity.unit in _MONEY:
        return own + [(quantity.unit, s) for u, s in declared if u in (None, quantity.unit)]
    return own


# -- separators ----------------------------------------------------------------------------

Faces = tuple[Decimal | None, Decimal | None]  # the en and the pt reading (None: unreadable)


def _faces(token: NumberToken) -> Faces:
    body = token.raw.lstrip(_SIGNS)
    parts = re.split(rf"([.,{_SPACES}])", body)
    groups = ["".join(str(int(c)) for c in g) for g in parts[0::2]]
    marks = parts[1::2]
    return _read(groups, marks, ",", "."), _read(groups, marks, ".", ",")


def _read(groups: list[str], marks: list[str], thousands: str, point: str) -> Decimal | None:
    whole, fraction = groups, ""
    if marks and marks[-1] == point:
        whole, fraction, marks = groups[:-1], f".{groups[-1]}", marks[:-1]
    if point in marks:
        return None
    if len(whole) > 1 and (
        len(whole[0]) > 3 or whole[0].startswith("0") or any(len(g) != 3 for g in whole[1:])
    ):
        return None
    return Decimal("".join(whole) + fraction)


def _convention(text: str, tokens: list[NumberToken], faces: list[Faces]) -> str | None:
    """The convention ("en" or "pt") all the unambiguous figures of the text follow."""
    seen: set[str] = set()
    for token, (en, pt) in zip(tokens, faces, strict=True):
        if (en is None) == (pt is None) or not any(c in token.raw for c in ".,"):
            continue
        after = text[token.end : token.end + 2]
        if len(after) == 2 and after[0] in ".," and after[1].isdigit():
            continue  # a piece of a longer figure ("10.05" of "10.05.2022"): no evidence
        seen.add("en" if pt is None else "pt")
    return seen.pop() if len(seen) == 1 else None


def _settle(
    token: NumberToken, en: Decimal | None, pt: Decimal | None, convention: str | None, usual: str
) -> tuple[Decimal, ...]:
    if en is None or pt is None:
        known = pt if en is None else en
        if known is None:  # neither convention reads it: numbers_in's own readings
            return tuple(sorted({abs(v) for v in token.values}, reverse=True))
        return (known,)
    if en == pt:
        return (en,)
    if convention is not None:
        return (en if convention == "en" else pt,)
    thousands, point = max(en, pt), min(en, pt)
    return (thousands,) if (en if usual == "en" else pt) == thousands else (thousands, point)


# -- units and scales ----------------------------------------------------------------------


def _currency_before(text: str, start: int) -> str | None:
    match = _CURRENCY_BEFORE.search(text[max(0, start - 12) : start])
    return _CURRENCY_SYMBOLS.get(match[1], match[1]) if match else None


def _suffix(text: str, end: int, after_currency: bool) -> tuple[Decimal, str | None]:
    """The scale (word × prefix) and unit written after a number ending at `end`."""
    pos = _GAP.match(text, end).end()  # type: ignore[union-attr]
    scale = _ONE
    word = (_CURRENCY_SCALE.match(text, end) if after_currency else None) or _SCALE_WORD.match(
        text, pos
    )
    if word is not None:
        scale = Decimal(10) ** _exponent(word[1])
        pos = word.end()
        of = _OF.match(text, pos)
        pos = of.end() if of else _GAP.match(text, pos).end()  # type: ignore[union-attr]
    unit, prefix, _ = _unit_at(text, pos)
    return scale * prefix, unit


def _unit_at(text: str, pos: int) -> tuple[str | None, Decimal, int]:
    """The unit written at `pos`: base unit, its prefix's factor, and where it ends."""
    if match := _PERCENT.match(text, pos):
        return ("pp" if match.group("pp") else "%"), _ONE, match.end()
    if match := _SI.match(text, pos):
        base = match["base"].rstrip("s")
        factor = Decimal(10) ** _PREFIX[match["prefix"]]
        if base == "t":
            base, factor = "g", factor * 10**6
        return base, factor, match.end()
    if match := _SI_WORD.match(text, pos):
        if match["bytes"]:
            return "B", _ONE, match.end()
        base = "Wh" if match["hour"] else "W"
        return base, Decimal(10) ** _PREFIX[(match["prefix"] or "").lower()], match.end()
    if match := _CURRENCY_AFTER.match(text, pos):
        return _money_word(match[1]), _ONE, match.end()
    return None, _ONE, pos


def _money_word(word: str) -> str:
    folded = word.casefold()
    if folded.startswith(("real", "reais")):
        return "BRL"
    if folded.startswith(("dól", "dol")):
        return "USD"
    if folded.startswith("euro") or word == "€":
        return "EUR"
    return "GBP" if word == "£" else word.upper()


def _exponent(word: str) -> int:
    if word in ("M", "m", "B", "b", "k", "K"):
        return _EXPONENT[word.lower()]
    key = word.casefold().translate(str.maketrans("ãõ", "ao")).removesuffix("s")
    return _EXPONENT[key]
