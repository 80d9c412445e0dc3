"""Report templates: fixed sections that run in parallel without the orchestrator deciding
the split. Pure data plus the few string operations that fill them in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.contracts import Language
from engine.errors import BadInput
from engine.text.tokens import fold_accents


@dataclass(frozen=True)
class Aspect:
    """One fixed section: its heading in each language."""

    pt: str
    en: str

    def title(self, language: Language) -> str:
        return self.pt if language == "pt" else self.en


@dataclass(frozen=True)
class Template:
    id: str
    aliases: tuple[str, ...]
    aspects: tuple[Aspect, ...]
    description_pt: str
    description_en: str


TEMPLATES: tuple[Template, ...] = (
    Template(
        "mercado",
        ("market", "mercado"),
        (
            Aspect("Tamanho e crescimento do mercado", "Market size and growth"),
            Aspect("Principais empresas e concorrência", "Main players and competition"),
            Aspect("Regulação e marco legal", "Regulation and legal framework"),
            Aspect("Tendências e riscos", "Trends and risks"),
        ),
        "estudo de mercado: tamanho, players, regulação, tendências",
        "market study: size, players, regulation, trends",
    ),
    Template(
        "concorrentes",
        ("competitors", "concorrentes", "concorrencia", "players"),
        (
            Aspect("Principais empresas", "Main companies"),
            Aspect("Participação de mercado", "Market share"),
            Aspect("Preços e modelos de negócio", "Pricing and business models"),
            Aspect(
                "Movimentos recentes: fusões, aquisições e entradas",
                "Recent moves: M&A and entries",
            ),
        ),
        "mapa de concorrentes",
        "competitor map",
    ),
    Template(
        "regulacao",
        ("regulation", "regulacao", "regulatorio", "legal"),
        (
            Aspect("Leis e normas aplicáveis", "Applicable laws and rules"),
            Aspect("Órgãos reguladores e obrigações", "Regulators and obligations"),
            Aspect(
                "Limites, prazos e regras de transição",
                "Thresholds, deadlines and transition rules",
            ),
        ),
        "panorama regulatório",
        "regulatory overview",
    ),
    Template(
        "tendencias",
        ("trends", "tendencias", "riscos", "risks"),
        (
            Aspect("Tendências", "Trends"),
            Aspect("Riscos", "Risks"),
            Aspect("Projeções", "Projections"),
        ),
        "tendências e riscos",
        "trends and risks",
    ),
    Template(
        "tecnologia",
        ("technology", "tecnologia"),
        (
            Aspect("Estado da tecnologia", "State of the technology"),
            Aspect("Custos e desempenho", "Costs and performance"),
            Aspect("Adoção", "Adoption"),
        ),
        "panorama tecnológico",
        "technology overview",
    ),
    Template("livre", ("free", "livre"), (), "plano livre a partir da pergunta", "free plan"),
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
