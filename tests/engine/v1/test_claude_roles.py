"""The v1 baseline on Claude, against the same scripted server and source as the final
architecture: both reports are priced from the scripted usage, so their costs compare."""

from __future__ import annotations

import pytest

from engine.contracts import ClaimStatus, Plan, Usage
from engine.models.claude import ClaudeModel, default_price_table
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.v1 import ClaudeV1Roles, V1Pipeline, v1_roles_for
from engine.verify.excerpts import verify_on_page
from tests.support.anthropic_server import (
    Body,
    Reply,
    ScriptedAnthropic,
    first_user_text,
    message,
    text,
    usage,
)
from tests.support.claude_script import (
    LAW,
    PLAN,
    QUESTION,
    usage_in,
    whole_report,
)
from tests.support.claude_turns import role_of
from tests.support.pages_source import PagesSource

PRICES = default_price_table()
ROLE_TOKENS = usage(4000, 600)
V1_DRAFT = (
    "# Microgeração\n\n## Limite\n\n"
    "A microgeração distribuída vai até 75 kW de potência instalada. [1]\n\n"
    "## Créditos\n\nOs créditos de energia expiram em 60 meses. [1]\n"
)
V1_SYSTEMS = {
    "You are the researcher": "v1-researcher",
    "You are the analyst": "v1-analyst",
    "You are the writer": "v1-writer",
    "You are the reviewer": "v1-reviewer",
    "You are the editor": "v1-editor",
}


def v1_role(body: Body) -> str | None:
    system = body["system"] if isinstance(body["system"], str) else body["system"][0]["text"]
    return next((role for start, role in V1_SYSTEMS.items() if system.startswith(start)), None)


def same_script(final: object) -> object:
    """The final architecture's script, plus answers for the five v1 roles."""

    def reply(body: Body) -> Reply:
        role = v1_role(body)
        if role is None:
            return final(body)  # type: ignore[operator]
        if role == "v1-writer":
            return message(text(V1_DRAFT), tokens=ROLE_TOKENS)
        if role in {"v1-reviewer", "v1-editor"}:
            return message(text(first_user_text(body)), tokens=ROLE_TOKENS)
        return message(text("Resumo: a microgeração vai até 75 kW."), tokens=ROLE_TOKENS)

    return reply


def billed(requests: list[object]) -> tuple[float, Usage]:
    usd, total = 0.0, Usage()
    for request in requests:
        reply = request.reply  # type: ignore[attr-defined]
        if isinstance(reply, dict):
            call = usage_in(reply)
            usd += PRICES.cost_usd(request.body["model"], call)  # type: ignore[attr-defined]
            total = total + call
    return usd, total


async def test_v1_and_final_on_the_same_script_are_priced_from_usage(
    anthropic: ScriptedAnthropic,
    model: ClaudeModel,
    source: PagesSource,
) -> None:
    anthropic.script(same_script(whole_report()))
    brief = make_brief(QUESTION)
    final = await Orchestrator(model, source, source).run(brief)
    final_requests = list(anthropic.requests)
    roles = v1_roles_for(model)
    assert isinstance(roles, ClaudeV1Roles)
    v1 = await V1Pipeline(roles, source, source).run(
        brief, plan=Plan.model_validate({"question": QUESTION, **PLAN})
    )
    v1_requests = anthropic.requests[len(final_requests) :]

    assert [v1_role(r.body) for r in v1_requests] == list(V1_SYSTEMS.values())
    # Thinking shares the cap with the answer: v1's roles ask with room and the writer's effort.
    assert {r.body["max_tokens"] for r in v1_requests} == {12_000}
    assert {r.body["output_config"]["effort"] for r in v1_requests} == {"medium"}
    final_usd, final_usage = billed(final_requests)
    v1_usd, v1_usage = billed(v1_requests)
    assert final.spend.usd == pytest.approx(final_usd)
    assert v1.spend.usd == pytest.approx(v1_usd)
    assert v1.spend.usage == v1_usage
    assert final.spend.usage == final_usage
    print(
        f"\nscripted spend: final ${final_usd:.5f} ({final_usage.model_calls} calls), "
        f"v1 ${v1_usd:.5f} ({v1_usage.model_calls} calls)"
    )

    # v1's claims carry its own sentences as excerpts: the verifier can score them.
    assert v1.architecture == "v1"
    assert {c.url for c in v1.claims} == {LAW}
    verdicts = [verify_on_page(c, await source.fetch(c.url)).status for c in v1.claims]
    assert ClaimStatus.rejected in verdicts  # a rewritten sentence is not on the page
    assert all(role_of(r.body) for r in final_requests)
