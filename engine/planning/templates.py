"""Report templates: fixed sections that run in parallel without the orchestrator deciding
the split. Pure data (their words are in `engine.words`) plus the few string operations
that fill them in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.contracts import Language
from engine.errors import BadInput
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
    """A template's id and the names users call it by; its sections and description are in
    each language's table."""

    id: str
    aliases: tuple[str, ...]

    @property
    def aspects(self) -> tuple[Aspect, ...]:
        count = len(ENGLISH.templates.sections[self.id])
        return tuple(Aspect(self.id, number) for number in range(count))

    def description(self, language: Language) -> str:
        return words_for(language).templates.descriptions[self.id]


TEMPLATES: tuple[Template, ...] = (
    Template("mercado", ("market", "mercado")),
    Template("concorrentes", ("competitors", "concorrentes", "concorrencia", "players")),
    Template("regulacao", ("regulation", "regulacao", "regulatorio", "legal")),
    Template("tendencias", ("trends", "tendencias", "riscos", "risks")),
    Template("tecnologia", ("technology", "tecnologia")),
    Template("livre", ("free", "livre")),
)


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


def topic_of(question: str) -> str:
    """The subject of a question: "Como está o mercado de X?" -> "mercado de X"."""
    topic = question.strip().rstrip("?!. ")
    stripped = _LEADING_FILLER.sub("", topic).strip()
    return stripped or topic
