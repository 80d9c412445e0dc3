"""Reports whose state Redis lost, found by the bot from what it handed on.

A Redis restarted without persistence (or flushed) forgets every report at once: their
states, their queued jobs, their boards. No worker can tell anyone, since what named the
requester was in Redis. The bot process remembers, in its own memory, each brief and run it
handed on (`InFlight`, fed by `bot.queue.ArqQueue`) and the last state it saw of each, and
`watch_in_flight` looks at them every few seconds: a report still running or queued is
left alone, one that ended or waits on its user is forgotten, and one whose state and job
are both gone from Redis was lost. Its requester is told in one line, in its thread, with a
button that runs the same brief again (`run_again`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass

from arq.constants import in_progress_key_prefix, job_key_prefix, result_key_prefix

from bot.conversation.common import report_id_for
from bot.queue import ArqQueue
from bot.redis.connection import awaited
from bot.redis.outage import Outage, is_outage
from bot.redis.state import FINAL_STATUSES, ReportState
from bot.runtime import Runtime
from bot.slack.api import DELIVERY_ERRORS
from bot.slack.blockkit import MAX_BUTTON_VALUE, Message, button, section, value
from bot.slack.payloads import Payload, action_origin, action_value, channel_of
from bot.slack.texts import texts_for
from bot.steps import Ask, Deepen, Start, Step
from engine import Language, unless_cancelled
from engine.text import detect_language

log = logging.getLogger(__name__)

RUN_AGAIN = "fonte_run_again"
"""The button under a lost report's line: the same brief asked again (value: q, t, l, d)."""
CHECK_SECONDS = 2.0
KNOWN_REPORTS = 10_000
"""States remembered after their flight ended, so a later Start finds its brief."""

_WAITING_ON_USER = frozenset({"clarifying", "planned"})


@dataclass
class Flight:
    report_id: str
    job_id: str | None
    """The job that creates or moves the report (a step, or its run); None when unknown."""
    ask: Ask | None = None
    """The brief as the bot asked it, before any state held it."""
    state: ReportState | None = None
    """The last state seen."""
    refused: bool = False
    """Redis refused its job: it never reached a worker."""


@dataclass(frozen=True)
class LostBrief:
    """What a lost report's requester is told with, and asked again from."""

    channel: str
    thread_ts: str | None
    question: str
    template: str | None
    language: Language
    is_dm: bool


class InFlight:
    """The briefs and runs this bot process handed on, until each ends or is found lost."""

    def __init__(self) -> None:
        self.flights: dict[str, Flight] = {}
        self.known: OrderedDict[str, ReportState] = OrderedDict()

    def handed_on(self, step: Step, job_id: str) -> None:
        """`step` was enqueued (or tried) as job `job_id`: follow the report it makes or runs."""
        match step:
            case Ask():
                self._follow(report_id_for(step.origin), job_id, step)
            case Start() | Deepen():
                self._follow(step.report_id, job_id, None)

    def run_enqueued(self, report_id: str, job_id: str) -> None:
        self._follow(report_id, job_id, None)

    def not_enqueued(self, job_id: str) -> None:
        for flight in self.flights.values():
            if flight.job_id == job_id:
                flight.refused = True

    def _follow(self, report_id: str, job_id: str, ask: Ask | None) -> None:
        earlier = self.flights.get(report_id)
        state = earlier.state if earlier else self.known.get(report_id)
        if ask is None and earlier is not None:
            ask = earlier.ask
        self.flights[report_id] = Flight(report_id, job_id, ask, state)

    def forget(self, flight: Flight) -> None:
        self.flights.pop(flight.report_id, None)
        if flight.state is not None:
            self.known[flight.report_id] = flight.state
            self.known.move_to_end(flight.report_id)
            while len(self.known) > KNOWN_REPORTS:
                self.known.popitem(last=False)


def brief_of_flight(flight: Flight) -> LostBrief | None:
    if flight.state is not None:
        s = flight.state
        return LostBrief(s.channel, s.thread_ts, s.question, s.template, s.language, s.is_dm)
    if flight.ask is not None:
        a = flight.ask
        language = a.language or detect_language(a.text)
        return LostBrief(a.channel, a.thread_ts, a.text, a.template, language, a.is_dm)
    return None


async def check_flights(rt: Runtime, ledger: InFlight) -> list[Flight]:
    """One look at every flight; the lost ones, whose requesters were told."""
    assert rt.redis is not None
    lost: list[Flight] = []
    for flight in list(ledger.flights.values()):
        # The job first, then the state: a job writes its report's state before it ends.
        queued = finished = False
        if flight.job_id is not None:
            queued = bool(
                await awaited(
                    rt.redis.exists(
                        job_key_prefix + flight.job_id, in_progress_key_prefix + flight.job_id
                    )
                )
            )
            finished = bool(await awaited(rt.redis.exists(result_key_prefix + flight.job_id)))
        state = await rt.states.get(flight.report_id)
        if state is not None:
            flight.state = state
            if state.status in FINAL_STATUSES or (state.status in _WAITING_ON_USER and not queued):
                ledger.forget(flight)
            continue
        if queued:
            continue
        if flight.state is None and (finished or flight.ask is None):
            ledger.forget(flight)  # the step made no report (or nothing names its requester)
            continue
        ledger.forget(flight)
        lost.append(flight)
        await tell_lost(rt, flight)
    return lost


async def tell_refused(rt: Runtime, ledger: InFlight) -> None:
    """Tell the requesters of the steps Redis refused to enqueue; no Redis needed."""
    for flight in [f for f in ledger.flights.values() if f.refused]:
        ledger.forget(flight)
        await tell_lost(rt, flight)


async def tell_lost(rt: Runtime, flight: Flight) -> None:
    brief = brief_of_flight(flight)
    if brief is None:
        return
    log.warning("report %s: Redis lost or refused it; its requester is told", flight.report_id)
    await tell_brief(rt, brief, flight.refused)


async def tell_brief(rt: Runtime, brief: LostBrief, refused: bool) -> None:
    """Post `brief`'s requester the lost (or refused) line with its "run it again" button;
    Slack only, no Redis."""
    try:
        await rt.slack.post(brief.channel, lost_message(brief, refused), brief.thread_ts)
    except DELIVERY_ERRORS as error:
        log.warning("could not tell %s that Redis lost its request: %s", brief.channel, error)


def lost_message(brief: LostBrief, refused: bool = False) -> Message:
    t = texts_for(brief.language)
    line = t.refused_run if refused else t.lost_run
    fields = {"t": brief.template, "l": brief.language, "d": int(brief.is_dm)}
    room = MAX_BUTTON_VALUE - len(value(q="", **fields))
    again = button(t.run_again, RUN_AGAIN, value(q=_fitted(brief.question, room), **fields))
    return Message(line, [section(line, again)])


def _fitted(question: str, room: int) -> str:
    """The question, cut to what a button value holds (JSON escapes counted)."""
    while len(value(q=question)) - len(value(q="")) > room:
        question = question[: max(0, len(question) - 50)]
    return question


def run_again(body: Payload) -> Ask | None:
    """The brief a lost report's "run it again" button carries, as the clicker's."""
    fields = action_value(body)
    question = str(fields.get("q") or "")
    if not question:
        return None
    language = fields.get("l")
    return Ask(
        origin=action_origin(body),
        channel=channel_of(body),
        thread_ts=None,
        user=body["user"]["id"],
        text=question,
        is_dm=bool(fields.get("d")),
        template=str(fields["t"]) if fields.get("t") else None,
        language=language if language in ("pt", "en") else None,
    )


async def watch_in_flight(rt: Runtime, every: float = CHECK_SECONDS) -> None:
    """Follow what this process's queue hands on, and look every `every` seconds, until
    cancelled; a Redis outage is waited out (and logged) by the same rule as the workers'."""
    if not isinstance(rt.queue, ArqQueue):
        return
    ledger = rt.queue.in_flight = InFlight()
    outage = Outage("bot's reports in flight")
    while True:
        await tell_refused(rt, ledger)
        try:
            await check_flights(rt, ledger)
        except Exception as error:
            unless_cancelled(error)
            if is_outage(error):
                await asyncio.sleep(outage.failed(error))
                continue
            log.warning("reports in flight: the check failed: %s", error)
        outage.answered()
        await asyncio.sleep(every)
