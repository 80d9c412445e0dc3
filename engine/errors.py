"""Fonte's one family of errors: every exception the project defines is a `FonteError`.

Each error's message is one line, fit to print as it is. An entry point (`fonte ask`, `fonte
bot`, `fonte eval`) that lets one escape maps its branch to an exit code and that line
(`engine.cli.exits.exit_code_for`, `error_line`); `tests/test_architecture.py` checks that
every exception class of `engine/`, `bot/` and `evals/` is in this tree and that this tree
names them all.

    FonteError
    ├── BadInput (ValueError)          exit 2: input a user must fix
    │   ├── UnknownTemplate            engine.planning.templates
    │   ├── UnknownModel               engine.models.claude.prices
    │   ├── SourceUnavailable          bot.sources.factories
    │   └── CaseError                  evals.cases
    │       └── SuiteError             evals.suites
    ├── SourceError                    exit 2: a source that cannot be searched or read
    │   ├── SearchError                engine.sources.protocols
    │   │   └── SearchRefused          bot.sources.slack_search
    │   ├── FetchError                 engine.sources.protocols
    │   │   └── DocumentGone           engine.sources.protocols
    │   ├── AddressRefused             engine.sources.web.ssrf
    │   ├── ChildDied                  engine.sources.web.isolation
    │   ├── LibraryError               engine.sources.library.documents
    │   ├── UnreadableFile             engine.documents.parse
    │   ├── OverLimit                  engine.documents.limits
    │   ├── DamagedIndex               engine.sources.library.index.backend
    │   └── LibraryStoreError          engine.sources.library.index.postgres_connection
    ├── BudgetError                    exit 1: the run's budget refused a step
    │   └── StepRefused                engine.budget
    ├── ModelError                     exit 3: the model gave no usable answer
    │   ├── ClaudeFailure              engine.models.claude.errors
    │   │   ├── ClaudeRefused
    │   │   ├── ClaudeTruncated
    │   │   ├── ClaudeAPIError
    │   │   │   ├── ClaudeAccountStopped
    │   │   │   │   └── ClaudeSpendLimit
    │   │   │   └── ServerSearchDisabled
    │   │   ├── ClaudeUnavailable
    │   │   └── InvalidAnswer
    │   ├── InvalidJson (ValueError)   engine.models.claude.structured
    │   ├── StreamInterrupted          engine.models.claude.streaming
    │   ├── ScriptedFailure            engine.models.scripted
    │   ├── NotComparable              engine.writing.calculator
    │   └── InvalidClaim (ValueError)  engine.board
    └── DeliveryError                  exit 1: the bot could not carry a report through
        ├── JobLost                    bot.arq_executor
        ├── RepeatedCrashes            bot.recovery.attempts
        └── Coalesced                  bot.slack.api.tiers

A second base in parentheses stays because code catches the error by it: `except ValueError`
around template names, price tables and Pydantic validators (which turn only a ValueError
into a ValidationError).
"""

from __future__ import annotations

__all__ = [
    "BadInput",
    "BudgetError",
    "DeliveryError",
    "FonteError",
    "ModelError",
    "SourceError",
]


class FonteError(Exception):
    """The base of every error Fonte raises; the message is one line."""


class BadInput(FonteError, ValueError):
    """Input a user must fix (a question, a flag, a FONTE_* variable, a token); the message
    names what to fix. Every entry point prints it on stderr and exits 2."""


class SourceError(FonteError):
    """A source that could not be searched or read: a search provider, a page, the library
    folder or one of its files. Reaching an entry point, its line is printed and the exit
    code is 2, as for bad input: what fails there is a folder, a key or a provider the user
    configured."""


class BudgetError(FonteError):
    """The run's budget refused a step (steps, minutes or dollars spent). Exit code 1."""


class ModelError(FonteError):
    """The model gave no usable answer: Claude failed or refused, its JSON did not parse, a
    claim it posted breaks the schema. Exit code 3, as when the model cannot be reached."""


class DeliveryError(FonteError):
    """The bot could not carry a report through: a job vanished from Redis, the workers kept
    dying under it. Exit code 1."""
