"""Benchmark: simulated cost and time per report of the Claude pipeline on a scripted suite.

    python -m evals.bench_claude [--speed 40]
    git worktree add /tmp/claude-before 9e275bd
    PYTHONPATH=/tmp/claude-before python evals/bench_claude.py      # the engine before issue 11

No network and no key: a scripted Claude answers in process through the real `ClaudeClient`
(the SDK's `messages.create` is replaced, nothing else), so the same script runs against
today's engine and an older checkout. The script reads each request the way Claude would:
it plans (sizing subquestions only when the planner prompt asks for steps), researches
(several tool calls in one turn only when the subagent prompt asks for that), records claims
with record_claim, checks criteria, judges and writes.

What is simulated — assumptions, not measurements:
- prompt tokens: request characters / 2.5; a subagent's earlier turns are read from the cache;
- output tokens: the answer plus thinking by effort (high, the API's default when no effort is
  sent: 1,500 a subagent turn, 3,000 a planner or writer call, 800 a check; medium half of
  that, low a fifth); a call whose output would pass max_tokens stops there;
- time: 0.4 s a call plus 80 output tokens a second; a search 0.6 s, a page read 1.0 s.
Model calls and tools sleep `1 / --speed` of their simulated time; times are printed back in
simulated seconds. Also prints one turn of three 1-second reads, in real seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import re
import time
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from anthropic.types import Message

from engine.agents.toolbox import Assignment, Toolbox
from engine.board import InMemoryBoard
from engine.budget import InMemoryBudget
from engine.contracts import Limits, Subquestion
from engine.models.claude import ClaudeClient, ClaudeConfig, ClaudeModel, default_price_table
from engine.orchestrator import Orchestrator
from engine.planning.briefs import make_brief
from engine.snapshots import InMemorySnapshotStore, Snapshot
from engine.sources.kinds import WEB
from engine.sources.protocols import FetchError, SearchHit

MODEL = "claude-sonnet-5-5"
_CHARS_PER_TOKEN = 2.5
THINKING_AT_HIGH = {"subagent": 1500, "planner": 3000, "writer": 3000, "check": 800}
EFFORT_SHARE = {"high": 1.0, "medium": 0.5, "low": 0.2, "xhigh": 1.5, "max": 2.0}
SEARCH_SECONDS, READ_SECONDS = 0.6, 1.0


@dataclass(frozen=True)
class Fact:
    url: str
    statement: str
    excerpt: str


@dataclass(frozen=True)
class ScriptedCase:
    question: str
    subquestions: dict[str, list[Fact]]
    """Subquestion text -> the facts its sources state (one page each)."""
    search: bool = True
    """False: the subagent reads the pages straight away (the three-reads turn)."""


def _fact(slug: str, statement: str, excerpt: str) -> Fact:
    return Fact(f"https://example.org/{slug}", statement, excerpt)


SUITE = [
    ScriptedCase(
        "Qual o limite de potência da microgeração distribuída?",
        {
            "Qual o limite de potência da microgeração distribuída na Lei 14.300?": [
                _fact(
                    "lei-14300",
                    "A microgeração distribuída tem potência instalada de até 75 kW.",
                    "microgeração distribuída: central geradora com potência instalada menor "
                    "ou igual a 75 kW",
                )
            ]
        },
    ),
    ScriptedCase(
        "Até quando valem os créditos de energia e quem fiscaliza a geração distribuída?",
        {
            "Até quando valem os créditos de energia da geração distribuída?": [
                _fact(
                    "lei-14300-art26",
                    "Os créditos de energia expiram em 60 meses após o faturamento.",
                    "Os créditos de energia elétrica expiram em 60 (sessenta) meses após a "
                    "data do faturamento.",
                )
            ],
            "Qual órgão regula a geração distribuída no Brasil?": [
                _fact(
                    "aneel",
                    "A ANEEL regula e fiscaliza a geração distribuída no Brasil.",
                    "Compete à ANEEL regular e fiscalizar a geração distribuída de energia "
                    "elétrica em todo o território nacional.",
                )
            ],
        },
    ),
    ScriptedCase(
        "Compare a receita de 2023 da Alfa, da Beta e da Gama.",
        {
            "Qual foi a receita líquida de 2023 da Alfa, da Beta e da Gama?": [
                _fact(
                    f"{name.lower()}-2023",
                    f"A {name} teve receita líquida de {value} milhões em 2023.",
                    f"A receita líquida da {name} em 2023 foi de {value} milhões de reais.",
                )
                for name, value in (("Alfa", "1.250"), ("Beta", "980"), ("Gama", "2.310"))
            ]
        },
    ),
]


class ScriptedSource:
    """Search and Fetcher over the suite's pages, with simulated latency."""

    name = "scripted"
    kind = WEB  # pages of example.org, read as the web is

    def __init__(self, facts: list[Fact], speed: float, read_seconds: float = READ_SECONDS):
        self._pages = {f.url: f for f in facts}
        self._speed = speed
        self._read_seconds = read_seconds

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        await asyncio.sleep(SEARCH_SECONDS / self._speed)
        words = set(query.lower().split())
        hits = [f for f in self._pages.values() if words & set(f.excerpt.lower().split())]
        return [
            SearchHit(f.url, f.url, f.excerpt[:80], n, self.name) for n, f in enumerate(hits, 1)
        ]

    async def fetch(self, url: str) -> Snapshot:
        await asyncio.sleep(self._read_seconds / self._speed)
        fact = self._pages.get(url)
        if fact is None:
            raise FetchError(f"no page at {url}")
        filler = "Texto de contexto sobre o tema, sem números. " * 120
        return Snapshot(url=url, text=f"{filler}\n\n{fact.excerpt}\n\n{filler}", title=url)


class _Streamed:
    """What `messages.stream(...)` gives: entered, its events (here only `message_stop`),
    then `get_final_message()`."""

    def __init__(self, answer: Awaitable[Message]) -> None:
        self._answer = answer
        self._message: Message | None = None

    async def __aenter__(self) -> _Streamed:
        self._message = await self._answer
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def __aiter__(self) -> AsyncIterator[Any]:
        yield SimpleNamespace(type="message_stop")

    async def get_final_message(self) -> Message:
        assert self._message is not None
        return self._message


class ScriptedClaude:
    """Stands in for `AsyncAnthropic`: `messages.create` answers from the request."""

    def __init__(self, case: ScriptedCase, speed: float) -> None:
        self.messages = self
        self._case = case
        self._speed = speed
        self.simulated_seconds = 0.0

    async def close(self) -> None:
        return None

    def stream(self, **sent: Any) -> _Streamed:
        """`messages.stream` for long answers: the same answer, as one finished stream."""
        return _Streamed(self.create(**sent))

    async def create(self, **sent: Any) -> Message:
        request = _as_json(sent)
        system = "".join(b["text"] for b in request["system"])
        effort = (request.get("output_config") or {}).get("effort", "high")
        role, content, answer_tokens = self._answer(system, request)
        thinking = int(THINKING_AT_HIGH[role] * EFFORT_SHARE[effort])
        output = answer_tokens + thinking
        stop = "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
        if output > request["max_tokens"]:
            output, stop, content = request["max_tokens"], "max_tokens", [_text("…")]
        seconds = 0.4 + output / 80
        await asyncio.sleep(seconds / self._speed)
        prompt = math.ceil(len(json.dumps(request, ensure_ascii=False, default=str)) / 2.5)
        cached = _cached_tokens(request) if role == "subagent" else 0
        usage = {
            "input_tokens": prompt - cached,
            "output_tokens": output,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": cached,
        }
        content = [{"type": "thinking", "thinking": "", "signature": "sig"}, *content]
        body = {
            "id": "msg_bench",
            "type": "message",
            "role": "assistant",
            "model": request["model"],
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        }
        return Message.model_validate(body)

    def _answer(self, system: str, request: dict[str, Any]) -> tuple[str, list[Any], int]:
        prompt = _first_text(request)
        if "Fonte's planner. You split" in system:
            return "planner", [_text(json.dumps(self._plan(system)))], 600
        if "research subagent" in system:
            return "subagent", *self._research(system, request, prompt)
        if "support judge" in system:
            ids = re.findall(r'"id": "([^"]+)"', prompt)
            labels = [{"id": i, "support": "entails"} for i in ids]
            return "check", [_text(json.dumps({"labels": labels}))], 60 + 20 * len(ids)
        if "check a research plan's sufficiency" in system:
            return "check", [_text(json.dumps({"unmet": []}))], 40
        return "writer", [_text(json.dumps(_draft(prompt)))], 150 + 60 * prompt.count('"id"')

    def _plan(self, system: str) -> dict[str, Any]:
        sized = "steps sizes each subquestion" in system
        subquestions = []
        for number, (text, facts) in enumerate(self._case.subquestions.items(), start=1):
            entry: dict[str, Any] = {"id": f"s{number}", "title": f"Parte {number}", "text": text}
            if sized:  # a single fact: a few calls; a comparison: many
                entry["steps"] = 5 if len(facts) == 1 else 14
            subquestions.append(entry)
        criteria = [f"Fonte que responda: {s['text']}" for s in subquestions]
        return {"sufficient_when": criteria, "subquestions": subquestions}

    def _research(self, system: str, request: dict[str, Any], prompt: str) -> tuple[list[Any], int]:
        """Search, read, record each fact of the subquestion; in one turn each when the
        prompt asks for independent calls in the same turn, else one call a turn."""
        wanted = re.search(r"Your subquestion \(s\d+\): (.+)", prompt)
        facts = self._case.subquestions.get(wanted.group(1).strip() if wanted else "", [])
        done = [
            b["name"] for m in request["messages"] for b in _blocks(m) if b["type"] == "tool_use"
        ]
        together = "same turn" in system
        plan = [("web_search", {"query": f.excerpt[:60]}) for f in facts if self._case.search]
        plan += [("fetch_page", {"url": f.url}) for f in facts]
        plan += [
            ("record_claim", {"statement": f.statement, "url": f.url, "excerpt": f.excerpt})
            for f in facts
        ]
        left = plan[len(done) :]
        if not left:
            return [_text("Feito.")], 40
        batch = [c for c in left if c[0] == left[0][0]] if together else left[:1]
        calls = [
            {"type": "tool_use", "id": f"toolu_{len(done) + n}", "name": name, "input": args}
            for n, (name, args) in enumerate(batch)
        ]
        return calls, 60 * len(calls)


def _as_json(sent: dict[str, Any]) -> dict[str, Any]:
    """The request as the API would receive it: SDK models dumped, omitted fields dropped."""
    kept = {k: v for k, v in sent.items() if isinstance(v, str | int | list | dict)}
    dumped = json.dumps(kept, default=lambda value: value.model_dump(exclude_none=True))
    loaded: dict[str, Any] = json.loads(dumped)
    return loaded


def _text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def _blocks(message: Any) -> list[Any]:
    content = message["content"]
    return [_text(content)] if isinstance(content, str) else list(content)


def _first_text(request: dict[str, Any]) -> str:
    return "".join(b.get("text", "") for b in _blocks(request["messages"][0]))


def _cached_tokens(request: dict[str, Any]) -> int:
    earlier = json.dumps(request["messages"][:-1], ensure_ascii=False, default=str)
    return math.ceil(len(earlier) / _CHARS_PER_TOKEN) if len(request["messages"]) > 1 else 0


def _draft(prompt: str) -> dict[str, Any]:
    rows = [json.loads(line) for line in prompt.splitlines() if line.startswith("{")]
    sentences = [{"text": r["statement"], "claim_ids": [r["id"]]} for r in rows]
    return {"title": "Relatório", "sections": [{"title": "Achados", "sentences": sentences}]}


@dataclass
class ScriptedOutcome:
    usd: float
    seconds: float
    verified: int
    facts: int


def bench_config(changes: dict[str, Any]) -> ClaudeConfig:
    """The default configuration, with the fields `changes` names where this engine has them
    (an older checkout has neither effort nor a parallel switch)."""
    fields = ClaudeConfig.__dataclass_fields__
    known = {name: value for name, value in changes.items() if name in fields}
    return ClaudeConfig(api_key="bench", model=MODEL, subagent_model=MODEL, **known)


async def run_scripted_case(
    case: ScriptedCase, speed: float, changes: dict[str, Any]
) -> ScriptedOutcome:
    facts = [f for fs in case.subquestions.values() for f in fs]
    api = ScriptedClaude(case, speed)
    config = bench_config(changes)
    client = ClaudeClient(api, default_price_table())  # type: ignore[arg-type]
    model = ClaudeModel(config, client)
    source = ScriptedSource(facts, speed)
    started = time.perf_counter()
    orchestrator = Orchestrator(model, source, source, limits=Limits(usd=5.0, steps=200))
    report = await orchestrator.run(make_brief(case.question))
    seconds = (time.perf_counter() - started) * speed
    return ScriptedOutcome(report.spend.usd, seconds, len(report.verified_claims()), len(facts))


async def three_reads_turn(changes: dict[str, Any]) -> float:
    """Real seconds for a subagent whose turn reads three pages of 1 s each (model turns
    take no time here)."""
    facts = [
        _fact(f"p{n}", f"O fato {n} vale {n}.", f"O fato número {n} vale {n}.") for n in (1, 2, 3)
    ]
    case = ScriptedCase("três páginas", {"Leia as três páginas.": facts}, search=False)
    api = ScriptedClaude(case, speed=1e9)
    client = ClaudeClient(api, default_price_table())  # type: ignore[arg-type]
    model = ClaudeModel(bench_config(changes), client)
    source = ScriptedSource(facts, speed=1.0, read_seconds=1.0)
    subquestion = Subquestion(id="s1", text="Leia as três páginas.")
    assignment = Assignment("s1", subquestion, "q", "pt", max_steps=20)
    store, board, budget = InMemorySnapshotStore(), InMemoryBoard(), InMemoryBudget(Limits())
    tools = Toolbox(assignment, source, source, store, board, budget)
    started = time.perf_counter()
    await model.research(assignment, tools)
    return time.perf_counter() - started


async def main(speed: float, changes: dict[str, Any]) -> None:
    import engine

    print(f"engine: {Path(engine.__file__).parent}")
    print(f"scripted suite, {MODEL}; simulated seconds ({speed:g}x faster than shown)")
    if changes:
        print(f"settings: {changes}")
    print(f"{'case':<58} {'usd':>8} {'seconds':>8} {'verified':>9}")
    outcomes = []
    for case in SUITE:
        outcome = await run_scripted_case(case, speed, changes)
        outcomes.append(outcome)
        found = f"{outcome.verified}/{outcome.facts}"
        print(f"{case.question[:58]:<58} {outcome.usd:>8.4f} {outcome.seconds:>8.1f} {found:>9}")
    usd = sum(o.usd for o in outcomes) / len(outcomes)
    seconds = sum(o.seconds for o in outcomes) / len(outcomes)
    print(f"{'per report (mean)':<58} {usd:>8.4f} {seconds:>8.1f}")
    print(f"a subagent whose turn reads three 1 s pages: {await three_reads_turn(changes):.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--speed", type=float, default=40.0, help="simulated time runs N× faster")
    parser.add_argument(
        "--no-effort", action="store_true", help="send no effort (the API's default, high)"
    )
    parser.add_argument(
        "--sequential", action="store_true", help="run a turn's tool calls one after another"
    )
    args = parser.parse_args()
    changes: dict[str, Any] = {}
    if args.no_effort:
        roles = ("planner", "subagent", "writer", "judge", "criteria")
        changes |= {f"{role}_effort": None for role in roles}
    if args.sequential:
        changes["parallel_tool_calls"] = False
    asyncio.run(main(args.speed, changes))
