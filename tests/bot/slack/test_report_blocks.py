"""A report as one Slack message: the summary answer first with numbered citations, the key
figures as a table, key sources with their excerpts, gap buttons, a citations select, the
Files button and native feedback buttons; all within Slack's limits, the rest attached."""

from __future__ import annotations

import json

from bot.slack.blockkit import Block, feedback_pressed
from bot.slack.blocks import (
    CITATIONS,
    DEEPEN,
    EXCERPT,
    EXPORT,
    FEEDBACK,
    FEEDBACK_BUTTONS,
    bot_gap_text,
    cancelled_report,
    gap_buttons,
)
from bot.slack.report_blocks import excerpt_view, report_message, report_messages
from bot.slack.texts import PT
from engine.contracts import Claim, FiguresTable, Report, Section, Sentence, TableCell, TableRow
from engine.planning.gaps import gap_question
from engine.render import CitationIndex
from tests.support.render_samples import figures_report
from tests.support.slack_limits import block_errors, table_refusal, total_text, view_errors
from tests.support.slack_samples import (
    YEARS,
    assert_within_limits,
    claim,
    figures_table,
    report,
    walk,
)


def blocks_of(kind: str, blocks: list[Block]) -> list[Block]:
    return [block for block in blocks if block.get("type") == kind]


def test_a_report_is_one_message_summary_first_with_markers_sources_and_citations() -> None:
    messages = report_messages(report(3), "r1", 1)
    assert len(messages) == 1
    blocks = messages[0].blocks
    assert block_errors(blocks) == []
    assert table_refusal(blocks) is None
    first = blocks_of("markdown", blocks)[0]["text"]
    assert "Afirmação 1 &lt;com&gt; &amp; símbolos [1]" in first
    text = json.dumps(blocks, ensure_ascii=False)
    assert (
        "*[2]* <https://example.org/doc2.pdf#page=3|Documento 2> — página 3 — Acessado em 2025-05-01 14:03 UTC"
        in text
    )
    assert ">trecho número 3" in text
    buttons = [e for e in walk(blocks) if e.get("action_id") == EXCERPT]
    assert len(buttons) == 3
    assert json.loads(str(buttons[0]["value"])) == {"r": "r1", "v": 1, "c": claims_id(1), "n": 1}
    [select] = [e for e in walk(blocks) if e.get("action_id") == CITATIONS]
    assert [json.loads(o["value"]) for o in select["options"]] == [  # type: ignore[attr-defined]
        {"r": "r1", "v": 1, "c": claims_id(n), "n": n} for n in (1, 2, 3)
    ]
    [files] = [e for e in walk(blocks) if e.get("action_id") == EXPORT]
    assert json.loads(str(files["value"])) == {"r": "r1", "v": 1}
    assert "Relatório parcial" not in text


def claims_id(n: int) -> str:
    return f"c{n:012d}"


def eighteen_item_report(claims: int = 150, language: str = "pt") -> Report:
    """An 18-item brief as it arrives: a summary, 18 sections of long sentences, 18 gaps, two
    figures tables, many claims with long titles."""
    base = report(claims, partial=True, language=language)
    long = " que a geração distribuída solar cresceu no período segundo a associação do setor"
    sentences = [Sentence(text=c.statement + long * 2, claim_ids=[c.id]) for c in base.claims]
    sections = [Section(title=f"Item {n}: mercado", sentences=sentences[n::18]) for n in range(18)]
    claims_ = [
        c.model_copy(update={"title": f"{c.title}: relatório anual da associação do setor, 2024"})
        for c in base.claims
    ]
    return base.model_copy(
        update={
            "summary": sentences[:6],
            "sections": sections,
            "claims": claims_,
            "gaps": [f"Fonte verificada que responda: item {n} do mercado" for n in range(18)],
            "tables": [figures(base.claims, 30), figures(base.claims, 3)],
        }
    )


def figures(claims: list[Claim], rows: int) -> FiguresTable:
    return FiguresTable(
        id=f"t{rows}",
        title="Potência instalada",
        unit="MW",
        columns=["2022", "2023"],
        rows=[
            TableRow(
                label=f"Estado {n}",
                cells=[TableCell(text=f"{n},5", claim_ids=[claims[n].id]), None],
            )
            for n in range(rows)
        ],
    )


def test_an_eighteen_item_brief_is_one_message_within_limits_the_rest_attached() -> None:
    sample = eighteen_item_report()
    for budget in (11_000, 3_500):
        [message] = report_messages(sample, "r1", 2, text_budget=budget)
        blocks = message.blocks
        assert block_errors(blocks) == []
        assert table_refusal(blocks) is None
        assert total_text(blocks) <= budget
        assert_within_limits(blocks)
        text = json.dumps(blocks, ensure_ascii=False)
        assert PT.see_attached in text, "what was left out is named"
        assert PT.report_files_note in text
        assert [e for e in walk(blocks) if e.get("type") == "feedback_buttons"]
        assert [e for e in walk(blocks) if e.get("action_id") == EXPORT]
        deepen = [e for e in walk(blocks) if str(e.get("action_id", "")).startswith(DEEPEN)]
        assert len(deepen) == 18
    [full] = report_messages(sample, "r1", 2)
    summary = blocks_of("markdown", full.blocks)[0]["text"]
    for sentence in sample.summary:  # answer first: the whole summary is there
        assert sentence.text.split(" <")[0] in summary
    [select] = [e for e in walk(full.blocks) if e.get("action_id") == CITATIONS]
    assert 10 <= len(select["options"]) <= 100  # type: ignore[arg-type]


def test_page_text_in_the_markdown_block_is_shown_as_written() -> None:
    hostile = "**negrito** [link](https://evil.example) <b>x</b> `code` # título"
    sample = report(1)
    sample = sample.model_copy(
        update={"summary": [Sentence(text=hostile, claim_ids=[sample.claims[0].id])]}
    )
    first = blocks_of("markdown", report_messages(sample, "r1", 1)[0].blocks)[0]["text"]
    assert "**negrito**" in first  # the writer's bold is set, never shown as asterisks
    assert "\\[link\\](https://evil.example)" in first
    assert "&lt;b&gt;x&lt;/b&gt;" in first
    assert "<b>" not in first
    assert "`code`" in first
    assert "\\# título" in first
    assert first.endswith("[1]"), "the citation marker stays a marker"


def test_the_writers_marks_are_set_and_entities_shown_once_in_the_markdown_block() -> None:
    """ "o **caput**" is bold in Slack, "SG&amp;A" shows "SG&A"; a mark never frees page text."""
    prose = "Conforme o **caput** do art. 5º, a SG&amp;A subiu *[x](https://evil.example)*"
    sample = report(1)
    sample = sample.model_copy(
        update={"summary": [Sentence(text=prose, claim_ids=[sample.claims[0].id])]}
    )
    first = blocks_of("markdown", report_messages(sample, "r1", 1)[0].blocks)[0]["text"]
    assert "Conforme o **caput** do art. 5º, a SG&amp;A subiu" in first  # Slack shows "&"
    assert "&amp;amp;" not in first
    assert "*\\[x\\](https://evil.example)*" in first


def test_the_first_figures_table_is_one_table_block_with_its_markers() -> None:
    sample = eighteen_item_report(40)
    [message] = report_messages(sample, "r1", 1, data_blocks=False)
    [table] = blocks_of("table", message.blocks)
    rows = [[cell["text"] for cell in row] for row in table["rows"]]
    assert rows[0] == ["MW", "2022", "2023"]
    number = CitationIndex(sample).number_of(sample.claims[0].id)
    assert rows[1] == ["Estado 0", f"0,5 [{number}]", "–"], "an unknown figure is a dash"
    assert all(cell["type"] == "raw_text" for row in table["rows"] for cell in row)
    assert "*Potência instalada (MW)*" in json.dumps(message.blocks, ensure_ascii=False)


def test_slack_refusing_the_message_gets_a_short_one_with_the_summary_and_buttons() -> None:
    short = report_message(eighteen_item_report(), "r1", 1, short=True)
    assert block_errors(short.blocks) == []
    assert total_text(short.blocks) <= 3_500
    kinds = [block["type"] for block in short.blocks]
    assert "table" not in kinds
    assert kinds.count("markdown") == 1
    assert PT.see_attached in json.dumps(short.blocks, ensure_ascii=False)
    ids = {str(e.get("action_id")) for e in walk(short.blocks)}
    assert {EXPORT, FEEDBACK_BUTTONS} <= ids


def test_a_partial_report_says_so_first_and_offers_its_gaps_as_deepen_buttons() -> None:
    message = report_messages(report(1, partial=True, language="en"), "r1", 1)[0]
    text = json.dumps(message.blocks)
    assert text.index("Partial report") < text.index("Tamanho")
    buttons = [e for e in walk(message.blocks) if str(e.get("action_id", "")).startswith(DEEPEN)]
    assert len(buttons) == 1
    assert json.loads(str(buttons[0]["value"]))["gap"] == "Fonte verificada que responda: preços"


def test_excerpt_modal_shows_the_whole_excerpt() -> None:
    long_excerpt = "palavra " * 45
    view = excerpt_view(claim(7, long_excerpt), 7, "en")
    text = json.dumps(view, ensure_ascii=False)
    assert view["type"] == "modal"
    assert view["title"]["text"] == "Excerpt [7]"
    assert long_excerpt.strip() in text
    assert "Accessed on 2025-05-01" in text
    assert "page 3" in text


def test_the_excerpt_view_shows_the_uploaded_page_under_the_excerpt() -> None:
    cited = claim(7, "O trecho citado.")
    text_only = excerpt_view(cited, 7, "pt")

    view = excerpt_view(cited, 7, "pt", page_file="F0000000042")

    assert view_errors(view) == []
    [image] = [block for block in view["blocks"] if block["type"] == "image"]
    assert image["slack_file"] == {"id": "F0000000042"}
    assert image["alt_text"].startswith("Página 3 de ")
    assert image["title"]["text"] == "O trecho na página 3"
    assert view["blocks"].index(image) == 2, "under the statement and the excerpt"
    assert [b for b in view["blocks"] if b is not image] == text_only["blocks"]
    assert not [block for block in text_only["blocks"] if block["type"] == "image"]


def test_gap_buttons_have_short_distinct_labels_and_carry_the_whole_gap() -> None:
    lead = "Fonte verificada que responda: Quais são as competências da"
    agencies = ["ANVISA", "ANEEL", "ANATEL", "ANP", "ANTT", "ANS", "ANA", "ANCINE"]
    gaps = [f"{lead} {agency} na regulação do setor de saúde suplementar?" for agency in agencies]
    unfinished = "Subquestão incompleta (interrompida pelo orçamento)"
    gaps += [f"{unfinished}: Quais são as competências da ANAC?"]
    blocks = gap_buttons("r1", gaps, "Aprofundar")
    buttons = [e for b in blocks for e in b["elements"]]
    labels = [b["text"]["text"] for b in buttons]
    assert labels[0] == "Aprofundar 1: ANVISA"
    assert labels[-1] == "Aprofundar 9: ANAC"
    assert len(set(labels)) == len(labels)
    assert all(len(label) <= 40 for label in labels)
    assert [json.loads(b["value"])["gap"] for b in buttons] == gaps
    assert_within_limits(blocks)


def test_a_cancelled_report_says_the_user_cut_it_short_not_the_budget() -> None:
    sample = cancelled_report(report(2, partial=True).model_copy(update={"gaps": [BUDGET_GAP]}))
    assert sample.gaps == ["Fonte verificada que responda: preços (interrompida pelo usuário)"]
    text = json.dumps(
        report_messages(sample, "r1", 1, cancelled=True)[0].blocks, ensure_ascii=False
    )
    assert "cancelada" in text
    assert "orçamento" not in text
    assert gap_question(bot_gap_text(sample.gaps[0])) == "preços"


BUDGET_GAP = "Fonte verificada que responda: preços (interrompida pelo orçamento)"


def test_the_report_ends_with_native_feedback_buttons_naming_report_and_version() -> None:
    [message] = report_messages(report(130), "r1", 2)
    last = message.blocks[-1]
    assert last["type"] == "context_actions"
    [element] = last["elements"]
    assert (element["type"], element["action_id"]) == ("feedback_buttons", FEEDBACK_BUTTONS)
    up, down = element["positive_button"], element["negative_button"]
    assert json.loads(up["value"]) == {"r": "r1", "v": 2, "f": "up"}
    assert json.loads(down["value"]) == {"r": "r1", "v": 2, "f": "down"}
    assert up["accessibility_label"] == PT.feedback_up_label
    # A press reads back as the rating, from the value or (a bare value) the block_id.
    assert feedback_pressed({"value": up["value"]}, FEEDBACK_BUTTONS) == json.loads(up["value"])
    bare = {"value": "down", "block_id": last["block_id"]}
    assert feedback_pressed(bare, FEEDBACK_BUTTONS) == {"r": "r1", "v": "2", "f": "down"}
    assert feedback_pressed({"value": "down", "block_id": "x:y"}, FEEDBACK_BUTTONS) is None
    assert not [
        e for e in walk(message.blocks) if str(e.get("action_id", "")).startswith(FEEDBACK + "_")
    ]


def test_the_excerpt_view_quotes_the_context_before_the_excerpt() -> None:
    framed = claim(3, "II - 100% (cem por cento) a partir de 2029 <b>").model_copy(
        update={"context": "deve considerar, até 2028, a incidência:"}
    )
    view = excerpt_view(framed, 3, "pt")
    quoted = json.dumps(view["blocks"][1], ensure_ascii=False)
    assert ">deve considerar, até 2028, a incidência: …" in quoted
    assert "&lt;b&gt;" in quoted  # page text escaped for mrkdwn
    assert quoted.index("incidência") < quoted.index("II - 100%")


def test_a_library_document_is_cited_by_its_file_name_never_a_file_link() -> None:
    untitled = claim(1).model_copy(
        update={"url": "file:///srv/fonte/library/leis/lei%2014300.pdf#page=2", "title": ""}
    )
    titled = claim(2).model_copy(
        update={"url": "file:///srv/fonte/library/nota.md", "title": "Nota \u202etécnica"}
    )
    base = report(2)
    sample = base.model_copy(update={"claims": [untitled, titled]})
    text = json.dumps(report_messages(sample, "r1", 1)[0].blocks, ensure_ascii=False)
    assert "*[1]* lei 14300.pdf — página 2 — Acessado em" in text
    assert "*[2]* Nota \\\\u202etécnica — página 3 — Acessado em" in text
    assert "file://" not in text
    assert "/srv/fonte" not in text
    # The excerpt stays one button away, and the modal names the file the same way.
    buttons = [
        e for e in walk(report_messages(sample, "r1", 1)[0].blocks) if e.get("action_id") == EXCERPT
    ]
    assert len(buttons) == 2
    modal = json.dumps(excerpt_view(untitled, 1, "pt"), ensure_ascii=False)
    assert "lei 14300.pdf — página 2" in modal
    assert "file://" not in modal


def test_the_stand_in_refuses_what_slack_documents_for_the_new_blocks() -> None:
    """Hostile payloads: each breaks one documented limit of the blocks the report uses."""
    half = {"type": "markdown", "text": "x" * 6_001}
    assert block_errors([half]) == []
    assert block_errors([half, half]), "markdown blocks share 12,000 characters"
    cell = {"type": "raw_text", "text": "1"}
    assert block_errors([{"type": "table", "rows": [[cell] * 21]}]), "20 cells a row"
    assert block_errors([{"type": "table", "rows": [[cell]] * 101}]), "100 rows"
    assert block_errors([{"type": "table", "rows": [[{"type": "raw_text", "text": ""}]]}])
    assert block_errors([{"type": "table", "rows": [[{"type": "mrkdwn", "text": "1"}]]}])
    one = {"type": "table", "rows": [[cell]]}
    assert table_refusal([one]) is None
    assert table_refusal([one, one]) == {
        "error": "invalid_attachments",
        "errors": ["only_one_table_allowed"],
    }
    face = {"text": {"type": "plain_text", "text": "👍"}, "value": "up"}
    feedback = {"type": "feedback_buttons", "positive_button": face, "negative_button": face}
    assert block_errors([{"type": "context_actions", "elements": [feedback]}]) == []
    assert block_errors([{"type": "context_actions", "elements": [feedback] * 6}]), "5 items"
    assert block_errors([{"type": "actions", "elements": [feedback]}]), "context_actions only"
    long_face = {**face, "text": {"type": "plain_text", "text": "x" * 76}}
    too_long = {**feedback, "positive_button": long_face}
    assert block_errors([{"type": "context_actions", "elements": [too_long]}])
    no_value = {**feedback, "negative_button": {"text": face["text"]}}
    assert block_errors([{"type": "context_actions", "elements": [no_value]}])
    choice = {"text": {"type": "plain_text", "text": "[1] Doc"}, "value": "v"}
    select = {"type": "static_select", "placeholder": face["text"], "options": [choice]}
    assert block_errors([{"type": "actions", "elements": [select]}]) == []
    for broken in (
        {**select, "options": [choice] * 101},
        {**select, "options": [{**choice, "value": "v" * 151}]},
        {**select, "options": [{**choice, "text": {"type": "plain_text", "text": "x" * 76}}]},
        {**select, "option_groups": []},
    ):
        assert block_errors([{"type": "actions", "elements": [broken]}]), broken


def test_the_figures_are_a_chart_and_a_sortable_table_of_the_cells_as_the_report_shows_them() -> (
    None
):
    sample = figures_report()
    [message] = report_messages(sample, "r1", 1)
    assert block_errors(message.blocks) == []
    assert not blocks_of("table", message.blocks), "the data table replaces the table block"
    [chart] = blocks_of("data_visualization", message.blocks)
    [table] = blocks_of("data_table", message.blocks)
    figures = sample.tables[0]
    assert chart["title"] == figures.title
    bars = chart["chart"]
    assert bars["type"] == "bar"
    assert bars["axis_config"]["categories"] == ["Revenue", "Operating income"]
    assert [s["name"] for s in bars["series"]] == figures.columns[:2], "no calculated column"
    assert [p["value"] for p in bars["series"][0]["data"]] == [42879.0, 1900.0]
    index = CitationIndex(sample)
    cells = [[cell["text"] for cell in row] for row in table["rows"]]
    assert cells[0] == ["–", *figures.columns], "no unit: the header's first cell is a dash"
    revenue = figures.rows[0]
    shown = [c for c in revenue.cells if c is not None]
    marks = [
        "".join(f"[{index.number_of(cid)}]" for cid in dict.fromkeys(c.claim_ids)) for c in shown
    ]
    assert cells[1] == [
        revenue.label,
        *(f"{c.text} {m}" for c, m in zip(shown, marks, strict=True)),
    ]
    kinds = [[cell["type"] for cell in row] for row in table["rows"][1:]]
    assert kinds == [["raw_text", "raw_number", "raw_number", "raw_number"]] * 2, "sorts by number"
    assert table["rows"][1][1]["value"] == 42879.0
    change = sample.calculation(str(revenue.cells[2].calculation_id))  # type: ignore[union-attr]
    assert table["rows"][1][3]["value"] == change.value, "a calculated cell sorts by its result"
    assert table["caption"] == figures.title
    [select] = [e for e in walk(message.blocks) if e.get("action_id") == CITATIONS]
    cited = {json.loads(o["value"])["n"] for o in select["options"]}  # type: ignore[attr-defined]
    assert {int(m) for mark in marks for m in mark.strip("[]").split("][")} <= cited, (
        "every marker of the table opens its excerpt from the citations select"
    )


def years_table(n: int, rows: int, claims: list[Claim]) -> FiguresTable:
    long = f"Geração {n} em um título longo que passa dos cinquenta caracteres do gráfico"
    labels = [f"Estado com um nome muito longo {r}" for r in range(rows)]
    return figures_table(f"y{n}", long, "GWh", YEARS, labels, claims)


def test_at_most_two_charts_a_message_labels_within_slack_limits_units_on_the_axis() -> None:
    base = report(12)
    tables = [years_table(n, 3, base.claims) for n in range(3)]
    [message] = report_messages(base.model_copy(update={"tables": tables}), "r1", 1)
    assert block_errors(message.blocks) == []
    charts = blocks_of("data_visualization", message.blocks)
    assert len(charts) == 2, "Slack allows two data_visualization blocks a message"
    assert len(blocks_of("data_table", message.blocks)) == 3
    line = charts[0]
    assert len(line["title"]) <= 50
    assert line["chart"]["type"] == "line"
    axis = line["chart"]["axis_config"]
    assert axis["categories"] == ["2021", "2022", "2023"]
    assert (axis["y_label"], axis["x_label"]) == ("GWh", "Período")
    names = [s["name"] for s in line["chart"]["series"]]
    assert all(len(name) <= 20 for name in names)
    assert len(set(names)) == 3
    assert [p["value"] for p in line["chart"]["series"][2]["data"]] == [30.5, 31.5, 32.5]


def test_a_row_missing_a_figure_leaves_the_chart_it_cannot_fill_and_stays_in_the_table() -> None:
    base = report(6)
    full = years_table(0, 3, base.claims)
    gap = full.rows[1].model_copy(update={"cells": [full.rows[1].cells[0], None, None]})
    table = full.model_copy(update={"rows": [full.rows[0], gap, full.rows[2]]})
    [message] = report_messages(base.model_copy(update={"tables": [table]}), "r1", 1)
    assert block_errors(message.blocks) == []
    [chart] = blocks_of("data_visualization", message.blocks)
    assert len(chart["chart"]["series"]) == 2, "Slack: series may not omit data points"
    [data] = blocks_of("data_table", message.blocks)
    assert len(data["rows"]) == 4
    assert [cell["text"] for cell in data["rows"][2]][2:] == ["–", "–"]


def test_a_table_too_big_for_a_message_keeps_its_first_rows_and_says_the_rest_is_attached() -> None:
    base = report(150)
    [message] = report_messages(
        base.model_copy(update={"tables": [figures(base.claims, 140)]}), "r1", 1
    )
    assert block_errors(message.blocks) == []
    [data] = blocks_of("data_table", message.blocks)
    assert 2 <= len(data["rows"]) <= 101
    assert PT.see_attached in json.dumps(message.blocks, ensure_ascii=False)


def test_the_stand_in_holds_the_data_blocks_to_their_pages() -> None:
    point = {"label": "2021", "value": 1}
    series = {"name": "A", "data": [point]}
    axis = {"categories": ["2021"]}
    good = {
        "type": "data_visualization",
        "title": "T",
        "chart": {"type": "bar", "series": [series], "axis_config": axis},
    }
    assert block_errors([good]) == []
    assert block_errors([good] * 3), "two a message"

    def chart_with(**chart: object) -> dict[str, object]:
        return {**good, "chart": {**good["chart"], **chart}}  # type: ignore[dict-item]

    for broken in (
        {**good, "title": "x" * 51},
        chart_with(type="scatter"),
        chart_with(series=[series] * 7),
        chart_with(series=[series, series]),
        chart_with(series=[{"name": "A", "data": [point, {"label": "2022", "value": 2}]}]),
        chart_with(series=[{"name": "A", "data": [{"label": "2021", "value": "1"}]}]),
        chart_with(axis_config={"categories": ["x" * 21]}),
        chart_with(axis_config={**axis, "y_label": "y" * 51}),
        {**good, "chart": {"type": "pie", "segments": [{"label": "A", "value": 0}]}},
    ):
        assert block_errors([broken]), broken
    cell = {"type": "raw_text", "text": "a"}
    number = {"type": "raw_number", "value": 1.5, "text": "1,5"}
    table = {"type": "data_table", "caption": "C", "rows": [[cell, cell], [cell, number]]}
    assert block_errors([table]) == []
    rich = {"type": "rich_text", "elements": []}
    for broken in (
        {**table, "caption": ""},
        {**table, "rows": [[cell, cell]]},
        {**table, "rows": [[cell, cell]] * 102},
        {**table, "rows": [[cell, cell], [cell]]},
        {**table, "rows": [[rich, cell], [cell, cell]]},
        {**table, "rows": [[cell, cell], [cell, {"type": "raw_number", "text": "1"}]]},
        {**table, "rows": [[cell] * 21, [cell] * 21]},
        {**table, "page_size": 101},
        {**table, "rows": [[cell], [{"type": "raw_text", "text": "x" * 10_000}]]},
    ):
        assert block_errors([broken]), broken
    half = {**table, "rows": [[cell], [{"type": "raw_text", "text": "x" * 6_000}]]}
    assert block_errors([half]) == []
    assert block_errors([half, half]), "10,000 characters of cells a message"
    assert block_errors([good], refused=frozenset({"data_visualization"})) == [
        "unsupported type: data_visualization [json-pointer:/blocks/0/type]"
    ]
    assert view_errors(
        {"type": "modal", "title": {"type": "plain_text", "text": "T"}, "blocks": [table]}
    )
