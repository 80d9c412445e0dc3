"""A second hop: the names a first round of reading leaves to look up.

"Who directed the film that was shot in Leland in 1986?" is answered in two reads: Leland's
page names the film ("Maximum Overdrive" (1986)), and the film's page names its director. A
comparison ("Which plant is larger, the Pterocarya or the Cotula?") needs a page about each
name it asks about. So after its first round a subagent looks up, within its steps:

- the names its quotes mention that the question does not (the bridge), and
- when the question names several things and a quoted page is about one of them, the
  others (the other side of a comparison).

A hop's page may name the next link ("the spouse of the director of the film shot in
Leland"): the subagent then hops again from that page's quotes (`research`), for what is
still asked. Names are read from the text as people write them: a quoted title, or a run of
capitalised words (with the small words names keep inside: "of", "de", "von"…), never a part
of the document read ("Art. 26"). Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from engine.text.normalise import folded
from engine.text.periods import MONTH_NAMES, WEEKDAY_NAMES
from engine.text.tokens import STOPWORDS, term_set

MAX_HOPS = 2
"""Names looked up after the first round, at most."""

_QUOTED = re.compile(r"[\"“]([^\"“”]{3,80})[\"”]")
_CAPITALISED = r"(?:[A-ZÀ-ÖØ-Þ][\w'’.\-]*[\w'’]|[A-Z])"
# Small words names keep inside ("Ministério de Minas e Energia", "Ludwig van Beethoven"); an
# "and" joins two capitalised words only: "Lei 12.965 e do Decreto 9.412" is two names.
_LINKS = r"(?:of|de|da|do|dos|das|del|di|du|la|le|von|van|der|den|the)"
_AND = r"(?:and|y|e)"
# A number inside a name keeps its separators: "Lei 12.965", "Decreto 9.412/2018".
_NAME = re.compile(
    rf"{_CAPITALISED}(?:\s+(?:{_AND}\s+(?={_CAPITALISED})|(?:{_LINKS}\s+)*)"
    rf"(?:{_CAPITALISED}|\d+(?:[.,/]\d+)*))*"
)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*)$")
_MIN_CHARS = 4
_POSSESSIVE = re.compile(r"['’]s?$")
# "Art. 26", "Section 7", "Note 12", "Anexo II": a part of the document being read, not a thing
# with a page of its own.
_PART_OF_A_DOCUMENT = frozenset(
    """art arts artigo artigos article articles section sections secao seção item items
    chapter capitulo capítulo paragrafo parágrafo inciso alinea alínea anexo annex appendix
    exhibit note notes part parte table tabela figure figura schedule titulo título""".split()
)
_CALENDAR = MONTH_NAMES | WEEKDAY_NAMES


def names_in(text: str) -> list[str]:
    """The names `text` writes, quoted titles first, each once, in order of appearance. A
    single capitalised word that opens a sentence ("The", "Its") is not a name, a leading
    article is not part of one, and a part of a document ("Art. 26", "Note 12") is none."""
    names = [match.group(1).strip() for match in _QUOTED.finditer(text)]
    for match in _NAME.finditer(text):
        name = _POSSESSIVE.sub("", match.group(0)).strip(" .-'’")
        words = name.split()
        while len(words) > 1 and words[0].lower() in STOPWORDS:  # "A CDE", "The Bourne"
            words = words[1:]
        name = " ".join(words)
        if words[0].lower().rstrip(".") in _PART_OF_A_DOCUMENT:
            continue
        single = " " not in name
        opens_sentence = _SENTENCE_START.search(text[: match.start()]) is not None
        if single and (opens_sentence or name.lower() in STOPWORDS):
            continue
        if name.split()[0].lower() in _CALENDAR:
            continue  # "February 2, 2019" is a date, not a thing with a page
        names.append(name)
    kept: list[str] = []
    for name in names:
        if len(name) >= _MIN_CHARS and term_set(name) and name not in kept:
            kept.append(name)
    return kept


def hop_names(question: str, quotes: Iterable[str], quoted_titles: Iterable[str]) -> list[str]:
    """What to look up next: names the quotes mention and the question does not, then names
    the question asks about that no quoted page's title holds; at most `MAX_HOPS`."""
    asked = term_set(question)
    titles = list(quoted_titles)

    def is_page_read(name: str) -> bool:
        return any(is_about(name, title) for title in titles)

    bridges = [
        name
        for quote in quotes
        for name in names_in(quote)
        if not term_set(name) <= asked and not is_page_read(name) and _worth_a_hop(name, quote)
    ]
    asked_names = names_in(question)
    # A question naming several things (a comparison) needs a page about each: once a page
    # about one of them was quoted, the others are looked up. A page "about" a named thing is
    # one whose title is made of the question's own words ("Rhiwallon ap Cynfyn"), not one
    # that merely holds a name ("Cryptantha pterocarya" is not the page about Pterocarya).
    named_pages = [term_set(_QUALIFIER.sub("", t)) for t in titles]
    named_pages = [words for words in named_pages if words and words <= asked]
    covered = [name for name in asked_names if any(term_set(name) <= w for w in named_pages)]
    uncovered = [name for name in asked_names if covered and name not in covered]
    seeds: list[str] = []
    # The other side of a comparison (a question naming two things) first, or a name of
    # several words, then a bridge; a lone word of a question naming many things ("Israel",
    # "English") is as often a demonym as a subject.
    several = [name for name in uncovered if " " in name or len(asked_names) == 2]
    single = [name for name in uncovered if name not in several]
    for name in [*several[:1], *bridges[:1], *several[1:], *bridges[1:], *single]:
        if name not in seeds:
            seeds.append(name)
    return seeds[:MAX_HOPS]


def _worth_a_hop(name: str, quote: str) -> bool:
    """A quoted title, or a name of two words or more: a lone capitalised word in running
    text is as often a month, a demonym or a heading as a thing with a page of its own."""
    return " " in name or any(name == m.group(1).strip() for m in _QUOTED.finditer(quote))


_QUALIFIER = re.compile(r"\s*\([^)]*\)\s*$")


def is_about(name: str, title: str) -> bool:
    """Whether a page titled `title` is the page about `name`: the same words, a trailing
    qualifier aside ("Mark King (musician)"). "Cryptantha pterocarya" is not about Pterocarya."""
    words = term_set(name)
    return bool(words) and words == term_set(_QUALIFIER.sub("", title))


def names_the_page(name: str, title: str) -> bool:
    """Whether a page titled `title` is about `name` or at least holds all of its words."""
    words = term_set(name)
    return bool(words) and words <= term_set(title)


def is_heading(name: str, pages_by_title: dict[str, list[str]]) -> bool:
    """Whether a page not about `name` prints it as a line of its own: a caption or section
    heading ("Consolidated Statement of Cash Flows"), the document's structure rather than a
    thing with a page of its own."""
    wanted = folded(name)
    return any(
        folded(line).strip(" .:") == wanted
        for title, pages in pages_by_title.items()
        if not is_about(name, title)
        for page in pages
        if wanted in _folded_page(page)  # a page with such a line holds the name: only it is read
        for line in page.splitlines()
    )


@lru_cache(maxsize=64)
def _folded_page(page: str) -> str:
    """`folded(page)`, made once per page however many names a round asks about."""
    return folded(page)
