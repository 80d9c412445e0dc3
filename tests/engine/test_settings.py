import math

import pytest

from engine.settings import BadInput, env_flag, env_number, env_text, env_value, parse_number


def test_unset_or_blank_variables_keep_their_defaults() -> None:
    env = {"A": "  ", "B": ""}
    assert env_text(env, "A") is None
    assert env_flag(env, "B", default=True) is True
    assert env_number(env, "MISSING", 2.5) == 2.5
    assert env_value(env, "A", int, 7) == 7


@pytest.mark.parametrize(("raw", "expected"), [("on", True), ("No", False), (" 1 ", True)])
def test_flags_read_the_usual_words(raw: str, expected: bool) -> None:
    assert env_flag({"F": raw}, "F", default=not expected) is expected


@pytest.mark.parametrize("raw", ["nan", "inf", "-inf", "lots"])
def test_a_number_must_be_finite_and_the_error_names_the_variable(raw: str) -> None:
    with pytest.raises(BadInput) as error:
        env_number({"FONTE_X": raw}, "FONTE_X", 1.0)
    assert str(error.value).startswith(f"FONTE_X={raw!r}: expected a")
    assert "\n" not in str(error.value)


def test_a_number_below_its_minimum_is_refused() -> None:
    with pytest.raises(BadInput, match="must be at least 1"):
        env_number({"N": "0.5"}, "N", 2.0, minimum=1)
    assert parse_number("1_000", minimum=1) == 1000
    assert math.isclose(env_number({"N": "2.5"}, "N", 0.0), 2.5)


def test_a_bad_flag_says_which_words_work() -> None:
    with pytest.raises(BadInput, match="on/off"):
        env_flag({"FONTE_JUDGE": "maybe"}, "FONTE_JUDGE", default=True)
