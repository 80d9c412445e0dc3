"""The writer: a report from verified claims only, every sentence citing claim ids.

The writer sees claims (id, statement, excerpt, source title, date), never page text. Its
JSON is validated and repaired once; which sentences may stay (verified ids, numbers found
in the cited excerpts) is the orchestrator's post-check, not decided here.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from engine.budget import Meter
from engine.contracts import Claim, Plan, Section, Sentence
from engine.models.claude.ask import ask_json, user_turn
from engine.models.claude.client import ClaudeClient
from engine.models.claude.config import ClaudeConfig
from engine.models.claude.prompts import WRITER_SYSTEM, writer_prompt
from engine.models.claude.request import ClaudeRequest
from engine.models.claude.structured import validated
from engine.models.protocol import Brief, Draft
from engine.writing.verbatim import title_for

UNCITED = "uncited"
"""Stands in for the ids of a sentence Claude left uncited, so the post-check drops it and
the report records it (a Sentence must cite at least one id)."""

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SentenceAnswer(_Strict):
    text: Text
    claim_ids: list[Text] = Field(default_factory=list)


class SectionAnswer(_Strict):
    title: Text
    sentences: list[SentenceAnswer] = Field(default_factory=list)


class DraftAnswer(_Strict):
    title: Text
    sections: list[SectionAnswer] = Field(min_length=1)


def parse_draft(text: str) -> Draft:
    answer = validated(DraftAnswer, text)
    return Draft(
        title=answer.title,
        sections=[
            Section(
                title=section.title,
                sentences=[
                    Sentence(text=s.text, claim_ids=list(dict.fromkeys(s.claim_ids)) or [UNCITED])
                    for s in section.sentences
                ],
            )
            for section in answer.sections
        ],
    )


class Writer:
    def __init__(self, config: ClaudeConfig, client: ClaudeClient) -> None:
        self._config = config
        self._client = client

    def cost_estimate_usd(self) -> float:
        """The most one writer call costs: `writer_prompt_tokens` in, `writer_max_tokens` out."""
        price = self._config.prices.price(self._config.model)
        return price.worst_case_usd(
            self._config.writer_prompt_tokens, self._config.writer_max_tokens
        )

    async def write(self, brief: Brief, plan: Plan, verified: list[Claim], meter: Meter) -> Draft:
        if not verified:  # nothing may be said: no call, no cost
            return Draft(title=title_for(brief))
        request = ClaudeRequest(
            role="writer",
            model=self._config.model,
            system=WRITER_SYSTEM,
            messages=[user_turn(writer_prompt(brief, plan, verified))],
            max_tokens=self._config.writer_max_tokens,
            effort=self._config.writer_effort,
        )
        return await ask_json(self._client, meter, request, parse_draft)
