"""Every user-facing string exists in both languages, and a conversation in one language
never shows a string of the other: a whole Portuguese conversation (and an English one)
runs through the Slack stand-in, and every text it received is searched for the other
language's phrases."""

from __future__ import annotations

import json
import re
import string
from dataclasses import fields
from typing import Any

import pytest

from bot.flows import handle_step
from bot.slack.blocks import help_message
from bot.slack.texts import EN, PT, Texts, claims_count
from bot.steps import Answer, Cancel, Rate, Say, Start
from engine.contracts import Language
from engine.text.language import detect_language
from tests.support.slack_runs import CHANNEL, USER, deepened, finished_report
from tests.support.slack_stub import SlackStub

QUESTIONS: dict[Language, str] = {
    "pt": "Quais são os limites de potência instalada da microgeração distribuída?",
    "en": "What are the installed power limits of distributed microgeneration in Brazil?",
}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def phrases(t: Texts, other: Texts) -> set[str]:
    """Words (of five letters or more) and literal phrases of `t` that `other` never says."""
    theirs = " ".join(str(getattr(other, f.name)) for f in fields(Texts))
    their_words = set(re.findall(r"\w+", theirs.casefold()))
    found = set()
    for f in fields(Texts):
        text = str(getattr(t, f.name))
        for chunk in re.split(r"\{[^}]*\}|[*_`:>()<@|]|\n", text):
            chunk = chunk.strip(" .,;…!?-—")
            if len(chunk) >= 8 and chunk not in theirs:
                found.add(chunk)
        for word in re.findall(r"[^\W\d_]{5,}", text):
            if word.casefold() not in their_words:
                found.add(word)
    return found


def leaks(said: str, other_phrases: set[str]) -> list[str]:
    words = set(re.findall(r"\w+", said))
    return sorted(p for p in other_phrases if (p in words if " " not in p else p in said))


def test_both_languages_say_everything_with_the_same_placeholders() -> None:
    for f in fields(Texts):
        pt, en = str(getattr(PT, f.name)), str(getattr(EN, f.name))
        assert pt.strip(), f.name
        assert en.strip(), f.name
        assert placeholders(pt) == placeholders(en), f.name
        assert pt != en, f"{f.name} says the same in both languages: one of them is untranslated"
    assert claims_count(PT, 1) == "1 afirmação"
    assert claims_count(EN, 1) == "1 claim"
    assert claims_count(EN, 5) == "5 claims"


def visible(node: Any) -> list[str]:
    """The `text` strings of blocks or a view, however nested: what a user reads."""
    if isinstance(node, str):
        try:
            node = json.loads(node)
        except ValueError:
            return []
    if isinstance(node, list):
        return [t for item in node for t in visible(item)]
    if not isinstance(node, dict):
        return []
    found = []
    for key, item in node.items():
        if key == "text" and isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict | list):
            found += visible(item)
    return found


def heard(slack: SlackStub) -> str:
    """Everything Slack received that a user could read, less code spans and link targets
    (a scope name, a URL), which are no language."""
    texts = []
    for call in slack.calls:
        texts.append(str(call.params.get("text", "")))
        texts += visible(call.params.get("blocks") or [])
        texts += visible(call.params.get("view") or {})
        texts.append(str(call.params.get("initial_comment", "")))
    said = " ".join(texts)
    said = re.sub(r"`[^`]*`", " ", said)
    said = re.sub(r"<[^>|]*\|", "<", said)
    return re.sub(r"\w+://\S+", " ", said)


@pytest.mark.parametrize("language", ["pt", "en"])
async def test_a_conversation_never_speaks_the_other_language(
    language: Language, make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    mine, other = (PT, EN) if language == "pt" else (EN, PT)
    slack.revoke("files:write")  # a failure notice too
    state = await finished_report(rt, "950.1", QUESTIONS[language])
    assert state.language == language
    await handle_step(rt, Start(report_id=state.report_id, user=USER, channel=CHANNEL))
    await handle_step(
        rt, Answer(report_id=state.report_id, user=USER, text="e agora?", mentioned=True)
    )
    await handle_step(
        rt, Rate(report_id=state.report_id, user=USER, version=1, rating="up", channel=CHANNEL)
    )
    await handle_step(rt, Cancel(report_id=state.report_id, user=USER, channel=CHANNEL))
    await handle_step(rt, Say(channel=CHANNEL, user=USER, what="empty_mention", language=language))
    await deepened(rt, state, "créditos de energia" if language == "pt" else "energy credits")
    said = heard(slack)
    sentences = [
        str(c.params.get("text", ""))
        for c in slack.calls
        if c.method in ("chat.postMessage", "chat.postEphemeral", "chat.update")
    ]
    wrong = [s for s in sentences if len(s.split()) >= 3 and detect_language(s) != language]
    assert wrong == [], f"said in the other language: {wrong}"
    assert mine.upload_failed.split("(")[0] in said  # the run did speak
    assert mine.feedback_thanks in said
    shown = leaks(said, phrases(other, mine))
    assert shown == [], f"{language} conversation showed {shown}"
    helped = " ".join(str(b) for b in help_message(language).blocks)
    other_help = " ".join(str(b) for b in help_message("en" if language == "pt" else "pt").blocks)
    assert helped != other_help
