"""Block Kit for a delivered report: summary with numbered citations, each citation with its
excerpt, source, page and access date and a button opening the whole excerpt; gaps as deepen
buttons. Pure, and paginated to Slack's 50 blocks per message."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from bot.slack.blockkit import (
    DEFAULT_TEXT_BUDGET,
    MAX_BUTTON_TEXT,
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
    image,
    link,
    paginate,
    plain,
    quote,
    section,
    sections,
    value,
)
from bot.slack.blocks import DEEPEN, EXCERPT, EXCERPT_VIEW, FEEDBACK, spend_text
from bot.slack.texts import texts_for
from engine import Claim, Report, split_page
from engine.assembly import escaped
from engine.planning import cut_by_budget, gap_question
from engine.planning import cut_by_user as user_cut
from engine.render import (
    CitationIndex,
    accessed_text,
    labels_for,
    page_text,
    report_title,
    source_location,
    source_title,
)

EXCERPT_PREVIEW_CHARS = 280
GAP_VALUE_CHARS = 1500


GAP_LABEL_CHARS = 32
_STOPWORDS = frozenset(
    """
    a o as os um uma de do da dos das em no na nos nas por para com que qual quais quanto
    quantos como quando onde é são e ou se ao à the of and or to in on at by for with from is
    are was were what which who how when where does do did a an its their
    """.split()
)
_WORD = re.compile(r"[^\W_]+(?:[-./][^\W_]+)*")


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def gap_topic(gap: str, others: list[str]) -> str:
    """A few words that tell this gap from the others: the words of its question that are
    neither common words nor in most of the gaps ("ANVISA" out of "Quais são as competências
    da ANVISA?" next to the same question about ANEEL)."""
    question = gap_question(bot_gap_text(gap))
    shared: set[str] = set()
    if len(others) > 1:  # words in most gaps say nothing about this one
        sets = [{w.casefold() for w in _words(gap_question(bot_gap_text(o)))} for o in others]
        counts: dict[str, int] = {}
        for words_of_gap in sets:
            for word in words_of_gap:
                counts[word] = counts.get(word, 0) + 1
        most = max(2, len(sets) // 2 + 1) if len(sets) > 2 else len(sets)
        shared = {word for word, n in counts.items() if n >= most}
    words = _words(question)
    kept = [w for w in words if w.casefold() not in _STOPWORDS and w.casefold() not in shared]
    topic = ""
    for word in kept or words:
        candidate = f"{topic} {word}".strip()
        if len(candidate) > GAP_LABEL_CHARS:
            break
        topic = candidate
    return topic or clip(question, GAP_LABEL_CHARS)


def gap_buttons(report_id: str, gaps: list[str], label: str) -> list[Block]:
    """One button per gap: "Aprofundar 3: ANVISA", numbered as the list above them, with the
    whole gap in its value."""
    return actions(
        [
            button(
                clip(f"{label} {n}: {gap_topic(gap, gaps)}", MAX_BUTTON_TEXT),
                f"{DEEPEN}_{n}",
                value(r=report_id, gap=gap[:GAP_VALUE_CHARS]),
            )
            for n, gap in enumerate(gaps, start=1)
        ],
        block_id="gaps",
    )


def cut_by_user(report: Report) -> Report:
    """A cancelled run's report: its gaps say the user, not the budget, cut them short."""
    return report.model_copy(update={"gaps": [user_cut(gap) for gap in report.gaps]})


def bot_gap_text(gap: str) -> str:
    """A gap as the engine words it (so `gap_question` reads it), whoever cut it short."""
    return cut_by_budget(gap)


def shown_title(claim: Claim) -> str:
    """The title a citation shows, escaped onto one line; a library document without one by
    its file name (the last part of its `file://` URL), never by the server's path."""
    base = split_page(claim.url)[0]
    title = " ".join(claim.title.split())
    if not title and _scheme(base) == "file":
        title = unquote(urlsplit(base).path.rsplit("/", 1)[-1])
    return escaped(title or source_title(claim))


def _scheme(url: str) -> str:
    try:
        return urlsplit(url).scheme.lower()
    except ValueError:
        return ""


def source_line(claim: Claim, language: str) -> str:
    """`<url|title> — page 3 — accessed on 2025-05-01 14:03 UTC`. Only a web page's URL is
    a link: a library document (a `file://` URL) is its title alone, its excerpt and page
    one button away (the excerpt view), its URL on this server never shown."""
    labels = labels_for(language)
    where = source_location(claim)
    web = where.href is not None and _scheme(where.href) in ("http", "https")
    parts = [link(where.href if web else None, shown_title(claim))]
    if where.page is not None:
        parts.append(page_text(labels, where.page))
    parts.append(accessed_text(labels, claim.accessed_at))
    return " — ".join(parts)


def citation_block(report_id: str, version: int, number: int, claim: Claim, language: str) -> Block:
    t = texts_for(language)
    preview = quote(escape(clip(" ".join(claim.excerpt.split()), EXCERPT_PREVIEW_CHARS)))
    return section(
        f"*[{number}]* {source_line(claim, language)}\n{preview}",
        accessory=button(
            t.show_excerpt, EXCERPT, value(r=report_id, v=version, c=claim.id, n=number)
        ),
    )


def report_messages(
    report: Report,
    report_id: str,
    version: int,
    *,
    cancelled: bool = False,
    text_budget: int = DEFAULT_TEXT_BUDGET,
) -> list[Message]:
    """The report as messages within Slack's limits; the last carries the feedback buttons."""
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
    if report.partial or cancelled:
        blocks.append(section(t.cancelled_banner if cancelled else t.partial_banner))
    elif report.gaps:
        blocks.append(section(f"*{labels_for(report.language).declared_gaps}*"))
    if report.gaps:
        numbered = [f"{n}. {escape(gap)}" for n, gap in enumerate(report.gaps, start=1)]
        blocks += sections("", numbered)
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
    blocks += feedback_blocks(report_id, version, report.language)
    return paginate(blocks, f"{title} ({t.version} {version})", t.continued, text_budget)


def feedback_blocks(report_id: str, version: int, language: str) -> list[Block]:
    t = texts_for(language)
    return [
        context(t.feedback_prompt),
        *actions(
            [
                button(t.feedback_up, f"{FEEDBACK}_up", value(r=report_id, v=version, f="up")),
                button(
                    t.feedback_down, f"{FEEDBACK}_down", value(r=report_id, v=version, f="down")
                ),
            ],
            block_id="feedback",
        ),
    ]


def page_crop(claim: Claim, file_id: str, language: str) -> Block:
    """The uploaded crop of the page `claim` cites, its excerpt highlighted."""
    t = texts_for(language)
    page = source_location(claim).page or 1
    return image(
        file_id,
        t.page_crop_alt.format(page=page, source=shown_title(claim)),
        t.page_crop_title.format(page=page),
    )


def excerpt_view(claim: Claim, number: int, language: str, page_file: str | None = None) -> Block:
    """The modal a citation's button opens; with `page_file` (the id of the uploaded crop
    of the cited page) it shows the page under the quoted excerpt."""
    t = texts_for(language)
    verdict = f"{claim.status.value}" + (f": {claim.reason}" if claim.reason else "")
    crop = [page_crop(claim, page_file, language)] if page_file is not None else []
    return {
        "type": "modal",
        "callback_id": EXCERPT_VIEW,
        "title": plain(t.excerpt_title.format(number=number), MAX_MODAL_TITLE),
        "close": plain("OK", MAX_MODAL_TITLE),
        "blocks": [
            section(f"*{t.statement}*\n{escape(claim.statement)}"),
            # A list item with its lead-in, a table row with its column header: both quoted.
            section(quote(escape(f"{claim.context.strip()} …\n{claim.excerpt}")))
            if claim.context
            else section(quote(escape(claim.excerpt))),
            *crop,
            context(source_line(claim, language)),
            context(f"*{t.verdict}*: {escape(verdict)}"),
        ],
    }
