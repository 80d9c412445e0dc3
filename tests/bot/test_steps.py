from __future__ import annotations

import pytest

from bot.steps import (
    Answer,
    Ask,
    Deepen,
    decode_step,
    deepen_request,
    encode_step,
    mentions,
    parse_research_command,
    strip_mentions,
)


@pytest.mark.parametrize(
    ("text", "help_", "template", "question"),
    [
        ("", True, None, ""),
        ("help", True, None, ""),
        ("ajuda", True, None, ""),
        ("mercado energia solar residencial", False, "mercado", "energia solar residencial"),
        ("market solar energy in Brazil", False, "mercado", "solar energy in Brazil"),
        ("regulacao", True, "regulacao", ""),
        ("mercado de energia solar", False, None, "mercado de energia solar"),
        ("Qual é o limite?", False, None, "Qual é o limite?"),
    ],
)
def test_research_command(text: str, help_: bool, template: str | None, question: str) -> None:
    parsed = parse_research_command(text)
    assert (parsed.help, parsed.template, parsed.question) == (help_, template, question)


def test_mentions_and_deepen_requests() -> None:
    assert strip_mentions("<@UBOT>  Qual é <@U2|ana> o limite?") == "Qual é o limite?"
    assert mentions("oi <@UBOT>", "UBOT")
    assert not mentions("oi", "UBOT")
    assert not mentions("x", None)
    assert deepen_request("aprofunde: prazo dos créditos") == "prazo dos créditos"
    assert deepen_request("<@UBOT> Aprofundar - custos\n de conexão") == "custos de conexão"
    assert deepen_request("deepen: market share") == "market share"
    assert deepen_request("obrigado!") is None


def test_steps_survive_the_queue() -> None:
    steps = [
        Ask(origin="e1", channel="C", thread_ts=None, user="U", text="Q?", template="mercado"),
        Answer(report_id="r", user="U", question=0, option=1),
        Deepen(report_id="r", user="U", gap="g"),
    ]
    for step in steps:
        assert decode_step(encode_step(step)) == step
