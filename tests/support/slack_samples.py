"""Sample reports and Block Kit checks shared by the Slack tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.slack.blockkit import MAX_BLOCKS, MAX_BUTTON_TEXT, MAX_SECTION_TEXT, Block
from engine.contracts import (
    Claim,
    ClaimStatus,
    Locator,
    Plan,
    Report,
    Section,
    Sentence,
    Subquestion,
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
        language=language,  # type: ignore[arg-type]
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
