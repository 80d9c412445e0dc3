"""Block Kit for the conversation: clarifying questions, the plan, the edit modal, live
progress, help, and the deepen buttons of a report's gaps. Pure functions: data in,
JSON-ready dicts out."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.slack import blockkit as kit
from bot.slack.blockkit import (
    DEFAULT_TEXT_BUDGET,
    MAX_BLOCKS,
    MAX_MODAL_TITLE,
    Block,
    Message,
    actions,
    button,
    context,
    escape,
    header,
    plain,
    section,
    sections,
    text_size,
    value,
)
from bot.slack.progress_state import SlackProgress
from bot.slack.texts import Texts, claims_count, texts_for
from engine import ClarifyingQuestion, Language, Limits, Plan, ProgressState, Report, Spend
from engine.planning import TEMPLATES, cut_by_budget, cut_by_user, gap_question
from engine.text import clip
from engine.words import words_for

ANSWER = "fonte_answer"
START = "fonte_start"
EDIT = "fonte_edit"
CANCEL = "fonte_cancel"
EXCERPT = "fonte_excerpt"
DEEPEN = "fonte_deepen"
FEEDBACK = "fonte_feedback"
EDIT_VIEW = "fonte_edit_plan"
EXCERPT_VIEW = "fonte_excerpt_view"
RUN_AS_MINE = "fonte_run_as_mine"
EXPORT = "fonte_export"
"""A report's "files" button: its files uploaded again (value: r, v)."""
CITATIONS = "fonte_citations"
"""A report's select of citations: the chosen one's excerpt modal (option value: r, v, c, n)."""
FEEDBACK_BUTTONS = "fonte_rating"
"""The action_id of a report's native feedback_buttons element (value "up" or "down")."""
WATCH = "fonte_watch"
"""A report's Watch button (value: r, v) and the frequency buttons it answers with (r, f)."""
ROUTINE = "fonte_routine"
"""A routine's buttons in `/research routines` (value: i, the routine; a, the action)."""


@dataclass(frozen=True)
class Estimate:
    minutes: float
    usd: float


def money(usd: float) -> str:
    return f"{usd:.2f}" if usd >= 0.1 or usd == 0 else f"{usd:.4f}"


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f}".rstrip("0").rstrip(".")


def spend_text(t: Texts, spend: Spend, limits: Limits) -> str:
    """ "Spent: US$ 0.12 of US$ 2.00 · 1.5 of 10 min · 9 of 60 steps", in the user's language."""
    return t.spend_line.format(
        usd=money(spend.usd),
        usd_cap=money(limits.usd),
        minutes=minutes(spend.seconds),
        minutes_cap=minutes(limits.seconds),
        steps=spend.steps,
        steps_cap=limits.steps,
    )


def clarifying_questions(
    report_id: str, questions: Sequence[ClarifyingQuestion], language: Language
) -> Message:
    t = texts_for(language)
    blocks: list[Block] = [section(f"*{t.clarify_intro}*")]
    for number, question in enumerate(questions):
        blocks.append(section(f"*{number + 1}.* {escape(question.question)}"))
        options = [
            button(option, f"{ANSWER}_{number}_{index}", value(r=report_id, q=number, o=index))
            for index, option in enumerate(question.options)
        ]
        blocks += actions(options)
    blocks.append(context(t.clarify_hint))
    fallback = " ".join(f"{n + 1}. {q.question}" for n, q in enumerate(questions))
    return Message(f"{t.clarify_intro} {fallback}", blocks)


def answered_questions(
    questions: Sequence[ClarifyingQuestion], answers: Sequence[str], language: Language
) -> Message:
    """The questions message once answered: buttons replaced by the answers given."""
    t = texts_for(language)
    lines = [
        f"*{n + 1}.* {escape(q.question)}\n{t.answered}: _{escape(a)}_"
        for n, (q, a) in enumerate(zip(questions, answers, strict=False))
    ]
    return Message(t.clarify_intro, sections(f"*{t.clarify_intro}*", lines))


def plan_message(
    report_id: str,
    plan: Plan,
    limits: Limits,
    estimate: Estimate,
    language: Language,
    *,
    footer: str | None = None,
) -> Message:
    """The plan with Start / Edit / Cancel; with a `footer` (started, cancelled) instead of
    the buttons once the user has chosen."""
    t = texts_for(language)
    subquestions = [f"{n}. {escape(s.text)}" for n, s in enumerate(plan.subquestions, start=1)]
    criteria = [f"• {escape(c)}" for c in plan.sufficient_when]
    blocks: list[Block] = [header(t.plan_title), section(f"_{escape(plan.question)}_")]
    blocks += sections(f"*{t.subquestions}*", subquestions)
    if criteria:
        blocks += sections(f"*{t.sufficient_when}*", criteria)
    caps = t.caps_line.format(
        steps=limits.steps, minutes=minutes(limits.seconds), usd=money(limits.usd)
    )
    guess = t.estimate_line.format(minutes=f"{estimate.minutes:.1f}", usd=money(estimate.usd))
    blocks.append(
        {
            "type": "section",
            "fields": [
                {"type": "mrkdwn", "text": f"*{t.caps}*\n{caps}"},
                {"type": "mrkdwn", "text": f"*{t.estimate}*\n{guess}"},
            ],
        }
    )
    if footer is None:
        blocks += actions(
            [
                button(t.start, START, value(r=report_id), style="primary"),
                button(t.edit, EDIT, value(r=report_id)),
                button(t.cancel, CANCEL, value(r=report_id), style="danger"),
            ],
            block_id="plan",
        )
    else:
        blocks.append(context(footer))
    return Message(f"{t.plan_title}: {plan.question}", blocks)


def steer_refusal(report_id: str, language: Language) -> Message:
    """The one line someone other than the requester sees on Start / Edit / Cancel, with a
    button that runs the same brief as their own."""
    t = texts_for(language)
    return Message(
        t.not_your_plan,
        [
            section(t.not_your_plan, button(t.run_as_mine, RUN_AS_MINE, value(r=report_id))),
        ],
    )


def edit_plan_view(report_id: str, plan: Plan, limits: Limits, language: Language) -> Block:
    t = texts_for(language)

    def number_input(block_id: str, label: str, initial: str, decimal: bool) -> Block:
        return {
            "type": "input",
            "block_id": block_id,
            "label": plain(label),
            "element": {
                "type": "number_input",
                "action_id": block_id,
                "is_decimal_allowed": decimal,
                "initial_value": initial,
                "min_value": "0",
            },
        }

    lines = "\n".join(s.text for s in plan.subquestions)
    return {
        "type": "modal",
        "callback_id": EDIT_VIEW,
        "private_metadata": report_id,
        "title": plain(t.edit_title, MAX_MODAL_TITLE),
        "submit": plain(t.save, MAX_MODAL_TITLE),
        "close": plain(t.cancel, MAX_MODAL_TITLE),
        "blocks": [
            {
                "type": "input",
                "block_id": "subquestions",
                "label": plain(t.edit_subquestions),
                "element": {
                    "type": "plain_text_input",
                    "action_id": "subquestions",
                    "multiline": True,
                    "initial_value": lines[:3000],
                    "max_length": 3000,
                },
            },
            number_input("steps", t.edit_steps, str(limits.steps), False),
            number_input("minutes", t.edit_minutes, minutes(limits.seconds), True),
            number_input("usd", t.edit_usd, f"{limits.usd:g}", True),
        ],
    }


def read_edit_plan(
    view: Mapping[str, Any], language: Language
) -> tuple[list[str], Limits] | dict[str, str]:
    """The subquestions and caps of a submitted edit modal, or {block_id: error} to show."""
    t = texts_for(language)
    values = view.get("state", {}).get("values", {})

    def field(name: str) -> str:
        return str(values.get(name, {}).get(name, {}).get("value") or "").strip()

    subquestions = [line.strip(" -•\t") for line in field("subquestions").splitlines()]
    subquestions = [line for line in subquestions if line]
    errors: dict[str, str] = {}
    if not subquestions:
        errors["subquestions"] = t.edit_subquestions
    numbers: dict[str, float] = {}
    for name in ("steps", "minutes", "usd"):
        try:
            numbers[name] = float(field(name))
        except ValueError:
            errors[name] = t.edit_invalid
            continue
        if numbers[name] < 0 or (name != "usd" and numbers[name] <= 0):
            errors[name] = t.edit_invalid
    if errors:
        return errors
    limits = Limits(
        steps=max(1, int(numbers["steps"])), seconds=numbers["minutes"] * 60, usd=numbers["usd"]
    )
    return subquestions, limits


def subagent_status(t: Texts, state: ProgressState, name: str) -> str:
    """ "pesquisando", "concluído, 3 afirmações": in the user's language, whatever the engine
    wrote."""
    run = state.runs.get(name) if isinstance(state, SlackProgress) else None
    if run is None:
        return t.subagent_running
    kind, claims = run
    if kind == "running":
        return t.subagent_running
    word = {"done": t.subagent_done, "stopped": t.subagent_stopped, "failed": t.subagent_failed}
    return f"{word[kind]}, {claims_count(t, claims)}"


def progress_message(
    state: ProgressState, limits: Limits, language: Language, *, finished: bool = False
) -> Message:
    t = texts_for(language)
    title = t.research_done if finished else t.researching
    spend: Spend = state.spend
    lines = [
        t.claims_line.format(verified=state.verified, rejected=state.rejected),
        spend_text(t, spend, limits),
    ]
    blocks: list[Block] = [section(f"*{title}*\n" + "\n".join(lines))]
    if state.subagents:
        agents = [
            f"• `{escape(name)}` {escape(subagent_status(t, state, name))}"
            + (f" — {escape(state.subquestions[name])}" if name in state.subquestions else "")
            for name in state.subagents
        ]
        blocks += sections(f"*{t.subagents}*", agents)
    if state.gaps:
        blocks += sections(f"*{t.open_gaps}*", [f"• {escape(g)}" for g in state.gaps])
    blocks = blocks[:MAX_BLOCKS]
    while len(blocks) > 1 and text_size(blocks) > DEFAULT_TEXT_BUDGET:
        blocks.pop()  # the head says it all; long lists lose their tail, not the edit
    return Message(f"{title} {lines[0]}", blocks)


def help_message(language: Language) -> Message:
    t: Texts = texts_for(language)
    lines = [f"• `{tpl.id}` — {tpl.description(language)}" for tpl in TEMPLATES]
    routines = words_for(language).routines.help
    blocks = [section(t.help_intro), *sections(t.help_templates, lines), section(routines)]
    return Message(t.plan_title, blocks)


# -- gaps: a deepen button each, and the gap words a button or a reply reads back ----------

GAP_VALUE_CHARS = 1500


GAP_LABEL_CHARS = 32
_STOPWORDS = frozenset(
    """
    a o as os um uma de do da dos das em no na nos nas por para com que qual quais quanto
    quantos como quando onde é são e ou se ao à the of and or to in on at by for with from is
    are was were what which who how when where does do did a an its their
    """.split()
)
_WORD = re.compile(r"[^\W_]+(?:[-./][^\W_]+)*")


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def gap_topic(gap: str, others: list[str]) -> str:
    """A few words that tell this gap from the others: the words of its question that are
    neither common words nor in most of the gaps ("ANVISA" out of "Quais são as competências
    da ANVISA?" next to the same question about ANEEL)."""
    question = gap_question(bot_gap_text(gap))
    shared: set[str] = set()
    if len(others) > 1:  # words in most gaps say nothing about this one
        sets = [{w.casefold() for w in _words(gap_question(bot_gap_text(o)))} for o in others]
        counts: dict[str, int] = {}
        for words_of_gap in sets:
            for word in words_of_gap:
                counts[word] = counts.get(word, 0) + 1
        most = max(2, len(sets) // 2 + 1) if len(sets) > 2 else len(sets)
        shared = {word for word, n in counts.items() if n >= most}
    words = _words(question)
    kept = [w for w in words if w.casefold() not in _STOPWORDS and w.casefold() not in shared]
    topic = ""
    for word in kept or words:
        candidate = f"{topic} {word}".strip()
        if len(candidate) > GAP_LABEL_CHARS:
            break
        topic = candidate
    return topic or clip(question, GAP_LABEL_CHARS)


def gap_buttons(report_id: str, gaps: list[str], label: str) -> list[Block]:
    """One button per gap: "Aprofundar 3: ANVISA", numbered as the list above them, with the
    whole gap in its value."""
    return actions(
        [
            button(
                clip(f"{label} {n}: {gap_topic(gap, gaps)}", kit.MAX_BUTTON_TEXT),
                f"{DEEPEN}_{n}",
                value(r=report_id, gap=gap[:GAP_VALUE_CHARS]),
            )
            for n, gap in enumerate(gaps, start=1)
        ],
        block_id="gaps",
    )


def cancelled_report(report: Report) -> Report:
    """A cancelled run's report: its gaps say the user, not the budget, cut them short."""
    return report.model_copy(update={"gaps": [cut_by_user(gap) for gap in report.gaps]})


def bot_gap_text(gap: str) -> str:
    """A gap as the engine words it (so `gap_question` reads it), whoever cut it short."""
    return cut_by_budget(gap)
