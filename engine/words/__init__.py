"""Every user-facing string of the engine and the bot, in one table per language.

`words_for(language)` gives the table a report or a conversation speaks: `PORTUGUESE`
(`pt.py`) or `ENGLISH` (`en.py`), both of the shape `schema.py` draws (the renderers'
words, the notes and gaps written into a report, the templates' section titles, what the
bot says in Slack). A report is in one language throughout because everything it shows
comes from one table.

What is not here, on purpose:

- rules about language, not words shown: the markers that detect a language, number and
  scale words, stopwords and query vocabulary (`engine.text`);
- model prompts (`engine.models.claude.prompts`): a model reads them, not a user;
- terminal and log lines (the CLI's progress and error lines, `logging` messages): they are
  in English, for whoever runs Fonte, whatever the report's language;
- reasons a verifier gives a rejected claim, and the error text of an exception, which a
  note quotes as it was raised.

This package is layer 0: it imports nothing of the engine but `engine.text.language`
(`Language`, in the schema).
"""

from engine.words.en import ENGLISH
from engine.words.pt import PORTUGUESE
from engine.words.routine_schema import RoutineWords
from engine.words.schema import (
    ChangeWords,
    GapWords,
    LibraryWords,
    NoteWords,
    ReportWords,
    SearchWords,
    SheetWords,
    TemplateWords,
    Words,
    WriterWords,
)
from engine.words.slack_schema import SlackWords

__all__ = [
    "ENGLISH",
    "PORTUGUESE",
    "ChangeWords",
    "GapWords",
    "LibraryWords",
    "NoteWords",
    "ReportWords",
    "RoutineWords",
    "SearchWords",
    "SheetWords",
    "SlackWords",
    "TemplateWords",
    "Words",
    "WriterWords",
    "words_for",
]


def words_for(language: str) -> Words:
    """The table of `language` (a `Language`: "pt" or "en"); English for any other."""
    return PORTUGUESE if language == "pt" else ENGLISH
