"""Sample reports and Block Kit checks shared by the Slack tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.slack.blockkit import MAX_BLOCKS, MAX_BUTTON_TEXT, MAX_SECTION_TEXT, Block
from engine import Language
from engine.contracts import (
    Claim,
    ClaimStatus,
    FiguresTable,
    Locator,
    Plan,
    Report,
    Section,
    Sentence,
    Subquestion,
    TableCell,
    TableRow,
)


def walk(blocks: list[Block]) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    for block in blocks:
        found.append(block)
        for key in ("elements", "fields"):
            found += [e for e in block.get(key, []) if isinstance(e, dict)]
        for key in ("accessory", "text", "element"):
            if isinstance(block.get(key), dict):
                found.append(block[key])
    return found


def assert_within_limits(blocks: list[Block]) -> None:
    assert len(blocks) <= MAX_BLOCKS
    for item in walk(blocks):
        if item.get("type") == "mrkdwn":
            assert len(str(item["text"])) <= MAX_SECTION_TEXT
        if item.get("type") == "button":
            assert len(item["text"]["text"]) <= MAX_BUTTON_TEXT  # type: ignore[index]
            assert len(str(item["value"])) <= 2000


def claim(n: int, excerpt: str = "") -> Claim:
    return Claim(
        id=f"c{n:012d}",
        statement=f"Afirmação {n} <com> & símbolos",
        url=f"https://example.org/doc{n}.pdf#page={n % 5 + 1}",
        title=f"Documento {n}",
        excerpt=excerpt or f"trecho número {n} com texto suficiente para o verificador",
        accessed_at=datetime(2025, 5, 1, 14, 3, tzinfo=UTC),
        source_sha256="b" * 64,
        subagent="s1",
        subquestion="s1",
        status=ClaimStatus.verified,
        locator=Locator(page=n % 5 + 1, char_start=0, char_end=10),
    )


def report(claims: int, partial: bool = False, language: str = "pt") -> Report:
    all_claims = [claim(n) for n in range(1, claims + 1)]
    sentences = [Sentence(text=c.statement, claim_ids=[c.id]) for c in all_claims]
    return Report(
        question="Como está o mercado?",
        title="Relatório: mercado",
        language=language,
        plan=Plan(question="Q", subquestions=[Subquestion(id="s1", text="Q")]),
        partial=partial,
        gaps=["Fonte verificada que responda: preços"] if partial else [],
        sections=[Section(title="Tamanho", sentences=sentences)],
        claims=all_claims,
    )


def assistant_thread_started(user: str, dm: str, thread_ts: str) -> dict[str, Any]:
    """The event a user opening the agent view's thread sends, with its documented fields
    (https://docs.slack.dev/reference/events/assistant_thread_started): no locale in it."""
    return {
        "type": "assistant_thread_started",
        "assistant_thread": {
            "user_id": user,
            "context": {"channel_id": "C1", "team_id": "T1", "enterprise_id": None},
            "channel_id": dm,
            "thread_ts": thread_ts,
        },
        "event_ts": "1729999327.187300",
    }


def assistant_thread_message(
    user: str, dm: str, thread_ts: str, text: str, ts: str
) -> dict[str, Any]:
    """A user's message in that thread (a picked suggested prompt arrives the same way)."""
    return {
        "type": "message",
        "channel": dm,
        "channel_type": "im",
        "user": user,
        "text": text,
        "ts": ts,
        "thread_ts": thread_ts,
    }


def figures_table(
    table_id: str, title: str, unit: str, columns: list[str], labels: list[str], claims: list[Claim]
) -> FiguresTable:
    """A figures table of a row per label across `columns`: row r's figure in column c reads
    "{r + 1}{c},5" and cites claims[r]."""
    return FiguresTable(
        id=table_id,
        title=title,
        unit=unit,
        columns=columns,
        rows=[
            TableRow(
                label=label,
                cells=[
                    TableCell(text=f"{r + 1}{c},5", claim_ids=[claims[r].id])
                    for c in range(len(columns))
                ],
            )
            for r, label in enumerate(labels)
        ],
    )


YEARS = ["2021", "2022", "2023"]


def figures_sample(claims: int = 12, language: str = "pt") -> Report:
    """`report(claims)` with two figures tables: three years of two states (a line chart)
    and one row across three regions (bars)."""
    base = report(claims, partial=True, language=language)
    states = ["Estado 0", "Estado 1"]
    years = figures_table("t1", "Geração distribuída por estado", "GWh", YEARS, states, base.claims)
    regions = ["Norte", "Sul", "Leste"]
    power = figures_table("t2", "Potência por região", "MW", regions, ["Potência"], base.claims)
    return base.model_copy(update={"tables": [years, power]})


def every_message() -> list[tuple[str, str, Any]]:
    """Every kind of message and modal the bot sends, in both languages: (name, "message" or
    "view", its blocks or its view). What each builder makes for a sample of its inputs."""
    from bot.recovery.in_flight import LostBrief, lost_message
    from bot.slack.blocks import (
        Estimate,
        answered_questions,
        clarifying_questions,
        edit_plan_view,
        help_message,
        plan_message,
        progress_message,
        steer_refusal,
    )
    from bot.slack.progress import edited_message
    from bot.slack.progress_state import SlackProgress
    from bot.slack.report_blocks import excerpt_view, report_message
    from engine.contracts import ClarifyingQuestion, Limits, Spend
    from engine.events import ClaimVerified, GapsUpdated, SpendUpdated, SubagentStarted

    found: list[tuple[str, str, Any]] = []
    languages: tuple[Language, ...] = ("pt", "en")
    for language in languages:
        questions = [ClarifyingQuestion(question="Qual período?", options=["2023", "2024"])]
        plan = Plan(
            question="Como está o mercado?",
            subquestions=[Subquestion(id=f"s{n}", text=f"Subpergunta {n}") for n in range(3)],
            sufficient_when=["dados de 2024"],
        )
        limits = Limits()
        progress = SlackProgress.for_plan(plan, limits)
        for event in (
            SubagentStarted("s0", "s0"),
            ClaimVerified(claim(1)),
            SpendUpdated(Spend(steps=3, usd=0.1, seconds=40)),
            GapsUpdated(["preços"]),
        ):
            progress.apply(event)
        sample = figures_sample(language=language)
        messages = {
            "clarifying questions": clarifying_questions("r1", questions, language),
            "answered questions": answered_questions(questions, ["2023"], language),
            "plan": plan_message("r1", plan, limits, Estimate(2.0, 0.3), language),
            "plan started": plan_message(
                "r1",
                plan,
                limits,
                Estimate(2.0, 0.3),
                language,
                footer="ok",
            ),
            "not your plan": steer_refusal("r1", language),
            "progress": progress_message(progress, limits, language),
            "progress done": progress_message(progress, limits, language, finished=True),
            "progress edited": edited_message(progress, limits, language),
            "help": help_message(language),
            "report": report_message(sample, "r1", 1),
            "report as tables": report_message(sample, "r1", 1, data_blocks=False),
            "report cancelled": report_message(sample, "r1", 1, cancelled=True),
            "report short": report_message(sample, "r1", 1, short=True),
            "report without figures": report_message(report(150), "r1", 2, budget=3_500),
            "lost run": lost_message(
                LostBrief("C1", "1.1", "Como está o mercado?", None, language, False)
            ),
        }
        found += [(f"{name} ({language})", "message", m.blocks) for name, m in messages.items()]
        views = {
            "edit plan": edit_plan_view("r1", plan, limits, language),
            "excerpt": excerpt_view(claim(1), 1, language),
            "excerpt with its page": excerpt_view(claim(1), 1, language, page_file="F1"),
        }
        found += [(f"{name} ({language})", "view", view) for name, view in views.items()]
    return found
