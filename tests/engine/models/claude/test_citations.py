"""Claims only from record_claim: cited text blocks never become statements, a cited passage
of the same reply may repair an inexact excerpt, and the verifier's word goes back at once."""

import pytest

from engine.models.claude import ClaudeModel
from engine.models.claude.citations import repair_candidates, verdict_message
from engine.verify.excerpts import Verdict
from tests.support.anthropic_server import (
    ScriptedAnthropic,
    char_citation,
    message,
    text,
    thinking,
    tool_results,
    tool_use,
)
from tests.support.claude_turns import (
    DONE,
    EXPIRY,
    EXPIRY_STATEMENT,
    FILING,
    LAW,
    fetch,
    record,
    toolbox,
    turns,
)
from tests.support.pages_source import LAW_TEXT, PagesSource

PARAPHRASE = "Os créditos de energia expiram em 60 (sessenta) meses após a data do faturamento."
CITED_EXPIRY = text("expiram em 60 meses", [char_citation(EXPIRY, 0, LAW_TEXT.index(EXPIRY))])
"""Claude's words citing the law's sentence on when credits expire, as the API returns them."""


async def test_a_cited_text_block_is_never_a_claim(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(
        turns(
            fetch(),
            message(
                text("Segundo a Lei 14.300, "),
                CITED_EXPIRY,
            ),
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    assert tools.posted == []


async def test_a_cited_passage_of_the_same_reply_repairs_an_inexact_excerpt(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(
        turns(
            fetch(),
            message(
                thinking(),
                text(
                    "A lei diz que os créditos ",
                ),
                CITED_EXPIRY,
                text("."),
                tool_use(
                    "record_claim",
                    {"statement": EXPIRY_STATEMENT, "url": LAW, "excerpt": PARAPHRASE},
                ),
                stop_reason="tool_use",
            ),
            DONE,
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    assert [(c.statement, c.excerpt) for c in tools.posted] == [(EXPIRY_STATEMENT, EXPIRY)]
    told = tool_results(anthropic.requests[2].body)[0]["content"][0]["text"]
    assert "verified" in told
    assert "the passage you cited from that page replaced it" in told


@pytest.mark.parametrize(
    ("excerpt", "url", "told"),
    [
        ("Os créditos de energia vencem em cinco anos.", LAW, "excerpt not found"),
        ("Os créditos de energia elétrica " * 15, LAW, "too long"),
        (
            "Purchases of property, plant and equipment (PP&E) (1,577) (1,373)",
            f"{FILING}#page=1",
            "#page=2",
        ),
    ],
)
async def test_the_tool_result_says_at_once_why_a_claim_will_be_rejected(
    anthropic: ScriptedAnthropic,
    model: ClaudeModel,
    source: PagesSource,
    excerpt: str,
    url: str,
    told: str,
) -> None:
    anthropic.script(turns(fetch(url), record(statement="A fact.", url=url, excerpt=excerpt), DONE))
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    result = tool_results(anthropic.requests[2].body)[0]["content"][0]["text"]
    assert "it will be rejected" in result
    assert told in result


async def test_a_number_the_excerpt_lacks_is_told(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(
        turns(
            fetch(), record(statement="Os créditos valem 72 meses.", url=LAW, excerpt=EXPIRY), DONE
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    result = tool_results(anthropic.requests[2].body)[0]["content"][0]["text"]
    assert "numbers not in the excerpt: 72" in result


def test_only_a_passage_sharing_most_of_the_excerpt_can_repair_it() -> None:
    passages = ["Art. 1º Para fins e efeitos desta Lei", EXPIRY]
    assert repair_candidates(PARAPHRASE, passages) == [EXPIRY]
    assert repair_candidates("Capex foi de 1.577 milhões", passages) == []
    assert repair_candidates(EXPIRY, passages) == []  # the same text repairs nothing


def test_the_message_names_the_claim_and_the_fix() -> None:
    on_page_2 = Verdict(False, "excerpt is on page 2, not on cited page 1")
    assert verdict_message("c1", on_page_2, repaired=False) == (
        "recorded as c1 but it will be rejected: excerpt is on page 2, not on cited page 1. "
        "Record it again with the url ending in #page=2."
    )
    assert verdict_message(None, on_page_2, repaired=False).startswith("already recorded")
    found = Verdict(True, "excerpt found in the source text")
    assert verdict_message("c2", found, repaired=False) == (
        "recorded as c2: verified (excerpt found in the source text)."
    )
