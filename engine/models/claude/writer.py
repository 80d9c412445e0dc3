"""The writer: a report from verified claims only, every sentence citing claim ids.

The writer sees claims (id, statement, excerpt, source title, date) and the figures they
print, never page text. It may not calculate: a derived figure (a change, a growth rate, a
margin) is asked for with the `calculate` tool, which the `Calculator` answers in code from
the figures the cited claims print, and the sentences that state it cite the calculation's
id. Its JSON is validated and repaired once; which sentences may stay (verified ids, numbers
found in the cited excerpts or in a cited calculation) is the orchestrator's post-check
(`engine.verify.draft.check_draft`), not decided here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Literal, get_args

from anthropic.types import (
    MessageParam,
    TextBlockParam,
    ToolParam,
    ToolResultBlockParam,
    ToolUseBlock,
)
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.budget import Meter
from engine.contracts import Calculation, Claim, Figure, Plan, Section, Sentence
from engine.models.claude.ask import repair_turn, user_turn
from engine.models.claude.client import ClaudeClient, ClaudeReply
from engine.models.claude.config import ClaudeConfig
from engine.models.claude.errors import InvalidAnswer
from engine.models.claude.prompts import WRITER_SYSTEM, writer_prompt
from engine.models.claude.request import ClaudeRequest
from engine.models.claude.research_tools import text_result
from engine.models.claude.structured import InvalidJson, Text, validated
from engine.models.claude.untrusted import as_data
from engine.models.protocol import Brief, Draft
from engine.text.normalise import collapse_whitespace
from engine.writing.calculator import Calculator, NotComparable
from engine.writing.figures import figures_tables, gather_figures
from engine.writing.verbatim import title_for

UNCITED = "uncited"
"""Stands in for the ids of a sentence Claude left uncited, so the post-check drops it and
the report records it (a Sentence must cite at least one id)."""

CALCULATE = "calculate"
MAX_CALCULATION_TURNS = 3
"""Turns of calculate calls before the writer must answer with the report."""
LAST_TURN_NOTE = "No more calculations: answer now with the report's JSON."

Kind = Literal["difference", "percent_change", "cagr", "margin", "ratio", "share", "sum"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SentenceAnswer(_Strict):
    text: Text
    claim_ids: list[Text] = Field(default_factory=list)
    calculation_ids: list[Text] = Field(default_factory=list)


class SectionAnswer(_Strict):
    title: Text
    sentences: list[SentenceAnswer] = Field(default_factory=list)


class DraftAnswer(_Strict):
    title: Text
    summary: list[SentenceAnswer] = Field(default_factory=list)
    sections: list[SectionAnswer] = Field(min_length=1)


class FigureRef(_Strict):
    claim_id: Text
    text: Text


class CalculateInput(_Strict):
    kind: Kind
    figures: list[FigureRef] = Field(min_length=1, max_length=12)
    years: int | None = Field(default=None, ge=1, le=100)


def calculate_tool() -> ToolParam:
    """The calculate tool as Claude sees it: figures named by claim id and printed text."""
    figure = {
        "type": "object",
        "properties": {
            "claim_id": {"type": "string", "description": "the id of a claim that prints it"},
            "text": {"type": "string", "description": 'the figure as printed, e.g. "$ 42,879"'},
        },
        "required": ["claim_id", "text"],
    }
    return {
        "name": CALCULATE,
        "description": (
            "Compute a derived figure in code from figures the claims print: difference "
            "(new minus old), percent_change (old to new), cagr (first to last, over `years`, "
            "by default the years between their periods), margin or share (part of whole, "
            "in %), ratio (a to b), sum (two or more). Give the figures in that order, each "
            "by claim id and its text exactly as printed. Returns the calculation's id, its "
            "text (state it as given) and formula, and the claim ids to cite."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": list(get_args(Kind))},
                "figures": {"type": "array", "items": figure, "minItems": 1},
                "years": {"type": "integer", "description": "for cagr: the span in years"},
            },
            "required": ["kind", "figures"],
        },
    }


def _sentence(answer: SentenceAnswer) -> Sentence:
    return Sentence(
        text=answer.text,
        claim_ids=list(dict.fromkeys(answer.claim_ids)) or [UNCITED],
        calculation_ids=list(dict.fromkeys(answer.calculation_ids)),
    )


def parse_draft(text: str) -> Draft:
    answer = validated(DraftAnswer, text)
    return Draft(
        title=answer.title,
        summary=[_sentence(s) for s in answer.summary],
        sections=[
            Section(title=section.title, sentences=[_sentence(s) for s in section.sentences])
            for section in answer.sections
        ],
    )


class Calculations:
    """The writer's calculate tool, answered in code: each call becomes a `Calculation` of
    figures the named claims print, or an error Claude reads."""

    def __init__(self, brief: Brief, verified: Sequence[Claim]) -> None:
        self.calculator = Calculator(brief.language)
        self.figures = gather_figures(verified)
        self.made: list[Calculation] = []

    def answer(self, use: ToolUseBlock) -> ToolResultBlockParam:
        """A tool_result for one tool_use block; a refused calculation comes back with
        is_error, as https://platform.claude.com/docs/agents-and-tools/tool-use/
        handle-tool-calls describes, so Claude can correct the call or write without it."""
        try:
            if use.name != CALCULATE:
                raise ValueError(f"there is no tool {use.name!r}; the only tool is {CALCULATE}")
            calculation = self._calculate(CalculateInput.model_validate(use.input))
        except (ValidationError, ValueError, NotComparable) as refused:
            return text_result(use.id, f"not calculated: {_one_line(refused)}", is_error=True)
        self.made.append(calculation)
        body = {
            "calculation_id": calculation.id,
            "text": calculation.text,
            "formula": calculation.formula,
            "claim_ids": calculation.claim_ids,
            "cite": "put the calculation_id in calculation_ids and these claim_ids in claim_ids",
        }
        return text_result(use.id, json.dumps(body, ensure_ascii=False))

    def _calculate(self, asked: CalculateInput) -> Calculation:
        figures = [self._figure(ref) for ref in asked.figures]
        calculator, kind = self.calculator, asked.kind
        if kind == "sum":
            return calculator.total(figures)
        if len(figures) != 2:
            raise ValueError(f"{kind} takes exactly two figures, not {len(figures)}")
        first, second = figures
        if kind == "cagr":
            return calculator.cagr(first, second, asked.years)
        two = {
            "difference": calculator.difference,
            "percent_change": calculator.percent_change,
            "margin": calculator.margin,
            "ratio": calculator.ratio,
            "share": calculator.share,
        }
        return two[kind](first, second)

    def _figure(self, ref: FigureRef) -> Figure:
        own = [f for f in self.figures if ref.claim_id in f.claim_ids]
        if not own:
            raise ValueError(f"claim {ref.claim_id} is not a verified claim that prints figures")
        wanted = collapse_whitespace(ref.text)
        for figure in own:
            if collapse_whitespace(figure.text) == wanted:
                return figure
        # A figure's measure and period are words of its page: data, never an instruction.
        printed = as_data(
            "figures the claim prints", "; ".join(f"{f.measure} {f.period}: {f.text}" for f in own)
        )
        raise ValueError(f"claim {ref.claim_id} prints no {ref.text!r}; it prints {printed}")


def _one_line(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in error.errors()
        )
    return collapse_whitespace(str(error))


def _tool_uses(reply: ClaudeReply) -> list[ToolUseBlock]:
    return [b for b in reply.message.content if isinstance(b, ToolUseBlock)]


class Writer:
    def __init__(self, config: ClaudeConfig, client: ClaudeClient) -> None:
        self._config = config
        self._client = client

    def cost_estimate_usd(self) -> float:
        """The most one writer call costs: `writer_prompt_tokens` in, `writer_max_tokens` out.
        A turn of calculations is one more call, reserved on the budget when it is made."""
        price = self._config.prices.price(self._config.model)
        return price.worst_case_usd(
            self._config.writer_prompt_tokens, self._config.writer_max_tokens
        )

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim], meter: Meter) -> Draft:
        if not verified:  # nothing may be said: no call, no cost
            return Draft(title=title_for(brief))
        calculations = Calculations(brief, verified)
        request = ClaudeRequest(
            role="writer",
            model=self._config.model,
            system=WRITER_SYSTEM,
            messages=[user_turn(writer_prompt(brief, plan, verified))],
            max_tokens=self._config.writer_max_tokens,
            tools=[calculate_tool()],
            effort=self._config.writer_effort,
        )
        reply = await self._call(request, meter)
        for turn in range(1, MAX_CALCULATION_TURNS + 1):
            uses = _tool_uses(reply)
            if not uses:
                break
            content: list[ToolResultBlockParam | TextBlockParam] = [
                calculations.answer(use) for use in uses
            ]
            if turn == MAX_CALCULATION_TURNS:
                content.append({"type": "text", "text": LAST_TURN_NOTE})
            results: MessageParam = {"role": "user", "content": content}
            request = request.followed_by(reply.message.to_param(), results)
            reply = await self._call(request, meter)
        if _tool_uses(reply):
            raise InvalidAnswer(
                f"writer: still asking for calculations after {MAX_CALCULATION_TURNS} turns"
            )
        draft = await self._parsed(request, reply, meter)
        tables = figures_tables(
            calculations.figures, calculations.made, language=brief.language, claims=verified
        )
        return replace(draft, tables=tables, calculations=calculations.made)

    async def _call(self, request: ClaudeRequest, meter: Meter) -> ClaudeReply:
        return (await self._client.call_with_room(request, meter)).finished(request.role)

    async def _parsed(self, request: ClaudeRequest, reply: ClaudeReply, meter: Meter) -> Draft:
        """The draft in `reply`; an invalid one is asked again once, with what is wrong."""
        try:
            return parse_draft(reply.text)
        except InvalidJson as problem:
            repair = request.followed_by(reply.message.to_param(), repair_turn(str(problem)))
        reply = await self._call(repair, meter)
        try:
            return parse_draft(reply.text)
        except InvalidJson as problem:
            raise InvalidAnswer(
                f"writer: the answer was still invalid after one repair: {problem}"
            ) from None
