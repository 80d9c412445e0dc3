"""A report as Markdown: body with `[n]` markers, sources with excerpts, rejections, spend.

Every text that comes from a page, a file or a user goes through `inert_markdown`, so a
report.md opened in any Markdown viewer shows it as text: no HTML, link, image or emphasis
that a page wrote can come alive in the report."""

from __future__ import annotations

from engine.contracts import Claim, ClaimStatus, Report, Section
from engine.render.citations import CitationIndex, source_location, source_title
from engine.render.labels import Labels, accessed_text, labels_for, page_text, spend_rows
from engine.render.text import inert_markdown, report_title


def render_markdown(report: Report) -> str:
    labels = labels_for(report.language)
    index = CitationIndex(report)
    blocks = [
        f"# {inert_markdown(report_title(report))}",
        f"**{labels.question}:** {inert_markdown(report.question)}",
        *gap_blocks(report, labels),
        *(section_block(section, index) for section in report.sections),
        *conflict_blocks(report, index, labels),
        sources_block(index, labels),
        rejected_block(report, labels),
        *dropped_blocks(report, labels),
        spend_block(report, labels),
        *notes_blocks(report, labels),
    ]
    return "\n\n".join(blocks) + "\n"


def gap_blocks(report: Report, labels: Labels) -> list[str]:
    gap_list = bullet_list([inert_markdown(gap) for gap in report.gaps])
    if report.partial:
        banner = f"**{labels.partial_report}.** {labels.partial_explanation}"
        if report.gaps:
            banner += f"\n\n**{labels.gaps}:**\n\n{gap_list}"
        return [blockquote(banner)]
    if report.gaps:
        return [f"**{labels.declared_gaps}:**\n\n{gap_list}"]
    return []


def section_block(section: Section, index: CitationIndex) -> str:
    sentences = [
        inert_markdown(sentence.text) + citation_markers(sentence.claim_ids, index)
        for sentence in section.sentences
    ]
    # One paragraph per sentence, as in the HTML: each sentence stands with its own sources.
    return "\n\n".join([f"## {inert_markdown(section.title)}", *sentences])


def citation_markers(claim_ids: list[str], index: CitationIndex) -> str:
    markers = "".join(f"[{index.number_of(claim_id)}]" for claim_id in dict.fromkeys(claim_ids))
    return f" {markers}"


def conflict_blocks(report: Report, index: CitationIndex, labels: Labels) -> list[str]:
    """Each conflict: what it is about, then its claims (newer first) with their sources."""
    if not report.conflicts:
        return []
    items = []
    for conflict in report.conflicts:
        about = inert_markdown(
            " ".join(part for part in (conflict.measure, conflict.period) if part)
        )
        lines = [f"- **{about}**"]
        for claim_id in conflict.claim_ids:
            claim = report.claim(claim_id)
            page = source_location(claim).page  # as the sources list and the HTML read it
            where = page_text(labels, page) if page is not None else ""
            source = " — ".join(
                part for part in (inert_markdown(source_title(claim)), where) if part
            )
            lines.append(
                f"  - [{index.number_of(claim_id)}] {source}: {inert_markdown(claim.excerpt)}"
            )
        items.append("\n".join(lines))
    body = "\n".join(items)
    return [f"## {labels.conflicts}\n\n{labels.conflicts_explanation}\n\n{body}"]


def sources_block(index: CitationIndex, labels: Labels) -> str:
    entries = [source_entry(number, claim, labels) for number, claim in index.cited()]
    return "\n\n".join([f"## {labels.sources}", *(entries or [labels.no_sources])])


def source_entry(number: int, claim: Claim, labels: Labels) -> str:
    location = source_location(claim)
    where = inert_markdown(claim.url, url=True)
    if location.page is not None:
        where += f" ({page_text(labels, location.page)})"
    line = (
        f"[{number}] {inert_markdown(source_title(claim))} — {where} — "
        f"{accessed_text(labels, claim.accessed_at)}"
    )
    if claim.status is not ClaimStatus.verified:
        line += f" — **{labels.not_verified}**"
    context = f"{claim.context.strip()} …\n\n" if claim.context else ""
    return f"{line}\n\n{quoted_excerpt(context + claim.excerpt)}"


def rejected_block(report: Report, labels: Labels) -> str:
    rejected = [c for c in report.claims if c.status is ClaimStatus.rejected]
    heading = f"## {labels.rejected_claims} ({len(rejected)})"
    if not rejected:
        return heading
    lines = [
        f"{inert_markdown(c.url, url=True)} — {inert_markdown(c.reason or labels.no_reason)}"
        for c in rejected
    ]
    return f"{heading}\n\n{bullet_list(lines)}"


def dropped_blocks(report: Report, labels: Labels) -> list[str]:
    dropped = report.dropped_sentences
    if not dropped:
        return []
    lines = [
        f"{inert_markdown(d.section)}: {inert_markdown(d.text)} — {inert_markdown(d.reason)}"
        for d in dropped
    ]
    return [f"## {labels.dropped_sentences} ({len(dropped)})\n\n{bullet_list(lines)}"]


def spend_block(report: Report, labels: Labels) -> str:
    rows = bullet_list([f"{label}: {value}" for label, value in spend_rows(report)])
    return f"## {labels.spend_and_limits}\n\n{rows}"


def notes_blocks(report: Report, labels: Labels) -> list[str]:
    if not report.notes:
        return []
    return [f"## {labels.notes}\n\n{bullet_list([inert_markdown(n) for n in report.notes])}"]


def bullet_list(items: list[str]) -> str:
    """Items already made inert (or ours)."""
    return "\n".join(f"- {item}" for item in items)


def blockquote(text: str) -> str:
    """Quote every line, blank ones included, so a multi-line text stays one quote."""
    return "\n".join(f"> {line}".rstrip() for line in text.strip().splitlines())


def quoted_excerpt(excerpt: str) -> str:
    """An excerpt as a quote whose every line is page text made inert."""
    return blockquote("\n".join(inert_markdown(line) for line in excerpt.strip().splitlines()))
