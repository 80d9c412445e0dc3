"""Long answers stream: which requests stream, the time a stream gets, and streams that are
cut, stall, run too slow or end with an error event, against the stand-in's SSE streams.

Time is the stand-in's simulated clock (advanced by the server as it writes each event), so
"24k tokens at 80 tokens/s" is 300 simulated seconds and no real ones; only the stall test
waits, for the few seconds of its stall limit."""

import logging
from collections.abc import AsyncIterator, Callable

import pytest
from anthropic import AsyncAnthropic
from anthropic.types import Message, MessageParam, ToolResultBlockParam

from engine.budget import InMemoryBudget, Meter
from engine.contracts import Limits
from engine.models.claude import ClaudeUnavailable, complete_text, default_price_table
from engine.models.claude.client import ClaudeClient
from engine.models.claude.request import ClaudeRequest
from engine.models.claude.streaming import (
    NON_STREAMING_LIMIT_SECONDS,
    TOKENS_PER_SECOND_FLOOR,
    StreamPolicy,
)
from tests.support.anthropic_server import (
    ScriptedAnthropic,
    char_citation,
    message,
    redacted_thinking,
    server_search,
    text,
    thinking,
    tool_use,
    usage,
)
from tests.support.anthropic_stream import StreamShape
from tests.support.claude_turns import API_KEY, MODEL

PRICES = default_price_table()
WRITER_TOKENS = 24_000
# The pace the issue measured a long answer at, and the old fixed timeout it ran into.
OBSERVED_TOKENS_PER_SECOND = 80.0
OLD_TIMEOUT_SECONDS = 300.0
ANSWER = '{"sections": [{"heading": "Resposta", "sentences": []}]} ' * 40


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
async def make_client(
    anthropic: ScriptedAnthropic, sleeps: list[float]
) -> AsyncIterator[Callable[..., ClaudeClient]]:
    clients: list[AsyncAnthropic] = []

    async def record(seconds: float) -> None:
        sleeps.append(seconds)

    def make(**policy: float) -> ClaudeClient:
        api = AsyncAnthropic(api_key=API_KEY, base_url=anthropic.base_url, max_retries=0)
        clients.append(api)
        streaming = StreamPolicy(clock=anthropic.streams.clock.now, **policy)
        return ClaudeClient(api, PRICES, sleep=record, jitter=lambda: 0.0, streaming=streaming)

    yield make
    for api in clients:
        await api.close()


async def write(client: ClaudeClient, payer: Meter, max_tokens: int = WRITER_TOKENS) -> str:
    reply = await complete_text(
        client,
        payer,
        role="writer",
        model=MODEL,
        system="You write reports from verified claims.",
        prompt="Write the report.",
        max_tokens=max_tokens,
    )
    return reply.text


def long_answer() -> dict[str, object]:
    return message(thinking(), text(ANSWER), tokens=usage(3000, WRITER_TOKENS))


# -- which requests stream, and the time they get ------------------------------------------


def test_the_floor_is_the_rate_the_sdk_assumes_for_its_ten_minute_rule() -> None:
    # The SDK refuses a non-streaming call of more than 128,000 tokens an hour's share of
    # ten minutes; at the floor, that call is exactly at the limit.
    assert pytest.approx(128_000 / 3600) == TOKENS_PER_SECOND_FLOOR
    policy = StreamPolicy(first_event_seconds=0)
    assert policy.expected_seconds(21_334) > NON_STREAMING_LIMIT_SECONDS
    assert policy.expected_seconds(21_333) < NON_STREAMING_LIMIT_SECONDS


@pytest.mark.parametrize(
    ("max_tokens", "timeout", "streams"),
    [
        (24_000, 300.0, True),  # the writer
        (48_000, 300.0, True),  # its retry with room
        (16_000, 300.0, True),  # the planner
        (12_000, 300.0, True),  # a subagent turn: ~400 s at the floor
        (1_000, 300.0, False),  # ~90 s at the floor: well within 300 s
        (3_000, 300.0, False),  # ~144 s: within half of 300 s
        (4_000, 300.0, True),  # ~172 s: not well within (half of) 300 s
        (16_000, 3600.0, True),  # a long timeout does not lift the SDK's ten minutes
    ],
)
def test_a_request_streams_unless_it_surely_finishes_well_within_the_timeout(
    max_tokens: int, timeout: float, streams: bool
) -> None:
    assert StreamPolicy().streams(max_tokens, timeout) is streams


def test_a_stream_gets_its_tokens_at_the_floor_within_the_seconds_left() -> None:
    policy = StreamPolicy()
    writer = policy.deadline(WRITER_TOKENS, seconds_left=3600)
    assert writer == pytest.approx(60 + WRITER_TOKENS / TOKENS_PER_SECOND_FLOOR)  # ~735 s
    # 24k tokens at the pace the issue measured fit with room; the old timeout did not.
    assert writer > 2 * WRITER_TOKENS / OBSERVED_TOKENS_PER_SECOND > OLD_TIMEOUT_SECONDS
    assert policy.deadline(2 * WRITER_TOKENS, 3600) == pytest.approx(60 + 2 * (writer - 60))
    assert policy.deadline(WRITER_TOKENS, seconds_left=42.0) == 42.0


def test_the_http_read_timeout_is_the_stall_limit_not_the_whole_answer() -> None:
    timeout = StreamPolicy(stall_seconds=90, connect_seconds=10).http_timeout()
    assert timeout.read == 90
    assert timeout.connect == 10


# -- streams against the stand-in ----------------------------------------------------------


async def test_a_writer_answer_of_24k_tokens_at_80_tokens_a_second_completes_by_streaming(
    anthropic: ScriptedAnthropic, make_client: Callable[..., ClaudeClient], sleeps: list[float]
) -> None:
    anthropic.script([long_answer()])
    anthropic.streams.shape(StreamShape(tokens_per_second=OBSERVED_TOKENS_PER_SECOND))
    payer = Meter(InMemoryBudget(Limits(seconds=3600, usd=5.0)))
    answer = await write(make_client(), payer)
    assert answer == ANSWER
    [request] = anthropic.requests
    assert request.body["stream"] is True
    assert request.body["max_tokens"] == WRITER_TOKENS
    [record] = anthropic.streams.records
    assert record.finished
    # Longer than the 300 s a non-streaming request got: it would have timed out.
    assert record.simulated_seconds > OLD_TIMEOUT_SECONDS
    assert sleeps == []
    spend = await payer.budget.spend()
    assert spend.usage.output_tokens == WRITER_TOKENS
    assert spend.usd == pytest.approx((3000 * 2.0 + WRITER_TOKENS * 10.0) / 1e6)


async def test_a_stream_slower_than_the_floor_is_cut_at_its_deadline_and_retried(
    anthropic: ScriptedAnthropic, make_client: Callable[..., ClaudeClient], sleeps: list[float]
) -> None:
    anthropic.script([long_answer(), long_answer()])
    # 24k tokens at 20 tokens/s is 1200 s, past the ~735 s a 24k answer gets.
    anthropic.streams.shape(StreamShape(tokens_per_second=20), StreamShape())
    payer = Meter(InMemoryBudget(Limits(seconds=3600, usd=5.0)))
    client = make_client()
    estimate = client.estimate_usd(
        ClaudeRequest("writer", MODEL, "s", [{"role": "user", "content": "p"}], WRITER_TOKENS)
    )
    assert await write(client, payer) == ANSWER
    assert len(anthropic.requests) == 2
    slow, fine = anthropic.streams.records
    # The whole slow stream was written (it is small); the client cut it at its deadline.
    assert slow.simulated_seconds > StreamPolicy().deadline(WRITER_TOKENS, 3600)
    assert fine.finished
    assert len(sleeps) == 1
    # The cut stream may have been billed: its worst case is spent, on top of the answer.
    spend = await payer.budget.spend()
    assert spend.usd > estimate
    assert spend.usd == pytest.approx(
        client.estimate_usd(
            ClaudeRequest(
                "writer",
                MODEL,
                "You write reports from verified claims.",
                [{"role": "user", "content": [{"type": "text", "text": "Write the report."}]}],
                WRITER_TOKENS,
            )
        )
        + (3000 * 2.0 + WRITER_TOKENS * 10.0) / 1e6,
        rel=0.05,
    )


@pytest.mark.parametrize(
    "shape",
    [
        StreamShape(cut_after=4),  # the connection drops mid-body
        StreamShape(end_after=5),  # the body ends without message_stop
        StreamShape(error_after=3),  # an overloaded_error event after a 200
    ],
    ids=["cut", "no-message-stop", "error-event"],
)
async def test_a_stream_that_does_not_finish_is_retried(
    anthropic: ScriptedAnthropic,
    make_client: Callable[..., ClaudeClient],
    sleeps: list[float],
    shape: StreamShape,
) -> None:
    anthropic.script([long_answer(), long_answer()])
    anthropic.streams.shape(shape, StreamShape())
    payer = Meter(InMemoryBudget(Limits(usd=5.0)))
    assert await write(make_client(), payer) == ANSWER
    first, second = anthropic.streams.records
    assert not first.finished
    assert second.finished
    assert len(sleeps) == 1  # one wait before the retry
    # The unfinished stream may have been billed: its worst case (all of its max_tokens at
    # least) is spent beside the answer's actual price.
    answer = (3000 * 2.0 + WRITER_TOKENS * 10.0) / 1e6
    assert (await payer.budget.spend()).usd > answer + WRITER_TOKENS * 10.0 / 1e6


STALL_SECONDS = 3.0


async def test_a_stalled_stream_is_cut_after_the_stall_limit_and_retried(
    anthropic: ScriptedAnthropic,
    make_client: Callable[..., ClaudeClient],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "engine.models.claude.client")
    anthropic.script([long_answer(), long_answer()])
    anthropic.streams.shape(StreamShape(stall_after=6), StreamShape())
    # Long enough that a healthy stream on a loaded machine is never taken for a stalled
    # one (its events come at once); the stalled stream sends nothing more, ever.
    client = make_client(stall_seconds=STALL_SECONDS)
    assert await write(client, Meter(InMemoryBudget(Limits(usd=5.0)))) == ANSWER
    stalled, fine = anthropic.streams.records
    assert stalled.events_sent == 6
    assert not stalled.finished
    assert fine.finished
    # Cut by the read timeout, not when the stand-in gave up holding the connection.
    assert f"the stream stalled: no event in {STALL_SECONDS:g} s" in caplog.text


async def test_pings_keep_a_quiet_stream_alive(
    anthropic: ScriptedAnthropic, make_client: Callable[..., ClaudeClient], sleeps: list[float]
) -> None:
    anthropic.script([long_answer()])
    anthropic.streams.shape(StreamShape(pings=3))
    assert await write(make_client(), Meter(InMemoryBudget(Limits(usd=5.0)))) == ANSWER
    assert len(anthropic.requests) == 1
    assert sleeps == []


async def test_streams_that_keep_failing_end_in_one_failure_with_each_attempt_paid(
    anthropic: ScriptedAnthropic, make_client: Callable[..., ClaudeClient]
) -> None:
    anthropic.script([long_answer()] * 6)
    anthropic.streams.shape(*[StreamShape(cut_after=2)] * 6)
    payer = Meter(InMemoryBudget(Limits(usd=5.0)))
    client = make_client()
    with pytest.raises(ClaudeUnavailable, match=r"the stream was cut.*gave up after 6 attempts"):
        await write(client, payer)
    assert len(anthropic.requests) == 6
    spend = await payer.budget.spend()
    one = spend.usd / 6
    assert one > WRITER_TOKENS * 10.0 / 1e6  # each cut attempt counted at its worst case


async def test_a_cut_stream_with_no_room_to_retry_keeps_its_worst_case(
    anthropic: ScriptedAnthropic, make_client: Callable[..., ClaudeClient]
) -> None:
    anthropic.script([long_answer(), long_answer()])
    anthropic.streams.shape(StreamShape(cut_after=2))
    client = make_client()
    probe = ClaudeRequest(
        "writer",
        MODEL,
        "You write reports from verified claims.",
        [{"role": "user", "content": [{"type": "text", "text": "Write the report."}]}],
        WRITER_TOKENS,
    )
    # Room for one worst case, not for a second one beside it.
    payer = Meter(InMemoryBudget(Limits(usd=client.estimate_usd(probe) * 1.5)))
    with pytest.raises(ClaudeUnavailable, match="no budget left to retry"):
        await write(client, payer)
    assert len(anthropic.requests) == 1
    spend = await payer.budget.spend()
    assert spend.usd == pytest.approx(client.estimate_usd(probe), rel=0.05)


async def test_a_short_request_is_not_streamed(
    anthropic: ScriptedAnthropic, make_client: Callable[..., ClaudeClient]
) -> None:
    anthropic.script([message(text("oi"))])
    assert await write(make_client(), Meter(InMemoryBudget(Limits())), max_tokens=500) == "oi"
    assert "stream" not in anthropic.requests[0].body
    assert anthropic.streams.records == []


async def test_a_streamed_turn_is_the_message_create_returns_and_goes_back_unchanged(
    anthropic: ScriptedAnthropic, make_client: Callable[..., ClaudeClient]
) -> None:
    search = server_search("créditos de energia", ["https://example.org/lei"])
    turn = message(
        thinking("Vou procurar.", "sig_stream_" + "B" * 24),
        redacted_thinking(),
        *search,
        text("A lei diz", [char_citation("expiram em 60 meses", 0)]),
        tool_use("read_page", {"url": "https://example.org/lei", "note": "ç" * 900}),
        tool_use("search", {"query": "lei 14.300"}),
        stop_reason="tool_use",
        tokens=usage(2000, 700, web_searches=1),
    )
    anthropic.script([turn, message(text("ok"))])
    anthropic.streams.shape(StreamShape(chunk_chars=7, pings=1))
    client = make_client()
    payer = Meter(InMemoryBudget(Limits(usd=5.0)))
    request = ClaudeRequest(
        "subagent s1",
        MODEL,
        "You research.",
        [{"role": "user", "content": "Pesquise."}],
        12_000,
        tools=[{"name": "search", "description": "d", "input_schema": {"type": "object"}}],
    )
    reply = await client.call(request, payer)
    assert anthropic.requests[0].body["stream"] is True
    expected = Message.model_validate({**turn, "model": MODEL})
    assert reply.message.model_dump(exclude_none=True) == expected.model_dump(exclude_none=True)
    assert reply.usage.web_searches == 1
    assert reply.usage.output_tokens == 700
    # Passed back as the conversation's assistant turn, the blocks are the server's own:
    # the stand-in refuses a thinking block it did not send, and nothing is added.
    results: list[ToolResultBlockParam] = [
        {"type": "tool_result", "tool_use_id": b["id"], "content": "x"}
        for b in turn["content"]
        if b["type"] == "tool_use"
    ]
    answered: MessageParam = {"role": "user", "content": results}
    follow = request.followed_by(reply.message.to_param(), answered)
    await client.call(follow, payer)
    sent = anthropic.requests[1].body["messages"][1]["content"]
    assert sent == turn["content"]
