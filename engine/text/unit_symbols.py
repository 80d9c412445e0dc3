"""Units as a figure writes them after its number: percent, percentage points, basis points
(a hundredth of a percentage point), SI symbols whose case carries meaning ("mW" ≠ "MW"),
areas and volumes with their prefix squared or cubed ("km²" is 10⁶ m², "ha" 10⁴ m²), unit
words ("quilowatts-hora", "square metres") and currencies after ("5 reais"). Read by
`engine.text.quantities`. Pure code."""

from __future__ import annotations

import re
from decimal import Decimal

from engine.text.currencies import CURRENCY_AFTER, money_word

__all__ = ["unit_at"]

_ONE = Decimal(1)
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


def unit_at(text: str, pos: int) -> tuple[str | None, Decimal, int]:
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
    if match := CURRENCY_AFTER.match(text, pos):
        return money_word(match[1]), _ONE, match.end()
    return None, _ONE, pos
