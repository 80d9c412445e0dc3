"""Block Kit for a delivered report: ONE message that reads well in a thread (the summary
answer first with numbered citations, the figures as Slack's charts and sortable tables (or
the first figures table as a table block), the key sources with their
excerpts, the gaps as deepen buttons, a select of every citation opening its excerpt, the
Files button and Slack's native feedback buttons), within the limits of one message; the full
report travels as the attached files. Pure."""

from __future__ import annotations

from urllib.parse import urlsplit

from bot.slack import blockkit as kit
from bot.slack.blockkit import (
    Block,
    Message,
    TextRoom,
    actions,
    button,
    context,
    data_table,
    escape,
    feedback_buttons,
    header,
    image,
    link,
    markdown,
    md_escape,
    md_prose,
    number_cell,
    option,
    plain,
    quote,
    section,
    sections,
    static_select,
    table,
    text_cell,
    text_size,
    value,
)
from bot.slack.blocks import (
    CITATIONS,
    EXCERPT,
    EXCERPT_VIEW,
    EXPORT,
    FEEDBACK_BUTTONS,
    WATCH,
    gap_buttons,
    spend_text,
)
from bot.slack.texts import texts_for
from engine import Claim, FiguresTable, Language, Report, TableCell
from engine.render import (
    CitationIndex,
    accessed_text,
    chart_data,
    claim_origin,
    labels_for,
    origin_text,
    page_label,
    plain_prose,
    report_title,
    source_location,
    source_title,
)
from engine.text import clip, collapse_whitespace
from engine.words import words_for

EXCERPT_PREVIEW_CHARS = 280


def _scheme(url: str) -> str:
    try:
        return urlsplit(url).scheme.lower()
    except ValueError:
        return ""


def source_line(claim: Claim, language: str, origin: str | None = None) -> str:
    """`<url|title> — page 3 — accessed on 2025-05-01 14:03 UTC — web`. Only a web page's
    URL is a link (a file shared in the conversation is one too: its permalink): a library
    document (a `file://` URL) is its title alone, its excerpt and page one button away (the
    excerpt view), its URL on this server never shown. `origin` (`Report.origins`, for a
    research over several sources) says which one the document came from."""
    labels = labels_for(language)
    where = source_location(claim)
    web = where.href is not None and _scheme(where.href) in ("http", "https")
    parts = [link(where.href if web else None, source_title(claim))]
    if where.page is not None:
        parts.append(page_label(labels, where.page))
    parts.append(accessed_text(labels, claim.accessed_at))
    if said := origin_text(labels, origin):
        parts.append(escape(said))
    return " — ".join(parts)


def citation_block(
    report_id: str,
    version: int,
    number: int,
    claim: Claim,
    language: str,
    origin: str | None = None,
) -> Block:
    t = texts_for(language)
    preview = quote(escape(clip(collapse_whitespace(claim.excerpt), EXCERPT_PREVIEW_CHARS)))
    return section(
        f"*[{number}]* {source_line(claim, language, origin)}\n{preview}",
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
    text_budget: int = kit.DEFAULT_TEXT_BUDGET,
    data_blocks: bool = True,
) -> list[Message]:
    """The report as ONE message (`report_message`), in a list so delivery records it as it
    did pages. What does not fit is in the attached files."""
    return [
        report_message(
            report,
            report_id,
            version,
            cancelled=cancelled,
            budget=text_budget,
            data_blocks=data_blocks,
        )
    ]


def _marks(index: CitationIndex, claim_ids: list[str]) -> str:
    return "".join(f"[{index.number_of(c)}]" for c in dict.fromkeys(claim_ids))


def _lines(room: TextRoom, lines: list[str]) -> list[str]:
    """As many of `lines` as fit, in order; the first that does not fit ends them."""
    kept: list[str] = []
    for line in lines:
        if not room.take(len(line) + 1, markdown_=True):
            break
        kept.append(line)
    return kept


def _summary_lines(report: Report, index: CitationIndex, heading: str) -> list[str]:
    """Answer first: the summary's points; without a summary, the sections' first sentences."""
    sentences = report.summary or [s for part in report.sections for s in part.sentences[:1]]
    points = [f"- {md_prose(s.text)} {_marks(index, s.claim_ids)}" for s in sentences]
    return [f"**{md_escape(heading)}**", *points] if points else []


def _section_lines(report: Report, index: CitationIndex) -> list[str]:
    lines: list[str] = []
    for part in report.sections:
        if part.sentences:
            lines.append(f"**{md_escape(plain_prose(part.title))}**")
            lines += [f"{md_prose(s.text)} {_marks(index, s.claim_ids)}" for s in part.sentences]
    return lines


def _cell_text(report: Report, index: CitationIndex, cell: TableCell) -> str:
    """A figure as every renderer shows it, with its citation markers (a calculated cell,
    those of its inputs)."""
    cited = cell.claim_ids
    if not cited and cell.calculation_id is not None:
        cited = report.calculation(cell.calculation_id).claim_ids
    return f"{cell.text} {_marks(index, cited)}".strip()


def figures_rows(report: Report, index: CitationIndex, figures: FiguresTable) -> list[list[str]]:
    """A figures table as cells: a header (unit, columns), then each row's label and its
    verified figures with their citation markers ("" where the figure is unknown)."""
    rows = [[figures.unit, *figures.columns]]
    for row in figures.rows:
        texts = ["" if c is None else _cell_text(report, index, c) for c in row.cells]
        rows.append([row.label, *texts])
    return rows


def _named(figures: FiguresTable) -> str:
    named = f"{figures.title} ({figures.unit})" if figures.unit.strip() else figures.title
    return collapse_whitespace(named)


def _caption(figures: FiguresTable) -> Block:
    return section(f"*{escape(_named(figures))}*")


def _figures(
    report: Report, index: CitationIndex, room: TextRoom, data_blocks: bool
) -> list[Block]:
    """The figures: with `data_blocks`, a chart (at most two a message) and a sortable table
    of each figures table, as many as fit; else today's one table block (a message holds
    one), as many rows as fit."""
    if not report.tables:
        return []
    if data_blocks:
        return _data_figures(report, index, room)
    if len(report.tables) > 1:
        room.left_out = True
    first = report.tables[0]
    caption = _caption(first)
    rows = figures_rows(report, index, first)
    if not room.take(text_size(caption) + text_size(table([rows[0]]))):
        return []
    kept = [rows[0]]
    for row in rows[1:]:
        if len(kept) >= kit.MAX_TABLE_ROWS or not room.take(text_size(table([row]))):
            room.left_out = True
            break
        kept.append(row)
    if len(kept) == 1:
        return []
    if any(len(row) > kit.MAX_TABLE_CELLS for row in kept):
        room.left_out = True
    return [caption, table(kept, block_id="figures")]


def _data_rows(report: Report, index: CitationIndex, figures: FiguresTable) -> list[list[Block]]:
    """A figures table as data_table cells: the header and labels as text, each figure with
    its markers, sorting by its value where the chart reads one (or a calculation holds it)."""
    values = plotted.values if (plotted := chart_data(figures, report.language)) else {}
    rows = [[text_cell(figures.unit.strip()), *(text_cell(c) for c in figures.columns)]]
    for r, row in enumerate(figures.rows):
        cells = [text_cell(row.label)]
        for c, cell in enumerate(row.cells):
            if cell is None:
                cells.append(text_cell(""))
                continue
            number = values.get((r, c))
            if cell.calculation_id is not None:
                number = report.calculation(cell.calculation_id).value
            shown = _cell_text(report, index, cell)
            cells.append(text_cell(shown) if number is None else number_cell(number, shown))
        rows.append(cells)
    return rows


def _label(text: str) -> str:
    """A chart label within Slack's 20 characters: a longer one keeps its start and its end
    ("Estado com…o longo 2"), where labels of one table tell themselves apart."""
    text = collapse_whitespace(text)
    if len(text) <= kit.MAX_CHART_LABEL:
        return text
    head = (kit.MAX_CHART_LABEL - 1) // 2
    tail = kit.MAX_CHART_LABEL - 1 - head
    return f"{text[:head].rstrip()}…{text[-tail:].lstrip()}"


def figures_chart(figures: FiguresTable, language: Language) -> Block | None:
    """The chart of a figures table as Slack draws it (a data_visualization), or None: only
    verified figures (`engine.render.chart_data`, what the files' chart plots), the table's
    unit on the y axis, "Period" on the x axis when the columns are periods. A series missing
    a figure is left out (Slack: "Series may not omit data points"); a chart whose labels
    would not stay distinct within 20 characters, or with more categories or series than
    Slack draws, is not drawn: the table beside it shows every figure."""
    data = chart_data(figures, language)
    if data is None:
        return None
    full = [
        kit.Series(_label(name), [v for v in values if v is not None])
        for name, values in data.series
        if None not in values
    ]
    categories = [_label(c) for c in data.categories]
    names = [one.name for one in full]
    if (
        not full
        or len(full) > kit.MAX_CHART_SERIES
        or len(categories) > kit.MAX_CHART_POINTS
        or len(set(categories)) < len(categories)
        or len(set(names)) < len(names)
    ):
        return None
    period = labels_for(language).chart_period if data.periods else ""
    return kit.chart(data.kind, data.title, categories, full, x_label=period, y_label=data.unit)


def _chart_text(block: Block) -> int:
    """Characters a chart shows (title, axis labels, categories, names and point labels):
    they are no `text` fields, but a message's undocumented total-text ceiling may count
    them, so they take room like text."""
    chart = block["chart"]
    axis = chart["axis_config"]
    labels = [block["title"], axis.get("x_label", ""), axis.get("y_label", "")]
    labels += axis["categories"]
    labels += [s["name"] for s in chart["series"]]
    labels += [p["label"] for s in chart["series"] for p in s["data"]]
    return sum(len(str(label)) for label in labels)


def _data_figures(report: Report, index: CitationIndex, room: TextRoom) -> list[Block]:
    """Each figures table as a caption, its chart (the first two that chart) and its data
    table, while the message has room: rows up to 100 a table, cells up to Slack's 10,000
    characters a message; what does not fit is left to the files."""
    blocks: list[Block] = []
    charts, cells_left = 0, kit.MAX_DATA_TABLE_CHARS
    for n, figures in enumerate(report.tables):
        rows = _data_rows(report, index, figures)
        caption = _caption(figures)
        head = text_size(rows[0])
        if head > cells_left or not room.take(text_size(caption) + head + len(_named(figures))):
            room.left_out = True
            break
        cells_left -= head
        kept = [rows[0]]
        for row in rows[1:]:
            size = text_size(row)
            if len(kept) > kit.MAX_DATA_TABLE_ROWS or size > cells_left or not room.take(size):
                room.left_out = True
                break
            cells_left -= size
            kept.append(row)
        if len(kept) == 1:
            break
        if any(len(row) > kit.MAX_DATA_TABLE_COLUMNS for row in kept):
            room.left_out = True
        drawn = figures_chart(figures, report.language) if charts < kit.MAX_CHARTS else None
        if drawn is not None and not room.take(_chart_text(drawn)):
            drawn = None  # the table shows the figures; no chart rather than no summary
        charts += drawn is not None
        blocks += [
            caption,
            *([drawn] if drawn else []),
            data_table(kept, _named(figures), f"figures-{n}"),
        ]
    return blocks


KEY_SOURCES = 3  # sources shown with their excerpt preview: the summary's first ones
MAX_GAPS_SHOWN = 20
MAX_SHORT_TEXT = 3_000
OPTION_CHARS = 40
MAX_SELECT_TEXT = 2_500


def report_message(
    report: Report,
    report_id: str,
    version: int,
    *,
    cancelled: bool = False,
    budget: int = kit.DEFAULT_TEXT_BUDGET,
    short: bool = False,
    data_blocks: bool = True,
) -> Message:
    """One message within Slack's limits. Fixed parts first (title, banner, gaps and their
    buttons, the controls, the feedback), then the room left goes, in order, to the summary,
    the citations select, the key sources, the figures and the sections; what
    does not fit ends the text with "the rest is in the attached report". `short`: the
    title, the summary and the buttons only, for a workspace that refused the full one.
    `data_blocks`: the figures as Slack's charts and sortable tables (data_visualization,
    data_table); without, as one table block, for a workspace that refuses those."""
    t, labels = texts_for(report.language), labels_for(report.language)
    index, title = CitationIndex(report), report_title(report)
    head: list[Block] = [
        header(title),
        context(
            f"_{escape(report.question)}_",
            f"{t.version} {version}",
            spend_text(t, report.spend, report.limits),
        ),
    ]
    warned = report.partial or cancelled  # then the banner and its gaps come first
    if warned:
        head.append(section(t.cancelled_banner if cancelled else t.partial_banner))
    gaps: list[Block] = [] if warned or not report.gaps else [section(f"*{labels.declared_gaps}*")]
    if report.gaps:
        shown = report.gaps[:MAX_GAPS_SHOWN]
        numbered = [f"{n}. {escape(clip(gap, 240))}" for n, gap in enumerate(shown, start=1)]
        listed = [] if short else sections("", numbered)
        gaps += [*listed, *gap_buttons(report_id, shown, t.deepen)]
    cited = index.cited()
    controls: list[Block] = [
        button(t.files_button, EXPORT, value(r=report_id, v=version)),
        button(words_for(report.language).routines.watch_button, WATCH, value(r=report_id)),
    ]
    tail = [context(t.report_files_note), feedback_block(report_id, version, report.language)]
    room = TextRoom(MAX_SHORT_TEXT if short else max(kit.MIN_TEXT_BUDGET, budget))
    fixed = text_size([*head, *gaps, *actions(controls), *tail]) + len(t.see_attached) + 8
    if not room.take(fixed):  # a wall of gaps: the summary gets what a short message has
        room.text = min(room.text, MAX_SHORT_TEXT)
    room.left_out = len(report.gaps) > MAX_GAPS_SHOWN
    summary = _lines(room, _summary_lines(report, index, labels.summary))
    options: list[Block] = []
    share = TextRoom(min(room.text, MAX_SELECT_TEXT))  # the select never crowds the report out
    for number, claim in cited[: kit.MAX_SELECT_OPTIONS]:
        choice = option(
            clip(f"[{number}] {source_title(claim)}", OPTION_CHARS),
            value(r=report_id, v=version, c=claim.id, n=number),
        )
        if not (share.take(text_size(choice)) and room.take(text_size(choice))):
            break
        options.append(choice)
    room.left_out = room.left_out or len(options) < len(cited)
    if options and room.take(len(t.citations_placeholder)):
        controls.insert(0, static_select(t.citations_placeholder, CITATIONS, options))
    body: list[Block] = []
    if not short:
        summarised = {cid for sentence in report.summary for cid in sentence.claim_ids}
        keys = [(n, c) for n, c in cited if c.id in summarised][:KEY_SOURCES]
        for number, claim in keys or cited[:KEY_SOURCES]:
            origin = claim_origin(report, claim)
            block = citation_block(report_id, version, number, claim, report.language, origin)
            if room.take(text_size(block)):
                body.append(block)
        body = [*_figures(report, index, room, data_blocks), *body]
        rest = _section_lines(report, index)
        more = _lines(room, rest)
        while more and more[-1].startswith("**"):  # a section's title without its sentences
            more.pop()
        room.left_out = room.left_out or len(more) < len(rest)
    else:
        room.left_out = True
        more = []
    ending = [f"\n_{md_escape(t.see_attached)}_"] if room.left_out else []
    texts = ["\n".join(summary) or t.no_sentences, *(["\n".join(more)] if more else [])]
    texts[-1] = "\n".join([texts[-1], *ending])
    blocks = [*head, *(gaps if warned else []), markdown(texts[0]), *body]
    blocks += [markdown(x) for x in texts[1:]] + ([] if warned else gaps)
    blocks += [*actions(controls, block_id="report"), *tail]
    return Message(
        clip(f"{title} ({t.version} {version})", kit.MAX_FALLBACK_TEXT), blocks[: kit.MAX_BLOCKS]
    )


def feedback_block(report_id: str, version: int, language: str) -> Block:
    """Slack's native feedback buttons; their values name the report and version."""
    t = texts_for(language)
    block = feedback_buttons(
        FEEDBACK_BUTTONS,
        (t.feedback_up, value(r=report_id, v=version, f="up")),
        (t.feedback_down, value(r=report_id, v=version, f="down")),
        (t.feedback_up_label, t.feedback_down_label),
    )
    return {**block, "block_id": f"{FEEDBACK_BUTTONS}:{report_id}:{version}"}


def page_crop(claim: Claim, file_id: str, language: str) -> Block:
    """The uploaded crop of the page `claim` cites, its excerpt highlighted."""
    t = texts_for(language)
    page = source_location(claim).page or 1
    return image(
        file_id,
        t.page_crop_alt.format(page=page, source=source_title(claim)),
        t.page_crop_title.format(page=page),
    )


def excerpt_view(
    claim: Claim,
    number: int,
    language: str,
    page_file: str | None = None,
    origin: str | None = None,
) -> Block:
    """The modal a citation's button opens; with `page_file` (the id of the uploaded crop
    of the cited page) it shows the page under the quoted excerpt; `origin` as in
    `source_line`."""
    t = texts_for(language)
    verdict = f"{claim.status.value}" + (f": {claim.reason}" if claim.reason else "")
    crop = [page_crop(claim, page_file, language)] if page_file is not None else []
    return {
        "type": "modal",
        "callback_id": EXCERPT_VIEW,
        "title": plain(t.excerpt_title.format(number=number), kit.MAX_MODAL_TITLE),
        "close": plain("OK", kit.MAX_MODAL_TITLE),
        "blocks": [
            section(f"*{t.statement}*\n{escape(claim.statement)}"),
            # A list item with its lead-in, a table row with its column header: both quoted.
            section(quote(escape(f"{claim.context.strip()} …\n{claim.excerpt}")))
            if claim.context
            else section(quote(escape(claim.excerpt))),
            *crop,
            context(source_line(claim, language, origin)),
            context(f"*{t.verdict}*: {escape(verdict)}"),
        ],
    }
