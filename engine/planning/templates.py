"""Report templates: fixed sections that run in parallel without the orchestrator deciding
the split. Pure data (their words are in `engine.words`) plus the few string operations
that fill them in."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import BadInput
from engine.planning.pricing import DEFAULT_PRICING, PriceList, Pricing
from engine.text.language import Language
from engine.text.tokens import fold_accents
from engine.words import ENGLISH, words_for


@dataclass(frozen=True)
class Aspect:
    """One fixed section of a template: its heading in each language is in `engine.words`
    (`TemplateWords.sections`, by template id and position)."""

    template: str
    number: int

    def title(self, language: Language) -> str:
        return words_for(language).templates.sections[self.template][self.number]


@dataclass(frozen=True)
class Template:
    """A template's id, the names users call it by and what a report of it is sold for (its
    research budget follows, `engine.planning.pricing`); its sections and description are in
    each language's table."""

    id: str
    aliases: tuple[str, ...]
    pricing: Pricing = DEFAULT_PRICING

    @property
    def aspects(self) -> tuple[Aspect, ...]:
        count = len(ENGLISH.templates.sections[self.id])
        return tuple(Aspect(self.id, number) for number in range(count))

    def description(self, language: Language) -> str:
        return words_for(language).templates.descriptions[self.id]


TEMPLATES: tuple[Template, ...] = (
    Template("mercado", ("market", "mercado"), Pricing(250.0, 0.02)),
    Template(
        "concorrentes",
        ("competitors", "concorrentes", "concorrencia", "players"),
        Pricing(200.0, 0.02),
    ),
    Template(
        "regulacao", ("regulation", "regulacao", "regulatorio", "legal"), Pricing(150.0, 0.02)
    ),
    Template("tendencias", ("trends", "tendencias", "riscos", "risks"), Pricing(150.0, 0.02)),
    Template("tecnologia", ("technology", "tecnologia"), Pricing(150.0, 0.02)),
    Template("livre", ("free", "livre"), DEFAULT_PRICING),
)
"""In US$ per report, 2% of it on research: a market study (four sections) US$ 250, so
US$ 5.00 of research; a competitor map US$ 200; the three-section templates US$ 150; a free
plan, as a question without a template, US$ 100 (US$ 2.00, 60 steps, 10 minutes)."""

PRICES = PriceList(
    DEFAULT_PRICING,
    {template.id: template.pricing for template in TEMPLATES},
    {alias: template.id for template in TEMPLATES for alias in template.aliases},
)
"""The built-in prices; `prices_from_env` puts a deployment's settings over them."""


def prices_from_env(env: Mapping[str, str]) -> PriceList:
    """The prices a deployment set (FONTE_PRICE, FONTE_PRICE_<TEMPLATE>, FONTE_RESEARCH_SHARE,
    FONTE_RESEARCH_SHARE_<TEMPLATE>), the built-in ones for the rest."""
    return PRICES.from_env(env)


class UnknownTemplate(BadInput):
    pass


def find_template(name: str) -> Template:
    wanted = fold_accents(name.strip())
    for template in TEMPLATES:
        if wanted == template.id or wanted in template.aliases:
            return template
    known = ", ".join(t.id for t in TEMPLATES)
    raise UnknownTemplate(f"unknown template {name!r}; choose one of: {known}")


_LEADING_FILLER = re.compile(
    r"^(?:(?:como|qual|quais|quanto|quantos|o que|que|what|which|how|who|is|are|does|do|"
    r"está|esta|estão|estao|é|e|são|sao|foi|anda|andam|the|an?|os?|as?|tell me about|"
    r"fale sobre|me fale sobre)\s+)+",
    re.IGNORECASE,
)


def rule_aspects(language: Language) -> tuple[str, ...]:
    """The aspects a question for a law's rules as a whole is planned by, in `language`
    (`LawWords.rule_aspects`): its time limits, its obligations, its transition rules."""
    return words_for(language).laws.rule_aspects


def topic_of(question: str) -> str:
    """The subject of a question: "Como está o mercado de X?" -> "mercado de X"."""
    topic = question.strip().rstrip("?!. ")
    stripped = _LEADING_FILLER.sub("", topic).strip()
    return stripped or topic
