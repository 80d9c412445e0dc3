"""The two tables of words: each fills every field, no string is empty, and each string
takes the same placeholders in both languages (so either table formats the same call)."""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import get_args

import pytest

from engine.contracts import CalculationKind, ClaimStatus
from engine.planning import TEMPLATES
from engine.words import ENGLISH, PORTUGUESE, Words, words_for


def strings(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    """(where, string) for every string a table holds, however nested."""
    if isinstance(value, str):
        yield path, value
    elif is_dataclass(value) and not isinstance(value, type):
        for part in fields(value):
            yield from strings(getattr(value, part.name), f"{path}.{part.name}")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from strings(item, f"{path}[{key!r}]")
    elif isinstance(value, tuple):
        for number, item in enumerate(value):
            yield from strings(item, f"{path}[{number}]")
    else:
        raise AssertionError(f"{path} holds a {type(value).__name__}, not words")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_words_for_gives_the_table_of_the_language() -> None:
    assert words_for("pt") is PORTUGUESE
    assert words_for("en") is ENGLISH
    assert (PORTUGUESE.language, ENGLISH.language) == ("pt", "en")


@pytest.mark.parametrize("table", [PORTUGUESE, ENGLISH], ids=["pt", "en"])
def test_no_string_is_empty(table: Words) -> None:
    found = dict(strings(table))
    assert len(found) > 200  # the whole table, not one part of it
    assert [where for where, text in found.items() if not text.strip()] == []


def test_both_tables_fill_the_same_fields_and_keys() -> None:
    """Every field, every key of a mapping and every position of a tuple is in both."""
    assert dict(strings(PORTUGUESE)).keys() == dict(strings(ENGLISH)).keys()


def test_each_string_takes_the_same_placeholders_in_both_languages() -> None:
    english = dict(strings(ENGLISH))
    different = {
        where: (placeholders(text), placeholders(english[where]))
        for where, text in strings(PORTUGUESE)
        if placeholders(text) != placeholders(english[where])
    }
    assert different == {}


def test_the_placeholders_are_the_ones_callers_fill() -> None:
    for words in (PORTUGUESE, ENGLISH):
        assert placeholders(words.notes.unreadable_page) == {"url", "error"}
        assert placeholders(words.notes.judge_skipped) == {"model"}
        assert placeholders(words.report.file_not_made) == {"file", "error"}
        assert placeholders(words.library.skipped_files) == {"count", "reason", "names"}


def test_the_mappings_cover_what_they_name() -> None:
    kinds = set(get_args(CalculationKind))
    for words in (PORTUGUESE, ENGLISH):
        assert set(words.report.calculation_kinds) == kinds
        assert set(words.sheet.calculation_kinds) == kinds
        assert set(words.sheet.statuses) == {status.value for status in ClaimStatus}
        assert set(words.templates.sections) == {template.id for template in TEMPLATES}
        assert set(words.templates.descriptions) == {template.id for template in TEMPLATES}
        assert set(words.templates.examples) <= {template.id for template in TEMPLATES}
        assert set(words.notes.v1_roles) == {"analyst", "writer", "reviewer", "editor"}
        limits = {"steps", "seconds", "usd", "stopped", "subagent_steps"}
        assert set(words.notes.budget_limits) == limits


def test_the_english_library_reasons_are_the_library_s_own() -> None:
    """The library gives its skip reasons in English; the English table says them as given."""
    assert all(key == text for key, text in ENGLISH.library.skip_reasons.items())
    assert all(key == text for key, text in ENGLISH.library.skip_reason_prefixes.items())
    assert PORTUGUESE.library.skip_reasons["empty file"] == "arquivo vazio"


def test_the_languages_say_different_things() -> None:
    """A string the two tables share is one that reads the same in both ("URL", "cont.")."""
    english = dict(strings(ENGLISH))
    same = {where for where, text in strings(PORTUGUESE) if text == english[where]}
    assert ".report.sources" not in same
    assert ".notes.judge_skipped" not in same
    assert len(same) < len(english) // 10
