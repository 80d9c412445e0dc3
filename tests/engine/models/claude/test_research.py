"""The subagent's tool-use loop against the scripted server and an in-memory source."""

from collections.abc import Callable

import pytest

from engine.budget import StepRefused
from engine.contracts import Limits
from engine.models.claude import ClaudeModel, ClaudeRefused
from engine.models.claude.prompts import SUBAGENT_SYSTEM
from tests.engine.conftest import FILING_PAGES, LAW_TEXT, PagesSource
from tests.engine.models.claude.conftest import toolbox
from tests.support.anthropic_server import (
    Body,
    Reply,
    ScriptedAnthropic,
    blocks,
    char_citation,
    message,
    server_search,
    text,
    thinking,
    tool_results,
    tool_use,
    usage,
)

LAW = "https://example.org/lei-14300"
FILING = "https://example.org/acme-2018.pdf"
EXPIRY = (
    "Os créditos de energia elétrica expiram em 60 (sessenta) meses após a data do faturamento."
)
EXPIRY_STATEMENT = "Os créditos de energia expiram em 60 meses após o faturamento."


def turns(*replies: Reply) -> Callable[[Body], Reply]:
    """Reply by turn: the n-th call of a conversation (1, 3, 5 … messages) gets replies[n]."""

    def reply(body: Body) -> Reply:
        return replies[len(body["messages"]) // 2]

    return reply


def search(query: str = "créditos energia expiram") -> Reply:
    return message(tool_use("web_search", {"query": query}), stop_reason="tool_use")


def fetch(url: str = LAW, name: str = "fetch_page") -> Reply:
    return message(tool_use(name, {"url": url}), stop_reason="tool_use")


def record(**arguments: object) -> Reply:
    return message(tool_use("record_claim", arguments), stop_reason="tool_use")


DONE = message(text("Subquestion answered."))


async def test_search_read_record_in_one_context(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(
        turns(
            search(),
            fetch(),
            record(statement=EXPIRY_STATEMENT, url=LAW, excerpt=EXPIRY),
            DONE,
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)

    assert [c.excerpt for c in tools.posted] == [EXPIRY]
    assert tools.posted[0].statement == EXPIRY_STATEMENT
    assert tools.steps_used == 6  # 4 model turns, 1 search, 1 read
    spend = await tools.budget.spend()
    assert spend.usage.model_calls == 4
    assert spend.usd == pytest.approx(4 * (100 * 2.0 + 50 * 10.0) / 1e6)  # usage() per turn

    first, *_, last = anthropic.requests
    assert first.body["system"][0] == {
        "type": "text",
        "text": SUBAGENT_SYSTEM,
        "cache_control": {"type": "ephemeral"},
    }
    tools_sent = first.body["tools"]
    assert [t["name"] for t in tools_sent] == ["web_search", "fetch_page", "record_claim"]
    assert "Até quando valem os créditos" in first.body["messages"][0]["content"][0]["text"]
    assert first.body["output_config"] == {"effort": "medium"}
    # One conversation: the last call carries every earlier turn, and two breakpoints in its
    # messages: the turn the previous call marked (an exact cache hit) and the newest turn.
    assert len(last.body["messages"]) == 7
    marked = [b for b in blocks(last.body) if "cache_control" in b]
    assert marked == [
        last.body["messages"][4]["content"][-1],
        last.body["messages"][6]["content"][-1],
    ]
    searched = tool_results(anthropic.requests[1].body)[0]
    assert LAW in searched["content"][0]["text"]
    document = tool_results(anthropic.requests[2].body)[0]["content"][0]
    assert document["type"] == "document"
    assert document["citations"] == {"enabled": True}
    assert document["source"] == {"type": "text", "media_type": "text/plain", "data": LAW_TEXT}
    assert document["title"] == "Lei 14.300"


async def test_a_library_source_gets_library_tools_and_pages(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    source.name = "library"
    anthropic.script(
        turns(
            message(tool_use("search_library", {"query": "capex"}), stop_reason="tool_use"),
            fetch(f"{FILING}#page=2", name="read_document"),
            fetch(FILING, name="read_document"),
            DONE,
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    first = anthropic.requests[0].body
    assert [t["name"] for t in first["tools"]] == [
        "search_library",
        "read_document",
        "record_claim",
    ]
    page = tool_results(anthropic.requests[2].body)[0]["content"]
    assert page[0]["source"]["data"] == FILING_PAGES[1]
    assert len(page) == 1  # a single page: no note
    whole = tool_results(anthropic.requests[3].body)[0]["content"]
    assert whole[1] == {
        "type": "text",
        "text": f"The document has 2 pages; read {FILING}#page=N for one page.",
    }


async def test_bad_tool_input_goes_back_as_an_error_and_the_loop_goes_on(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(
        turns(
            record(statement=EXPIRY_STATEMENT, url=LAW, excerpt=EXPIRY),  # not read yet
            fetch(),
            record(statement=EXPIRY_STATEMENT, url=LAW),  # no excerpt
            record(statement=EXPIRY_STATEMENT, url=LAW, excerpt=60),  # wrong type
            message(tool_use("send_email", {"to": "x"}), stop_reason="tool_use"),
            record(statement=EXPIRY_STATEMENT, url=LAW, excerpt=EXPIRY),
            DONE,
        )
    )
    tools = toolbox(source, max_steps=12)
    await model.research(tools.assignment, tools)
    assert [c.excerpt for c in tools.posted] == [EXPIRY]

    def result(call: int) -> Body:
        return tool_results(anthropic.requests[call].body)[0]

    assert result(1)["is_error"] is True
    assert "read https://example.org/lei-14300 before citing it" in str(result(1)["content"])
    assert "invalid input for record_claim: excerpt: Field required" in str(result(3)["content"])
    assert "excerpt: Input should be a valid string" in str(result(4)["content"])
    assert "no tool named 'send_email'" in str(result(5)["content"])
    assert "is_error" not in result(6)
    assert "recorded as c" in str(result(6)["content"])
    assert "verified" in str(result(6)["content"])


async def test_a_cited_text_block_is_never_a_claim(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    start = LAW_TEXT.index(EXPIRY)
    anthropic.script(
        turns(
            fetch(),
            message(
                text("Segundo a Lei 14.300, "),
                text("expiram em 60 meses", [char_citation(EXPIRY, 0, start)]),
            ),
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    assert tools.posted == []


async def test_a_cited_passage_of_the_same_reply_repairs_an_inexact_excerpt(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    start = LAW_TEXT.index(EXPIRY)
    paraphrase = "Os créditos de energia expiram em 60 (sessenta) meses após a data do faturamento."
    anthropic.script(
        turns(
            fetch(),
            message(
                thinking(),
                text(
                    "A lei diz que os créditos ",
                ),
                text("expiram em 60 meses", [char_citation(EXPIRY, 0, start)]),
                text("."),
                tool_use(
                    "record_claim",
                    {"statement": EXPIRY_STATEMENT, "url": LAW, "excerpt": paraphrase},
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


async def test_a_refusal_ends_the_subagent_keeping_its_claims(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(
        turns(
            fetch(),
            record(statement=EXPIRY_STATEMENT, url=LAW, excerpt=EXPIRY),
            message(text(""), stop_reason="refusal"),
        )
    )
    tools = toolbox(source)
    with pytest.raises(ClaudeRefused, match="subagent s1: Claude declined"):
        await model.research(tools.assignment, tools)
    assert len(tools.posted) == 1


async def test_a_turn_cut_at_max_tokens_is_retried_with_room(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    cut = message(thinking(), text("I will now"), stop_reason="max_tokens")
    replies = iter([search(), cut, DONE])
    anthropic.script(lambda body: next(replies))
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    caps = [r.body["max_tokens"] for r in anthropic.requests]
    assert caps == [12_000, 12_000, 24_000]
    # The cut-off turn is dropped: the retry asks the same question again.
    assert anthropic.requests[1].body["messages"] == anthropic.requests[2].body["messages"]


async def test_a_turn_cut_twice_is_a_declared_gap(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(turns(search(), message(text("I will now"), stop_reason="max_tokens")))
    tools = toolbox(source)
    with pytest.raises(StepRefused, match="max_tokens: subagent s1: the answer was cut off"):
        await model.research(tools.assignment, tools)
    assert len(anthropic.requests) == 3
    assert tools.notes == [
        "subagent s1: the answer was cut off (max_tokens) after 50 output tokens"
    ]


async def test_the_step_cap_stops_the_loop(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(turns(search(), search("outra busca"), search("mais uma")))
    tools = toolbox(source, max_steps=3)
    with pytest.raises(StepRefused, match="subagent_steps"):
        await model.research(tools.assignment, tools)
    assert len(anthropic.requests) == 2  # model, search, model; the next search is refused


async def test_server_side_web_search_is_counted_and_priced(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel], source: PagesSource
) -> None:
    model = make_model(server_web_search=True, web_search_max_uses=2)
    searched = message(
        *server_search("lei 14.300 créditos", [LAW]),
        text("Vou ler a lei."),
        tool_use("fetch_page", {"url": LAW}),
        stop_reason="tool_use",
        tokens=usage(3000, 120, web_searches=1),
    )
    anthropic.script(turns(searched, DONE))
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    sent_tools = anthropic.requests[0].body["tools"]
    assert sent_tools[0] == {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
    assert source.searches == []  # the search ran at Anthropic, not through our searcher
    spend = await tools.budget.spend()
    assert spend.usage.web_searches == 1
    assert spend.usd == pytest.approx(
        (3000 * 2.0 + 120 * 10.0 + 100 * 2.0 + 50 * 10.0) / 1e6 + 0.01
    )
    # The server-side blocks go back unchanged for Claude to keep its context.
    replayed = anthropic.requests[1].body["messages"][1]["content"]
    assert [b["type"] for b in replayed][:2] == ["server_tool_use", "web_search_tool_result"]


async def test_a_paused_turn_is_continued(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    anthropic.script(turns(message(text("Searching…"), stop_reason="pause_turn"), DONE))
    tools = toolbox(source, limits=Limits())
    await model.research(tools.assignment, tools)
    assert len(anthropic.requests) == 2
    assert [m["role"] for m in anthropic.requests[1].body["messages"]] == ["user", "assistant"]


async def test_an_unreadable_page_is_an_error_for_claude_and_a_note_for_the_report(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    missing = "https://example.org/gone"
    anthropic.script(turns(fetch(missing), fetch(), DONE))
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    failed = tool_results(anthropic.requests[1].body)[0]
    assert failed["is_error"] is True
    assert f"could not read {missing}" in failed["content"][0]["text"]
    assert tools.notes == [f"could not read {missing}: no document at {missing}"]
    assert len(anthropic.requests) == 3
