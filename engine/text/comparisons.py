"""What a question compares: its periods ("between fiscal 2019 and fiscal 2023", "de 2019 a
2023", "FY2019 vs FY2023", "2019–2023") or its entities and options ("Petrobras ou Vale?",
"A vs B", "compare X with Y", "Are X and Y both …?"), in English and Portuguese.

A question that compares gets each side answered or a gap declared for the side missing, so
the planner gives each side its own part. Only what the question says counts: two years
compared (a comparison word, or years joined as a list or range), or names joined under a
comparison cue. Pure functions.
"""

from __future__ import annotations

import itertools
import re

from engine.text.normalise import collapse_whitespace
from engine.text.periods import YEAR

_YEAR = re.compile(
    r"(?<![\d./])(?:(?:\bFY|\bfiscal(?:\s+year)?|\bano(?:\s+fiscal)?|\bexerc[ií]cio(?:\s+de)?)"
    rf"\s*['’]?)?({YEAR})(?![\d/]|\.\d)",
    re.IGNORECASE,
)
_SHORT_FISCAL_YEAR = re.compile(r"\bFY\s*['’]?(\d\d)(?!\d)", re.IGNORECASE)
# "… 25 de junho de 2019": the date of a law, not a period asked.
_SEASON = re.compile(rf"\b{YEAR}[-–/](?:{YEAR}|\d\d)\s+(?:season|temporada|safra)\b", re.I)
_LAW_DATE = re.compile(r"\bde\s+[a-zç]+\s+de\s+$", re.IGNORECASE)
# What joins two periods of a list or range: "and", "e", ",", "to", "a", "–", "vs".
_PERIOD_JOINER = re.compile(
    r"^\s*(?:,|,?\s*(?:and|e|or|ou|to|a|até|through|thru|vs\.?|versus|x|against)|[-–—]|"
    r"(?:compared|comparado|comparada)\s+(?:to|with|a|com)|and\s+the|e\s+o)\s*(?:the\s+)?$",
    re.IGNORECASE,
)
_COMPARISON_WORDS = re.compile(
    r"\b(?:between|entre|compar\w*|chang\w*|mud\w*|varia\w*|evolu\w*|grow\w*|grew|growth|"
    r"cresc\w*|increas\w*|decreas\w*|declin\w*|improv\w*|drop\w*|ca[gr]r|vs\.?|versus|"
    r"year[- ]over[- ]year|yoy)\b",
    re.IGNORECASE,
)

# Entities and options. A name is a run of capitalised words (and numbers, "of", "de", …).
_NAME_WORD = r"(?:[A-ZÀ-ÖØ-Þ][\w'’.&-]*|\d[\d.,º°/-]*)"
_NAME_JOIN = r"(?:\s+(?:of|the|from|de|da|do|das|dos|e|y|von|van|der|la|le|del|ap|&)\s+|\s+)"
_NAME = rf"{_NAME_WORD}(?:{_NAME_JOIN}{_NAME_WORD})*"
_ARTICLE = r"(?:(?i:the|a|an|o|os|as)\s+)?"
_PHRASE = r"(?:[^,.;:?!]|(?<=\d)[.,](?=\d))+?"
_PHRASE_END = (
    r"(?=\s*(?:[,.;:?!]|$|\s(?:in|on|for|at|during|regarding|by|em|no|na|nos|nas|sobre|"
    r"quanto|para|por|durante|both|ambos|ambas)\b))"
)
_CUED_PAIRS = (
    # "difference between X and Y", "diferença entre X e Y", "Between X and Y, which …"
    re.compile(
        rf"(?i:(?:^|\b)(?:between|entre))\s+{_ARTICLE}(?P<a>{_PHRASE})\s+(?i:and|e)\s+"
        rf"{_ARTICLE}(?P<b>{_PHRASE}){_PHRASE_END}"
    ),
    # "compare X with Y", "compare a X e a Y", "comparar X com Y"
    re.compile(
        rf"(?i:\bcompar(?:e|ar|a|ando|ing))\s+{_ARTICLE}(?P<a>{_PHRASE})\s+"
        rf"(?i:with|to|and|against|e|com|a)\s+{_ARTICLE}(?P<b>{_PHRASE}){_PHRASE_END}"
    ),
    # "X vs Y", "X versus Y", "X x Y"
    re.compile(rf"(?P<a>{_NAME})\s+(?:vs\.?|versus|x)\s+{_ARTICLE}(?P<b>{_NAME})"),
    # "Are X and Y both …", "X e Y são ambos …", "… the same …"
    re.compile(
        rf"^(?i:(?:are|were|is|was|do|did|does|have|has|são|foram|eram)\s+)+{_ARTICLE}"
        rf"(?P<a>{_NAME})\s+(?i:and|e)\s+{_ARTICLE}(?P<b>{_NAME})\s+"
        r"(?=.*\b(?i:both|same|ambos|ambas|mesm[oa]s?|in common|em comum)\b)"
    ),
    # "Both X and Y …"
    re.compile(rf"\b(?i:both)\s+{_ARTICLE}(?P<a>{_NAME})\s+and\s+{_ARTICLE}(?P<b>{_NAME})"),
    # "What do X and Y have in common?"
    re.compile(
        rf"^(?i:what|o que)\s+(?i:do|did|does|têm|tem)\s+(?P<a>{_NAME})\s+(?i:and|e)\s+"
        rf"(?P<b>{_NAME})\s+(?i:have|em)\b"
    ),
    # "Which …, X or Y?", "Qual …, X ou Y?"
    re.compile(
        rf"(?P<a>{_NAME})\s+(?:or|ou)\s+(?:{_ARTICLE}[a-z]+\s+of\s+)?{_ARTICLE}(?P<b>{_NAME})"
        r"\s*\??\s*$",
    ),
)
_LEADING_WORDS = re.compile(
    r"^(?:(?:(?i:are|were|is|was|do|did|does|which|who|what|both|qual|quem|são|compare|"
    r"between|entre)|the|a|an|o|os|as)\s+)+"
)  # an article in lowercase only: "The Exies" is a band's name
_OPTION_QUESTION = re.compile(
    r"^\s*(?:which|who|whom|whose|what|qual|quais|quem|o que|are|is|was|were|did|do|does)\b",
    re.IGNORECASE,
)


def _asked(question: str) -> str:
    """The question asked, without what follows its first "?" (a definition of the measure,
    "DPO is defined as … between FY2016 and FY2017", names inputs, not sides)."""
    mark = question.find("?")
    return question[: mark + 1] if mark >= 0 else question


def compared_periods(question: str) -> list[str]:
    """The years a question compares, as "2019", in the order it names them: two years or
    more, joined as a list or range or under a comparison word; [] otherwise. A season
    ("the 2003-2004 season") is one period."""
    question = _SEASON.sub(" ", _asked(question))
    mentions = _period_mentions(question)
    years = list(dict.fromkeys(year for _, _, year in mentions))
    if len(years) < 2:
        return []
    joined = any(
        _PERIOD_JOINER.match(question[end:start])
        for (_, end, _), (start, _, _) in itertools.pairwise(mentions)
    )
    return years if joined or _COMPARISON_WORDS.search(question) else []


def _side(text: str) -> str:
    return _LEADING_WORDS.sub("", text.strip(" ,;:?!")).strip()


def compared_entities(question: str) -> list[str]:
    """The two entities or options a question compares, [] when it names none under a
    comparison cue."""
    text = collapse_whitespace(_asked(question))
    for index, pattern in enumerate(_CUED_PAIRS):
        if index == len(_CUED_PAIRS) - 1 and not _OPTION_QUESTION.match(text):
            continue
        match = pattern.search(text)
        if match is None:
            continue
        a, b = _side(match.group("a")), _side(match.group("b"))
        if a and b and a.casefold() != b.casefold():
            return [a, b]
    return []


def _period_mentions(question: str) -> list[tuple[int, int, str]]:
    """(start, end, year) of each year the question asked names, "FY"/"fiscal" included."""
    mentions: list[tuple[int, int, str]] = []
    for match in _YEAR.finditer(question):
        if not _LAW_DATE.search(question[: match.start()]):
            mentions.append((match.start(), match.end(), match.group(1)))
    for match in _SHORT_FISCAL_YEAR.finditer(question):
        mentions.append((match.start(), match.end(), f"20{match.group(1)}"))
    return sorted(mentions)


def compared_sides(question: str) -> list[str]:
    """The periods (years as "2019") or else the entities or options `question` compares,
    in the order it names them; [] when it compares nothing."""
    return compared_periods(question) or compared_entities(question)


_LEAD_INTO_PERIODS = re.compile(
    r"(?:\s+(?i:between|from|entre|de|desde|in|for|of|em|no|na|during|durante))*\s*$"
)
_SIDE_WORD = {"en": "in", "pt": "em"}


def side_label(question: str, side: str) -> str:
    """How `question` names one of its sides, as a heading: "Fiscal 2019" for the year
    "2019" of "… between fiscal 2019 and fiscal 2023", "FY2023", "Petrobras"."""
    asked = _asked(question)
    label = side
    if side.isdigit():
        own = next((m for m in _period_mentions(asked) if m[2] == side), None)
        label = asked[own[0] : own[1]].strip() if own is not None else side
    return label[:1].upper() + label[1:]


def one_side(question: str, side: str, sides: list[str], language: str = "en") -> str:
    """`question` asked of one of the `sides` it compares: "How did revenue change between
    fiscal 2019 and fiscal 2023?" of "2019" is "How did revenue change in fiscal 2019?"; "Are
    Medici and Senet both board games?" of "Senet" is "Are Senet both board games?"."""
    asked = _asked(question)
    rest = question[len(asked) :]
    if side.isdigit():
        mentions = [m for m in _period_mentions(asked) if m[2] in sides]
        own = next((m for m in mentions if m[2] == side), None)
        if own is None:
            return question
        start, end = mentions[0][0], mentions[-1][1]
        lead = _LEAD_INTO_PERIODS.search(asked[:start])
        start = lead.start() if lead else start
        said = f"{_SIDE_WORD.get(language, 'in')} {asked[own[0] : own[1]]}"
        kept = f"{asked[:start]}{asked[end:]}".rstrip()
        mark = kept.endswith("?")
        kept = collapse_whitespace(kept.rstrip("?"))
        return f"{kept} {said}{'?' if mark else ''}{rest}"
    for other in (o for o in sides if o != side):
        name = re.escape(other)
        after = rf",?\s+(?i:and|e|or|ou|vs\.?|versus|x|with|com|to)\s+{_ARTICLE}{name}\b"
        before = rf"\b{name}\s+(?i:and|e|or|ou|vs\.?|versus|x|with|com|to)\s+{_ARTICLE}"
        first = asked.find(other) < asked.find(side)
        reduced = re.sub(before if first else after, "", asked, count=1)
        if reduced == asked:
            return f"{question} ({side})"
        asked = reduced
    return collapse_whitespace(asked).replace(" ?", "?") + rest
