import pytest
from pydantic import BaseModel

from engine.models.claude.structured import InvalidJson, json_in, validated


class Answer(BaseModel):
    title: str
    count: int


@pytest.mark.parametrize(
    "text",
    [
        '{"title": "x", "count": 1}',
        'Here it is:\n```json\n{"title": "x", "count": 1}\n```',
        'Sure. {"title": "x", "count": 1} Anything else?',
    ],
)
def test_json_is_found_where_claude_puts_it(text: str) -> None:
    assert json_in(text) == {"title": "x", "count": 1}


def test_errors_name_the_field() -> None:
    with pytest.raises(InvalidJson, match="count: Input should be a valid integer"):
        validated(Answer, '{"title": "x", "count": "many"}')
    with pytest.raises(InvalidJson, match="no JSON object"):
        validated(Answer, "I cannot help with that.")
    with pytest.raises(InvalidJson, match="malformed"):
        validated(Answer, '{"title": "x", "count": 1')
