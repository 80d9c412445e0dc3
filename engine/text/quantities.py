"""Numbers compared as quantities (value, sign, unit and scale), not as strings. Pure functions.

A quantity is a number written in digits (`numbers_in`, "1½" too) or, for the guard, in words
(`number_words`), with a currency before or after (`currencies`: "R$", "US$", "A$", "€", "¥",
"CHF", "reais"; each its own), a scale word after ("mil", "milhões", "mi", "bi", "MM",
"thousand", "million", "bn", "75k"; "$5m" only after a currency) and a unit after
(`unit_symbols`: %, p.p., bps, SI symbols whose case carries meaning, m² and km², unit
words). Its magnitude is face value × scale word × SI prefix, in its base unit (W, Wh, m, m2,
g, ...; basis points are a hundredth of a percentage point and back % and p.p. alike).

Signs (`signs`): a quoted number written negative ("(1.577)", "−3,2%", "–4.5%", "−$1,577")
backs only a statement's number stated negative (a sign, or a word of loss, fall or outflow
in its clause: "a loss of 1,577", "caiu 3,2%"), and a minus the statement writes needs a
quoted number stated negative ("−5%" by "caiu 5%", not by "variou 5%"). Kinds
(`number_kinds`): years and law, article or section numbers are never quantities; a number
backs only a number of its own kind ("em 2022" backs no "2022 unidades"). Ranges: a lower
bound that writes no unit or scale takes its upper bound's ("5 a 10 MW", "US$ 5 a 10
milhões"); one that writes its own keeps it ("entre 5 kW e 10 MW" is 5 kW).

Separators are read as the text itself uses them. "1.234,5" and "0,5" are Portuguese, "1,234.5"
and "0.5" English; when a text's unambiguous figures are all of one convention, that
convention reads its ambiguous figures too (one separator, three digits after: "5.000",
"1,500"). Otherwise the language (given, or `detect_language`) settles an ambiguous figure
only towards the thousands reading usual in it: "5.000" in Portuguese is 5000 and "1,500" in
English is 1500, while "5.000" in English and "1,500" in Portuguese keep both readings.

A statement's number is backed when a quantity of the quoted text has an equal magnitude and
a unit that agrees (either side has none, or both name the same one: W ≠ Wh, % ≠ p.p.,
m ≠ m2, BRL ≠ USD ≠ AUD; basis points agree with % and p.p.), of its kind and sign. A
number of the statement that still has two readings is backed only if each reading is, or
if the quoted text has the identical token (same digits and separators, so it was copied as
written); it then takes that token's readings.

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
from dataclasses import dataclass, replace
from decimal import Decimal

from engine.text.currencies import (
    CURRENCY_BEFORE,
    CURRENCY_SIGN,
    MONEY,
    currency_code,
    money_word,
)
from engine.text.language import detect_language
from engine.text.number_kinds import number_kind
from engine.text.number_words import numbers_in_words
from engine.text.numbers import NumberToken, numbers_in
from engine.text.signs import SIGNS, minus_before_currency, parenthesised, stated_negative
from engine.text.unit_symbols import unit_at

_SPACES = "\u00a0\u2009\u202f"
_GAP = re.compile(rf"[ \t{_SPACES}]*")
_ONE = Decimal(1)

_SCALE_WORD = re.compile(
    r"(MM|(?i:mil|milh[ãa]o|milh[õo]es|mi|mln|mn|bilh[ãa]o|bilh[õo]es|bi|bn|trilh[ãa]o|"
    r"trilh[õo]es|tri|tn|thousands?|millions?|billions?|trillions?)|[kKM])(?!\w)"
)
_CURRENCY_SCALE = re.compile(r"([kKmMbB])(?!\w)")  # "$5m", "$5B": only after a currency
_OF = re.compile(rf"[ \t{_SPACES}]+(?i:de|of)[ \t{_SPACES}]+")
_EXPONENT = {"k": 3, "thousand": 3, "mil": 3, "milhare": 3, "m": 6, "mi": 6, "mn": 6, "mln": 6}
_EXPONENT |= {"million": 6, "milhao": 6, "milhoe": 6, "b": 9, "bi": 9, "bn": 9, "billion": 9}
_EXPONENT |= {"bilhao": 9, "bilhoe": 9, "tri": 12, "tn": 12, "trillion": 12, "trilhao": 12}
_EXPONENT |= {"trilhoe": 12, "mm": 6}

_RATES = frozenset({"bp", "%", "pp"})

_DECLARED_SCALE = re.compile(
    rf"(?i:\(\s*(?:(?P<c1>{CURRENCY_SIGN})\s*)?(?:(?:in|em)\s+)?(?:(?P<c2>{CURRENCY_SIGN})\s*)?"
    rf"|\b(?:in|em)\s+(?:(?P<c3>{CURRENCY_SIGN})\s*)?"
    # "$ in millions", "$ and shares in millions", "Dollars in millions", "Reais em milhares"
    rf"|(?:(?P<c4>{CURRENCY_SIGN})|\b(?P<money>(?:US\s+)?dollars|d[óo]lares|reais|euros))\s*"
    r"(?:(?:and|e)\s+(?:shares|a[çc][õo]es)\s+)?(?:in|em)\s+)"
    r"(?P<scale>(?i:thousands?|millions?|billions?|milhares|milh[õo]es|bilh[õo]es|mil))\b"
    r"(?P<of>(?i:\s+(?:de|of)\s+(?:reais|(?:US\s+)?d[óo]lares|(?:US\s+)?dollars|euros)))?"
)
_DECLARED_THOUSANDS = re.compile(rf"\(\s*(?:(?P<c>{CURRENCY_SIGN})\s*)?'?000s?\s*\)")
_DECLARED_UNIT_OPEN = re.compile(r"\(\s*(?:(?i:in|em)\s+)?")


@dataclass(frozen=True)
class Quantity:
    """A number as written (`raw`) with its possible face values, unit and scale.

    `readings`: the absolute values it can mean, thousands reading first (two only for an
    ambiguous figure such as "5.000" that nothing settles). `scale`: scale word × SI prefix
    (1 when none). `unit`: the base unit ("W", "Wh", "m2", "%", "pp", "bp", "BRL", ...) or
    None. `negative`: written negative (a minus sign, U+2212, an en dash, or parentheses
    alone around it: "(1.577)", "$(1,577)"); `stated_negative`: that, or a word of loss,
    fall or outflow before it in its clause or just after it ("prejuízo de", "fell",
    "capex", "3,2% de queda"). `kind`: "quantity", or "year" or "reference" (a law's,
    an article's, a section's or a note's number), which are never quantities."""

    raw: str
    digits: str
    readings: tuple[Decimal, ...]
    scale: Decimal
    unit: str | None
    start: int
    end: int
    negative: bool = False
    stated_negative: bool = False
    kind: str = "quantity"

    @property
    def bare(self) -> bool:
        return self.unit is None and self.scale == _ONE


Reading = tuple[str | None, Decimal]  # a unit and a scale a quoted number may carry


def quantities(text: str, language: str | None = None, *, words: bool = False) -> list[Quantity]:
    """The quantities written in `text`, left to right (see the module docstring); with
    `words`, the numbers written in words too ("vinte e cinco", "five million")."""
    tokens = numbers_in(text)
    faces = [_faces(token) for token in tokens]
    convention = _convention(text, tokens, faces)
    usual = (language or detect_language(text))[:2]
    read = [
        (t, _settle(t, en, pt, convention, usual))
        for t, (en, pt) in zip(tokens, faces, strict=True)
    ]
    if words:
        spelled = numbers_in_words(text)
        read = sorted(read + [(t, tuple(t.values)) for t in spelled], key=lambda r: r[0].start)
    found: list[Quantity] = []
    ends: list[int] = []
    for token, readings in read:
        digits = token.raw.lstrip(SIGNS)
        start = token.end - len(digits)
        currency = _currency_before(text, start)
        enclosed = parenthesised(text, start, token.end)
        # "$(1,577) million", "(3.2)%": what follows the parenthesis is the figure's
        after = text.index(")", token.end) + 1 if enclosed else token.end
        scale, unit, suffix_end = _suffix(text, after, currency is not None)
        negative = (
            digits != token.raw
            or enclosed
            or (currency is not None and minus_before_currency(text, start))
        )
        found.append(
            Quantity(
                token.raw, digits, readings, scale, currency or unit, start, token.end, negative
            )
        )
        ends.append(suffix_end)
    found = _ranges(text, [_classified(text, q) for q in found], ends)
    return [
        replace(q, stated_negative=q.negative or stated_negative(text, q.start, end))
        for q, end in zip(found, ends, strict=True)
    ]


def quantities_stated(text: str, language: str | None = None) -> list[Quantity]:
    """The quantities of `text` that are figures: its years and references (a law's, an
    article's number) left out."""
    return [quantity for quantity in quantities(text, language) if quantity.kind == "quantity"]


def unsupported_numbers(
    statement: str,
    quoted: str,
    *,
    statement_language: str | None = None,
    quoted_language: str | None = None,
) -> list[str]:
    """Raw numbers of `statement` that no quantity of `quoted` backs, each once, in order."""
    declared = declarations(quoted)
    backing = [(q, _carried(q, declared)) for q in quantities(quoted, quoted_language, words=True)]
    unsupported: list[str] = []
    for claimed in quantities(statement, statement_language, words=True):
        if not _backed(claimed, backing) and claimed.raw not in unsupported:
            unsupported.append(claimed.raw)
    return unsupported


def declarations(text: str) -> list[Reading]:
    """The units and scales `text` declares for its figures: "(In millions)" is (None, 10⁶),
    "em milhões de reais" ("BRL", 10⁶), "(R$ mil)" ("BRL", 10³), "(MW)" ("W", 10⁶), "$ and
    shares in millions" and "(Dollars in millions)" ("USD", 10⁶)."""
    found: list[Reading] = []
    for match in _DECLARED_SCALE.finditer(text):
        code = match.group("c1") or match.group("c2") or match.group("c3") or match.group("c4")
        unit = currency_code(code) if code else None
        if match.group("money"):
            unit = money_word(match.group("money").split()[-1])
        if match.group("of"):
            unit = money_word(match.group("of").split()[-1])
        found.append((unit, Decimal(10) ** _exponent(match.group("scale"))))
    for match in _DECLARED_THOUSANDS.finditer(text):
        code = match.group("c")
        found.append((currency_code(code) if code else None, Decimal(1000)))
    for match in _DECLARED_UNIT_OPEN.finditer(text):
        unit, scale, end = unit_at(text, match.end())
        symbol = re.match(rf"({CURRENCY_SIGN})\s*", text[match.end() :])
        if unit is None and symbol:
            unit, scale = currency_code(symbol[1]), _ONE
            end = match.end() + symbol.end()
        if unit is not None and text[end : end + 1] == ")":
            found.append((unit, scale))
    return found


# -- backing -------------------------------------------------------------------------------


def _backed(claimed: Quantity, backing: list[tuple[Quantity, list[Reading]]]) -> bool:
    backing = [(q, carried) for q, carried in backing if _alike(claimed, q)]
    for quantity, carried in backing:
        if quantity.digits == claimed.digits and any(
            _backs(value, claimed, quantity, carried) for value in quantity.readings
        ):
            return True  # copied as the source wrote it: read as the source reads it
    return all(
        any(_backs(value, claimed, q, carried) for q, carried in backing)
        for value in claimed.readings
    )


def _alike(claimed: Quantity, quoted: Quantity) -> bool:
    """Whether the two are numbers of one kind (a year backs a year, never a count) and, for
    quantities, of one sign: a quoted negative backs only a number the statement states as
    negative, and a minus the statement writes needs a quoted number stated as negative."""
    if claimed.kind != quoted.kind:
        return False
    if claimed.kind != "quantity":
        return True
    if quoted.negative and not claimed.stated_negative:
        return False
    return not (claimed.negative and not quoted.stated_negative)


def _backs(value: Decimal, claimed: Quantity, quoted: Quantity, carried: list[Reading]) -> bool:
    """Whether `value` (a reading of `claimed`) is a magnitude the quoted number states."""
    for face in quoted.readings:
        for unit, scale in carried:
            if claimed.unit and unit and not _units_agree(claimed.unit, unit):
                continue
            if claimed.bare:
                if value == face or ((unit is None or unit in MONEY) and value == face * scale):
                    return True
            elif value * claimed.scale == face * scale:
                return True
    return False


def _units_agree(one: str, other: str) -> bool:
    """The same unit, or basis points beside a percent or percentage points (25 bps is
    0.25 p.p., stated as 0.25% too); a percent is never percentage points."""
    return one == other or ("bp" in (one, other) and {one, other} <= _RATES)


def _carried(quantity: Quantity, declared: list[Reading]) -> list[Reading]:
    """The units and scales a quoted number may carry: its own, and the text's declared ones
    when it writes none (a currency amount without a scale takes a declared scale)."""
    own: list[Reading] = [(quantity.unit, quantity.scale)]
    if quantity.scale != _ONE:
        return own
    if quantity.unit is None:
        return own + declared
    if quantity.unit in MONEY:
        return own + [(quantity.unit, s) for u, s in declared if u in (None, quantity.unit)]
    return own


# -- separators ----------------------------------------------------------------------------

Faces = tuple[Decimal | None, Decimal | None]  # the en and the pt reading (None: unreadable)


def _faces(token: NumberToken) -> Faces:
    if token.exact:  # a fraction: no separators to read
        value = max(abs(v) for v in token.values)
        return value, value
    body = token.raw.lstrip(SIGNS)
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


def _suffix(text: str, end: int, after_currency: bool) -> tuple[Decimal, str | None, int]:
    """The scale (word × prefix) and unit written after a number ending at `end`, and where
    what it wrote ends."""
    pos = _GAP.match(text, end).end()  # type: ignore[union-attr]
    scale = _ONE
    last = end
    word = (_CURRENCY_SCALE.match(text, end) if after_currency else None) or _SCALE_WORD.match(
        text, pos
    )
    if word is not None:
        scale = Decimal(10) ** _exponent(word[1])
        pos = last = word.end()
        of = _OF.match(text, pos)
        pos = of.end() if of else _GAP.match(text, pos).end()  # type: ignore[union-attr]
    unit, prefix, unit_end = unit_at(text, pos)
    return scale * prefix, unit, unit_end if unit is not None else last


# -- ranges and kinds ------------------------------------------------------------------------

_RANGE_JOIN = re.compile(rf"\s*(?:-|–|—|(?i:a|to|até|e|and|or|ou))\s*(?:(?:{CURRENCY_SIGN})\s*)?$")


def _ranges(text: str, found: list[Quantity], ends: list[int]) -> list[Quantity]:
    """A range's lower bound with the unit and scale its upper bound writes, when it writes
    none of its own ("5 a 10 MW", "US$ 5–10 million"): a range keeps both bounds and their
    unit. Right to left, so "5, 7 e 10 MW" would chain."""
    out = list(found)
    for i in range(len(out) - 2, -1, -1):
        low, high = out[i], out[i + 1]
        if not _RANGE_JOIN.fullmatch(text, ends[i], high.start - _sign_width(high)):
            continue
        if low.kind == "reference" and high.bare:  # "arts. 5 a 10"
            out[i + 1] = replace(high, kind="reference")
        if low.kind != "quantity" or high.kind != "quantity":
            continue
        own = low.unit is not None and (low.unit not in MONEY or high.unit not in (None, low.unit))
        if low.scale != _ONE or own:
            continue  # "5 kW a 10 MW", "5 W a 10 MW": the lower bound writes its own
        out[i] = replace(low, unit=low.unit or high.unit, scale=high.scale)
        if high.unit is None and low.unit in MONEY:  # "US$ 5 a 10 milhões": both in US$
            out[i + 1] = replace(high, unit=low.unit)
    return out


def _sign_width(quantity: Quantity) -> int:
    return len(quantity.raw) - len(quantity.digits)


def _classified(text: str, quantity: Quantity) -> Quantity:
    """The quantity with its kind: a year, a reference, or a quantity."""
    if not quantity.bare:
        return quantity
    kind = number_kind(text, quantity.start, quantity.end, quantity.start - _sign_width(quantity))
    return replace(quantity, kind=kind)


def _currency_before(text: str, start: int) -> str | None:
    match = CURRENCY_BEFORE.search(text[max(0, start - 12) : start])
    return currency_code(match[1]) if match else None


def _exponent(word: str) -> int:
    if word in ("M", "m", "B", "b", "k", "K"):
        return _EXPONENT[word.lower()]
    key = word.casefold().translate(str.maketrans("ãõ", "ao")).removesuffix("s")
    return _EXPONENT[key]
