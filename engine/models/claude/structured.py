"""Claude's JSON answers: find the JSON in the text, validate it, say precisely what is wrong.

The error text goes back to Claude verbatim in the one repair request, so it names fields
and positions the way a JSON reader would. Pure code.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, TypeVar

from pydantic import BaseModel, StringConstraints, ValidationError

from engine.errors import ModelError

M = TypeVar("M", bound=BaseModel)
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
"""A text field of an answer: stripped, never empty."""

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
MAX_ERRORS_SHOWN = 6


class InvalidJson(ModelError, ValueError):
    """The answer is not the JSON asked for; the message says why."""


def json_in(text: str) -> object:
    """The JSON object of an answer that may wrap it in a code fence or a sentence."""
    fenced = _FENCE.search(text)
    candidate = fenced.group(1) if fenced else text
    start = candidate.find("{")
    if start < 0:
        raise InvalidJson("the answer contains no JSON object")
    try:
        value, _ = json.JSONDecoder().raw_decode(candidate[start:])
    except json.JSONDecodeError as error:
        raise InvalidJson(f"the JSON is malformed: {error}") from None
    return value


def describe_validation_error(error: ValidationError) -> str:
    problems = []
    for item in error.errors()[:MAX_ERRORS_SHOWN]:
        where = ".".join(str(part) for part in item["loc"]) or "(top level)"
        problems.append(f"{where}: {item['msg']}")
    more = len(error.errors()) - MAX_ERRORS_SHOWN
    if more > 0:
        problems.append(f"… and {more} more")
    return "; ".join(problems)


def validated(model: type[M], text: str) -> M:
    """The answer as `model`, or InvalidJson with every problem listed."""
    try:
        return model.model_validate(json_in(text))
    except ValidationError as error:
        raise InvalidJson(describe_validation_error(error)) from None
