"""Two checks by Claude on verified claims: does each excerpt support its statement (the
support judge, a cheaper model, claims in batches), and which sufficiency criteria of the
plan are still unmet (the orchestrator's model)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from functools import partial

from pydantic import BaseModel, ConfigDict, Field

from engine.budget import Meter
from engine.contracts import Claim, Plan, Support
from engine.models.claude.ask import ask_json, user_turn
from engine.models.claude.client import ClaudeClient
from engine.models.claude.config import ClaudeConfig
from engine.models.claude.prompts import (
    CRITERIA_SYSTEM,
    JUDGE_SYSTEM,
    criteria_prompt,
    judge_prompt,
)
from engine.models.claude.request import ClaudeRequest
from engine.models.claude.structured import InvalidJson, validated
from engine.text.normalise import folded


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Label(_Strict):
    id: str
    support: Support


class JudgeAnswer(_Strict):
    labels: list[Label]


class CriteriaAnswer(_Strict):
    unmet: list[str] = Field(default_factory=list)


def parse_labels(text: str, ids: Sequence[str]) -> dict[str, Support]:
    """One label per claim id asked about, no more, no fewer."""
    labels: dict[str, Support] = {}
    problems = []
    for label in validated(JudgeAnswer, text).labels:
        if label.id not in ids:
            problems.append(f"{label.id!r} is not one of the claim ids given")
        elif label.id in labels:
            problems.append(f"{label.id!r} is labelled twice")
        labels[label.id] = label.support
    missing = [i for i in ids if i not in labels]
    if missing:
        problems.append(f"no label for {', '.join(missing)}")
    if problems:
        raise InvalidJson("; ".join(problems))
    return labels


def parse_unmet(text: str, criteria: Sequence[str]) -> list[str]:
    """The unmet criteria, each one of `criteria` (whitespace and case aside), in plan order."""
    by_key = {folded(c): c for c in criteria}
    answer = validated(CriteriaAnswer, text)
    unknown = [c for c in answer.unmet if folded(c) not in by_key]
    if unknown:
        raise InvalidJson(
            "not one of the criteria given (copy them exactly): "
            + "; ".join(repr(c) for c in unknown)
        )
    unmet = {by_key[folded(c)] for c in answer.unmet}
    return [c for c in criteria if c in unmet]


def batches(claims: Sequence[Claim], size: int) -> list[Sequence[Claim]]:
    return [claims[i : i + size] for i in range(0, len(claims), size)]


class Checker:
    def __init__(
        self, config: ClaudeConfig, client: ClaudeClient, today: Callable[[], date] | None = None
    ) -> None:
        """`today`: the clock that dates the judge's and the criteria check's prompts."""
        self._config = config
        self._client = client
        self._today = today or (lambda: datetime.now(UTC).date())

    async def judge(self, claims: list[Claim], meter: Meter) -> list[Claim] | None:
        if not self._config.judge:
            return None
        labels: dict[str, Support] = {}
        for batch in batches(claims, self._config.judge_batch_size):
            ids = [c.id for c in batch]
            request = ClaudeRequest(
                role="support judge",
                model=self._config.judge_model,
                system=JUDGE_SYSTEM,
                messages=[user_turn(judge_prompt(batch, self._today()))],
                max_tokens=self._config.judge_max_tokens,
                effort=self._config.judge_effort,
            )
            labels |= await ask_json(self._client, meter, request, partial(parse_labels, ids=ids))
        return [c.model_copy(update={"support": labels[c.id]}) for c in claims]

    async def unmet_criteria(self, plan: Plan, verified: list[Claim], meter: Meter) -> list[str]:
        if not plan.sufficient_when:
            return []
        if not verified:  # nothing verified meets anything: no call needed
            return list(plan.sufficient_when)
        request = ClaudeRequest(
            role="criteria check",
            model=self._config.model,
            system=CRITERIA_SYSTEM,
            messages=[user_turn(criteria_prompt(plan, verified, self._today()))],
            max_tokens=self._config.criteria_max_tokens,
            effort=self._config.criteria_effort,
        )
        return await ask_json(
            self._client, meter, request, partial(parse_unmet, criteria=plan.sufficient_when)
        )
