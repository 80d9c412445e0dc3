"""Providers tried in order: the first that answers wins, and the report says who failed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.sources.kinds import WEB
from engine.sources.library.files import Note
from engine.sources.protocols import Search, SearchError, SearchHit
from engine.sources.web.search.json_api import clipped_reason
from engine.words import ENGLISH, PORTUGUESE, Words

_TABLES = (ENGLISH, PORTUGUESE)  # a Note is its English text, with its Portuguese beside

NoteSink = Callable[[str], None]


class FallbackSearch:
    """Tries `providers` in order for every query. A provider that raises is skipped for that
    query and the next one is asked; `notes` keeps one line per distinct fallback, e.g.
    "searxng failed: HTTP 503 (server error); used ddgs", for the report's notes."""

    kind = WEB  # every provider of the chain searches the web

    def __init__(self, providers: Sequence[Search], *, on_note: NoteSink | None = None) -> None:
        self.providers = tuple(providers)
        self.name = ",".join(p.name for p in self.providers) or "none"
        self.notes: list[str] = []
        self._on_note = on_note

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        if not self.providers:
            raise SearchError("no search provider configured")
        failures: list[tuple[str, str]] = []
        for provider in self.providers:
            try:
                hits = await provider.search(query, limit)
            except Exception as error:  # a broken provider is one more reason to fall back
                failures.append((provider.name, failure_reason(error)))
                continue
            if failures:
                self._note(fallback_note(failures, provider.name))
            return hits
        reasons = "; ".join(f"{name}: {reason}" for name, reason in failures)
        note = Note(*(words.search.all_failed.format(reasons=reasons) for words in _TABLES))
        self._note(note)
        raise SearchError(str(note))

    def _note(self, message: str) -> None:
        if message in self.notes:
            return
        self.notes.append(message)
        if self._on_note is not None:
            self._on_note(message)


def failure_reason(error: Exception) -> str:
    if isinstance(error, SearchError):
        return clipped_reason(str(error)) or "failed"
    return clipped_reason(f"{type(error).__name__}: {error}")


def fallback_note(failures: Sequence[tuple[str, str]], used: str) -> Note:
    """`[("searxng", "HTTP 503 (server error)")], "ddgs"` ->
    "searxng failed: HTTP 503 (server error); used ddgs" (a `Note`: in Portuguese too, for a
    Portuguese report)."""
    english, portuguese = (_fallback_text(words, failures, used) for words in _TABLES)
    return Note(english, portuguese)


def _fallback_text(words: Words, failures: Sequence[tuple[str, str]], used: str) -> str:
    search = words.search
    lines = [search.provider_failed.format(provider=name, reason=why) for name, why in failures]
    return search.fell_back.format(failures="; ".join(lines), provider=used)
