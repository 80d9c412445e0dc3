"""Block Kit builders are pure and stay within Slack's limits."""

from __future__ import annotations

import json

from bot.slack.blockkit import (
    DEFAULT_TEXT_BUDGET,
    MAX_BLOCKS,
    paginate,
    section,
    text_size,
)
from bot.slack.blocks import (
    ANSWER,
    CANCEL,
    EDIT,
    EDIT_VIEW,
    START,
    Estimate,
    clarifying_questions,
    edit_plan_view,
    help_message,
    plan_message,
    progress_message,
    read_edit_plan,
)
from engine.contracts import ClarifyingQuestion, Limits, Plan, Spend, Subquestion
from engine.progress import ProgressState
from tests.support.slack_samples import assert_within_limits, walk


def plan(n: int = 2, text: str = "Subpergunta") -> Plan:
    subs = [Subquestion(id=f"s{i}", text=f"{text} {i}") for i in range(1, n + 1)]
    return Plan(question="Q?", sufficient_when=[f"c{i}" for i in range(n)], subquestions=subs)


def test_clarifying_questions_offer_each_option_as_a_button() -> None:
    questions = [
        ClarifyingQuestion(question="Qual região?", options=["Nordeste", "Sul"]),
        ClarifyingQuestion(question="Qual horizonte?", options=[]),
    ]
    message = clarifying_questions("r1", questions, "pt")
    buttons = [e for e in walk(message.blocks) if e.get("type") == "button"]
    assert [b["action_id"] for b in buttons] == [f"{ANSWER}_0_0", f"{ANSWER}_0_1"]
    assert json.loads(str(buttons[1]["value"])) == {"r": "r1", "q": 0, "o": 1}
    assert "Qual horizonte?" in json.dumps(message.blocks, ensure_ascii=False)
    assert "responda neste fio" in json.dumps(message.blocks, ensure_ascii=False)


def test_plan_shows_subquestions_criteria_caps_estimate_and_three_buttons() -> None:
    message = plan_message(
        "r1", plan(), Limits(steps=40, seconds=300, usd=1.5), Estimate(2.5, 0.4), "en"
    )
    text = json.dumps(message.blocks)
    for fragment in (
        "Subpergunta 1",
        "Subquestions",
        "Sufficient when",
        "40 steps",
        "5 min",
        "US$ 1.50",
        "2.5 min",
        "0.40",
    ):
        assert fragment in text
    actions = [e["action_id"] for e in walk(message.blocks) if e.get("type") == "button"]
    assert actions == [START, EDIT, CANCEL]
    closed = plan_message(
        "r1", plan(), Limits(), Estimate(1, 0), "pt", footer="Iniciado por <@U1>."
    )
    assert not [e for e in walk(closed.blocks) if e.get("type") == "button"]
    assert "Iniciado por" in json.dumps(closed.blocks)


def test_a_huge_plan_is_split_into_sections_within_limits() -> None:
    message = plan_message("r1", plan(40, "x" * 300), Limits(), Estimate(1, 0), "pt")
    assert_within_limits(message.blocks)
    assert sum("x" * 300 in json.dumps(b) for b in message.blocks) > 2


def test_edit_modal_round_trips_through_its_submission() -> None:
    view = edit_plan_view("r1", plan(), Limits(steps=30, seconds=120, usd=0.5), "pt")
    assert view["callback_id"] == EDIT_VIEW
    assert len(view["title"]["text"]) <= 24
    values = {
        block["block_id"]: {block["block_id"]: {"value": block["element"]["initial_value"]}}
        for block in view["blocks"]
    }
    read = read_edit_plan({"state": {"values": values}}, "pt")
    assert read == (["Subpergunta 1", "Subpergunta 2"], Limits(steps=30, seconds=120, usd=0.5))
    values["minutes"]["minutes"]["value"] = "zero"
    values["subquestions"]["subquestions"]["value"] = "  \n "
    errors = read_edit_plan({"state": {"values": values}}, "pt")
    assert isinstance(errors, dict)
    assert set(errors) == {"minutes", "subquestions"}


def test_progress_shows_subagents_verdicts_money_time_and_gaps() -> None:
    state = ProgressState(limits=Limits())
    state.subagents = {"s1": "running", "s2": "done, 3 claims"}
    state.subquestions = {"s1": "Tamanho do mercado"}
    state.verified, state.rejected = 4, 1
    state.spend = Spend(steps=7, seconds=90, usd=0.12)
    state.gaps = ["Sem fonte para preços"]
    message = progress_message(state, Limits(steps=60, seconds=600, usd=2), "pt")
    text = json.dumps(message.blocks, ensure_ascii=False)
    for fragment in (
        "4 verificadas, 1 rejeitadas",
        "US$ 0.12 de US$ 2.00",
        "1.5 de 10 min",
        "`s1` pesquisando",
        "Tamanho do mercado",
        "Sem fonte para preços",
    ):
        assert fragment in text
    assert "concluída" in progress_message(state, Limits(), "pt", finished=True).text


def test_help_lists_the_templates_in_the_users_language() -> None:
    assert "/research [modelo] pergunta" in json.dumps(
        help_message("pt").blocks, ensure_ascii=False
    )
    assert "`concorrentes`" in json.dumps(help_message("en").blocks)


def test_help_says_how_to_watch_a_research_in_both_languages() -> None:
    portuguese = json.dumps(help_message("pt").blocks, ensure_ascii=False)
    english = json.dumps(help_message("en").blocks, ensure_ascii=False)
    assert "/research acompanhar diária|semanal|mensal PERGUNTA" in portuguese
    assert "/research rotinas" in portuguese
    assert "/research watch daily|weekly|monthly QUESTION" in english
    assert "/research routines" in english


def test_pagination_keeps_every_block_and_marks_continuations() -> None:
    blocks = [section(f"b{n}") for n in range(120)]
    pages = paginate(blocks, "Report", "(continued {page}/{pages})")
    assert len(pages) == 3
    assert all(len(p.blocks) <= MAX_BLOCKS for p in pages)
    kept = [b for p in pages for b in p.blocks if b["type"] == "section"]
    assert kept == blocks
    assert "(continued 2/3)" in pages[1].text
    assert len(paginate(blocks[:50], "R", "{page}{pages}")) == 1


def test_progress_of_a_huge_run_stays_within_the_text_budget() -> None:
    state = ProgressState(limits=Limits())
    state.subagents = {f"s{n}": "running" for n in range(200)}
    state.subquestions = {f"s{n}": "Quais são as competências da agência " * 4 for n in range(200)}
    state.gaps = ["Fonte verificada que responda: " + "x" * 200] * 100
    message = progress_message(state, Limits(), "pt")
    assert text_size(message.blocks) <= DEFAULT_TEXT_BUDGET
    assert "Pesquisando" in json.dumps(message.blocks[0], ensure_ascii=False)
