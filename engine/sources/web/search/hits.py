"""From a provider's result entries to ranked SearchHits (pure: no I/O)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.sources.protocols import SearchError, SearchHit
from engine.text.normalise import collapse_whitespace

_TAG = re.compile(r"<[^>]*>")


@dataclass(frozen=True)
class RawResult:
    """One entry as a provider spelled it, before cleaning and ranking."""

    url: object
    title: object = ""
    snippet: object = ""


def plain_text(fragment: object) -> str:
    """Text of a title or snippet: providers mark matches with <strong> and escape entities."""
    if not isinstance(fragment, str):
        return ""
    return collapse_whitespace(html.unescape(_TAG.sub("", fragment)))


def ranked_hits(results: Iterable[RawResult], provider: str, limit: int) -> list[SearchHit]:
    """The first `limit` usable results in the provider's order, ranked from 1. Entries
    without an http(s) URL are skipped, as are repeats of a URL already listed."""
    hits: list[SearchHit] = []
    seen: set[str] = set()
    for result in results:
        if len(hits) >= limit:
            break
        url = result.url.strip() if isinstance(result.url, str) else ""
        if not url.startswith(("http://", "https://")) or url in seen:
            continue
        seen.add(url)
        title = plain_text(result.title) or url
        hits.append(SearchHit(url, title, plain_text(result.snippet), len(hits) + 1, provider))
    return hits


def entries_at(payload: object, *keys: str, optional: bool = False) -> list[Mapping[str, object]]:
    """The list of result objects at `payload[keys[0]][keys[1]]...`; a missing key is an
    empty list when `optional` (Brave omits `web` when nothing matched), else malformed."""
    node = payload
    for depth, key in enumerate(keys):
        if not isinstance(node, Mapping):
            where = ".".join(keys[:depth]) or "top level"
            raise SearchError(f"malformed response: {where} is not an object")
        if key not in node:
            if optional:
                return []
            raise SearchError(f"malformed response: no {'.'.join(keys[: depth + 1])}")
        node = node[key]
    if not isinstance(node, list):
        raise SearchError(f"malformed response: {'.'.join(keys)} is not a list")
    return [entry for entry in node if isinstance(entry, Mapping)]
