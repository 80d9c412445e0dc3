"""Block Kit for a delivered report: summary with numbered citations, each citation with its
excerpt, source, page and access date and a button opening the whole excerpt; gaps as deepen
buttons. Pure, and paginated to Slack's 50 blocks per message."""

from __future__ import annotations

from bot.slack.blockkit import (
    MAX_MODAL_TITLE,
    Block,
    Message,
    actions,
    button,
    clip,
    context,
    divider,
    escape,
    header,
    link,
    paginate,
    plain,
    quote,
    section,
    sections,
    value,
)
from bot.slack.blocks import DEEPEN, EXCERPT, EXCERPT_VIEW, spend_text
from bot.slack.texts import texts_for
from engine.contracts import Claim, Report
from engine.render.citations import CitationIndex, source_location, source_title
from engine.render.labels import accessed_text, labels_for, page_text
from engine.render.text import report_title

EXCERPT_PREVIEW_CHARS = 280
GAP_VALUE_CHARS = 1500


def gap_buttons(report_id: str, gaps: list[str], label: str) -> list[Block]:
    return actions(
        [
            button(
                f"{label}: {gap}", f"{DEEPEN}_{n}", value(r=report_id, gap=gap[:GAP_VALUE_CHARS])
            )
            for n, gap in enumerate(gaps)
        ],
        block_id="gaps",
    )


def source_line(claim: Claim, language: str) -> str:
    """`<url|title> — page 3 — accessed on 2025-05-01 14:03 UTC`"""
    labels = labels_for("pt" if language == "pt" else "en")
    where = source_location(claim)
    parts = [link(where.href, source_title(claim))]
    if where.page is not None:
        parts.append(page_text(labels, where.page))
    parts.append(accessed_text(labels, claim.accessed_at))
    return " — ".join(parts)


def citation_block(report_id: str, version: int, number: int, claim: Claim, language: str) -> Block:
    t = texts_for("pt" if language == "pt" else "en")
    preview = quote(escape(clip(" ".join(claim.excerpt.split()), EXCERPT_PREVIEW_CHARS)))
    return section(
        f"*[{number}]* {source_line(claim, language)}\n{preview}",
        accessory=button(
            t.show_excerpt, EXCERPT, value(r=report_id, v=version, c=claim.id, n=number)
        ),
    )


def report_messages(report: Report, report_id: str, version: int) -> list[Message]:
    t = texts_for(report.language)
    index = CitationIndex(report)
    title = report_title(report)
    blocks: list[Block] = [
        header(title),
        context(
            f"_{escape(report.question)}_",
            f"{t.version} {version}",
            spend_text(t, report.spend, report.limits),
        ),
    ]
    if report.partial:
        blocks.append(section(t.partial_banner))
    elif report.gaps:
        blocks.append(section(f"*{labels_for(report.language).declared_gaps}*"))
    if report.gaps:
        blocks += sections("", [f"• {escape(gap)}" for gap in report.gaps])
        blocks += gap_buttons(report_id, report.gaps, t.deepen)
    wrote = False
    for part in report.sections:
        lines = []
        for sentence in part.sentences:
            markers = "".join(f"[{index.number_of(c)}]" for c in dict.fromkeys(sentence.claim_ids))
            lines.append(f"{escape(sentence.text)} {markers}")
        if lines:
            wrote = True
            blocks += sections(f"*{escape(part.title)}*", lines)
    if not wrote:
        blocks.append(section(t.no_sentences))
    cited = index.cited()
    if cited:
        blocks += [divider(), section(f"*{t.sources}*")]
        blocks += [
            citation_block(report_id, version, number, claim, report.language)
            for number, claim in cited
        ]
    return paginate(blocks, f"{title} ({t.version} {version})", t.continued)


def excerpt_view(claim: Claim, number: int, language: str) -> Block:
    t = texts_for("pt" if language == "pt" else "en")
    verdict = f"{claim.status.value}" + (f": {claim.reason}" if claim.reason else "")
    return {
        "type": "modal",
        "callback_id": EXCERPT_VIEW,
        "title": plain(t.excerpt_title.format(number=number), MAX_MODAL_TITLE),
        "close": plain("OK", MAX_MODAL_TITLE),
        "blocks": [
            section(f"*{t.statement}*\n{escape(claim.statement)}"),
            section(quote(escape(claim.excerpt))),
            context(source_line(claim, language)),
            context(f"*{t.verdict}*: {escape(verdict)}"),
        ],
    }
