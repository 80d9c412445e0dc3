"""What a source is, besides its text: its standing and its own date (the "evidence atoms"
of docs/design.md).

**Standing.** `primary`: the issuer itself, a government, a regulator, a filing or an
official act; `secondary`: press, an industry association, a research firm; `other`: blogs,
forums and anything unknown. A web page's standing is its domain's (the longest suffix a
rule names). A document no domain rule covers (a library file, a PDF on an unknown host) is
primary when its title, file name or first page reads as a filing or an official act (a
Form 10-K, "Diário Oficial", "Lei nº"); anything else is `other`. A deployment adds or
overrides rules with a JSON file named by `FONTE_STANDING_FILE`:

    {"domains": {"absolar.org.br": "secondary", "acme.com": "primary"},
     "documents": {"relatório de sustentabilidade": "primary"}}

Deployment rules come first: a domain it names wins over the defaults, and its document
phrases (matched as words, case folded) are tried before the defaults'.

**Date.** The source's own date, ISO 8601 (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`), from the first
of: the page's metadata (`Snapshot.published`), the filing's period (a fiscal year in its
title, "fiscal year ended December 31, 2018" on its first page), a date written near the top
of its first page, the year in its file name or title. "" when none says one.

Pure, apart from `rules_from_environment`, which reads the deployment's file once.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath
from typing import get_args
from urllib.parse import unquote, urlsplit

from engine.contracts import Standing
from engine.settings import BadInput
from engine.snapshots import Snapshot, split_page
from engine.text.normalise import collapse_whitespace
from engine.text.periods import FISCAL_YEAR, MONTHS_EN, MONTHS_PT, YEAR, YEAR_IN_TEXT

__all__ = [
    "DEFAULT_RULES",
    "STANDING_FILE",
    "STANDING_ORDER",
    "StandingRules",
    "evidence_of",
    "load_rules",
    "rules_from_environment",
    "source_date",
]

STANDING_FILE = "FONTE_STANDING_FILE"
STANDINGS: tuple[Standing, ...] = get_args(Standing)
STANDING_ORDER: dict[Standing, int] = {"primary": 2, "secondary": 1, "other": 0}
"""Higher first: what a reader (and a conflict) puts first."""
FIRST_PAGE_HEAD = 3000
"""Characters of a first page read for its date: a cover's date, not one in its body."""

_PRIMARY_DOMAINS = (
    "gov.br planalto.gov.br aneel.gov.br epe.gov.br ons.org.br ccee.org.br bcb.gov.br "
    "ibge.gov.br cvm.gov.br in.gov.br senado.leg.br camara.leg.br leg.br jus.br mme.gov.br "
    "gov sec.gov federalregister.gov europa.eu gov.uk legislation.gov.uk gob.mx gob.ar "
    "b3.com.br rad.cvm.gov.br"
)
_SECONDARY_DOMAINS = (
    "reuters.com bloomberg.com ft.com wsj.com nytimes.com economist.com cnbc.com apnews.com "
    "valor.globo.com globo.com g1.globo.com folha.uol.com.br uol.com.br estadao.com.br "
    "exame.com infomoney.com.br canalenergia.com.br canalsolar.com.br absolar.org.br "
    "abeeolica.org.br abradee.org.br abraceel.org.br portalsolar.com.br greener.com.br "
    "iea.org irena.org bnef.com mckinsey.com woodmac.com"
)
_OTHER_DOMAINS = (
    "blogspot.com wordpress.com medium.com substack.com tumblr.com reddit.com quora.com "
    "stackexchange.com facebook.com x.com twitter.com linkedin.com youtube.com"
)
_PRIMARY_DOCUMENTS = (
    r"form 10-?k", r"10-?k", r"10-?q", r"8-?k", r"20-?f", r"annual report",
    r"securities and exchange commission", r"relat[oó]rio anual",
    r"formul[aá]rio de refer[eê]ncia", r"demonstra[cç][oõ]es financeiras",
    r"di[aá]rio oficial", r"lei n[ºo°]?", r"decreto n[ºo°]?", r"resolu[cç][aã]o normativa",
    r"medida provis[oó]ria", r"portaria n[ºo°]?",
)  # fmt: skip


@dataclass(frozen=True)
class StandingRules:
    """Domain suffixes and document phrases with their standing, deployment rules first."""

    domains: tuple[tuple[str, Standing], ...]
    documents: tuple[tuple[str, Standing], ...]
    """(regex fragment matched as whole words of the case-folded text, standing)."""

    def standing_of(
        self, url: str, title: str = "", first_page: str = "", *, document: bool = True
    ) -> Standing:
        """By the domain; else, for a `document` (a file, a PDF; not a web page, whose words
        anyone may write), by what its title, file name or first page reads as."""
        host = (urlsplit(url).hostname or "").casefold().rstrip(".")
        if host:
            by_domain = self._by_domain(host)
            if by_domain is not None:
                return by_domain
        if host and not document:
            return "other"
        said = _words_of(f"{title} {_file_stem(url)} {first_page[:FIRST_PAGE_HEAD]}")
        for phrase, standing in self.documents:
            if re.search(rf"(?<!\w){phrase}(?!\w)", said):
                return standing
        return "other"

    def standing_of_unit(self, url: str, title: str) -> Standing:
        """The standing of a search hit or a page to quote, by its URL and its document's
        title: a page of a paged document (`#page=N`) or a library file is a document."""
        document = split_page(url)[1] is not None or urlsplit(url).scheme == "file"
        return self.standing_of(url, title, document=document)

    def _by_domain(self, host: str) -> Standing | None:
        found: tuple[int, Standing] | None = None
        for suffix, standing in self.domains:  # the longest suffix named; the first on a tie
            if (host == suffix or host.endswith(f".{suffix}")) and (
                found is None or len(suffix) > found[0]
            ):
                found = (len(suffix), standing)
        return found[1] if found else None

    def before(self, defaults: StandingRules) -> StandingRules:
        """These rules, overriding `defaults` (a domain named here wins over the same one)."""
        named = {suffix for suffix, _ in self.domains}
        kept = tuple(rule for rule in defaults.domains if rule[0] not in named)
        return StandingRules(self.domains + kept, self.documents + defaults.documents)


def _domains(text: str, standing: Standing) -> tuple[tuple[str, Standing], ...]:
    return tuple((suffix, standing) for suffix in text.split())


DEFAULT_RULES = StandingRules(
    domains=(
        *_domains(_PRIMARY_DOMAINS, "primary"),
        *_domains(_SECONDARY_DOMAINS, "secondary"),
        *_domains(_OTHER_DOMAINS, "other"),
    ),
    documents=tuple((phrase, "primary") for phrase in _PRIMARY_DOCUMENTS),
)


def load_rules(path: Path) -> StandingRules:
    """The deployment's rules from a JSON file, before the defaults; BadInput (one line) for
    a file that cannot be read or does not have the documented shape."""
    where = f"{STANDING_FILE}={path}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadInput(f"{where}: cannot read the standing rules ({error})") from None
    if not isinstance(data, dict) or set(data) - {"domains", "documents"}:
        raise BadInput(f'{where}: expected {{"domains": {{...}}, "documents": {{...}}}}')
    domains = _pairs(data.get("domains", {}), where, "domains")
    documents = _pairs(data.get("documents", {}), where, "documents")
    own = StandingRules(
        tuple((d.casefold().strip(".").removeprefix("www."), s) for d, s in domains),
        tuple((r"\s+".join(map(re.escape, _words_of(p).split())), s) for p, s in documents),
    )
    return own.before(DEFAULT_RULES)


def _pairs(value: object, where: str, part: str) -> list[tuple[str, Standing]]:
    if not isinstance(value, dict):
        raise BadInput(f"{where}: {part} must map names to a standing")
    pairs: list[tuple[str, Standing]] = []
    for name, standing in value.items():
        if standing not in STANDINGS or not str(name).strip():
            raise BadInput(f"{where}: {part}[{name!r}] must be one of {', '.join(STANDINGS)}")
        pairs.append((str(name), standing))
    return pairs


def rules_from_environment(env: Mapping[str, str] | None = None) -> StandingRules:
    """The defaults, with the rules of the file `FONTE_STANDING_FILE` names before them."""
    named = (os.environ if env is None else env).get(STANDING_FILE, "").strip()
    return _rules_in(named) if named else DEFAULT_RULES


@cache
def _rules_in(named: str) -> StandingRules:
    return load_rules(Path(named).expanduser())


def evidence_of(snapshot: Snapshot, rules: StandingRules) -> tuple[str, Standing]:
    """(the source's own date, its standing) of what a subagent read."""
    url = snapshot.final_url or snapshot.url
    first_page = snapshot.page_texts()[0] if snapshot.pages else snapshot.text
    date = source_date(
        published=snapshot.published, title=snapshot.title, url=url, first_page=first_page
    )
    document = snapshot.pages is not None or urlsplit(url).scheme == "file"
    return date, rules.standing_of(url, snapshot.title, first_page, document=document)


_ISO = re.compile(rf"^\s*(?P<y>{YEAR})(?:-(?P<m>\d\d)(?:-(?P<d>\d\d))?)?")
_EN_DATE = re.compile(
    rf"\b(?P<month>{MONTHS_EN})\.?\s+(?P<d>\d{{1,2}}),?\s+(?P<y>{YEAR})(?!\d)", re.IGNORECASE
)
_EN_DAY_FIRST = re.compile(
    rf"\b(?P<d>\d{{1,2}})\s+(?P<month>{MONTHS_EN})\.?,?\s+(?P<y>{YEAR})(?!\d)", re.IGNORECASE
)
_PT_DATE = re.compile(
    rf"\b(?P<d>\d{{1,2}})[ºo°]?\s+de\s+(?P<month>{MONTHS_PT})\s+de\s+(?P<y>{YEAR})(?!\d)",
    re.IGNORECASE,
)
_PT_MONTH = re.compile(rf"\b(?P<month>{MONTHS_PT})\s+de\s+(?P<y>{YEAR})(?!\d)", re.IGNORECASE)
_NUMERIC_DATE = re.compile(rf"(?<![\d/.])(?P<d>\d{{1,2}})[/.](?P<m>\d{{1,2}})[/.](?P<y>{YEAR})\b")
_PERIOD_ENDED = re.compile(
    r"(?:fiscal\s+year|period|quarter|year)\s+ended|exerc[ií]cio\s+(?:social\s+)?findo\s+em"
    r"|per[ií]odo\s+findo\s+em|encerrado\s+em",
    re.IGNORECASE,
)
_MONTH_KEYS = {
    **{
        key: n for n, key in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)
    },
    **{
        key: n for n, key in enumerate("jan fev mar abr mai jun jul ago set out nov dez".split(), 1)
    },
}


def source_date(*, published: str, title: str, url: str, first_page: str) -> str:
    """The source's own date, ISO 8601, from the first of metadata, the filing's period, a
    date near the top of the first page, and the year of its file name or title; ""."""
    metadata = _ISO.match(published or "")
    if metadata:
        return _iso(metadata["y"], metadata["m"], metadata["d"])
    named = f"{title} {_file_stem(url).replace('_', ' ')}"
    head = first_page[:FIRST_PAGE_HEAD]
    ended = _PERIOD_ENDED.search(head)
    if ended:
        period = _first_date(head[ended.end() : ended.end() + 60])
        if period:
            return period
    fiscal = FISCAL_YEAR.search(named)
    if fiscal:
        return fiscal["year"]
    written = _first_date(head)
    if written:
        return written
    year = YEAR_IN_TEXT.search(named)
    return year[0] if year else ""


def _first_date(text: str) -> str:
    """The first full date `text` writes (or a month and year in Portuguese), ISO; ""."""
    found = [
        match
        for pattern in (_EN_DATE, _EN_DAY_FIRST, _PT_DATE, _PT_MONTH, _NUMERIC_DATE)
        for match in [pattern.search(text)]
        if match is not None
    ]
    for match in sorted(found, key=lambda m: m.start()):
        groups = match.groupdict()
        month = _MONTH_KEYS.get(groups.get("month", "").casefold()[:3]) if "month" in groups else 0
        number, day = month or int(groups.get("m") or 0), groups.get("d")
        if number > 12 and day and int(day) <= 12:  # 12/31/2018: month first, as in the US
            number, day = int(day), str(number)
        iso = _iso(match["y"], f"{number:02d}" if number else None, day)
        if iso:
            return iso
    return ""


def _iso(year: str, month: str | None, day: str | None) -> str:
    """`YYYY[-MM[-DD]]` of the parts that make a real calendar position; the year alone when
    the month is impossible."""
    if not month or not 1 <= int(month) <= 12:
        return year
    if not day or not 1 <= int(day) <= 31:
        return f"{year}-{int(month):02d}"
    return f"{year}-{int(month):02d}-{int(day):02d}"


def _file_stem(url: str) -> str:
    return PurePosixPath(unquote(urlsplit(url).path)).stem


def _words_of(text: str) -> str:
    """Case-folded words, "_" read as a space (file names: "3M_2018_10K")."""
    return collapse_whitespace(text.replace("_", " ").casefold())
