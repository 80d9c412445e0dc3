"""Citation numbers in reading order, where a cited source points (URL, page, link), and the
cited sources grouped by document, each with its own date and standing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import unquote, urlsplit

from engine.contracts import Claim, ClaimStatus, Report, Standing
from engine.render.labels import Labels
from engine.render.text import unescaped_entities
from engine.snapshots import split_page
from engine.sources.kinds import Origin
from engine.text.escapes import escaped
from engine.text.normalise import collapse_whitespace

LINKABLE_SCHEMES = frozenset({"http", "https"})
"""A `file://` URL is no link: it names a path on the machine that wrote the report."""


class CitationIndex:
    """Numbers the claims a report cites, 1..n, in the order a reader meets them.

    Numbering is per claim, not per URL: two claims from the same page keep separate
    numbers because each carries its own excerpt.
    """

    def __init__(self, report: Report) -> None:
        self._claims = [report.claim(claim_id) for claim_id in report.cited_claim_ids()]
        self._numbers = {claim.id: n for n, claim in enumerate(self._claims, start=1)}

    def number_of(self, claim_id: str) -> int:
        """The citation number of a cited claim; KeyError for a claim no sentence cites."""
        return self._numbers[claim_id]

    def cited(self) -> list[tuple[int, Claim]]:
        """The bibliography: (number, claim) for every cited claim, in reading order."""
        return list(enumerate(self._claims, start=1))

    def __len__(self) -> int:
        return len(self._claims)


@dataclass(frozen=True)
class SourceLocation:
    """How to show a claim's source: the URL without its page fragment, and the page."""

    base_url: str
    page: int | None
    href: str | None

    @property
    def shown(self) -> str:
        """`base_url` as a reader is shown it (`shown_url`)."""
        return shown_url(self.base_url)


def source_location(claim: Claim) -> SourceLocation:
    base_url, page = split_page(claim.url)
    if page is None and claim.locator is not None:
        page = claim.locator.page
    return SourceLocation(base_url=base_url, page=page, href=safe_href(claim.url))


def safe_href(url: str) -> str | None:
    """The URL if a reader may follow it (http, https), else None (show it as text)."""
    # Browsers drop tabs and newlines inside URLs ("java\tscript:"), so any whitespace or
    # control character disqualifies the URL outright rather than being parsed around.
    if any(char.isspace() or ord(char) < 0x20 or ord(char) == 0x7F for char in url):
        return None
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return None
    return url if scheme in LINKABLE_SCHEMES else None


def source_title(claim: Claim) -> str:
    """The title to show for a source, escaped onto one line (`escapes.escaped`), its
    character references as their characters ("S&amp;P" is "S&P"); when the document has
    none, its URL as `shown_url` shows it (a library file by its name)."""
    title = escaped(unescaped_entities(collapse_whitespace(claim.title)))
    return title or shown_url(split_page(claim.url)[0])


def shown_url(url: str) -> str:
    """What a reader is shown of a source's URL, escaped: a web address as it is, a library
    document's `file://` URL by its file name (with its `#page=N`), never the path it has on
    the machine that wrote the report."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return escaped(url)
    if parts.scheme.lower() != "file":
        return escaped(url)
    name = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
    return escaped(name + (f"#{parts.fragment}" if parts.fragment else ""))


@dataclass(frozen=True)
class CitedExcerpt:
    """One cited claim under its document: its citation number, its page and its claim
    (excerpt, context, status)."""

    number: int
    claim: Claim
    page: int | None
    href: str | None
    """The claim's own URL (with its page fragment) when a reader may follow it."""


@dataclass(frozen=True)
class SourceGroup:
    """One document a report cites, listed once, with every cited excerpt of it."""

    title: str
    url: str
    """The document's URL without a page fragment."""
    href: str | None
    accessed_at: datetime
    """When it was first read (the earliest access among its cited claims)."""
    excerpts: list[CitedExcerpt]
    """In citation-number order."""
    published: str = ""
    """The document's own date (ISO 8601), as its verified claims carry it; "" when none."""
    standing: Standing | None = None
    """Its standing, as its claims carry it; None for reports written before standings."""
    origin: str | None = None
    """Which source of a combined research it came from (`Report.origins`: library, web,
    conversation); None when the research read one source."""

    @property
    def shown(self) -> str:
        """`url` as a reader is shown it (`shown_url`)."""
        return shown_url(self.url)

    @property
    def verified(self) -> bool:
        return all(e.claim.status is ClaimStatus.verified for e in self.excerpts)


def sources_by_document(report: Report) -> list[SourceGroup]:
    """The cited claims grouped by document (the URL without its page), each document once,
    in the order a reader first meets it; its excerpts under it with their numbers."""
    grouped: dict[str, list[CitedExcerpt]] = {}
    titles: dict[str, str] = {}
    for number, claim in CitationIndex(report).cited():
        location = source_location(claim)
        titles.setdefault(location.base_url, source_title(claim))
        grouped.setdefault(location.base_url, []).append(
            CitedExcerpt(number=number, claim=claim, page=location.page, href=location.href)
        )
    return [
        SourceGroup(
            title=titles[url],
            url=url,
            href=safe_href(url),
            accessed_at=min(e.claim.accessed_at for e in excerpts),
            excerpts=excerpts,
            published=next((e.claim.published for e in excerpts if e.claim.published), ""),
            standing=next((e.claim.standing for e in excerpts if e.claim.standing), None),
            origin=report.origins.get(url),
        )
        for url, excerpts in grouped.items()
    ]


def standing_text(labels: Labels, standing: Standing) -> str:
    """A standing in the report's words: "primary source (official)"."""
    return {
        "primary": labels.standing_primary,
        "secondary": labels.standing_secondary,
        "other": labels.standing_other,
    }[standing]


def evidence_text(labels: Labels, group: SourceGroup) -> str:
    """The document's date, standing and origin as the Sources part shows them beside its
    access date ("source dated 2024-03-01 · primary source (official) · web"); "" when it
    has none of them. The origin is there so a reader of a research that combined the
    team's library, the web and files shared in the conversation sees which claims came
    from which, in every format that lists its sources."""
    parts = [f"{labels.published_on} {group.published}"] if group.published else []
    parts += [standing_text(labels, group.standing)] if group.standing else []
    parts += [origin] if (origin := origin_text(labels, group.origin)) else []
    return " · ".join(parts)


def origin_text(labels: Labels, origin: str | None) -> str:
    """An origin (`Report.origins` keeps an `Origin`'s value) in the report's words ("team
    library", "web", "shared in this conversation"); "" for None or no `Origin`'s value."""
    try:
        part = Origin(origin or "")
    except ValueError:
        return ""
    return {
        Origin.library: labels.origin_library,
        Origin.web: labels.origin_web,
        Origin.conversation: labels.origin_conversation,
        Origin.slack: labels.origin_slack,
    }[part]


def claim_origin(report: Report, claim: Claim) -> str | None:
    """Which source of a combined research `claim`'s document came from; None if one."""
    return report.origins.get(source_location(claim).base_url)


def reading_text(labels: Labels, claim: Claim) -> str | None:
    """How a claim's excerpt was read when not from the page's text layer, as every format
    shows it beside the excerpt: a model's reading of a figure ("read from the figure on page
    4 (the model's reading, not a quote)", never shown as a quotation) or "read by OCR"; None
    for page text."""
    if claim.read_by == "figure":
        page = source_location(claim).page
        return labels.figure_reading.format(page="?" if page is None else page)
    if claim.read_by == "ocr":
        return labels.read_by_ocr
    return None
