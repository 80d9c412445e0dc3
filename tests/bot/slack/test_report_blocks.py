"""A report as Slack messages: summary, numbered citations with excerpts, gap buttons."""

from __future__ import annotations

import json

from bot.slack.blocks import DEEPEN, EXCERPT, FEEDBACK
from bot.slack.report_blocks import (
    bot_gap_text,
    cut_by_user,
    excerpt_view,
    gap_buttons,
    report_messages,
)
from engine.planning.gaps import gap_question
from tests.support.slack_limits import view_errors
from tests.support.slack_samples import assert_within_limits, claim, report, walk


def test_a_report_lists_numbered_citations_with_excerpt_source_page_and_date() -> None:
    messages = report_messages(report(3), "r1", 1)
    assert len(messages) == 1
    text = json.dumps(messages[0].blocks, ensure_ascii=False)
    assert "Afirmação 1 &lt;com&gt; &amp; símbolos [1]" in text
    assert (
        "*[2]* <https://example.org/doc2.pdf#page=3|Documento 2> — página 3 — Acessado em 2025-05-01 14:03 UTC"
        in text
    )
    assert ">trecho número 3" in text
    buttons = [e for e in walk(messages[0].blocks) if e.get("action_id") == EXCERPT]
    assert len(buttons) == 3
    assert json.loads(str(buttons[0]["value"])) == {"r": "r1", "v": 1, "c": claims_id(1), "n": 1}
    assert "Relatório parcial" not in text


def claims_id(n: int) -> str:
    return f"c{n:012d}"


def test_a_long_report_is_paginated_within_block_kit_limits() -> None:
    messages = report_messages(report(130), "r1", 2)
    assert len(messages) >= 3
    for message in messages:
        assert_within_limits(message.blocks)
    excerpts = [e for m in messages for e in walk(m.blocks) if e.get("action_id") == EXCERPT]
    assert len(excerpts) == 130
    assert "(continuação 2/" in messages[1].text


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
    sample = cut_by_user(report(2, partial=True).model_copy(update={"gaps": [BUDGET_GAP]}))
    assert sample.gaps == ["Fonte verificada que responda: preços (interrompida pelo usuário)"]
    text = json.dumps(
        report_messages(sample, "r1", 1, cancelled=True)[0].blocks, ensure_ascii=False
    )
    assert "cancelada" in text
    assert "orçamento" not in text
    assert gap_question(bot_gap_text(sample.gaps[0])) == "preços"


BUDGET_GAP = "Fonte verificada que responda: preços (interrompida pelo orçamento)"


def test_the_delivered_report_ends_with_feedback_buttons() -> None:
    messages = report_messages(report(130), "r1", 2)
    last = [
        e for e in walk(messages[-1].blocks) if str(e.get("action_id", "")).startswith(FEEDBACK)
    ]
    assert [json.loads(str(b["value"])) for b in last] == [
        {"r": "r1", "v": 2, "f": "up"},
        {"r": "r1", "v": 2, "f": "down"},
    ]
    earlier = [e for m in messages[:-1] for e in walk(m.blocks)]
    assert not any(str(e.get("action_id", "")).startswith(FEEDBACK) for e in earlier)


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
