"""Texts as the cases of one parametrised test: each text with the verdict it must get."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from _pytest.mark import ParameterSet


def text_cases(*groups: Mapping[str, str] | Sequence[str], verdict: object) -> list[ParameterSet]:
    """One case `(text, verdict)` a text of `groups`, named by its key in a mapping, or by the
    text itself in a sequence (as pytest names a string)."""
    cases = []
    for group in groups:
        named = group if isinstance(group, Mapping) else {text: text for text in group}
        cases += [pytest.param(text, verdict, id=name) for name, text in named.items()]
    return cases
