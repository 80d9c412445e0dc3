"""Five concurrent reports against the Slack stand-in with its documented tiers on
(`tests/support/slack_tiers.py`): each posts its progress message in the same channel, edits
it every 3 s as its research goes (chat.update, Tier 3: 50 a minute per workspace, which five
reports at one edit every 3 s, 100 a minute, outrun), ends it with its final state, then
posts its report (chat.postMessage, one a second per channel). No 429 reaches the user,
progress still arrives for every report, and every report is delivered once.

Run once with the embedded bot's windows (one process) and once with two workers sharing
their windows through Redis. Time is a fake clock moved by `run_clock`: the tiers, the
pacer, the retries and the reporters' intervals all read it, so nothing here is timed.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from bot.flows import handle_step
from bot.redis.connection import connect
from bot.redis.keys import Keys
from bot.redis.rate_windows import RedisRateWindows
from bot.slack.api import MemoryRateWindows, Pacer, SlackWebApi, build_web_client
from bot.slack.blockkit import Message
from bot.slack.delivery import post_pages
from bot.slack.progress import ProgressReporter
from bot.slack.progress_state import SlackProgress
from bot.slack.stream import open_stream
from bot.steps import Start
from engine.contracts import Limits, Plan, Subquestion
from engine.events import ClaimVerified, SubagentStarted
from tests.support.bot_env import BOT_TOKEN, REDIS_URL
from tests.support.clock import CountingExecutor, FakeClock, run_clock, run_clock_while_idle
from tests.support.slack_runs import CHANNEL as CHANNEL_RUNS
from tests.support.slack_runs import USER, planned_report, settle, state_of
from tests.support.slack_samples import claim
from tests.support.slack_stub import SlackStub

REPORTS = 5
RESEARCH_SECONDS = 120
CHANNEL = "CPACE"
PLAN = Plan(question="Q", subquestions=[Subquestion(id="s1", text="Preços")])


async def run_report(
    n: int, api: SlackWebApi, clock: FakeClock, delivered: list[str]
) -> tuple[ProgressReporter, str]:
    """One report: its progress message, an event a second for the research, the final
    progress state, then the report in the thread."""
    thread = f"{1_690_000_000 + n}.000100"
    ts = await api.post(CHANNEL, Message(f"Pesquisando {n}…"), thread)
    state = SlackProgress.for_plan(PLAN, Limits())
    reporter = ProgressReporter(
        api, CHANNEL, ts, "pt", Limits, interval=3.0, clock=clock, sleep=clock.sleep, state=state
    )
    reporter.start()
    reporter.sink(SubagentStarted("s1", "s1"))
    for second in range(RESEARCH_SECONDS):
        reporter.sink(ClaimVerified(claim(n * 1000 + second + 1)))
        await clock.sleep(1)
    await reporter.close()

    async def posted(report_ts: str) -> None:
        delivered.append(report_ts)

    failure = await post_pages(api, CHANNEL, thread, [Message(f"Relatório {n}")], posted)
    if failure is not None:
        delivered.append(f"refused: {failure.error}")
    return reporter, ts


async def five_reports(slack: SlackStub, apis: list[SlackWebApi], clock: FakeClock) -> None:
    delivered: list[str] = []
    running = asyncio.gather(
        *(run_report(n, apis[n % len(apis)], clock, delivered) for n in range(REPORTS))
    )
    while not running.done():
        await run_clock(clock, 1.0)
    reports = await running

    assert slack.tiers.refused == 0, "no call met a tier, so no 429 could reach the user"
    assert not [c for c in slack.calls if c.status == 429]
    edits = slack.calls_to("chat.update")
    assert len(edits) > 50, "more edits than one minute of chat.update's tier holds"
    for n, (reporter, ts) in enumerate(reports):
        shown = [c.all_text() for c in edits if c.params["ts"] == ts]
        assert reporter.updates >= 5, f"report {n}: its progress still arrived"
        assert len(shown) == reporter.updates
        assert reporter.coalesced > 0, f"report {n}: some of its edits were coalesced"
        assert "concluída" in shown[-1], f"report {n}: its final state was shown"
    posts = [c.params["text"] for c in slack.calls_to("chat.postMessage")]
    for n in range(REPORTS):
        assert posts.count(f"Relatório {n}") == 1, f"report {n} delivered once"
    assert len(delivered) == REPORTS
    assert not [d for d in delivered if d.startswith("refused")]


def paced_api(slack: SlackStub, pacer: Pacer, clock: FakeClock) -> SlackWebApi:
    return SlackWebApi(build_web_client("xoxb-test", slack.api_url, pacer=pacer, sleep=clock.sleep))


async def test_five_reports_in_one_process_meet_no_429(slack: SlackStub) -> None:
    clock = FakeClock()
    slack.tiers.enforce(clock)
    pacer = Pacer(MemoryRateWindows(), clock=clock, sleep=clock.sleep)
    await five_reports(slack, [paced_api(slack, pacer, clock)], clock)


async def test_five_reports_on_two_workers_share_their_windows_in_redis(
    slack: SlackStub, redis_prefix: str
) -> None:
    clock = FakeClock()
    slack.tiers.enforce(clock)
    keys = Keys(redis_prefix)
    async with contextlib.AsyncExitStack() as stack:
        apis = []
        for _ in range(2):  # two workers: their own connection, their own client
            redis = await connect(REDIS_URL)
            stack.push_async_callback(redis.aclose, close_connection_pool=True)
            pacer = Pacer(RedisRateWindows(redis, keys), clock=clock, sleep=clock.sleep)
            apis.append(paced_api(slack, pacer, clock))
        await five_reports(slack, apis, clock)


STREAMED_PLAN = Plan(
    question="Q", subquestions=[Subquestion(id=f"s{k}", text=f"Parte {k}") for k in range(10)]
)


async def streamed_report(n: int, api: SlackWebApi, clock: FakeClock) -> tuple[int, str]:
    """One report whose progress is a streamed plan card: a new source on one of its ten
    tasks every second, appended (chat.appendStream, Tier 4: 100 a minute per workspace,
    which five reports appending every 3 s meet) at most every 3 s."""
    state = SlackProgress.for_plan(STREAMED_PLAN, Limits())
    stream = await open_stream(
        api, CHANNEL, f"{1_695_000_000 + n}.000100", "U1", state, "pt", clock=clock
    )
    assert stream is not None
    reporter = ProgressReporter(
        api,
        CHANNEL,
        None,
        "pt",
        Limits,
        interval=3.0,
        clock=clock,
        sleep=clock.sleep,
        stream=stream,
        state=state,
    )
    reporter.start()
    for second in range(RESEARCH_SECONDS):
        task = f"s{second % 10}"
        reporter.sink(SubagentStarted(task, task))
        verified = claim(n * 1000 + second + 1).model_copy(update={"subquestion": task})
        reporter.sink(ClaimVerified(verified))
        await clock.sleep(1)
    await reporter.close()
    return reporter.coalesced, stream.ts


async def test_five_streamed_reports_meet_no_429_on_append_stream(slack: SlackStub) -> None:
    clock = FakeClock()
    slack.tiers.enforce(clock)
    slack.streams.clock = clock
    pacer = Pacer(MemoryRateWindows(), clock=clock, sleep=clock.sleep)
    api = paced_api(slack, pacer, clock)
    running = asyncio.gather(*(streamed_report(n, api, clock) for n in range(REPORTS)))
    while not running.done():
        await run_clock(clock, 1.0)
    reports = await running

    assert slack.tiers.refused == 0
    appends = slack.calls_to("chat.appendStream")
    assert len(appends) > 100, "more appends than one minute of Tier 4 holds"
    assert sum(coalesced for coalesced, _ in reports) > 0, "some appends gave way"
    for n, (_, ts) in enumerate(reports):
        assert [c for c in appends if c.params["ts"] == ts], f"report {n}: its progress arrived"
        assert slack.streams.messages[ts].ended_by == "stop", f"report {n}: its stream stopped"


async def test_without_pacing_the_same_reports_meet_the_tiers(slack: SlackStub) -> None:
    """The stand-in's tiers bite: the same five reports unpaced meet 429s (retried after
    their Retry-After, so the edits fall behind)."""
    clock = FakeClock()
    slack.tiers.enforce(clock)
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url, sleep=clock.sleep))
    delivered: list[str] = []
    running = asyncio.gather(*(run_report(n, api, clock, delivered) for n in range(REPORTS)))
    while not running.done():
        await run_clock(clock, 1.0)
    await running
    assert slack.tiers.refused > 0


# -- through the whole bot: five briefs asked, started at once, researched on the test's
# -- library by the embedded bot, progress streamed, reports and files delivered --------------


async def test_five_reports_through_the_bot_meet_no_429(
    slack: SlackStub, make_settings: Any, runtimes: Any
) -> None:
    clock = FakeClock()
    slack.tiers.enforce(clock)
    pacer = Pacer(MemoryRateWindows(), clock=clock, sleep=clock.sleep)
    client = build_web_client(BOT_TOKEN, slack.api_url, pacer=pacer, sleep=clock.sleep)
    rt = await runtimes(make_settings(redis=False), web_client=client)
    stop = asyncio.Event()
    threads = CountingExecutor()
    asyncio.get_running_loop().set_default_executor(threads)
    # The fake clock runs while the bot works, and stands still while its threads do.
    ticking = asyncio.create_task(run_clock_while_idle(clock, stop, threads))
    try:
        threads = [f"{1_680_000_000 + n}.000100" for n in range(REPORTS)]
        ids = [await planned_report(rt, thread) for thread in threads]
        await asyncio.gather(
            *(handle_step(rt, Start(report_id=i, user=USER, channel=CHANNEL_RUNS)) for i in ids)
        )
        await settle(rt)
    finally:
        stop.set()
        await ticking

    assert slack.tiers.refused == 0, "no 429 reached the bot, so none reached the user"
    # Five reports post their plan, progress card and report pages in one channel at once,
    # past chat.postMessage's one a second: those calls waited for their second. (The
    # offline research is too short to meet chat.update's or appendStream's minute: the
    # reporter-level tests above show those.)
    assert pacer.waited > 0, "the tiers were met: calls waited for their slots"
    pages = [
        c.params.get("metadata")
        for c in slack.calls_to("chat.postMessage")
        if "fonte_report_page" in str(c.params.get("metadata"))
    ]
    for report_id in ids:
        state = await state_of(rt, report_id)
        assert state.status == "delivered", state.status
        assert state.delivered == 1
        assert sum(report_id in str(p) for p in pages) == 1, f"{report_id} delivered once"
        progress = [
            c
            for c in slack.calls
            if c.ok
            and c.method in ("chat.appendStream", "chat.update", "chat.stopStream")
            and c.params.get("ts") == state.progress_ts
        ]
        # Its progress card (streamed or edited) reached its final state: how many steps
        # it showed on the way depends on how long the research lasts on the clock, which
        # stands still while the research's threads work.
        assert progress, f"{report_id}: its progress arrived"
