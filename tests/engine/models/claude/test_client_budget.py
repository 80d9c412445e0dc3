"""The client's money cap and account stops through the real Orchestrator, against the
stand-in: server-side search turns reserved for all their sampling passes, and a 402 that
ends the run with a partial report and one line."""

import random
import threading
from collections.abc import Callable

import pytest

from engine.models.claude import ClaudeModel
from tests.support.anthropic_server import (
    ApiError,
    Body,
    Reply,
    ScriptedAnthropic,
    billing_error,
    json_message,
    message,
    server_search,
    text,
    thinking,
    tool_use,
)
from tests.support.capped_runs import random_pages, random_plan, run_under_a_random_cap
from tests.support.claude_script import EXPIRY, EXPIRY_STATEMENT, PLAN, run, turn
from tests.support.claude_turns import LAW, by_role
from tests.support.pages_source import PagesSource


def _server_searcher(rng: random.Random, urls: list[str]) -> Callable[[Body], Reply]:
    """A subagent that searches on Anthropic's side: up to the turn's `max_uses` searches,
    each bringing back results of up to the assumed 10k tokens, then reads or stops."""
    lock = threading.Lock()

    def reply(body: Body) -> Reply:
        max_uses = next(t["max_uses"] for t in body["tools"] if t.get("name") == "web_search")
        with lock:
            choice = rng.random()
            searches = rng.randint(1, max_uses)
            sizes = [rng.randint(1_000, 9_500) for _ in range(searches)]
            picked = rng.sample(urls, rng.randint(1, 3))
        if choice < 0.03:
            return message(text("Terminei."))
        found = [
            block
            for number, size in enumerate(sizes)
            for block in server_search(f"busca {number}", picked, result_tokens=size)
        ]
        reads = [tool_use("fetch_page", {"url": url}) for url in picked[:1]]
        return message(thinking(), *found, *reads, stop_reason="tool_use")

    return reply


@pytest.mark.parametrize("seed", range(20))
async def test_eight_parallel_subagents_searching_on_the_server_stay_under_the_cap(
    anthropic: ScriptedAnthropic,
    make_model: Callable[..., ClaudeModel],
    source: PagesSource,
    seed: int,
    largest_ratio: list[float],
) -> None:
    rng = random.Random(1000 + seed)
    anthropic.usage_mode = "top"  # every pass's prompt a cache write, the whole max_tokens out
    urls = random_pages(source, rng, most_repeats=2000)
    # A small writer reservation and long subagents: the money, not the steps, runs out,
    # and no idle headroom hides an overshoot.
    # Subagents on the cheap model, so conversations grow long (and their passes dear)
    # before the money runs out.
    model = make_model(
        server_web_search=True,
        subagent_model="claude-haiku-5-5",
        writer_prompt_tokens=1000,
        writer_max_tokens=500,
    )
    anthropic.script(
        by_role(
            planner=json_message(random_plan(rng, 8, steps=(20, 40))),
            subagent=_server_searcher(rng, urls),
            criteria=json_message({"unmet": []}),
        )
    )
    report = await run_under_a_random_cap(
        model, source, anthropic, rng, largest_ratio, subagent_max_steps=500
    )
    print(
        f"seed {seed}: ${report.spend.usd:.4f} of ${report.limits.usd:.2f}, "
        f"{report.spend.usage.web_searches} searches"
    )


async def test_a_402_ends_the_run_with_a_partial_report_one_line_and_no_further_request(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    one = {"sufficient_when": ["prazo dos créditos"], "subquestions": [PLAN["subquestions"][1]]}

    def research(body: Body) -> Reply:
        if turn(body) == 0:
            return message(tool_use("fetch_page", {"url": LAW}), stop_reason="tool_use")
        if turn(body) == 1:
            claim = {"statement": EXPIRY_STATEMENT, "url": LAW, "excerpt": EXPIRY}
            return message(tool_use("record_claim", claim), stop_reason="tool_use")
        return billing_error()  # the credits ran out mid-research

    anthropic.script(by_role(planner=json_message(one), subagent=research))
    report = await run(model, source)

    refused = [r for r in anthropic.requests if isinstance(r.reply, ApiError)]
    assert len(refused) == 1
    assert anthropic.requests[-1] is refused[0]  # nothing was sent after it, no retry
    assert report.partial
    assert len(report.notes) == 1
    # The one line, in the report's language, names the stop and what to do.
    assert "(Anthropic billing error (Claude API 402 billing_error: " in report.notes[0]
    assert report.notes[0].endswith("credits in the Claude Console; no retry, research stopped)")
    assert [c.excerpt for c in report.verified_claims()] == [EXPIRY]  # kept, quoted verbatim
