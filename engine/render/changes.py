"""The "What changed since <date>" part a report compared with its previous one opens with
(`Report.previous`, `Report.changes`), in the report's language, the same in every format:
its heading, its explanation (or "No change since <date>" when nothing changed), and one
entry per change: its line, why a gone one is gone, the previous report's claims quoted as
that report sealed them (they are not among this report's sources) and this report's claims,
which a format cites by their numbers like any other. A format escapes the text it is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.contracts import ChangeKind, Claim, Figure, Report, ReportChange
from engine.render.citations import shown_url
from engine.render.labels import format_utc
from engine.render.tables import figure_label
from engine.text.escapes import escaped
from engine.text.normalise import collapse_whitespace
from engine.words import ChangeWords, words_for


@dataclass(frozen=True)
class ShownChange:
    line: str
    reason: str
    """Why a gone change is gone, in the report's words ("" when untold or not gone)."""
    why: str
    """`reason` as its line goes on: "why: the file or page was removed"."""
    before: tuple[Claim, ...]
    """The previous report's claims, quoted as it sealed them."""
    after: tuple[str, ...]
    """This report's claims, by id: cited by their numbers."""
    kind: ChangeKind


@dataclass(frozen=True)
class ChangesPart:
    heading: str
    explanation: str
    """What the part compares, or that nothing changed."""
    changes: tuple[ShownChange, ...]


def changes_part(report: Report) -> ChangesPart | None:
    """The part, for a report compared with its previous one; None for any other report."""
    if report.previous is None:
        return None
    words = words_for(report.language).changes
    date = format_utc(report.previous.created_at)
    explanation = words.explanation if report.changes else words.no_change
    old = {claim.id: claim for claim in report.previous.claims}
    shown = tuple(
        ShownChange(
            line=change_line(change, words),
            reason=(reason := words.gone_reasons[change.why] if change.why else ""),
            why=words.why.format(reason=reason) if reason else "",
            before=tuple(old[cid] for cid in change.old_claim_ids),
            after=tuple(change.new_claim_ids),
            kind=change.kind,
        )
        for change in report.changes
    )
    return ChangesPart(words.heading.format(date=date), explanation.format(date=date), shown)


def change_line(change: ReportChange, words: ChangeWords) -> str:
    """One change in words: "Revenue (Alpha, 2025): from $12.4 million to $13.1 million"."""
    if change.subject == "figure":
        before, after = change.before, change.after
        if before is not None and after is not None:
            return words.figure_changed.format(
                figure=_about(after), before=_printed(before), after=_printed(after)
            )
        figure = after or before
        assert figure is not None  # a figure change carries its figure (the contract)
        template = words.figure_new if change.kind is ChangeKind.new else words.figure_gone
        return template.format(figure=figure_label(figure.text, *_parts(figure)))
    title = escaped(collapse_whitespace(change.title)) or shown_url(change.url)
    templates = {
        ("finding", ChangeKind.new): words.finding_new,
        ("finding", ChangeKind.gone): words.finding_gone,
        ("source", ChangeKind.new): words.source_new,
        ("source", ChangeKind.gone): words.source_gone,
    }
    return templates[(change.subject, change.kind)].format(title=title)


def _parts(figure: Figure) -> tuple[str, str, str]:
    return figure.measure, figure.entity, figure.period


def _about(figure: Figure) -> str:
    return ", ".join(p for p in map(collapse_whitespace, _parts(figure)) if p)


def _printed(figure: Figure) -> str:
    return collapse_whitespace(figure.text)


def change_lines(report: Report) -> list[str]:
    """Each change on one plain line, why a gone one is gone after it, in the report's
    language (a message that lists them: Slack); empty when nothing changed or the report
    was compared with none."""
    part = changes_part(report)
    if part is None:
        return []
    return [f"{c.line} — {c.why}" if c.why else c.line for c in part.changes]
