"""What the bot says, in Portuguese and English: it answers in the language of the question.

The strings are the `slack` part of the engine's one table per language (`engine.words`);
this module is the bot's view of it."""

from __future__ import annotations

from engine.words import SlackWords, words_for

Texts = SlackWords
PT = words_for("pt").slack
EN = words_for("en").slack


def texts_for(language: str) -> Texts:
    return words_for(language).slack


def claims_count(t: Texts, count: int) -> str:
    """ "1 claim", "5 claims" (and "1 afirmação", "5 afirmações")."""
    return (t.claims_count_one if count == 1 else t.claims_count_many).format(count=count)
