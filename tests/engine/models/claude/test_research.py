"""The subagent's tool-use loop against the scripted server and an in-memory source."""

from collections.abc import Callable
from dataclasses import replace

import pytest

from engine.budget import StepRefused
from engine.contracts import Limits
from engine.models.claude import ClaudeModel, ClaudeRefused
from engine.models.claude.prompts import CONTINUE_PROMPT, EMPTY_TWICE, SUBAGENT_SYSTEM
from engine.sources.kinds import LIBRARY, WEB
from tests.support.anthropic_server import (
    ApiError,
    Body,
    Reply,
    ScriptedAnthropic,
    blocks,
    char_citation,
    cited_split,
    message,
    redacted_thinking,
    server_search,
    text,
    thinking,
    tool_results,
    tool_use,
    usage,
)
from tests.support.claude_turns import (
    DONE,
    EXPIRY,
    EXPIRY_STATEMENT,
    FILING,
    LAW,
    fetch,
    record,
    search,
    toolbox,
    turns,
)
from tests.support.pages_source import FILING_PAGES, LAW_TEXT, PagesSource, SlowPages


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
    source.kind = LIBRARY
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
        "view_figure",
        "record_figure_reading",
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


async def test_a_turn_cut_twice_ends_the_subagent_keeping_its_claims_and_steps(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    cut = message(text("I will now"), stop_reason="max_tokens")
    anthropic.script(
        turns(fetch(), record(statement=EXPIRY_STATEMENT, url=LAW, excerpt=EXPIRY), cut)
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)  # not a budget stop: no "interrupted" gap
    assert len(anthropic.requests) == 4
    assert [c.statement for c in tools.posted] == [EXPIRY_STATEMENT]
    assert tools.steps_used == 4  # 3 turns and 1 read: the retry with room is no step
    assert (await tools.budget.spend()).usage.model_calls == 4
    cut_off = "subagent s1: the answer was cut off (max_tokens) after 50 output tokens"
    assert tools.notes == [cut_off]
    assert tools.summary == cut_off


async def test_a_full_context_window_ends_the_subagent_without_a_budget_stop(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    full = message(text("I"), stop_reason="model_context_window_exceeded")
    anthropic.script(turns(search(), full))
    tools = toolbox(source)
    await model.research(tools.assignment, tools)  # StepRefused would read "budget" as why
    assert len(anthropic.requests) == 2  # no room to give: not asked again
    assert tools.notes == [
        "subagent s1: the answer was cut off (model_context_window_exceeded) after 50 output tokens"
    ]


async def test_the_closing_text_is_the_summary_for_the_lead(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    closing = "Found the 60-month expiry in Lei 14.300; no source gives the 2024 figure."
    anthropic.script(turns(search(), message(thinking(), text(closing))))
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    assert tools.summary == closing


async def test_an_empty_end_turn_is_asked_once_to_go_on(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    empty = message(thinking(), stop_reason="end_turn")
    anthropic.script(turns(search(), empty, fetch(), DONE))
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    assert len(anthropic.requests) == 4
    go_on = anthropic.requests[2].body["messages"][-1]
    assert go_on["role"] == "user"
    assert [(b["type"], b["text"]) for b in go_on["content"]] == [("text", CONTINUE_PROMPT)]
    assert tools.summary == "Subquestion answered."


async def test_an_empty_end_turn_twice_ends_the_subagent_with_a_summary_saying_so(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    empty = message(thinking(), stop_reason="end_turn")
    anthropic.script(turns(search(), empty, empty))
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    assert len(anthropic.requests) == 3
    assert tools.summary == EMPTY_TWICE
    assert tools.posted == []


async def test_nothing_but_tool_results_follows_a_tool_call(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    """Pages other subagents read go inside the last tool result, never as text after it."""
    anthropic.script(turns(search(), fetch(), DONE))
    tools = toolbox(source)
    tools.shared_reads.append(FILING)  # a sibling read it
    await model.research(tools.assignment, tools)
    for request in anthropic.requests[1:]:
        results = request.body["messages"][-1]["content"]
        assert [block["type"] for block in results] == ["tool_result"]
    first = tool_results(anthropic.requests[1].body)[0]
    assert first["content"][-1]["type"] == "text"
    assert FILING in first["content"][-1]["text"]
    second = tool_results(anthropic.requests[2].body)[0]
    assert FILING not in str(second["content"])  # told once


async def test_a_refused_turn_is_asked_once_of_the_fallback_model_at_no_extra_step(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel], source: PagesSource
) -> None:
    model = make_model(fallback_model="claude-opus-5-5")
    refused = message(text(""), stop_reason="refusal")
    anthropic.script(
        lambda body: (
            refused if body["model"] == "claude-sonnet-5-5" else turns(search(), DONE)(body)
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    assert [r.body["model"] for r in anthropic.requests] == [
        "claude-sonnet-5-5",
        "claude-opus-5-5",
        "claude-sonnet-5-5",
        "claude-opus-5-5",
    ]
    assert tools.steps_used == 3  # 2 turns and 1 search: each fallback is its turn's
    assert tools.refused is None
    assert tools.summary == "Subquestion answered."


async def test_a_refusal_the_fallback_also_declines_marks_the_subquestion_refused(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel], source: PagesSource
) -> None:
    model = make_model(fallback_model="claude-opus-5-5")
    anthropic.script(lambda body: message(text(""), stop_reason="refusal"))
    tools = toolbox(source)
    with pytest.raises(ClaudeRefused):
        await model.research(tools.assignment, tools)
    assert len(anthropic.requests) == 2
    assert tools.refused is not None
    assert "declined" in tools.refused


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


async def test_a_library_with_the_web_is_searched_by_our_search_never_the_servers(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel], source: PagesSource
) -> None:
    # Anthropic's search would replace ours and never search the library: web alone only.
    source.kind = LIBRARY | WEB
    model = make_model(server_web_search=True, web_search_max_uses=2)
    anthropic.script(
        turns(
            message(tool_use("search_library", {"query": "créditos"}), stop_reason="tool_use"), DONE
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    sent = anthropic.requests[0].body["tools"]
    assert [t.get("type", "custom") for t in sent] == ["custom"] * len(sent)
    assert sent[0]["name"] == "search_library"
    assert "the user's document library and the web" in sent[0]["description"]
    assert source.searches == ["créditos"]


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
    assert tools.notes == [f"não foi possível ler {missing}: no document at {missing}"]  # pt
    assert len(anthropic.requests) == 3


MICRO = (
    "microgeração distribuída: central geradora de energia elétrica, com potência instalada "
    "menor ou igual a 75 kW"
)
CAPEX = "Purchases of property, plant and equipment (PP&E) (1,577) (1,373)"
RECORDED = [
    ("A microgeração distribuída tem potência instalada de até 75 kW.", LAW, MICRO),
    ("Os créditos de energia expiram em 60 meses após o faturamento.", LAW, EXPIRY),
    (
        "A ACME gastou 1,577 em compras de imobilizado no último exercício (valor da tabela).",
        f"{FILING}#page=2",
        CAPEX,
    ),
]


def _is_complete_sentence(text: str) -> bool:
    return text[0].isupper() and text.endswith(".") and len(text.split()) >= 5


async def test_only_recorded_claims_come_out_of_split_citations_and_thinking_notes(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    micro_at, expiry_at = LAW_TEXT.index(MICRO), LAW_TEXT.index(EXPIRY)
    notes = thinking("A lei diz que a microgeração vai até 75 kW e que os créditos expiram.")
    anthropic.script(
        turns(
            message(
                thinking(),
                tool_use("fetch_page", {"url": LAW}),
                tool_use("fetch_page", {"url": f"{FILING}#page=2"}),
                stop_reason="tool_use",
            ),
            message(
                notes,
                redacted_thinking(),
                *cited_split(
                    [
                        ("A microgeração distribuída ", None),
                        ("vai até 75 kW", char_citation(MICRO, 0, micro_at)),
                        (" e os créditos ", None),
                        ("expiram em 60 meses", char_citation(EXPIRY, 0, expiry_at)),
                        (", diz a lei; a ACME investiu ", None),
                        ("1,577", char_citation(CAPEX, 1, 0)),
                    ]
                ),
                *(
                    tool_use("record_claim", {"statement": s, "url": u, "excerpt": e})
                    for s, u, e in RECORDED
                ),
                stop_reason="tool_use",
            ),
            message(thinking("Registrei os três fatos."), text("Feito: três fatos.")),
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)

    assert [(c.statement, c.url, c.excerpt) for c in tools.posted] == RECORDED
    assert all(_is_complete_sentence(c.statement) for c in tools.posted)
    results = tool_results(anthropic.requests[2].body)
    assert all("verified" in r["content"][0]["text"] for r in results)
    # The thinking blocks went back exactly as they came (the server checks signatures too).
    replayed = anthropic.requests[2].body["messages"][3]["content"]
    assert replayed[0] == notes
    assert replayed[1]["type"] == "redacted_thinking"


async def test_the_reads_of_one_turn_run_at_the_same_time(
    anthropic: ScriptedAnthropic, model: ClaudeModel
) -> None:
    slow = SlowPages(delay=0.3)
    for number in (1, 2, 3):
        slow.add(f"https://example.org/p{number}", f"Página {number}: texto da página.")
    reads = [tool_use("fetch_page", {"url": f"https://example.org/p{n}"}) for n in (1, 2, 3)]
    anthropic.script(turns(message(*reads, stop_reason="tool_use"), DONE))
    tools = toolbox(slow)
    await model.research(tools.assignment, tools)
    assert slow.most_in_flight == 3
    assert tools.steps_used == 2 + 3  # two turns, three reads: each reserved
    results = tool_results(anthropic.requests[1].body)
    assert [r["content"][0]["source"]["data"] for r in results] == [  # in call order
        f"Página {n}: texto da página." for n in (1, 2, 3)
    ]


async def test_disabled_server_search_falls_back_to_our_search_with_a_note(
    anthropic: ScriptedAnthropic, make_model: Callable[..., ClaudeModel], source: PagesSource
) -> None:
    model = make_model(server_web_search=True)
    disabled = ApiError(
        400, "invalid_request_error", "web search is not enabled for this organization"
    )
    ours = turns(search(), DONE)

    def reply(body: Body) -> Reply:
        if body["tools"][0].get("type") == "web_search_20250305":
            return disabled
        return ours(body)

    anthropic.script(reply)
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    assert [r.body["tools"][0].get("type") for r in anthropic.requests] == [
        "web_search_20250305",
        None,
        None,
    ]
    assert source.searches == ["créditos energia expiram"]
    assert len(tools.notes) == 1
    assert tools.notes[0].startswith("a busca na web da Anthropic não está disponível (subagent s1")
    assert tools.notes[0].endswith("buscando com a busca do próprio Fonte")

    again = toolbox(source)  # a later subagent of the run starts with our search, no note
    await model.research(again.assignment, again)
    assert anthropic.requests[3].body["tools"][0]["name"] == "web_search"
    assert "type" not in anthropic.requests[3].body["tools"][0]
    assert again.notes == []


async def test_a_long_title_is_cut_and_pages_siblings_read_are_offered_free(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    long_url = "https://example.org/" + "a" * 900
    source.add(long_url, "Uma página sem título.", title="")
    anthropic.script(turns(fetch(long_url), fetch(LAW), DONE))
    tools = toolbox(source)
    tools.shared_reads.extend([LAW, FILING])  # siblings read them: in the shared store
    tools.assignment = replace(tools.assignment, gap=True, avoid_urls=(FILING,))
    await tools.snapshots.put(source.documents[LAW])
    await model.research(tools.assignment, tools)

    document = tool_results(anthropic.requests[1].body)[0]["content"][0]
    assert len(document["title"]) == 200
    offered = tool_results(anthropic.requests[1].body)[-1]["content"][-1]  # inside the result
    assert LAW in offered["text"]
    assert FILING not in offered["text"]  # a gap subagent is not offered what it must avoid
    assert "costs you no step" in offered["text"]
    assert source.fetches == [long_url]  # the sibling's page came from the store
    assert tools.steps_used == 3 + 1  # three turns, one new read


async def test_a_claim_recorded_with_its_context_is_verified_with_it(
    anthropic: ScriptedAnthropic, model: ClaudeModel, source: PagesSource
) -> None:
    row = "Purchases of property, plant and equipment (PP&E) (1,577) (1,373)"
    anthropic.script(
        turns(
            fetch(f"{FILING}#page=2", name="fetch_page"),
            record(
                statement="In 2018 the company spent 1,577 million on property, plant and equipment.",
                url=f"{FILING}#page=2",
                excerpt=row,
                context="(Millions) 2018 2017",
            ),
            DONE,
        )
    )
    tools = toolbox(source)
    await model.research(tools.assignment, tools)
    [claim] = tools.posted
    assert claim.context == "(Millions) 2018 2017"
    said = str(tool_results(anthropic.requests[2].body)[0]["content"])
    assert "verified" in said  # the year comes from the context, on the same page
    schema = anthropic.requests[0].body["tools"][-1]["input_schema"]
    assert "context" in schema["properties"]
    assert "context" not in schema["required"]
