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
from dataclasses import dataclass, replace
from decimal import Decimal

from engine.text.language import detect_language
from engine.text.numbers import NumberToken, numbers_in, numbers_in_words
from engine.text.periods import MONTH_NAMES, is_year

_SPACES = "\u00a0\u2009\u202f"
_GAP = re.compile(rf"[ \t{_SPACES}]*")
_SIGNS = "-\u2212\u2013"
_ONE = Decimal(1)

# ISO codes read as currencies before or after a figure ("CHF 5", "5 JPY").
_CODES = "USD BRL EUR GBP JPY CNY CHF AUD CAD NZD HKD SGD MXN ARS CLP COP PEN INR KRW ZAR"
_CODES += " SEK NOK DKK TWD RUB TRY"
_MONEY = frozenset(_CODES.split())
_DOLLAR_PREFIXES = {"US": "USD", "R": "BRL", "A": "AUD", "AU": "AUD", "C": "CAD", "CA": "CAD"}
_DOLLAR_PREFIXES |= {"NZ": "NZD", "HK": "HKD", "S": "SGD", "SG": "SGD", "MX": "MXN"}
_DOLLAR_PREFIXES |= {"NT": "TWD", "": "USD"}
_CURRENCY_SYMBOLS = {"U$S": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "JP¥": "JPY"}
_CURRENCY_SYMBOLS |= {"CN¥": "CNY", "RMB": "CNY", "₹": "INR", "₩": "KRW"}
CURRENCY_SIGN = (
    rf"(?<![A-Za-z])(?:U\$S|[A-Z]{{0,3}}\$|€|£|(?:JP|CN)?¥|₹|₩)|\b(?:{'|'.join(sorted(_MONEY))}|RMB)\b"
)
"""A currency as a sign or a code printed before a figure ("R$", "A$", "€", "¥", "CHF")."""
_CURRENCY_CODE = CURRENCY_SIGN
_CURRENCY_BEFORE = re.compile(rf"({_CURRENCY_CODE})[ \t\n{_SPACES}]*[(\-\u2212\u2013]?[ \t{_SPACES}]*$")
_CURRENCY_AFTER = re.compile(
    rf"({'|'.join(sorted(_MONEY))}|RMB|€|£|¥"
    r"|(?i:(?:australian|canadian|new\s+zealand|hong\s+kong|singapore)\s+dollars?"
    r"|d[óo]lar(?:es)?\s+(?:australianos?|canadenses?)|swiss\s+francs?|francos?\s+su[íi][çc]os?"
    r"|pounds?\s+sterling|libras?\s+esterlinas?|ienes|yen|yuans?|renminbi"
    r"|reais|real|d[óo]lar(?:es)?|dollars?|euros?))(?!\w)"
)
_MONEY_WORDS = (
    ("australian", "AUD"), ("australiano", "AUD"), ("canadian", "CAD"), ("canadense", "CAD"),
    ("new zealand", "NZD"), ("hong kong", "HKD"), ("singapore", "SGD"), ("franc", "CHF"),
    ("pound", "GBP"), ("libra", "GBP"), ("iene", "JPY"), ("yen", "JPY"), ("yuan", "CNY"),
    ("renminbi", "CNY"), ("real", "BRL"), ("reais", "BRL"), ("dól", "USD"), ("dol", "USD"),
    ("euro", "EUR"),
)

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

_PERCENT = re.compile(
    r"(?P<bp>bps|bp|b\.p\.|(?i:basis\s+points?|pontos?[\s-]+(?:base|b[áa]sicos?)))(?!\w)"
    r"|(?P<pp>p\.\s?p\.?|pp|(?i:pontos?\s+percentua(?:is|l)|percentage\s+points?))(?!\w)"
    r"|(?P<pc>%|(?i:por\s+cento|percent|per\s+cent))(?!\w)"
)
_SI = re.compile(
    r"(?P<prefix>[kKMGTmc]?)(?P<base>Wh|Wp|W|VA|V|A|Hz|B|bits?|g|m(?P<power>[²³]|[23](?!\d))?|L|t|ha)"
    r"(?!\w)"
)
_AREA_WORD = re.compile(
    r"(?i:(?P<prefix>quil[ôo]|kilo|centi)?(?:metros?|met(?:re|er)s?)\s+(?P<pt>quadrados?|c[úu]bicos?)"
    r"|(?P<en>square|cubic)\s+(?P<prefix2>kilo|centi)?met(?:re|er)s?|(?P<ha>hectares?))(?!\w)"
)
_SI_WORD = re.compile(
    r"(?i:(?P<prefix>quilo|kilo|mega|giga|tera)?watts?(?:[- ]?(?P<hour>horas?|hours?))?)(?!\w)"
    r"|(?i:(?P<bytes>bytes?))(?!\w)"
)
_PREFIX = {"": 0, "k": 3, "K": 3, "M": 6, "G": 9, "T": 12, "m": -3, "c": -2}
_PREFIX |= {"quilo": 3, "kilo": 3, "mega": 6, "giga": 9, "tera": 12, "quilô": 3, "centi": -2}
_BASIS_POINT = Decimal("0.01")  # of a percentage point: "25 bps" is 0.25 p.p. (or 0.25%)
_RATES = frozenset({"bp", "%", "pp"})

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
    read = [(t, _settle(t, en, pt, convention, usual)) for t, (en, pt) in zip(tokens, faces, strict=True)]
    if words:
        spelled = numbers_in_words(text)
        read = sorted(read + [(t, tuple(t.values)) for t in spelled], key=lambda r: r[0].start)
    found: list[Quantity] = []
    ends: list[int] = []
    for token, readings in read:
        digits = token.raw.lstrip(_SIGNS)
        start = token.end - len(digits)
        currency = _currency_before(text, start)
        enclosed = _parenthesised(text, start, token.end)
        # "$(1,577) million", "(3.2)%": what follows the parenthesis is the figure's
        after = text.index(")", token.end) + 1 if enclosed else token.end
        scale, unit, suffix_end = _suffix(text, after, currency is not None)
        negative = (
            digits != token.raw
            or enclosed
            or (currency is not None and _minus_before_currency(text, start))
        )
        found.append(
            Quantity(
                token.raw, digits, readings, scale, currency or unit, start, token.end, negative
            )
        )
        ends.append(suffix_end)
    found = _ranges(text, [_classified(text, q) for q in found], ends)
    return [
        replace(q, stated_negative=_stated_negative(text, q, end))
        for q, end in zip(found, ends, strict=True)
    ]


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
    "em milhões de reais" ("BRL", 10⁶), "(R$ mil)" ("BRL", 10³), "(MW)" ("W", 10⁶)."""
    found: list[Reading] = []
    for match in _DECLARED_SCALE.finditer(text):
        code = match.group("c1") or match.group("c2") or match.group("c3")
        unit = currency_code(code) if code else None
        if match.group("of"):
            unit = _money_word(match.group("of").split()[-1])
        found.append((unit, Decimal(10) ** _exponent(match.group("scale"))))
    for match in _DECLARED_THOUSANDS.finditer(text):
        code = match.group("c")
        found.append((currency_code(code) if code else None, Decimal(1000)))
    for match in _DECLARED_UNIT_OPEN.finditer(text):
        unit, scale, end = _unit_at(text, match.end())
        symbol = re.match(rf"({_CURRENCY_CODE})\s*", text[match.end() :])
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
                if value == face or ((unit is None or unit in _MONEY) and value == face * scale):
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
    if quantity.unit in _MONEY:
        return own + [(quantity.unit, s) for u, s in declared if u in (None, quantity.unit)]
    return own


# -- separators ----------------------------------------------------------------------------

Faces = tuple[Decimal | None, Decimal | None]  # the en and the pt reading (None: unreadable)


def _faces(token: NumberToken) -> Faces:
    if token.exact:  # a fraction: no separators to read
        value = max(abs(v) for v in token.values)
        return value, value
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
    return currency_code(match[1]) if match else None


def _minus_before_currency(text: str, start: int) -> bool:
    """Whether a minus stands before the currency of the figure at `start`: "−$1,577"."""
    window = text[max(0, start - 12) : start]
    match = _CURRENCY_BEFORE.search(window)
    if match is None:
        return False
    at = max(0, start - 12) + match.start()
    return at > 0 and text[at - 1] in _SIGNS and not text[at - 2 : at - 1].isalnum()


def currency_code(sign: str) -> str:
    """The currency a sign or code names: "R$" BRL, "A$" AUD, "$" USD, "¥" JPY, "CHF" CHF;
    a dollar of a prefix not known ("Z$") is its own, never USD."""
    if sign in _CURRENCY_SYMBOLS:
        return _CURRENCY_SYMBOLS[sign]
    if sign.endswith("$"):
        return _DOLLAR_PREFIXES.get(sign[:-1], sign)
    return sign.upper()


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
    unit, prefix, unit_end = _unit_at(text, pos)
    return scale * prefix, unit, unit_end if unit is not None else last


def _unit_at(text: str, pos: int) -> tuple[str | None, Decimal, int]:
    """The unit written at `pos`: base unit, its prefix's factor, and where it ends."""
    if match := _PERCENT.match(text, pos):
        if match.group("bp"):
            return "bp", _BASIS_POINT, match.end()
        return ("pp" if match.group("pp") else "%"), _ONE, match.end()
    if match := _SI.match(text, pos):
        base = match["base"].rstrip("s")
        factor = Decimal(10) ** _PREFIX[match["prefix"]]
        if base == "t":
            base, factor = "g", factor * 10**6
        elif base == "ha":
            base, factor = "m2", factor * 10**4
        elif match["power"]:
            power = 2 if match["power"] in "²2" else 3
            base, factor = f"m{power}", factor**power
        return base, factor, match.end()
    if match := _AREA_WORD.match(text, pos):
        if match["ha"]:
            return "m2", Decimal(10**4), match.end()
        dimension = (match["pt"] or match["en"]).casefold()
        power = 2 if dimension.startswith(("quadrad", "square")) else 3
        prefix = (match["prefix"] or match["prefix2"] or "").casefold()
        return f"m{power}", (Decimal(10) ** _PREFIX[prefix]) ** power, match.end()
    if match := _SI_WORD.match(text, pos):
        if match["bytes"]:
            return "B", _ONE, match.end()
        base = "Wh" if match["hour"] else "W"
        return base, Decimal(10) ** _PREFIX[(match["prefix"] or "").lower()], match.end()
    if match := _CURRENCY_AFTER.match(text, pos):
        return _money_word(match[1]), _ONE, match.end()
    return None, _ONE, pos


def _money_word(word: str) -> str:
    if word in _CURRENCY_SYMBOLS or word.upper() in _MONEY:
        return currency_code(word)
    folded = word.casefold()
    for stem, code in _MONEY_WORDS:
        if stem in folded:
            return code
    return word.upper()


# -- signs -----------------------------------------------------------------------------------

_FALLING = re.compile(
    r"(?i:\b(?:loss|losses|deficits?|d[ée]ficits?|fell|falls?|falling|dropped|drops?|declin\w*"
    r"|decreas\w*|down|lower|reduc\w*|shr[ua]nk|contract(?:ed|ion)|negatives?|minus|outflows?"
    r"|spent|spend\w*|paid|payments?|purchas\w*|capex|capital\s+expenditures?|expenditures?"
    r"|expenses?|costs?|repurchas\w*|buybacks?|acquisitions?|impairments?|write-?downs?"
    r"|preju[íi]zos?|perdas?|ca[íi]u|ca[íi]ram|cai|cair|quedas?|recu\w*|retra\w*|diminu\w*"
    r"|redu[çcz]\w*|baixas?|encolh\w*|negativ[oa]s?|menos|sa[íi]das?|gast\w*|pag(?:ou|os?|as?"
    r"|amentos?|aram)|despesas?|custos?|investi\w*|aquisi[çc]\w*|compras?|recompras?)\b)"
)
_CLAUSE_END = re.compile(
    r"[;:!?\n|•]|\.(?=\s|$)|(?i:\s(?:and|but|while|whereas|e|mas|enquanto|porém)\s)"
)
_NEXT_WORDS = re.compile(r"(?:[ \t\u00a0]+[^\W\d_]+){1,2}")


def _parenthesised(text: str, start: int, end: int) -> bool:
    """Whether the figure at text[start:end] stands alone in parentheses, as accounts print
    a negative: "(1.577)", "$(1,577)", "(R$ 1.577)", "(3.2)%"; not "(45%)" nor "(5 MW)"."""
    before = text[:start].rstrip(f" {_SPACES}")
    currency = _CURRENCY_BEFORE.search(before[-12:] + " ") if not before.endswith("(") else None
    if currency is not None and before[-12:][: currency.start()].rstrip().endswith("("):
        before = before[-12:][: currency.start()].rstrip()
    return before.endswith("(") and text[end:].lstrip(f" {_SPACES}").startswith(")")


def _stated_negative(text: str, quantity: Quantity, suffix_end: int) -> bool:
    if quantity.negative:
        return True
    clause_start = 0
    for match in _CLAUSE_END.finditer(text, 0, quantity.start):
        clause_start = match.end()
    after = _NEXT_WORDS.match(text, suffix_end)
    window = text[clause_start : quantity.start] + " " + (after[0] if after else "")
    return _FALLING.search(window) is not None


# -- ranges and kinds ------------------------------------------------------------------------

_RANGE_JOIN = re.compile(
    rf"[ \t{_SPACES}]*(?:-|–|—|(?i:a|to|até|e|and|or|ou))[ \t{_SPACES}]*"
    rf"(?:(?:{CURRENCY_SIGN})[ \t{_SPACES}]*)?$"
)
_REFERENCE = re.compile(
    r"(?i:\b(?:leis?|laws?|decretos?(?:-lei)?|decrees?|arts?|artigos?|articles?|sections?|secs?"
    r"|se[çc][ãa]o|se[çc][õo]es|incisos?|al[íi]neas?|par[áa]grafos?|paragraphs?|resolu[çc][ãa]o"
    r"(?:\s+normativa)?|resolutions?|portarias?|instru[çc][ãa]o\s+normativa|medida\s+provis[óo]ria"
    r"|emenda\s+constitucional|s[úu]mulas?|notas?|notes?|items?|itens|cap[íi]tulos?|chapters?"
    r"|anexos?|annex(?:es)?|exhibits?|tabelas?|tables?|figuras?|figures?|p[áa]ginas?|pages?"
    r"|processos?|rules?|regras?|ordinances?|bills?|REN|PL|MP|EC)\.?"
    r"|§+)[ \t\u00a0]*(?:(?i:n[º°o]\.?|n\.\s?[º°]|nr\.|n[úu]mero|number)[ \t\u00a0]*)?$"
    r"|(?:\bN[º°o]\.|\bn[º°]|\bn\.[º°]|#)[ \t\u00a0]*$"
)
_YEAR_BEFORE = re.compile(
    r"(?i:\b(?:em|no|na|de|do|da|desde|at[ée]|in|of|since|until|by|during|durante|for|the|o|a"
    r"|ano|year|exerc[íi]cio|fiscal|fy|calendar|through|from|to|and|e|ou|or|vs|versus)\.?)"
    r"[ \t\u00a0]*$|(?:FY|[/\-–—(])[ \t\u00a0]*$"
)
_YEAR_AFTER = frozenset(
    """and or e ou a o as os the to was were is will would had has have saw marked vs versus
    foi foram é era será seria teve tem tinha marcou registrou até through when quando after
    após before antes que that which in no na em for para com with de do da of on at from
    compared comparado comparada contra against levels level ended encerrado results
    resultados""".split()
)
_WORD_AFTER = re.compile(r"[ \t\u00a0]+([^\W\d_][\w-]*)")


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
        own = low.unit is not None and (low.unit not in _MONEY or high.unit not in (None, low.unit))
        if low.scale != _ONE or own:
            continue  # "5 kW a 10 MW", "5 W a 10 MW": the lower bound writes its own
        out[i] = replace(low, unit=low.unit or high.unit, scale=high.scale)
        if high.unit is None and low.unit in _MONEY:  # "US$ 5 a 10 milhões": both in US$
            out[i + 1] = replace(high, unit=low.unit)
    return out


def _sign_width(quantity: Quantity) -> int:
    return len(quantity.raw) - len(quantity.digits)


def _classified(text: str, quantity: Quantity) -> Quantity:
    """The quantity with its kind: a year, a reference, or a quantity."""
    kind = "quantity"
    before = text[max(0, quantity.start - 40) : quantity.start - _sign_width(quantity)]
    if quantity.bare and _REFERENCE.search(before):
        kind = "reference"
    elif quantity.bare and is_year(quantity.digits) and not _counted(text, quantity, before):
        kind = "year"
    return replace(quantity, kind=kind)


def _counted(text: str, quantity: Quantity, before: str) -> bool:
    """Whether a number shaped like a year counts something ("2022 unidades"): a word of its
    own follows, not one a year takes, and nothing before it says when."""
    if _YEAR_BEFORE.search(before):
        return False
    after = _WORD_AFTER.match(text, quantity.end)
    if after is None:
        return False
    word = after[1]
    folded = word.casefold()
    return word[0].islower() and folded not in _YEAR_AFTER and folded not in MONTH_NAMES


def _exponent(word: str) -> int:
    if word in ("M", "m", "B", "b", "k", "K"):
        return _EXPONENT[word.lower()]
    key = word.casefold().translate(str.maketrans("ãõ", "ao")).removesuffix("s")
    return _EXPONENT[key]
