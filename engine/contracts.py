"""The JSON a report saves: Plan, Claim, Report (see docs/design.md, "Contracts").

Field names may grow; the ones listed in docs/design.md keep their meaning. Everything here is
pure data: no I/O, no clocks except the explicit `utc_now` helper used as a default.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.text.language import Language as Language  # part of the contract: re-exported

EXCERPT_MIN_CHARS = 20
ROW_MIN_CHARS = 8
"""A table row shorter than an excerpt ("Bahia 410 655") may be quoted down to this length,
only whole and only with its table's header as its context (engine/verify/contexts.py)."""
EXCERPT_MAX_CHARS = 400
CONTEXT_MIN_CHARS = 4
"""A context can be as short as a column header ("2018")."""


def utc_now() -> datetime:
    return datetime.now(UTC)


class Contract(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class ClaimStatus(StrEnum):
    pending = "pending"
    verified = "verified"
    rejected = "rejected"


class Support(StrEnum):
    entails = "entails"
    neutral = "neutral"
    contradicts = "contradicts"


Standing = Literal["primary", "secondary", "other"]  # engine/sources/standing.py says which


class Locator(Contract):
    page: int | None = Field(default=None, ge=1, description="1-based page, for paged sources")
    char_start: int = Field(ge=0)
    char_end: int = Field(ge=0)
    boxes: list[tuple[float, float, float, float]] = Field(
        default_factory=list,
        description="(left, bottom, right, top) per line run of the span on a PDF page, in "
        "PDF points, origin bottom-left as pdfium gives them; empty for web pages",
    )

    @model_validator(mode="after")
    def _span_is_ordered(self) -> Locator:
        if self.char_end < self.char_start:
            raise ValueError("char_end must not precede char_start")
        return self


class Claim(Contract):
    """One statement with the source that supports it, as a subagent posts it to the board."""

    id: str = Field(min_length=1)
    statement: str = Field(min_length=1, max_length=2000)
    url: str = Field(min_length=1)
    title: str = ""
    excerpt: str = Field(min_length=1, max_length=4000)
    locator: Locator | None = None
    context: str | None = Field(
        default=None,
        max_length=4000,
        description="what the excerpt means with, quoted from its page: a list item's lead-in, "
        "a table row's column header",
    )
    context_locator: Locator | None = None
    accessed_at: datetime
    source_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    subagent: str = Field(min_length=1)
    subquestion: str = Field(min_length=1)
    status: ClaimStatus = ClaimStatus.pending
    reason: str | None = None
    support: Support | None = None
    read_by: Literal["text", "ocr", "figure"] = "text"
    """The page's text layer, OCR, or a figure a model read (`excerpt`: its reading)."""
    seen_by: Literal["", "pdf-ocr", "browser", "office", "text"] = ""  # engine.verify.seen
    published: str = Field(default="", pattern=r"^(\d{4}(-\d\d){0,2})?$")  # source's own date
    standing: Standing | None = None  # primary, secondary or other; None: before standing
    provision: str | None = Field(
        default=None,
        max_length=200,
        description="the statute's article, paragraph, item the excerpt sits in, as its page "
        'prints them above it ("Art. 26, § 1º, II"); set by the verifier',
    )

    @property
    def quoted(self) -> str:
        """All the claim quotes from its page: the excerpt, and its context when it has one.
        A number a statement or a report sentence states must be in here."""
        return " \n ".join(part for part in (self.excerpt, self.context) if part)

    @field_validator("accessed_at")
    @classmethod
    def _accessed_at_is_utc(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("accessed_at must carry a timezone (UTC)")
        return value.astimezone(UTC)

    @field_validator("statement", "excerpt")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value


def claim_id_for(url: str, excerpt_key: str) -> str:
    """Stable id of a claim: the same excerpt of the same source always gets the same id.

    `excerpt_key` is the normalised excerpt, so trivial whitespace or case differences
    collapse into one claim (this is what makes board posts idempotent).
    """
    digest = hashlib.sha256(f"{url}\n{excerpt_key}".encode()).hexdigest()
    return f"c{digest[:12]}"


class Subquestion(Contract):
    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    title: str = Field(default="", description="section heading the answer goes under")
    steps: int | None = Field(default=None, ge=1, description="the step cap the planner sized")
    depends_on: list[str] = Field(default_factory=list, description="ids whose claims it needs")
    document: str = Field(default="", description="a sweep's: the one document it reads")
    pages: tuple[int, int] | None = Field(default=None, description="its first, last page")


class Plan(Contract):
    question: str = Field(min_length=1)
    template: str | None = None
    sufficient_when: list[str] = Field(default_factory=list)
    subquestions: list[Subquestion] = Field(min_length=1)

    @model_validator(mode="after")
    def _ids_are_unique(self) -> Plan:
        ids = [s.id for s in self.subquestions]
        if len(ids) != len(set(ids)):
            raise ValueError("subquestion ids must be unique")
        return self


MAX_CLARIFYING_QUESTIONS = 3
"""The questions asked before planning, at the most: in Slack, at the terminal and of Claude."""


class ClarifyingQuestion(Contract):
    """A question the planner asks before planning, with likely answers to offer as buttons."""

    question: str = Field(min_length=1)
    options: list[str] = Field(default_factory=list, max_length=5)


class Sentence(Contract):
    text: str = Field(min_length=1)
    claim_ids: list[str] = Field(min_length=1)
    calculation_ids: list[str] = Field(default_factory=list, description="results it states")


class Section(Contract):
    title: str
    sentences: list[Sentence] = Field(default_factory=list)


class Figure(Contract):
    """One verified figure: a value of a measure, for an entity and a period, as printed in
    the excerpts (or contexts) of the claims it cites."""

    measure: str = Field(min_length=1, description='what is measured, e.g. "Revenue"')
    entity: str = Field(default="", description="whose figure it is (a company, a state, …)")
    period: str = Field(default="", description='when, as labelled: "2019", "FY2023", …')
    value: float = Field(description="the number, scale applied where the figure prints it")
    unit: str = Field(default="", description='"$ million", "%", "MW", … ("" for a count)')
    text: str = Field(min_length=1, description='the figure as printed: "$ 42,879"')
    claim_ids: list[str] = Field(min_length=1, description="the claims that quote it")


CalculationKind = Literal[
    "difference",
    "percent_change",
    "cagr",
    "margin",
    "ratio",
    "share",
    "sum",
    "margin_change",
    "mean_margin",
    "ratio_to_average",
    "sum_ratio",
    "days",
]


class Calculation(Contract):
    """A figure computed in code from verified figures; never a number a model typed."""

    id: str = Field(min_length=1)
    kind: CalculationKind
    measure: str = Field(min_length=1)
    entity: str = ""
    period: str = Field(default="", description='the span or period, e.g. "2019 to 2023"')
    value: float
    unit: str = Field(default="", description='"%", "$ million", "" for a ratio')
    text: str = Field(min_length=1, description='the result as published, e.g. "+8.0%"')
    formula: str = Field(min_length=1, description="the computation shown with its inputs")
    inputs: list[Figure] = Field(min_length=1)

    @property
    def claim_ids(self) -> list[str]:
        """Every claim an input quotes, each once, in input order."""
        return list(dict.fromkeys(cid for figure in self.inputs for cid in figure.claim_ids))


class TableCell(Contract):
    text: str = Field(min_length=1)
    claim_ids: list[str] = Field(default_factory=list)
    calculation_id: str | None = None

    @model_validator(mode="after")
    def _is_cited(self) -> TableCell:
        if not self.claim_ids and self.calculation_id is None:
            raise ValueError("a table cell cites claims or a calculation")
        return self


class TableRow(Contract):
    label: str = Field(min_length=1)
    cells: list[TableCell | None] = Field(description="one per column; None when unknown")


class FiguresTable(Contract):
    """Verified figures of one measure (or a few) across periods or entities."""

    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    unit: str = ""
    columns: list[str] = Field(min_length=1, description="column labels (periods or entities)")
    rows: list[TableRow] = Field(min_length=1)

    @model_validator(mode="after")
    def _rows_fit_columns(self) -> FiguresTable:
        for row in self.rows:
            if len(row.cells) != len(self.columns):
                raise ValueError(
                    f"row {row.label!r} has {len(row.cells)} cells, not {len(self.columns)}"
                )
        return self

    def cited_claim_ids(self) -> list[str]:
        cells = [cell for row in self.rows for cell in row.cells if cell is not None]
        return list(dict.fromkeys(cid for cell in cells for cid in cell.claim_ids))


class DroppedSentence(Contract):
    """A sentence the writer proposed and the post-check refused, kept for the record."""

    section: str
    text: str
    claim_ids: list[str]
    reason: str


class Usage(Contract):
    """Model usage behind the money: what a provider's `usage` fields report, summed."""

    model_calls: int = Field(default=0, ge=0)
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)
    cache_write_tokens: int = Field(default=0, ge=0)
    cache_read_tokens: int = Field(default=0, ge=0)
    web_searches: int = Field(default=0, ge=0)

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            **{name: getattr(self, name) + getattr(other, name) for name in Usage.model_fields}
        )


class Spend(Contract):
    steps: int = Field(default=0, ge=0)
    seconds: float = Field(default=0.0, ge=0)
    usd: float = Field(default=0.0, ge=0)
    usage: Usage = Field(default_factory=Usage)


class Limits(Contract):
    steps: int = Field(default=60, ge=1)
    seconds: float = Field(default=600.0, gt=0)
    usd: float = Field(default=2.0, ge=0)
    price_usd: float | None = Field(default=None, ge=0)  # what the report is sold for, US$


class Conflict(Contract):
    """Verified claims that state different amounts for the same quantity, newer first."""

    claim_ids: list[str] = Field(min_length=2)
    measure: str = Field(description="the key terms the claims share")
    unit: str = Field(description='the unit of the amounts ("" for figures of a table)')
    period: str = Field(default="", description="the year(s) both claims speak of")


class ChangeKind(StrEnum):
    """What happened between the previous report of a brief and this one."""

    changed = "changed"  # a figure of one measure, entity and period has another value
    new = "new"  # a figure, a finding or a source this report cites and the previous did not
    gone = "gone"  # a figure, a finding or a source the previous report cited, no longer found


class GoneReason(StrEnum):
    """Why something the previous report cited is no longer in this one, as a re-read of its
    current source tells (engine/changes/absences.py); never guessed."""

    removed = "removed"  # the file or the page is no longer there
    excerpt_missing = "excerpt_missing"  # the page is there and changed: the excerpt is not on it
    page_changed = "page_changed"  # the page changed; the excerpt is still on it, not cited now
    not_cited = "not_cited"  # the page is as it was, the excerpt on it: this run did not cite it
    unreachable = "unreachable"  # the source could not be read to tell


ChangeSubject = Literal["figure", "finding", "source"]


class ReportChange(Contract):
    """One change since the previous report, cited on both sides: `old_claim_ids` name claims
    of `Report.previous.claims` (as the previous report sealed them), `new_claim_ids` claims
    of this report's `claims`. A figure changed carries its `before` and `after` (same
    measure, entity and period); a new or gone figure one of them; a finding or a source
    only its claims (a source: all the claims of that document)."""

    kind: ChangeKind
    subject: ChangeSubject
    url: str = Field(default="", description="the document a finding or a source is on")
    title: str = Field(default="", description="that document's title")
    before: Figure | None = None
    after: Figure | None = None
    old_claim_ids: list[str] = Field(default_factory=list)
    new_claim_ids: list[str] = Field(default_factory=list)
    why: GoneReason | None = Field(default=None, description="a gone change's; None: untold")

    @model_validator(mode="after")
    def _sides_fit_kind(self) -> ReportChange:
        old, new = bool(self.old_claim_ids), bool(self.new_claim_ids)
        sides = {
            ChangeKind.changed: old and new and self.before is not None and self.after is not None,
            ChangeKind.new: new and not old and self.before is None,
            ChangeKind.gone: old and not new and self.after is None,
        }
        if not sides[self.kind]:
            raise ValueError(f"a {self.kind.value} change does not carry the sides it needs")
        if self.why is not None and self.kind is not ChangeKind.gone:
            raise ValueError("only a gone change says why")
        figures = (self.before, self.after)
        if self.subject == "figure" and not any(figures):
            raise ValueError("a figure change carries its figure")
        if self.subject != "figure" and any(figures):
            raise ValueError(f"a {self.subject} change carries no figure")
        return self


class PreviousReport(Contract):
    """The report a report is compared with (`fonte ask --since`): its date, its seal, and
    the claims its changes cite, copied as it sealed them."""

    created_at: datetime
    digest: str | None = None
    question: str = ""
    claims: list[Claim] = Field(default_factory=list)


class Report(Contract):
    question: str
    title: str = ""
    language: Language = "en"
    plan: Plan
    created_at: datetime = Field(default_factory=utc_now)
    partial: bool = False
    gaps: list[str] = Field(default_factory=list)
    summary: list[Sentence] = Field(default_factory=list, description="answer first: 3-6 points")
    sections: list[Section] = Field(default_factory=list)
    tables: list[FiguresTable] = Field(default_factory=list)
    calculations: list[Calculation] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)
    spend: Spend = Field(default_factory=Spend)
    limits: Limits = Field(default_factory=Limits)
    model: str = "offline"
    architecture: Literal["final", "v1"] = "final"
    notes: list[str] = Field(default_factory=list, description="warnings (skipped files, …)")
    dropped_sentences: list[DroppedSentence] = Field(default_factory=list)
    sources: list[str] = Field(
        default_factory=list,
        description='where the text came from, e.g. "library:/abs/folder"; lets verify re-read it',
    )
    origins: dict[str, str] = Field(default_factory=dict, description="URL: library, web, …")
    conflicts: list[Conflict] = Field(
        default_factory=list, description="claims that disagree on one quantity, newer first"
    )
    previous: PreviousReport | None = Field(
        default=None, description="the report this one is compared with (`fonte ask --since`)"
    )
    changes: list[ReportChange] = Field(
        default_factory=list, description="what changed since `previous`; empty: no change"
    )
    digest: str | None = Field(
        default=None,
        description="sha256 of the published content when report.json was written (verify)",
    )

    @model_validator(mode="after")
    def _sentences_cite_known_claims(self) -> Report:
        known = {c.id for c in self.claims}
        if self.changes and self.previous is None:
            raise ValueError("changes need the previous report they are changes since")
        before = {c.id for c in self.previous.claims} if self.previous is not None else set()
        for change in self.changes:
            missing = [cid for cid in change.new_claim_ids if cid not in known]
            missing += [cid for cid in change.old_claim_ids if cid not in before]
            if missing:
                raise ValueError(f"change names unknown claim ids: {missing}")
        for conflict in self.conflicts:
            missing = [cid for cid in conflict.claim_ids if cid not in known]
            if missing:
                raise ValueError(f"conflict names unknown claim ids: {missing}")
        calculations = {c.id for c in self.calculations}
        cited = [
            *(cid for s in self.published_sentences() for cid in s.claim_ids),
            *(cid for c in self.calculations for cid in c.claim_ids),
            *(cid for t in self.tables for cid in t.cited_claim_ids()),
        ]
        missing = [cid for cid in cited if cid not in known]
        if missing:
            raise ValueError(f"sentence, table or calculation cites unknown claim ids: {missing}")
        cited_calculations = [
            *(cid for s in self.published_sentences() for cid in s.calculation_ids),
            *(
                cell.calculation_id
                for t in self.tables
                for r in t.rows
                for cell in r.cells
                if cell is not None and cell.calculation_id is not None
            ),
        ]
        unknown = [cid for cid in cited_calculations if cid not in calculations]
        if unknown:
            raise ValueError(f"sentence or table cites unknown calculations: {unknown}")
        return self

    def published_sentences(self) -> list[Sentence]:
        """The summary's sentences, then every section's, in reading order."""
        return [*self.summary, *(s for section in self.sections for s in section.sentences)]

    def calculation(self, calculation_id: str) -> Calculation:
        for c in self.calculations:
            if c.id == calculation_id:
                return c
        raise KeyError(calculation_id)

    def verified_claims(self) -> list[Claim]:
        return [c for c in self.claims if c.status is ClaimStatus.verified]

    def claim(self, claim_id: str) -> Claim:
        for c in self.claims:
            if c.id == claim_id:
                return c
        raise KeyError(claim_id)

    def cited_claim_ids(self) -> list[str]:
        """Claim ids in the order a reader meets them, each once."""
        seen: dict[str, None] = {}
        for sentence in self.published_sentences():
            for cid in sentence.claim_ids:
                seen.setdefault(cid, None)
        for table in self.tables:
            for cid in table.cited_claim_ids():
                seen.setdefault(cid, None)
        for calculation in self.calculations:
            for cid in calculation.claim_ids:
                seen.setdefault(cid, None)
        return list(seen)


@dataclass(frozen=True)
class Draft:
    """What a writer returns: a title, the summary and sections whose sentences cite claim
    ids (and calculation ids), the figures tables and the calculations they use."""

    title: str
    sections: list[Section] = field(default_factory=list)
    summary: list[Sentence] = field(default_factory=list)
    tables: list[FiguresTable] = field(default_factory=list)
    calculations: list[Calculation] = field(default_factory=list)

    @classmethod
    def of_report(cls, report: Report) -> Draft:
        """What `report` publishes, as a draft again: `fonte verify` checks it as the run's
        post-check did."""
        return cls(
            title=report.title,
            summary=report.summary,
            sections=report.sections,
            tables=report.tables,
            calculations=report.calculations,
        )
