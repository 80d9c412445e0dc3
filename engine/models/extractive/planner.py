"""The offline planner: fixed sections from a template, or a free plan from the question."""

from __future__ import annotations

import asyncio
import re

from engine.budget import Meter
from engine.contracts import Language, Plan, Subquestion
from engine.models.protocol import Brief
from engine.planning.gaps import criterion_for
from engine.planning.sweeps import named_document, parts_allowed, sweep_parts, sweep_subquestions
from engine.planning.templates import Template, find_template, rule_aspects, topic_of
from engine.text.comparisons import compared_sides, one_side, side_label
from engine.text.questions import (
    AUXILIARIES_EN,
    INTERROGATIVES_EN,
    INTERROGATIVES_PT,
    LONG_INTERROGATIVES_PT,
    asks_rules,
    words_alternation,
)
from engine.text.tokens import fold_accents

_INTERROGATIVE = words_alternation(INTERROGATIVES_EN, INTERROGATIVES_PT, LONG_INTERROGATIVES_PT)
# A second question joined to the first: "..., e até quando ...", "... and how ...".
_JOINED_QUESTION = re.compile(
    rf",?\s+(?:e|and)\s+(?={_INTERROGATIVE}\b)",
    re.IGNORECASE,
)
_MARKET_WORDS = re.compile(r"\b(mercado|market)\b", re.IGNORECASE)
_BROAD_OPENING = re.compile(
    r"^\s*(como est[aá]|como anda|qual o panorama|panorama|how is|what is the state|overview)",
    re.IGNORECASE,
)


# Sentences that tell how to answer, not what to find ("Answer in USD millions.", "Assume
# that you are an analyst.", "Responda em tópicos."): searching for them only adds noise.
_INSTRUCTION = re.compile(
    r"^(?:answer|give|please|round|approach|base|based on|basing|assume|use|using|utilize|"
    r"respond|provide|express|show|state|calculate|compute|considering|taking into account|"
    r"in agreement with|by drawing|we need to|if .{0,80}\bthen\b|responda|use|considere|"
    r"apresente|explique|calcule|com base)\b",
    re.IGNORECASE,
)
# Where a leading instruction gives way to the question: "…: what is", "…, what is".
_QUESTION_AFTER = re.compile(
    rf"[:,.]\s*(?={words_alternation(INTERROGATIVES_EN, AUXILIARIES_EN, INTERROGATIVES_PT)}\b)",
    re.IGNORECASE,
)
# A sentence ends at end punctuation followed by a word, whatever its case ("… sheet. what").
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Za-z])")
_STATEMENT = re.compile(
    r"\b(?:balance sheet|cash flow statement|statement of cash flows|income statement|"
    r"statement of income|p&l|statement of operations)\b",
    re.IGNORECASE,
)


def focus_of(question: str) -> str:
    """The question without its answering instructions; the question itself if that would
    leave nothing. An instruction that leads into the question ("Answer … using the balance
    sheet: what is …?", "Based on the income statement, what is …?") keeps the question that
    follows, and a statement it names stays as a hint of where to look."""
    kept: list[str] = []
    hints: list[str] = []
    for sentence in (s.strip() for s in _SENTENCE_END.split(question.strip()) if s.strip()):
        if not _INSTRUCTION.match(sentence):
            kept.append(sentence)
            continue
        hints += [m.group(0) for m in _STATEMENT.finditer(sentence)]
        lead_in = _QUESTION_AFTER.search(sentence)
        if lead_in and "?" in sentence[lead_in.end() :]:
            kept.append(sentence[lead_in.end() :].strip())
    if not kept:
        return question.strip()
    hint = f" ({', '.join(dict.fromkeys(h.lower() for h in hints))})" if hints else ""
    return " ".join(kept) + hint


_NUMBERED_ITEM = re.compile(r"(?:^|\s)\((\d{1,2})\)\s+")


def _numbered_items(question: str) -> list[str]:
    """ "(1) … (2) …": a brief that lists its questions; [] when it lists fewer than two."""
    pieces = _NUMBERED_ITEM.split(question)
    items = [pieces[i + 1].strip() for i in range(1, len(pieces) - 1, 2)]
    return items if len(items) >= 2 else []


def _question_parts(question: str, language: Language) -> list[str]:
    items = _numbered_items(question)
    if items:
        return [focus_of(item) for item in items]
    question = focus_of(question)
    parts = [p.strip(" ,;") for p in _JOINED_QUESTION.split(question.strip())]
    parts = [p for p in parts if len(p.split()) >= 3]
    if len(parts) <= 1:
        return _sides(question.strip(), language)
    # Later parts lean on the first for their subject ("até quando vale o direito?").
    subject = topic_of(parts[0])
    return [parts[0], *(f"{p.rstrip('?')} ({subject})?" for p in parts[1:])]


def _sides(question: str, language: Language) -> list[str]:
    """A question comparing periods or entities asked once per side ("… in fiscal 2019",
    "… in fiscal 2023"), so that each side is answered or declared a gap; else itself."""
    sides = compared_sides(question)
    if len(sides) < 2:
        return [question]
    return list(dict.fromkeys(one_side(question, side, sides, language) for side in sides))


def _template_subquestions(
    template: Template, question: str, language: Language
) -> list[Subquestion]:
    topic = topic_of(question)
    return [
        Subquestion(
            id=f"s{i}", title=aspect.title(language), text=f"{aspect.title(language)}: {topic}"
        )
        for i, aspect in enumerate(template.aspects, start=1)
    ]


def _chosen_template(brief: Brief) -> Template | None:
    if brief.template:
        template = find_template(brief.template)
        return template if template.aspects else None
    # A broad question about a market is a market study: use its fixed sections.
    if _MARKET_WORDS.search(brief.question) and _BROAD_OPENING.search(brief.question):
        return find_template("mercado")
    return None


def _rule_aspects(question: str, language: Language, after: int) -> list[Subquestion]:
    """A question for a law's rules as a whole is answered by more than the definitions
    that name its subject: its time limits, its obligations and its transition rules
    (`LawWords.rule_aspects`), each a section of its own whose criterion a verified
    provision meets, or a declared gap."""
    topic = topic_of(question)
    return [
        Subquestion(id=f"s{after + i}", title=aspect, text=f"{aspect}: {topic}")
        for i, aspect in enumerate(rule_aspects(language), start=1)
    ]


DEEP_STEPS = 20
"""Steps of a subagent in a plan of few parts: a first round (a search and up to 8 reads) and
up to three rounds of hops (a search and a read for each of two names; see `hops`): a
question of four pages reaches its fourth."""
DEEP_PLAN_PARTS = 3


def extractive_plan(brief: Brief) -> Plan:
    template = _chosen_template(brief)
    if template is not None:
        subquestions = _template_subquestions(template, brief.question, brief.language)
    else:
        parts = _question_parts(brief.question, brief.language)
        # One part is the question itself: its section needs no heading repeating it. The
        # side of a comparison is headed by the side ("Fiscal 2019"), not the question again.
        answer = "Resposta" if brief.language == "pt" else "Answer"
        sides = compared_sides(brief.question)
        titles = [side_label(brief.question, side) for side in sides]
        if len(parts) != len(titles) or len(parts) < 2:
            titles = [part.rstrip("?") if len(parts) > 1 else answer for part in parts]
        subquestions = [
            Subquestion(id=f"s{i}", title=title, text=part)
            for i, (part, title) in enumerate(zip(parts, titles, strict=True), start=1)
        ]
        if len(subquestions) <= DEEP_PLAN_PARTS:  # few parts: each may take its second hop
            subquestions = [s.model_copy(update={"steps": DEEP_STEPS}) for s in subquestions]
        if len(parts) == 1 and not sides and asks_rules(brief.question):
            subquestions += _rule_aspects(brief.question, brief.language, len(subquestions))
    context = " ".join(brief.answers).strip()
    if context:
        subquestions = [
            s.model_copy(update={"text": f"{s.text} ({context})"}) for s in subquestions
        ]
    return Plan(
        question=brief.question,
        template=template.id
        if template is not None
        else (fold_accents(brief.template or "") or None),
        sufficient_when=[criterion_for(s, brief.language) for s in subquestions],
        subquestions=subquestions,
    )


async def sweep_plan(brief: Brief, meter: Meter) -> Plan | None:
    """The plan of a question about one long document the brief names: its parts (chapters
    from its outline, else even ranges), as many as the budget's steps run at once, each
    asking the question of its pages; one criterion, met by a claim from any part. None when
    the brief names no such document, or asks for a template's sections."""
    document = named_document(" ".join((brief.question, *brief.answers)), brief.documents)
    if document is None or document.page_count is None or brief.template:
        return None
    spend = await meter.budget.spend()
    most = parts_allowed(meter.budget.limits.steps - spend.steps)
    from engine.documents.outline import pdf_chapters  # pdfium, for a sweep of a PDF only

    chapters = await asyncio.to_thread(pdf_chapters, document.path)
    question = focus_of(brief.question)
    parts = sweep_parts(document.page_count, chapters, most)
    return Plan(
        question=brief.question,
        sufficient_when=[criterion_for(Subquestion(id="s", text=question), brief.language)],
        subquestions=sweep_subquestions(question, document, parts, brief.language),
    )
