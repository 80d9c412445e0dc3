"""Notional model calls for offline comparisons, with optional simulated latency.

The offline model answers in microseconds, so it cannot show what an architecture costs in
model time. These wrappers count, for both architectures alike, the calls a real model would
make and their size (about four characters per token), record them as `Usage` on the run's
budget ($0), and, with a `SimulatedLatency`, really sleep for each call. Sleeping for real is
the point: parallel subagents overlap, v1's roles in sequence add up.

What is one call:
- final: plan, unmet_criteria, judge, write, clarify; in a subagent, one turn per tool step
  (a search, or a read that the budget counts) with the subagent's context so far as input,
  steps started together sharing one turn (parallel tool calls of one reply), and one
  closing turn that emits its claims.
- v1: each role call (the roles record their own usage; here it only sleeps); the
  researcher's tool steps, one turn each, with everything it has seen so far as input.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, fields

from engine import (
    Assignment,
    Brief,
    Budget,
    Claim,
    ClarifyingQuestion,
    Draft,
    Meter,
    Model,
    Plan,
    Refusal,
    Reservation,
    Snapshot,
    Toolbox,
    Usage,
    split_page,
)
from engine.sources import Fetcher, Search, SearchHit
from engine.v1 import ResearchNotes, ResearchTools, SourceEntry, V1Roles, estimated_tokens
from evals.defaults import DEFAULT_OVERHEAD_SECONDS

INPUT_SPEEDUP = 50.0
"""Prompt tokens are read this many times faster than output tokens are written."""
TOOL_CALL_TOKENS = 20
"""Output of a turn that only asks for a tool, besides the query or URL it names."""
VERDICT_TOKENS = 10
MODEL_READ_CHARS = 60_000
"""What a read shows a model: one page of a paged document, else the text up to this many
characters (the cap the Claude subagent's read tool applies)."""


@dataclass(frozen=True)
class SimulatedLatency:
    tokens_per_second: float
    overhead_seconds: float = DEFAULT_OVERHEAD_SECONDS
    input_speedup: float = INPUT_SPEEDUP

    def __post_init__(self) -> None:
        if self.tokens_per_second <= 0 or self.overhead_seconds < 0 or self.input_speedup <= 0:
            raise ValueError("latency needs tokens/s > 0, overhead ≥ 0 and input speedup > 0")

    def seconds(self, input_tokens: int, output_tokens: int) -> float:
        """Fixed overhead, plus writing the output and (much faster) reading the input."""
        work = output_tokens + input_tokens / self.input_speedup
        return self.overhead_seconds + work / self.tokens_per_second

    def describe(self) -> str:
        return (
            f"simulated latency: {self.tokens_per_second:g} output tokens/s, input "
            f"{self.input_speedup:g}× faster, {self.overhead_seconds:g} s per call"
        )


@dataclass
class CallClock:
    """Records notional calls on a budget and, given a latency, sleeps for each."""

    latency: SimulatedLatency | None = None
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    async def wait(self, input_tokens: int, output_tokens: int) -> None:
        if self.latency is not None:
            await self.sleep(self.latency.seconds(input_tokens, output_tokens))

    async def call(self, budget: Budget, input_tokens: int, output_tokens: int) -> None:
        """One call: sleep, then settle its usage at $0. A budget that refuses (stopped, out
        of time) gets no call: a real model would not have been asked either."""
        reservation = await budget.reserve(steps=0)
        if isinstance(reservation, Refusal):
            return
        await self.wait(input_tokens, output_tokens)
        usage = Usage(model_calls=1, input_tokens=input_tokens, output_tokens=output_tokens)
        await budget.settle(reservation, 0.0, usage)


def _tokens(*texts: str) -> int:
    return estimated_tokens("\n".join(texts))


def _claims_text(claims: list[Claim]) -> str:
    return "\n".join(f"{c.id} {c.statement} {c.url} {c.excerpt}" for c in claims)


def _hits_text(hits: list[SearchHit]) -> str:
    return "\n".join(f"{h.title} {h.url} {h.snippet}" for h in hits)


def model_view(snapshot: Snapshot, url: str) -> str:
    """The text a read of `url` puts in front of the model."""
    page = split_page(url)[1]
    if snapshot.pages is not None and page is not None and 1 <= page <= len(snapshot.pages):
        return snapshot.pages[page - 1]
    return snapshot.text[:MODEL_READ_CHARS]


# -- the final architecture ----------------------------------------------------------------


class SimulatedModel:
    """A `Model` whose calls are counted (and slept for) as a real model's would be."""

    def __init__(self, inner: Model, clock: CallClock) -> None:
        self.inner = inner
        self.clock = clock
        self.name = inner.name
        self.write_cost_estimate_usd = inner.write_cost_estimate_usd

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        questions = await self.inner.clarify(brief, meter)
        reply = "\n".join(q.model_dump_json() for q in questions)
        await self.clock.call(meter.budget, _tokens(brief.question), _tokens(reply))
        return questions

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        plan = await self.inner.plan(brief, meter)
        prompt = "\n".join([brief.question, *brief.answers])
        await self.clock.call(meter.budget, _tokens(prompt), _tokens(plan.model_dump_json()))
        return plan

    async def research(self, assignment: Assignment, tools: Toolbox) -> None:
        simulated = TurnToolbox.around(tools, self.clock)
        await self.inner.research(assignment, simulated)
        # The closing turn: the subagent writes its claims.
        await self.clock.call(
            tools.budget, simulated.context_tokens, _tokens(_claims_text(simulated.posted))
        )

    async def unmet_criteria(self, plan: Plan, verified: list[Claim], meter: Meter) -> list[str]:
        unmet = await self.inner.unmet_criteria(plan, verified, meter)
        prompt = f"{plan.model_dump_json()}\n{_claims_text(verified)}"
        reply = "\n".join(unmet) or "[]"
        await self.clock.call(meter.budget, _tokens(prompt), _tokens(reply))
        return unmet

    async def judge(self, claims: list[Claim], meter: Meter) -> list[Claim] | None:
        judged = await self.inner.judge(claims, meter)
        await self.clock.call(
            meter.budget, _tokens(_claims_text(claims)), VERDICT_TOKENS * len(claims)
        )
        return judged

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim], meter: Meter) -> Draft:
        draft = await self.inner.write(brief, plan, verified, meter)
        prompt = f"{brief.question}\n{plan.model_dump_json()}\n{_claims_text(verified)}"
        reply = "\n".join([draft.title, *(s.model_dump_json() for s in draft.sections)])
        await self.clock.call(meter.budget, _tokens(prompt), _tokens(reply))
        return draft


@dataclass
class TurnToolbox(Toolbox):
    """A subagent's toolbox in which every tool step is first a model turn asking for it;
    the turn's input is everything the subagent has been shown so far."""

    clock: CallClock = field(kw_only=True)
    context_tokens: int = field(default=0, kw_only=True)
    _turn_in_flight: asyncio.Future[None] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _shown: set[str] = field(default_factory=set, init=False, repr=False, compare=False)

    @classmethod
    def around(cls, tools: Toolbox, clock: CallClock) -> TurnToolbox:
        """Shares the original's lists, so what this one posts and reads is the original's."""
        state = {f.name: getattr(tools, f.name) for f in fields(Toolbox)}
        prompt = f"{tools.assignment.question}\n{tools.assignment.subquestion.text}"
        return cls(**state, clock=clock, context_tokens=_tokens(prompt))

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        await self._turn(query)
        hits = await super().search(query, limit)
        self.context_tokens += _tokens(_hits_text(hits))
        return hits

    async def read(self, url: str) -> Snapshot:
        # A read served from the run's snapshots costs no step and no turn (the pages of an
        # open document come with the tool calls already made); a page not yet shown to
        # this subagent still adds its text, as it does for v1's researcher.
        if await self.snapshots.get(url) is not None:
            snapshot = await super().read(url)
        else:
            await self._turn(url)
            snapshot = await super().read(url)
        if url not in self._shown:
            self._shown.add(url)
            self.context_tokens += _tokens(model_view(snapshot, url))
        return snapshot

    async def _turn(self, request: str) -> None:
        # Tool steps started while a turn is under way (reads gathered at once) are the tool
        # calls of that one model reply, not a turn each.
        if self._turn_in_flight is not None and not self._turn_in_flight.done():
            await self._turn_in_flight
            return
        output = TOOL_CALL_TOKENS + _tokens(request)
        self._turn_in_flight = asyncio.ensure_future(
            self.clock.call(self.budget, self.context_tokens, output)
        )
        await self._turn_in_flight


# -- v1 -------------------------------------------------------------------------------------


class SleepingMeter(Meter):
    """A role's meter that sleeps for each call the role settles (the role records it).

    With `context`, a call's input is counted as that many tokens instead of the role's own
    estimate: the v1 researcher's closing call then counts its context by the same rule as a
    final subagent's closing turn."""

    def __init__(
        self, inner: Meter, clock: CallClock, context: Callable[[], int] | None = None
    ) -> None:
        super().__init__(inner.budget)
        self.inner = inner
        self.clock = clock
        self.context = context

    async def model_step(self, usd_estimate: float) -> Reservation:
        return await self.inner.model_step(usd_estimate)

    async def settle(
        self, reservation: Reservation, usd: float, usage: Usage | None = None
    ) -> None:
        if usage is not None and usage.model_calls:
            if self.context is not None:
                usage = usage.model_copy(update={"input_tokens": self.context()})
            await self.clock.wait(usage.input_tokens, usage.output_tokens)
        await self.inner.settle(reservation, usd, usage)

    async def release(self) -> None:
        await self.inner.release()


@dataclass
class ResearcherTurns:
    """The v1 researcher's tool steps as turns of its one conversation.

    v1's researcher reaches its sources only through the searcher and fetcher the pipeline
    gives its tools, one step per call, so wrapping those two sees every step. Turns count
    on the budget of the research role call under way (none outside one)."""

    clock: CallClock
    context_tokens: int = 0
    budget: Budget | None = None

    def searcher(self, inner: Search) -> Search:
        return _TurnSearch(inner, self)

    def fetcher(self, inner: Fetcher) -> Fetcher:
        return _TurnFetcher(inner, self)

    async def turn(self, request: str) -> None:
        if self.budget is not None:
            output = TOOL_CALL_TOKENS + _tokens(request)
            await self.clock.call(self.budget, self.context_tokens, output)

    def saw(self, text: str) -> None:
        self.context_tokens += _tokens(text)


class _TurnSearch:
    def __init__(self, inner: Search, turns: ResearcherTurns) -> None:
        self.inner = inner
        self.turns = turns
        self.name = inner.name
        self.kind = inner.kind

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        await self.turns.turn(query)
        hits = await self.inner.search(query, limit=limit)
        self.turns.saw(_hits_text(hits))
        return hits


@dataclass
class _TurnFetcher:
    inner: Fetcher
    turns: ResearcherTurns

    async def fetch(self, url: str) -> Snapshot:
        await self.turns.turn(url)
        snapshot = await self.inner.fetch(url)
        self.turns.saw(model_view(snapshot, url))
        return snapshot


class SimulatedV1Roles:
    """`V1Roles` whose calls sleep as a real model's would; the researcher's tool steps are
    turns counted through `turns` (whose searcher and fetcher the pipeline must be given)."""

    def __init__(self, inner: V1Roles, clock: CallClock, turns: ResearcherTurns) -> None:
        self.inner = inner
        self.clock = clock
        self.turns = turns
        self.name = inner.name

    def _meter(self, meter: Meter) -> Meter:
        return SleepingMeter(meter, self.clock)

    async def research(
        self, brief: Brief, plan: Plan, tools: ResearchTools, meter: Meter
    ) -> ResearchNotes:
        self.turns.budget = meter.budget
        self.turns.context_tokens = _tokens(brief.question, *(s.text for s in plan.subquestions))
        tools.on_page_from_cache = lambda url, snapshot: self.turns.saw(model_view(snapshot, url))
        try:
            meter = SleepingMeter(meter, self.clock, lambda: self.turns.context_tokens)
            return await self.inner.research(brief, plan, tools, meter)
        finally:
            self.turns.budget = None
            tools.on_page_from_cache = None

    async def analyse(self, brief: Brief, notes: ResearchNotes, meter: Meter) -> str:
        return await self.inner.analyse(brief, notes, self._meter(meter))

    async def write(
        self, brief: Brief, plan: Plan, analysis: str, sources: list[SourceEntry], meter: Meter
    ) -> str:
        return await self.inner.write(brief, plan, analysis, sources, self._meter(meter))

    async def review(self, brief: Brief, draft: str, meter: Meter) -> str:
        return await self.inner.review(brief, draft, self._meter(meter))

    async def edit(self, brief: Brief, text: str, meter: Meter) -> str:
        return await self.inner.edit(brief, text, self._meter(meter))
